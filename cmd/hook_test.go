package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/policy"
)

func TestHookRequests(t *testing.T) {
	const cwd = "/work/p"
	type R = policy.Request
	for _, c := range []struct {
		tool, input string
		want        []R
		err         string
	}{
		{"Bash", `{"command":"ls -la","description":"list"}`, []R{{Tool: "Bash", Command: "ls -la", Cwd: cwd}}, ""},
		{"run_shell_command", `{"command":"make","dir_path":"sub"}`, []R{{Tool: "Bash", Command: "make", Cwd: cwd + "/sub"}}, ""},
		{"shell", `{"command":["bash","-lc","ls"]}`, []R{{Tool: "Bash", Argv: []string{"bash", "-lc", "ls"}, Cwd: cwd}}, ""},
		{"Bash", `{"Command":"ls"}`, nil, "tool_input.command is missing"},
		{"Bash", `{"command":42}`, nil, "neither a string nor a list"},
		{"Read", `{"file_path":"/work/p/.env"}`, []R{{Tool: "Read", Path: "/work/p/.env", Cwd: cwd}}, ""},
		{"read_file", `{"file_path":"a.txt"}`, []R{{Tool: "Read", Path: "a.txt", Cwd: cwd}}, ""},
		{"Write", `{"file_path":"/etc/passwd","content":"x"}`, []R{{Tool: "Write", Path: "/etc/passwd", Cwd: cwd}}, ""},
		{"write_file", `{"file_path":"b","content":"x"}`, []R{{Tool: "Write", Path: "b", Cwd: cwd}}, ""},
		{"Edit", `{"file_path":"c","old_string":"a","new_string":"b"}`, []R{{Tool: "Edit", Path: "c", Cwd: cwd}}, ""},
		{"MultiEdit", `{"file_path":"c","edits":[]}`, []R{{Tool: "Edit", Path: "c", Cwd: cwd}}, ""},
		{"replace", `{"file_path":"c"}`, []R{{Tool: "Edit", Path: "c", Cwd: cwd}}, ""},
		{"NotebookEdit", `{"notebook_path":"n.ipynb","new_source":""}`, []R{{Tool: "Edit", Path: "n.ipynb", Cwd: cwd}}, ""},
		{"Write", `{"content":"x"}`, nil, "tool_input.file_path is missing"},
		{"Write", `{"file_path":["a"]}`, nil, "tool_input.file_path is not a string"},
		{"Glob", `{"pattern":"**/*.go"}`, []R{{Tool: "Read", Path: cwd, Cwd: cwd}}, ""},
		{"Grep", `{"pattern":"x","path":"src"}`, []R{{Tool: "Read", Path: "src", Cwd: cwd}}, ""},
		{"search_file_content", `{"pattern":"x","dir_path":"/etc"}`, []R{{Tool: "Read", Path: "/etc", Cwd: cwd}}, ""},
		{"WebFetch", `{"url":"https://example.com/a","prompt":"p"}`, []R{{Tool: "WebFetch", URL: "https://example.com/a", Cwd: cwd, Category: "command"}}, ""},
		{"web_fetch", `{"prompt":"sum up https://a.example/x and (https://b.example/y)."}`, []R{
			{Tool: "WebFetch", URL: "https://a.example/x", Cwd: cwd, Category: "command"},
			{Tool: "WebFetch", URL: "https://b.example/y", Cwd: cwd, Category: "command"}}, ""},
		{"mcp__github__create_issue", `{"title":"x"}`, []R{{Tool: "mcp__github__create_issue", Cwd: cwd, Category: "command"}}, ""},
		{"Task", `{"prompt":"x"}`, []R{{Tool: "Task", Cwd: cwd, Category: "command"}}, ""},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Update File: b.go\n*** Move to: c.go\n@@\n-x\n+y\n*** Delete File: /etc/hosts\n*** End Patch\n"}`, []R{
			{Tool: "Write", Path: "a.txt", Cwd: cwd}, {Tool: "Write", Path: "b.go", Cwd: cwd},
			{Tool: "Write", Path: "c.go", Cwd: cwd}, {Tool: "Write", Path: "/etc/hosts", Cwd: cwd}}, ""},
		{"apply_patch", `{"command":"*** Begin Patch\n*** End Patch"}`, nil, "names no file"},
	} {
		p, err := parseHookPayload([]byte(`{"hook_event_name":"PreToolUse","cwd":"` + cwd + `","tool_name":"` + c.tool + `","tool_input":` + c.input + `}`))
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.input, err)
		}
		got, err := hookRequests(p)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %s: error %v, want %q", c.tool, c.input, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.input, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", c.tool, c.input, got, c.want)
		}
	}
}

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

func TestAgentMode(t *testing.T) {
	for in, want := range map[string]policy.Mode{
		"default": policy.ModeDefault, "acceptEdits": policy.ModeAcceptEdits, "plan": policy.ModePlan,
		"bypassPermissions": policy.ModeBypass, "dontAsk": policy.ModeDefault, "auto": policy.ModeDefault,
		"": policy.ModeDefault, "yolo": policy.ModeDefault,
	} {
		if got := agentMode(in); got != want {
			t.Errorf("agentMode(%q) = %s, want %s", in, got, want)
		}
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
