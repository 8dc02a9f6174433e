//go:build unix

package cmd_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestHookDeadline: the whole hook decision, reading stdin included, runs
// under a deadline; an agent whose stdin never ends (or a decision that
// never returns) gets a block (exit 2) before its own hook timeout would
// let the call through.
func TestHookDeadline(t *testing.T) {
	proj := isolate(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"claude", "codex", "gemini"} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString(`{"session_id":"s","hook_event_name":"PreToolUse","cwd":"` + proj + `",`) // and never more
		c := &exec.Cmd{Path: exe, Args: []string{"gatekeep", "hook", agent}, Dir: proj, Stdin: r}
		c.Env = append(os.Environ(), "GATEKEEP_HOOK_DEADLINE=500ms")
		var stderr strings.Builder
		c.Stderr = &stderr
		start := time.Now()
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		done := make(chan error, 1)
		go func() { done <- c.Wait() }()
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			c.Process.Kill()
			t.Fatalf("%s: the hook did not stop at its deadline", agent)
		}
		w.Close()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%s: %v, want exit 2", agent, err)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: took %v", agent, took)
		}
		if !strings.Contains(stderr.String(), "took longer than 500ms, so the call is blocked") {
			t.Errorf("%s: stderr %q", agent, stderr.String())
		}
	}
}
