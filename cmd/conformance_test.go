package cmd_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/cmd"
	"github.com/gatekeep/gatekeep/policy/testcases"
)

// TestConformance runs every peer case through `gatekeep check --json bash
// -c CMD` with the embedded default policy, in the default mode, with no
// terminal, and the project root at the working directory.
func TestConformance(t *testing.T) {
	cases := testcases.Conformance(t)
	isolate(t)
	for _, c := range cases {
		effect, code := checkBash(t, c.Cmd)
		ok := map[string]bool{
			"allow":    effect == "allow",
			"notallow": effect != "allow",
			"notdeny":  effect != "deny",
		}[c.Expect]
		if !ok {
			t.Errorf("%s:%d (%s, %s): %q is %s (%s), want %s", c.File, c.Line, c.Peer, c.Source, c.Cmd, effect, code, c.Expect)
		}
	}
}

// isolate gives the test a fresh project dir as cwd and empty HOME/XDG
// dirs, so no config of the machine takes part.
func isolate(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "project")
	for _, d := range []string{home, filepath.Join(proj, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", withoutTempEntries(os.Getenv("PATH")))
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("GATEKEEP_MANAGED_CONFIG", filepath.Join(dir, "managed.toml"))
	for _, k := range []string{"GATEKEEP_MODE", "GATEKEEP_ROOT", "GATEKEEP_NONINTERACTIVE", "GATEKEEP_DENY_EXIT_CODE"} {
		t.Setenv(k, "")
	}
	t.Chdir(proj)
	return proj
}

// checkBash runs `gatekeep check --json bash -c CMD` in-process and returns
// the effect and code, checking the exit status agrees with the effect.
func checkBash(t *testing.T, command string) (effect, code string) {
	t.Helper()
	var out, errb bytes.Buffer
	status := cmd.Run([]string{"check", "--json", "bash", "-c", command}, strings.NewReader(""), &out, &errb)
	var d struct {
		Effect string `json:"effect"`
		Code   string `json:"code"`
	}
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatalf("check %q: status %d, stdout %q, stderr %q: %v", command, status, out.String(), errb.String(), err)
	}
	want := map[string]int{"allow": 0, "ask": 75, "deny": 77}[d.Effect]
	if status != want {
		t.Errorf("check %q: exit %d for effect %s", command, status, d.Effect)
	}
	return d.Effect, d.Code
}
