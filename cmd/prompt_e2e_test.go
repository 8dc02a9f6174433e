//go:build linux || darwin

package cmd_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatekeep/gatekeep/prompt/ptytest"
	"golang.org/x/term"
)

// ptyRun is one gatekeep process whose controlling terminal is a fresh
// pseudo-terminal (package ptytest), while its stdin, stdout and stderr are
// pipes: the way an agent runs it with a person at the terminal.
type ptyRun struct {
	t   *testing.T
	cmd *exec.Cmd
	*ptytest.Screen
	stdout, stderr bytes.Buffer
	// before is the terminal's state before the child started.
	before *term.State
	done   chan error
}

// startPTY starts `gatekeep args...` in dir with stdin as input.
func startPTY(t *testing.T, dir, input string, args ...string) *ptyRun {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{t: t, Screen: ptytest.Open(t), done: make(chan error, 1)}
	r.before = r.State()
	r.cmd = &exec.Cmd{Path: exe, Args: append([]string{"gatekeep"}, args...), Dir: dir}
	r.cmd.Env = append(os.Environ(), "GATEKEEP_NONINTERACTIVE=", "TERM=xterm")
	r.cmd.Stdin = strings.NewReader(input)
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	r.Attach(r.cmd)
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	t.Cleanup(func() { r.cmd.Process.Kill() })
	return r
}

// answerLine is what the prompt prints once it has flushed type-ahead and
// is ready for a key; a key sent before it shows may be discarded.
const answerLine = "answer: "

// exit waits for the process and returns its exit status.
func (r *ptyRun) exit() int {
	r.t.Helper()
	select {
	case err := <-r.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			r.t.Fatal(err)
		}
		return 0
	case <-time.After(20 * time.Second):
		r.t.Fatalf("gatekeep did not exit; terminal:\n%s", r.String())
		return -1
	}
}

func promptProject(t *testing.T) string {
	t.Helper()
	proj := isolate(t)
	t.Setenv("GATEKEEP_NONINTERACTIVE", "")
	return proj
}

func TestPromptAllowOnce(t *testing.T) {
	proj := promptProject(t)
	r := startPTY(t, proj, "", "bash", "-c", "touch made")
	r.Expect("touch made")
	r.Expect(answerLine)
	r.Send("y")
	if code := r.exit(); code != 0 {
		t.Fatalf("exit %d, want 0; stderr %s", code, r.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(proj, "made")); err != nil {
		t.Errorf("y should run the command: %v", err)
	}
}

func TestPromptDeny(t *testing.T) {
	proj := promptProject(t)
	r := startPTY(t, proj, "", "bash", "-c", "touch made")
	r.Expect(answerLine)
	r.Send("n")
	if code := r.exit(); code != 77 {
		t.Fatalf("exit %d, want 77", code)
	}
	if !strings.Contains(r.stderr.String(), `"code":"ask.denied_by_user"`) {
		t.Errorf("stderr %s should carry ask.denied_by_user", r.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(proj, "made")); err == nil {
		t.Error("n must run nothing")
	}
}

func TestPromptAlwaysSavesRule(t *testing.T) {
	proj := promptProject(t)
	r := startPTY(t, proj, "", "bash", "-c", "git init -q sub && echo ok")
	r.Expect("Bash(git init *)")
	r.Expect(answerLine)
	r.Send("a")
	if code := r.exit(); code != 0 {
		t.Fatalf("exit %d, want 0; stderr %s", code, r.stderr.String())
	}
	saved, err := os.ReadFile(filepath.Join(proj, ".gatekeep", "config.local.toml"))
	if err != nil || !strings.Contains(string(saved), `allow = ["Bash(git init *)", "Write(`) {
		t.Fatalf("the shown rule should be saved: %q, %v", saved, err)
	}
	// The same call now runs with no prompt.
	again := startPTY(t, proj, "", "bash", "-c", "git init -q sub && echo ok")
	if code := again.exit(); code != 0 {
		t.Fatalf("second run: exit %d; stderr %s", code, again.stderr.String())
	}
	if strings.Contains(again.String(), "allow once") {
		t.Errorf("the second identical call should not prompt:\n%s", again.String())
	}
}

// TestPromptAlwaysKeepsWorking: "always" appends to a local file gatekeep
// wrote before and the rules apply at once, with no trust step; into a
// local file that came with the project (not trusted) it is not offered,
// since the rule would not apply.
func TestPromptAlwaysKeepsWorking(t *testing.T) {
	proj := promptProject(t)
	for i, command := range []string{"touch made1", "touch made2"} {
		r := startPTY(t, proj, "", "bash", "-c", command)
		r.Expect(answerLine)
		r.Send("a")
		if code := r.exit(); code != 0 {
			t.Fatalf("%d: exit %d, want 0; stderr %s", i, code, r.stderr.String())
		}
		again := startPTY(t, proj, "", "bash", "-c", command)
		if code := again.exit(); code != 0 || strings.Contains(again.String(), "allow once") {
			t.Fatalf("%d: the second identical call asked or failed (exit %d):\n%s", i, code, again.String())
		}
	}

	foreign := promptProject(t)
	local := filepath.Join(foreign, ".gatekeep", "config.local.toml")
	os.MkdirAll(filepath.Dir(local), 0o755)
	if err := os.WriteFile(local, []byte("[[rule]]\nallow = \"Bash(make *)\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := startPTY(t, foreign, "", "bash", "-c", "touch made")
	r.Expect("not trusted")
	r.Expect(answerLine)
	r.Send("n")
	if code := r.exit(); code != 77 {
		t.Fatalf("exit %d, want 77", code)
	}
}

func TestPromptAlwaysNotOfferedForProtectedPath(t *testing.T) {
	proj := promptProject(t)
	r := startPTY(t, proj, "", "bash", "-c", "echo x > .git/hooks-note; echo y > .git/config")
	r.Expect("always allow not offered")
	r.Expect(answerLine)
	r.Send("a") // not accepted: re-asks
	r.Expect("press y or n")
	r.Send("n")
	if code := r.exit(); code != 77 {
		t.Fatalf("exit %d, want 77", code)
	}
	if _, err := os.Stat(filepath.Join(proj, ".gatekeep", "config.local.toml")); err == nil {
		t.Error("no rule may be saved for a protected path")
	}
}

func TestPromptCtrlCRestoresTerminal(t *testing.T) {
	proj := promptProject(t)
	r := startPTY(t, proj, "", "bash", "-c", "touch made")
	r.Expect(answerLine)
	r.Send("\x03")
	if code := r.exit(); code != 77 {
		t.Fatalf("exit %d, want 77", code)
	}
	// README's code table: Ctrl-C while asking is ask.interrupted.
	if !strings.Contains(r.stderr.String(), `"code":"ask.interrupted"`) {
		t.Errorf("Ctrl-C: the deny line is %q, want code ask.interrupted", r.stderr.String())
	}
	after := r.State()
	if *r.before != *after {
		t.Error("Ctrl-C left the terminal in another state")
	}
	if _, err := os.Stat(filepath.Join(proj, "made")); err == nil {
		t.Error("Ctrl-C must run nothing")
	}
}

func TestPromptEOFDenies(t *testing.T) {
	proj := promptProject(t)
	r := startPTY(t, proj, "", "bash", "-c", "touch made")
	r.Expect(answerLine)
	r.Send("\x04")
	if code := r.exit(); code != 77 {
		t.Fatalf("exit %d, want 77", code)
	}
}

func TestPromptTimeoutDenies(t *testing.T) {
	proj := promptProject(t)
	r := startPTY(t, proj, "", "--prompt-timeout", "300ms", "bash", "-c", "touch made")
	if code := r.exit(); code != 77 {
		t.Fatalf("exit %d, want 77", code)
	}
	if !strings.Contains(r.stderr.String(), `"code":"ask.timeout"`) {
		t.Errorf("stderr %s should carry ask.timeout", r.stderr.String())
	}
}

// TestPromptLeavesPipesAlone: the agent owns stdin and stdout; the question
// goes to the terminal and the command's own streams carry only its data.
func TestPromptLeavesPipesAlone(t *testing.T) {
	proj := promptProject(t)
	r := startPTY(t, proj, "hello from the agent\n", "bash", "-c", "tr a-z A-Z | tee out.txt")
	r.Expect(answerLine)
	r.Send("y")
	if code := r.exit(); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, r.stderr.String())
	}
	if got := r.stdout.String(); got != "HELLO FROM THE AGENT\n" {
		t.Errorf("stdout = %q: the prompt must not touch the command's stdout", got)
	}
	if r.stderr.Len() != 0 {
		t.Errorf("stderr = %q, want nothing", r.stderr.String())
	}
}

// TestPromptAlwaysExactForDangerousForm: "always" on a call that deletes
// recursively saves the call's exact form, never `rm *`, and the prompt
// shows that rule before the key is pressed; a later recursive delete of
// something else still asks.
func TestPromptAlwaysExactForDangerousForm(t *testing.T) {
	proj := promptProject(t)
	if err := os.MkdirAll(filepath.Join(proj, "build", "obj"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := startPTY(t, proj, "", "bash", "-c", "rm -rf build")
	r.Expect("Bash(rm -rf build)")
	r.Expect(answerLine)
	r.Send("a")
	if code := r.exit(); code != 0 {
		t.Fatalf("exit %d, want 0; stderr %s", code, r.stderr.String())
	}
	if strings.Contains(r.String(), "covers every") {
		t.Errorf("the prompt says the exact rule covers a family of calls:\n%s", r.String())
	}
	if _, err := os.Stat(filepath.Join(proj, "build")); err == nil {
		t.Error("a should run the command: build is still there")
	}
	saved, err := os.ReadFile(filepath.Join(proj, ".gatekeep", "config.local.toml"))
	want := `allow = ["Bash(rm -rf build)", "Write(` + filepath.Join(proj, "build") + `)"]`
	if err != nil || !strings.Contains(string(saved), want) {
		t.Fatalf("the saved rule should be the exact form %s:\n%s (%v)", want, saved, err)
	}
	if strings.Contains(string(saved), "Bash(rm *)") || strings.Contains(string(saved), "Bash(rm -rf *)") {
		t.Errorf("the saved rule widens the recursive delete:\n%s", saved)
	}
	if err := os.MkdirAll(filepath.Join(proj, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	again := startPTY(t, proj, "", "bash", "-c", "rm -rf src")
	again.Expect(answerLine)
	again.Send("n")
	if code := again.exit(); code != 77 {
		t.Fatalf("rm -rf src after always on rm -rf build: exit %d, want 77 (asked, then denied)", code)
	}
	if _, err := os.Stat(filepath.Join(proj, "src")); err != nil {
		t.Errorf("src was removed: %v", err)
	}
}
