package cmd_test

// End-to-end tests against real agents (issue 6, "a real client"): the
// agent is installed from npm, its model API is a stub on 127.0.0.1 that
// asks for `rm -rf /` and then for `ls`, and gatekeep is installed as its
// pre-tool hook with the snippet `gatekeep hook print` gives. The tests
// pass when the agent blocked the first call with gatekeep's reason and
// ran the second.
//
// They are skipped unless GATEKEEP_E2E=1 (they need npm and the npm
// registry, and take a minute):
//
//	GATEKEEP_E2E=1 go test ./cmd -run TestE2E -v
//
// GATEKEEP_E2E_NPM_DIR reuses an npm prefix that already holds the agents
// (node_modules/.bin/codex, node_modules/.bin/claude) instead of installing
// them; GATEKEEP_E2E_CODEX_VERSION and GATEKEEP_E2E_CLAUDE_VERSION pick
// other versions than the ones these tests were written against.
//
// Safety: the stub really asks the agent to run `rm -rf /` as whoever runs
// the test. The tests refuse to start unless rm is GNU rm, which refuses a
// recursive delete of / by default (--preserve-root), so even a hook that
// failed open would delete nothing.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	codexVersion  = "0.171.0" // @openai/codex the test was written against
	claudeVersion = "2.1.332" // @anthropic-ai/claude-code likewise
	markerFile    = "gatekeep-e2e-marker.txt"
)

// e2eEnv is what every end-to-end test needs: a gatekeep binary, a
// project dir with a marker file, an empty HOME, and the agent's binary.
type e2eEnv struct {
	gatekeep string
	project  string
	home     string
	agent    string
}

func setupE2E(t *testing.T, pkg, version, bin string) *e2eEnv {
	t.Helper()
	if os.Getenv("GATEKEEP_E2E") != "1" {
		t.Skip("set GATEKEEP_E2E=1 to run the end-to-end tests against real agents")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the agents' hooks are not supported on Windows")
	}
	if out, err := exec.Command("rm", "--help").CombinedOutput(); err != nil || !bytes.Contains(out, []byte("--preserve-root")) {
		t.Skip("rm is not GNU rm with --preserve-root: refusing to have an agent run rm -rf /")
	}
	dir := t.TempDir()
	e := &e2eEnv{project: filepath.Join(dir, "project"), home: filepath.Join(dir, "home")}
	for _, d := range []string{filepath.Join(e.project, ".git"), e.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(e.project, markerFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}

	e.gatekeep = filepath.Join(dir, "bin", "gatekeep")
	build := exec.Command("go", "build", "-o", e.gatekeep, "github.com/gatekeep/gatekeep")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building gatekeep: %v\n%s", err, out)
	}

	prefix := os.Getenv("GATEKEEP_E2E_NPM_DIR")
	if prefix == "" {
		if _, err := exec.LookPath("npm"); err != nil {
			t.Skip("npm is not installed")
		}
		if v := os.Getenv(strings.ToUpper("GATEKEEP_E2E_" + bin + "_VERSION")); v != "" {
			version = v
		}
		out, err := exec.Command("npm", "view", pkg+"@"+version, "version").CombinedOutput()
		if err != nil {
			t.Skipf("npm view %s@%s: %v\n%s", pkg, version, err, out)
		}
		prefix = filepath.Join(dir, "npm")
		install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", prefix, pkg+"@"+version)
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm install %s@%s: %v\n%s", pkg, version, err, out)
		}
	}
	e.agent = filepath.Join(prefix, "node_modules", ".bin", bin)
	if _, err := os.Stat(e.agent); err != nil {
		t.Fatalf("no %s in %s: %v", bin, prefix, err)
	}
	return e
}

// hookSnippet runs `gatekeep hook print AGENT`.
func (e *e2eEnv) hookSnippet(t *testing.T, agent string) []byte {
	t.Helper()
	out, err := exec.Command(e.gatekeep, "hook", "print", agent).Output()
	if err != nil {
		t.Fatalf("gatekeep hook print %s: %v", agent, err)
	}
	return out
}

// run runs the agent in the project with a clean environment plus env.
func (e *e2eEnv) run(t *testing.T, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, e.agent, args...)
	c.Dir = e.project
	c.Stdin = strings.NewReader("")
	c.Env = append([]string{
		"HOME=" + e.home,
		"PATH=" + os.Getenv("PATH"),
		"XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(e.home, ".local", "state"),
		"GATEKEEP_MANAGED_CONFIG=" + filepath.Join(e.home, "managed.toml"),
		"TERM=dumb",
	}, env...)
	out, err := c.CombinedOutput()
	t.Logf("%s %s:\n%s", filepath.Base(e.agent), strings.Join(args, " "), out)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(e.agent), err)
	}
	return string(out)
}

// recorder keeps the JSON bodies the stub received.
type recorder struct {
	mu     sync.Mutex
	bodies []map[string]any
}

func (r *recorder) add(body []byte) map[string]any {
	var v map[string]any
	json.Unmarshal(body, &v)
	r.mu.Lock()
	r.bodies = append(r.bodies, v)
	r.mu.Unlock()
	return v
}

func writeSSE(w http.ResponseWriter, events []map[string]any) {
	w.Header().Set("Content-Type", "text/event-stream")
	var buf bytes.Buffer
	for _, ev := range events {
		b, _ := json.Marshal(ev)
		fmt.Fprintf(&buf, "event: %s\ndata: %s\n\n", ev["type"], b)
	}
	w.Write(buf.Bytes())
}

// TestE2ECodex drives `codex exec` against a stub of the Responses API.
// Codex sends every shell-like tool to PreToolUse as Bash with
// tool_input.command (https://developers.openai.com/codex/hooks#pretooluse);
// --dangerously-bypass-hook-trust runs the configured hook without the
// one-time trust a person gives it in the TUI (/hooks).
func TestE2ECodex(t *testing.T) {
	e := setupE2E(t, "@openai/codex", codexVersion, "codex")
	rec := &recorder{}
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
			http.NotFound(w, r)
			return
		}
		req := rec.add(body)
		in, _ := json.Marshal(req["input"])
		call := func(id, cmd string) map[string]any {
			args, _ := json.Marshal(map[string]string{"cmd": cmd})
			return map[string]any{"type": "response.output_item.done", "item": map[string]any{
				"type": "function_call", "call_id": id, "name": "exec_command", "arguments": string(args)}}
		}
		var item map[string]any
		switch {
		case !bytes.Contains(in, []byte(`"call_rm"`)):
			item = call("call_rm", "rm -rf /")
		case !bytes.Contains(in, []byte(`"call_ls"`)):
			item = call("call_ls", "ls")
		default:
			item = map[string]any{"type": "response.output_item.done", "item": map[string]any{
				"type": "message", "role": "assistant", "id": "msg_done",
				"content": []any{map[string]any{"type": "output_text", "text": "done"}}}}
		}
		writeSSE(w, []map[string]any{
			{"type": "response.created", "response": map[string]any{"id": "resp"}},
			item,
			{"type": "response.completed", "response": map[string]any{"id": "resp", "usage": map[string]any{
				"input_tokens": 1, "input_tokens_details": nil, "output_tokens": 1, "output_tokens_details": nil, "total_tokens": 2}}},
		})
	}))
	defer stub.Close()

	codexHome := filepath.Join(e.home, ".codex")
	os.MkdirAll(codexHome, 0o700)
	config := fmt.Sprintf(`model = "gpt-5"
model_provider = "stub"

[model_providers.stub]
name = "stub"
base_url = "%s/v1"
env_key = "GATEKEEP_E2E_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

`, stub.URL)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), append([]byte(config), e.hookSnippet(t, "codex")...), 0o600); err != nil {
		t.Fatal(err)
	}
	e.run(t, []string{"CODEX_HOME=" + codexHome, "GATEKEEP_E2E_KEY=test"},
		"exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", "list the files")

	outputs := map[string]string{}
	rec.mu.Lock()
	for _, b := range rec.bodies {
		items, _ := b["input"].([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			if m["type"] == "function_call_output" {
				id, _ := m["call_id"].(string)
				out, _ := json.Marshal(m["output"])
				outputs[id] = string(out)
			}
		}
	}
	rec.mu.Unlock()
	if got := outputs["call_rm"]; !strings.Contains(got, "gatekeep denied this call") || !strings.Contains(got, "[danger.rm_root]") {
		t.Errorf("rm -rf / was not blocked with gatekeep's reason; the model saw %s", got)
	}
	if got := outputs["call_ls"]; !strings.Contains(got, markerFile) {
		t.Errorf("ls did not run; the model saw %s", got)
	}
}

// TestE2EClaude drives `claude -p` against a stub of the Messages API
// (ANTHROPIC_BASE_URL), with the hook from a settings file given by
// --settings.
func TestE2EClaude(t *testing.T) {
	e := setupE2E(t, "@anthropic-ai/claude-code", claudeVersion, "claude")
	rec := &recorder{}
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/messages") {
			http.NotFound(w, r)
			return
		}
		req := rec.add(body)
		hasBash := false
		tools, _ := req["tools"].([]any)
		for _, tl := range tools {
			if m, _ := tl.(map[string]any); m["name"] == "Bash" {
				hasBash = true
			}
		}
		msgs, _ := json.Marshal(req["messages"])
		// Side requests (titles, summaries) get plain text.
		block := map[string]any{"type": "text", "text": "ok"}
		stop := "end_turn"
		switch {
		case !hasBash:
		case !bytes.Contains(msgs, []byte("toolu_rm")):
			block, stop = map[string]any{"type": "tool_use", "id": "toolu_rm", "name": "Bash",
				"input": map[string]any{"command": "rm -rf /", "description": "Remove everything"}}, "tool_use"
		case !bytes.Contains(msgs, []byte("toolu_ls")):
			block, stop = map[string]any{"type": "tool_use", "id": "toolu_ls", "name": "Bash",
				"input": map[string]any{"command": "ls", "description": "List files"}}, "tool_use"
		default:
			block = map[string]any{"type": "text", "text": "done"}
		}
		usage := map[string]any{"input_tokens": 1, "output_tokens": 1}
		if stream, _ := req["stream"].(bool); !stream {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"id": "msg", "type": "message", "role": "assistant",
				"model": req["model"], "content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
			return
		}
		start := map[string]any{"type": block["type"], "text": ""}
		var delta map[string]any
		if block["type"] == "tool_use" {
			start = map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}
			in, _ := json.Marshal(block["input"])
			delta = map[string]any{"type": "input_json_delta", "partial_json": string(in)}
		} else {
			delta = map[string]any{"type": "text_delta", "text": block["text"]}
		}
		writeSSE(w, []map[string]any{
			{"type": "message_start", "message": map[string]any{"id": "msg", "type": "message", "role": "assistant",
				"model": req["model"], "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}},
			{"type": "content_block_start", "index": 0, "content_block": start},
			{"type": "content_block_delta", "index": 0, "delta": delta},
			{"type": "content_block_stop", "index": 0},
			{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 1}},
			{"type": "message_stop"},
		})
	}))
	defer stub.Close()

	settings := filepath.Join(e.home, "gatekeep-settings.json")
	if err := os.WriteFile(settings, e.hookSnippet(t, "claude"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.run(t, []string{"ANTHROPIC_BASE_URL=" + stub.URL, "ANTHROPIC_API_KEY=sk-ant-e2e-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"},
		"-p", "list the files", "--settings", settings, "--model", "claude-sonnet-4-5", "--output-format", "json")

	results := map[string]string{}
	rec.mu.Lock()
	for _, b := range rec.bodies {
		msgs, _ := b["messages"].([]any)
		for _, m := range msgs {
			content, _ := m.(map[string]any)["content"].([]any)
			for _, c := range content {
				cm, _ := c.(map[string]any)
				if cm["type"] == "tool_result" {
					id, _ := cm["tool_use_id"].(string)
					out, _ := json.Marshal(cm["content"])
					results[id] = string(out)
				}
			}
		}
	}
	rec.mu.Unlock()
	if got := results["toolu_rm"]; !strings.Contains(got, "gatekeep denied this call") || !strings.Contains(got, "[danger.rm_root]") {
		t.Errorf("rm -rf / was not blocked with gatekeep's reason; the model saw %s", got)
	}
	if got := results["toolu_ls"]; !strings.Contains(got, markerFile) {
		t.Errorf("ls did not run; the model saw %s", got)
	}
}
