//go:build linux

package cmd_test

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
	"strings"
	"testing"
	"time"

	"github.com/gatekeep/gatekeep/cmd/enforce"
)

// TestE2ECodexEnforced runs the real Codex client inside `gatekeep bash
// --enforce -- codex exec --sandbox danger-full-access ...`
// (everything the agent spawns inherits the confinement; Codex's own
// sandbox is off, since a nested user namespace may be refused). No hook
// is installed, so nothing reads the commands' text: the stub model asks
// for a write outside the project, which the kernel refuses, and one
// inside it, which works. The stub listens on loopback, so the user
// config turns the sandbox's network on, and --allow-dir makes Codex's
// home writable (its sessions and state).
func TestE2ECodexEnforced(t *testing.T) {
	e := setupE2E(t, "@openai/codex", codexVersion, "codex")
	if s := enforce.Probe(); s.Tier() != enforce.TierFull {
		enforceUnavailable(t, fmt.Sprintf("the full tier is unavailable: %s %q", s, s.Errors))
	}
	ids := []string{"call_outside", "call_inside"}
	cmds := []string{"echo pwned > " + e.outside + "/sub/x", "echo ok > inside.txt"}
	rec := &recorder{}
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
			http.NotFound(w, r)
			return
		}
		req := rec.add(body)
		in, _ := json.Marshal(req["input"])
		step := len(ids)
		for i, id := range ids {
			if !bytes.Contains(in, []byte(`"`+id+`"`)) {
				step = i
				break
			}
		}
		var item map[string]any
		if step == len(ids) {
			item = map[string]any{"type": "response.output_item.done", "item": map[string]any{
				"type": "message", "role": "assistant", "id": "msg_done",
				"content": []any{map[string]any{"type": "output_text", "text": "done"}}}}
		} else {
			args, _ := json.Marshal(map[string]string{"cmd": cmds[step]})
			item = map[string]any{"type": "response.output_item.done", "item": map[string]any{
				"type": "function_call", "call_id": ids[step], "name": "exec_command", "arguments": string(args)}}
		}
		writeSSE(w, []map[string]any{
			{"type": "response.created", "response": map[string]any{"id": "resp"}},
			item,
			{"type": "response.completed", "response": map[string]any{"id": "resp", "usage": map[string]any{
				"input_tokens": 1, "input_tokens_details": nil, "output_tokens": 1, "output_tokens_details": nil, "total_tokens": 2}}},
		})
	}))
	defer stub.Close()

	// A home outside the temp dirs, as a person's is: a sandbox root that
	// holds the home directory (/tmp here) is not made writable.
	e.home = filepath.Join(enforceBase(t), "home")
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
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	userConfig := filepath.Join(e.home, ".config", "gatekeep", "config.toml")
	os.MkdirAll(filepath.Dir(userConfig), 0o755)
	if err := os.WriteFile(userConfig, []byte("[sandbox]\nnetwork = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, e.gatekeep, "--mode", "bypassPermissions", "--enforce", "--allow-dir", codexHome, "bash", "--",
		e.agent, "exec", "--sandbox", "danger-full-access", "--skip-git-repo-check", "write the files")
	c.Dir = e.project
	c.Stdin = strings.NewReader("")
	c.Env = []string{
		"HOME=" + e.home,
		"PATH=" + systemPath(),
		"XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(e.home, ".local", "state"),
		"GATEKEEP_MANAGED_CONFIG=" + filepath.Join(e.home, "managed.toml"),
		"CODEX_HOME=" + codexHome, "GATEKEEP_E2E_KEY=test", "TERM=dumb",
	}
	out, err := c.CombinedOutput()
	t.Logf("gatekeep --enforce bash -- codex exec:\n%s", out)
	if err != nil {
		t.Fatalf("codex under enforcement: %v", err)
	}

	outputs := map[string]string{}
	rec.mu.Lock()
	for _, b := range rec.bodies {
		items, _ := b["input"].([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			if m["type"] == "function_call_output" {
				id, _ := m["call_id"].(string)
				o, _ := json.Marshal(m["output"])
				outputs[id] = string(o)
			}
		}
	}
	rec.mu.Unlock()
	if b, err := os.ReadFile(filepath.Join(e.outside, "sub", "x")); err != nil || string(b) != "original\n" {
		t.Errorf("the confined agent's write outside the project ran: %q (%v)", b, err)
	}
	if got := outputs[ids[0]]; !strings.Contains(got, "Permission denied") {
		t.Errorf("the model did not see the kernel's refusal; it saw %s", got)
	}
	if b, err := os.ReadFile(filepath.Join(e.project, "inside.txt")); err != nil || string(b) != "ok\n" {
		t.Errorf("the confined agent's write inside the project did not run: %q (%v); the model saw %s", b, err, outputs[ids[1]])
	}
}
