package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseHookPayload(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{`{"hook_event_name":"PreToolUse"}`, ""},
		{`[]`, "not a JSON object"},
		{`{"hook_event_name":"PreToolUse"`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`{"tool_name":"Bash"}`, "hook_event_name is missing"},
		{`{"hook_event_name":1}`, "hook_event_name is not a string"},
		{`{"hook_event_name":"PreToolUse","tool_input":"ls"}`, "tool_input is not a JSON object"},
		{"{\"hook_event_name\":\"PreToolUse\",\"x\":\"\xff\"}", "not valid UTF-8"},
	} {
		_, err := parseHookPayload([]byte(c.in))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: error %v, want %q", c.in, err, c.err)
		}
	}
	p, _ := parseHookPayload([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"rel","tool_input":{}}`))
	if err := p.checkPreTool(); err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Errorf("relative cwd: %v", err)
	}
}

func TestReadHookInput(t *testing.T) {
	if _, err := readHookInput(strings.NewReader(" \n")); err == nil {
		t.Error("empty input accepted")
	}
	if _, err := readHookInput(strings.NewReader(strings.Repeat(" ", maxHookInput+1))); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("oversized input: %v", err)
	}
	if _, err := readHookInput(strings.NewReader(`{"a":1}`)); err != nil {
		t.Error(err)
	}
}

// TestHookAudit: a hook decision is appended to the audit log with the
// agent, session, tool, redacted input, decision and answer.
func TestHookAudit(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Setenv("GATEKEEP_MODE", "")
	log := filepath.Join(dir, "state", "audit.jsonl")
	payload := `{"session_id":"s-42","cwd":"` + proj + `","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"API_TOKEN=abc123 rm -rf /"}}`
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(payload), &out, &errb)
	a.auditFile = log
	err := a.runHook(dialectNamed("codex"))
	if code, _ := exitCodeOf(err); code != ExitHookBlock {
		t.Fatalf("exit %d (%v), stderr %q", code, err, errb.String())
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var r auditRecord
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%q: %v", data, err)
	}
	if r.Agent != "codex" || r.SessionID != "s-42" || r.Tool != "Bash" || r.Input != "API_TOKEN=[REDACTED] rm -rf /" ||
		r.Effect != "deny" || r.Answer != "deny" || r.Layer != "danger" || !strings.HasPrefix(r.Code, "danger.") {
		t.Errorf("audit record %+v", r)
	}
}

// TestCodexHookHash: the hash Codex records when a person trusts a hook.
// The first value is the one Codex 0.171 accepted in e2e_test.go's run
// for this exact hook (the test reads it from doctor's output there).
func TestCodexHookHash(t *testing.T) {
	status, timeout := "gatekeep: checking the tool call", int64(30)
	h := hookEntry{command: "gatekeep hook codex", timeout: &timeout, status: &status}
	if got, want := codexHookHash(h), "sha256:970c35ed76b2bacc5b0ec4d41ef70354fea01b9e8369c80932ab8f6cf36ff449"; got != want {
		t.Errorf("codexHookHash = %s, want %s", got, want)
	}
	var b strings.Builder
	canonicalJSON(&b, map[string]any{"b": []any{"x\"\\\n\x01<é>"}, "a": int64(1), "c": true})
	if got, want := b.String(), `{"a":1,"b":["x\"\\\n\u0001<é>"],"c":true}`; got != want {
		t.Errorf("canonicalJSON = %s, want %s", got, want)
	}
}

// The hook's own deadline is below the timeout `hook print` gives every
// agent, which lets a call through when it runs out.
func TestHookDeadlineBelowAgentTimeout(t *testing.T) {
	if hookDeadline >= hookTimeout*time.Second {
		t.Errorf("hookDeadline %v is not below the agents' hook timeout %ds", hookDeadline, hookTimeout)
	}
}
