package cmd_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/cmd"
	"github.com/gatekeep/gatekeep/shellparse"
)

// TestOneParsePerCall: a call is parsed once on every path that decides
// it, whatever else its answer needs (auto-allow, the `unconfined`
// patterns, bypassPermissions' look for what the text does not show, the
// "always allow" rules and their check): the CLI (check, a run that asks
// with nobody to ask, check --batch per line) and the hooks.
func TestOneParsePerCall(t *testing.T) {
	proj := isolate(t)
	t.Setenv("GATEKEEP_NONINTERACTIVE", "1")
	// An agent's shell other than bash is judged as bash too: a parse in
	// each dialect, by design.
	t.Setenv("SHELL", "/bin/bash")
	cfgDir := filepath.Join(os.Getenv("HOME"), ".config", "gatekeep")
	if err := os.MkdirAll(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"),
		[]byte("[sandbox]\nauto_allow = true\nunconfined = [\"Bash(docker *)\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hook := func(command string) string {
		return `{"session_id":"s","hook_event_name":"PreToolUse","cwd":"` + proj +
			`","permission_mode":"default","tool_name":"Bash","tool_input":{"command":` + quoteJSON(command) + `}}`
	}
	batch := filepath.Join(t.TempDir(), "batch.txt")
	if err := os.WriteFile(batch, []byte("ls\nmake all\ngit push origin main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		stdin  string
		parses uint64
	}{
		{args: []string{"check", "bash", "-c", "ls -la"}, parses: 1},
		{args: []string{"check", "--explain", "bash", "-c", "make all && ./run.sh"}, parses: 1},
		{args: []string{"check", "bash", "--", "make", "all"}, parses: 1},
		{args: []string{"check", "--mode", "bypassPermissions", "bash", "-c", "python3 x.py"}, parses: 1},
		// Asks (auto-allow keeps asking about a network tool, and about
		// what an unconfined pattern names), and nobody is there to ask.
		{args: []string{"bash", "-c", "git push origin main"}, parses: 1},
		{args: []string{"bash", "--", "docker", "ps"}, parses: 1},
		{args: []string{"check", "--batch", batch}, parses: 3},
		{args: []string{"check", "--explain", "--json", "--batch", batch}, parses: 3},
		{args: []string{"hook", "claude"}, stdin: hook("make all"), parses: 1},
		{args: []string{"hook", "codex"}, stdin: hook("make all"), parses: 1},
		{args: []string{"hook", "gemini"}, stdin: strings.Replace(hook("ls"), "PreToolUse", "BeforeTool", 1), parses: 1},
	} {
		var out, errb bytes.Buffer
		before := shellparse.Parses()
		status := cmd.Run(tc.args, strings.NewReader(tc.stdin), &out, &errb)
		if got := shellparse.Parses() - before; got != tc.parses {
			t.Errorf("%q: parsed %d times, want %d (exit %d, %s%s)", tc.args, got, tc.parses, status, out.String(), errb.String())
		}
	}
}

// TestDecideIsTheEntryPoint: cmd reaches the chain through policy.Decide
// alone, never through one of the calls that decide part of an answer.
func TestDecideIsTheEntryPoint(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .GoFiles " "}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	calls := regexp.MustCompile(`\bpolicy\.(Evaluate|Suggest|ReadDenied|Unconfined|SandboxAutoAllow)\(`)
	decides := 0
	for _, f := range strings.Fields(string(out)) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range calls.FindAll(src, -1) {
			t.Errorf("%s calls %s: cmd decides through policy.Decide only", f, m)
		}
		decides += strings.Count(string(src), "policy.Decide(")
	}
	if decides == 0 {
		t.Error("cmd never calls policy.Decide")
	}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
