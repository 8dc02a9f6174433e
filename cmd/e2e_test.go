package cmd_test

// End-to-end tests against real agents, each a real client: the agent (Codex, Claude Code, Gemini CLI) is installed from
// npm, its model API is a stub on 127.0.0.1 that asks for `rm -rf /`, then
// for `ls`, then for a write outside the project through a glob
// (`echo pwned > OUTSIDE/*/x`), then for a write gatekeep asks about, and
// gatekeep is installed as its pre-tool hook as a user does it: `gatekeep
// hook install AGENT` into the agent's own settings file in the fresh
// HOME (Claude Code: none yet; Codex and Gemini CLI: one holding the
// stub's provider or the auth choice, which must come through unchanged),
// and `gatekeep hook uninstall AGENT` takes it out again afterwards. Each
// agent runs in its most permissive headless mode (codex exec
// --dangerously-bypass-approvals-and-sandbox, claude -p --permission-mode
// bypassPermissions, gemini --yolo). The tests pass when the agent blocked
// the first call with gatekeep's reason, ran the second, and blocked the
// third and fourth with gatekeep's answer (nothing written).
//
// They are skipped unless GATEKEEP_E2E=1 (they need npm and the npm
// registry, and take a minute); .ci/run sets it, and with CI=true a
// missing npm or registry fails them instead of skipping:
//
//	GATEKEEP_E2E=1 go test ./cmd -run TestE2E -v
//
// The agents are installed (and kept, for the next run) under the user's
// cache directory, $XDG_CACHE_HOME/gatekeep-e2e/PACKAGE@VERSION, outside
// every sandbox root: Codex's wrapper puts its install directory first in
// PATH, and a PATH entry in a temp dir makes gatekeep judge even `ls` as
// unknown. GATEKEEP_E2E_NPM_DIR reuses an npm prefix that already holds
// the agents (node_modules/.bin/codex, claude, gemini) instead, and must
// not lie in a temp dir either;
// GATEKEEP_E2E_CODEX_VERSION, GATEKEEP_E2E_CLAUDE_VERSION and
// GATEKEEP_E2E_GEMINI_VERSION pick other versions than the ones these
// tests were written against.
//
// The directory written through the glob lies outside every sandbox root
// (the project and the temp dirs): it is made below the package's own
// directory and removed afterwards.
//
// Safety: the stub really asks the agent to run `rm -rf /` as whoever runs
// the test. The tests refuse to start unless rm is GNU rm, which refuses a
// recursive delete of / by default (--preserve-root), so even a hook that
// failed open would delete nothing.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	codexVersion  = "0.171.0" // @openai/codex the test was written against
	claudeVersion = "2.1.332" // @anthropic-ai/claude-code likewise
	geminiVersion = "0.61.0"  // @google/gemini-cli likewise
	markerFile    = "gatekeep-e2e-marker.txt"
	askedFile     = "gatekeep-e2e-asked.txt" // the last step's write, inside the project
)

// e2eEnv is what every end-to-end test needs: a gatekeep binary, a
// project dir with a marker file, an empty HOME, the agent's binary, and
// a directory outside every sandbox root holding sub/x.
type e2eEnv struct {
	gatekeep string
	project  string
	home     string
	agent    string
	outside  string
}

// The calls the stubs ask for, in order. The last is a write inside the
// project that gatekeep's default mode asks about and the agent's own
// headless mode would run without asking: the agent's mode must not
// loosen gatekeep's, so nobody being there to answer means it
// does not run.
const (
	stepRm = iota
	stepLs
	stepGlob
	stepAsk
	stepDone
)

// command is the shell command of step i.
func (e *e2eEnv) command(i int) string {
	switch i {
	case stepRm:
		return "rm -rf /"
	case stepLs:
		return "ls"
	case stepGlob:
		return "echo pwned > " + e.outside + "/*/x"
	}
	return "touch " + askedFile
}

// check reports what the model saw for each step: rm -rf / blocked with
// gatekeep's reason, ls run, and the glob write and the asked-about write
// blocked by gatekeep: nothing written, and gatekeep's answer in what the
// model saw or, where the agent turned gatekeep's ask into a refusal with
// nobody to ask (Gemini CLI ends its headless run there), in what the
// agent printed (output).
func (e *e2eEnv) check(t *testing.T, seen [stepDone]string, output string) {
	t.Helper()
	if got := seen[stepRm]; !strings.Contains(got, "gatekeep denied this call") || !strings.Contains(got, "[danger.rm_root]") {
		t.Errorf("rm -rf / was not blocked with gatekeep's reason; the model saw %s", got)
	}
	if got := seen[stepLs]; !strings.Contains(got, markerFile) {
		t.Errorf("ls did not run; the model saw %s", got)
	}
	if b, err := os.ReadFile(filepath.Join(e.outside, "sub", "x")); err != nil || string(b) != "original\n" {
		t.Errorf("the write outside the project through a glob ran: %s/sub/x holds %q (%v)", e.outside, b, err)
	}
	shown := func(what string) bool {
		for _, line := range strings.Split(output, "\n") {
			if strings.Contains(line, "gatekeep asks before this call") && strings.Contains(line, what) {
				return true
			}
		}
		return false
	}
	if got := seen[stepGlob]; !strings.Contains(got, "gatekeep") && !shown(e.outside) {
		t.Errorf("the write outside the project through a glob was not blocked by gatekeep; the model saw %q", got)
	}
	if _, err := os.Stat(filepath.Join(e.project, askedFile)); err == nil {
		t.Errorf("the write gatekeep asks about ran in the agent's permissive mode: %s exists", askedFile)
	}
	askShown := false // an ask line of its own: the glob write's names e.outside
	for _, line := range strings.Split(output, "\n") {
		askShown = askShown || strings.Contains(line, "gatekeep asks before this call") && !strings.Contains(line, e.outside)
	}
	if got := seen[stepAsk]; !strings.Contains(got, "gatekeep") && !askShown {
		t.Errorf("the write gatekeep asks about was not blocked by gatekeep; the model saw %q", got)
	}
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
		e2eUnavailable(t, "rm is not GNU rm with --preserve-root: refusing to have an agent run rm -rf /")
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
	out, err := os.MkdirTemp(outsideBase(t), ".e2e-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(out) })
	if e.outside, err = filepath.Abs(out); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(e.outside, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The glob matches this file, so a write that ran would change it.
	if err := os.WriteFile(filepath.Join(e.outside, "sub", "x"), []byte("original\n"), 0o644); err != nil {
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
			e2eUnavailable(t, "npm is not installed")
		}
		if v := os.Getenv(strings.ToUpper("GATEKEEP_E2E_" + bin + "_VERSION")); v != "" {
			version = v
		}
		out, err := exec.Command("npm", "view", pkg+"@"+version, "version").CombinedOutput()
		if err != nil {
			e2eUnavailable(t, fmt.Sprintf("npm view %s@%s: %v\n%s", pkg, version, err, out))
		}
		// Not in a temp dir: an agent puts its own install directory first
		// in PATH (Codex's npm wrapper does), and a PATH entry inside a
		// sandbox root makes every bare command name unknown to gatekeep.
		cache, err := os.UserCacheDir()
		if err != nil {
			e2eUnavailable(t, fmt.Sprintf("no user cache directory for the npm install: %v", err))
		}
		prefix = filepath.Join(cache, "gatekeep-e2e", strings.ReplaceAll(pkg, "/", "+")+"@"+version)
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

// e2eUnavailable skips an end-to-end test that was asked for
// (GATEKEEP_E2E=1) but cannot run here, except in CI (CI=true), where
// .ci/run provides npm and the registry: there it fails.
func e2eUnavailable(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI runs the end-to-end tests: %s", why)
	}
	t.Skip(why)
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

// systemPath is this process's PATH without the entries a planted program
// could sit in (relative ones, and those in a temp dir, a sandbox root:
// testscript puts its bin dir there), which would make gatekeep judge
// even `ls` as not known (a bare name resolved through such an entry).
func systemPath() string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(d) || strings.HasPrefix(d, "/tmp/") || strings.HasPrefix(d, "/var/tmp/") ||
			strings.HasPrefix(d, filepath.Clean(os.TempDir())+string(filepath.Separator)) {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// gatekeepRun runs gatekeep in the project with env, and returns its
// output and exit status.
func (e *e2eEnv) gatekeepRun(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	c := exec.Command(e.gatekeep, args...)
	c.Dir = e.project
	c.Env = append([]string{"HOME=" + e.home, "PATH=" + systemPath(),
		"XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"),
		"GATEKEEP_MANAGED_CONFIG=" + filepath.Join(e.home, "managed.toml")}, env...)
	out, err := c.CombinedOutput()
	t.Logf("gatekeep %s:\n%s", strings.Join(args, " "), out)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
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
		"PATH=" + systemPath(),
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

// TestE2ECodex drives `codex exec --dangerously-bypass-approvals-and-sandbox`
// (no approvals, no sandbox of Codex's own: only the hook stands between
// the model and the machine) against a stub of the Responses API. Codex
// sends every shell-like tool to PreToolUse as Bash with
// tool_input.command (https://developers.openai.com/codex/hooks#pretooluse).
// The hook is installed by `gatekeep hook install codex` into a
// config.toml that already holds the stub's provider, and trusted as a
// person's /hooks trust records it, with the hash install and `gatekeep
// doctor codex` name; uninstall gives back the file with only that trust
// record added.
func TestE2ECodex(t *testing.T) {
	e := setupE2E(t, "@openai/codex", codexVersion, "codex")
	ids := [stepDone]string{"call_rm", "call_ls", "call_glob", "call_ask"}
	rec := &recorder{}
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
			http.NotFound(w, r)
			return
		}
		req := rec.add(body)
		in, _ := json.Marshal(req["input"])
		step := stepDone
		for i, id := range ids {
			if !bytes.Contains(in, []byte(`"`+id+`"`)) {
				step = i
				break
			}
		}
		var item map[string]any
		if step == stepDone {
			item = map[string]any{"type": "response.output_item.done", "item": map[string]any{
				"type": "message", "role": "assistant", "id": "msg_done",
				"content": []any{map[string]any{"type": "output_text", "text": "done"}}}}
		} else {
			args, _ := json.Marshal(map[string]string{"cmd": e.command(step)})
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
	configFile := filepath.Join(codexHome, "config.toml")
	if err := os.WriteFile(configFile, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	// Codex drops an untrusted hook without a word: hook install (and
	// gatekeep doctor) say so, exit 0 and 1, and name the trusted_hash a
	// person's /hooks trust records. With that recorded, doctor exits 0
	// and codex exec runs the hook without --dangerously-bypass-hook-trust,
	// which shows that doctor's hash is Codex's own.
	doctorEnv := []string{"CODEX_HOME=" + codexHome}
	out, code := e.gatekeepRun(t, doctorEnv, "hook", "install", "codex")
	if code != 0 || !strings.Contains(out, "left to do: open codex, run /hooks and trust gatekeep's hook") {
		t.Fatalf("gatekeep hook install codex: exit %d\n%s", code, out)
	}
	if b, err := os.ReadFile(configFile); err != nil || !bytes.HasPrefix(b, []byte(config)) || !bytes.Contains(b, e.hookSnippet(t, "codex")) {
		t.Fatalf("hook install codex did not append hook print's snippet to %s, keeping what was there (%v):\n%s", configFile, err, b)
	}
	out, code = e.gatekeepRun(t, doctorEnv, "doctor", "codex")
	if code != 1 || !strings.Contains(out, "the hook is not trusted") {
		t.Fatalf("gatekeep doctor codex on an untrusted hook: exit %d\n%s", code, out)
	}
	m := regexp.MustCompile(`\[hooks\.state\.("[^"]+")\] trusted_hash = ("sha256:[0-9a-f]+")`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("gatekeep doctor codex names no trusted_hash:\n%s", out)
	}
	trust := fmt.Sprintf("\n[hooks.state.%s]\ntrusted_hash = %s\n", m[1], m[2])
	f, err := os.OpenFile(configFile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, trust)
	f.Close()
	if out, code := e.gatekeepRun(t, doctorEnv, "doctor", "codex"); code != 0 || !strings.Contains(out, "gatekeep is in Codex's loop") {
		t.Fatalf("gatekeep doctor codex on a trusted hook: exit %d\n%s", code, out)
	}
	output := e.run(t, []string{"CODEX_HOME=" + codexHome, "GATEKEEP_E2E_KEY=test"},
		"exec", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check", "list the files")
	if !strings.Contains(output, "sandbox: danger-full-access") {
		t.Errorf("codex did not run without its sandbox; it printed:\n%s", output)
	}
	defer func() {
		// Uninstall takes out the block install added; Codex's trust
		// record, written outside it, stays.
		if out, code := e.gatekeepRun(t, doctorEnv, "hook", "uninstall", "codex"); code != 0 {
			t.Errorf("gatekeep hook uninstall codex: exit %d\n%s", code, out)
		}
		if b, err := os.ReadFile(configFile); err != nil || string(b) != config+trust {
			t.Errorf("after hook uninstall codex, %s is not the original plus the trust record (%v):\n%s", configFile, err, b)
		}
	}()

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
	var seen [stepDone]string
	for i, id := range ids {
		seen[i] = outputs[id]
	}
	e.check(t, seen, output)
}

// TestE2EClaude drives `claude -p --permission-mode bypassPermissions`
// against a stub of the Messages API (ANTHROPIC_BASE_URL), with the hook
// that `gatekeep hook install claude` put in ~/.claude/settings.json (no
// --settings: the user's own settings file). Claude Code refuses
// bypassPermissions as root unless IS_SANDBOX=1, which the test sets then.
func TestE2EClaude(t *testing.T) {
	e := setupE2E(t, "@anthropic-ai/claude-code", claudeVersion, "claude")
	ids := [stepDone]string{"toolu_rm", "toolu_ls", "toolu_glob", "toolu_ask"}
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
		step := stepDone
		for i, id := range ids {
			if !bytes.Contains(msgs, []byte(id)) {
				step = i
				break
			}
		}
		// Side requests (titles, summaries) get plain text.
		block := map[string]any{"type": "text", "text": "ok"}
		stop := "end_turn"
		switch {
		case !hasBash:
		case step == stepDone:
			block = map[string]any{"type": "text", "text": "done"}
		default:
			block, stop = map[string]any{"type": "tool_use", "id": ids[step], "name": "Bash",
				"input": map[string]any{"command": e.command(step), "description": "Step"}}, "tool_use"
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

	// As a new user does: `gatekeep hook install claude` writes a fresh
	// ~/.claude/settings.json, and doctor's checks (which it runs) pass.
	out, code := e.gatekeepRun(t, nil, "hook", "install", "claude")
	if code != 0 || !strings.Contains(out, "claude: gatekeep is in Claude Code's loop") {
		t.Fatalf("gatekeep hook install claude: exit %d, not in Claude Code's loop:\n%s", code, out)
	}
	settings := filepath.Join(e.home, ".claude", "settings.json")
	if b, err := os.ReadFile(settings); err != nil || !bytes.Equal(b, e.hookSnippet(t, "claude")) {
		t.Fatalf("hook install claude did not write hook print's snippet to %s (%v):\n%s", settings, err, b)
	}
	env := []string{"ANTHROPIC_BASE_URL=" + stub.URL, "ANTHROPIC_API_KEY=sk-ant-e2e-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
	if os.Geteuid() == 0 {
		env = append(env, "IS_SANDBOX=1")
	}
	output := e.run(t, env, "-p", "list the files", "--model", "claude-sonnet-4-5",
		"--permission-mode", "bypassPermissions", "--output-format", "json")
	defer func() {
		// Uninstall removes the file install created (the directory is
		// Claude Code's now, holding its own state).
		if out, code := e.gatekeepRun(t, nil, "hook", "uninstall", "claude"); code != 0 || !strings.Contains(out, "gatekeep's hook was all it held") {
			t.Errorf("gatekeep hook uninstall claude: exit %d\n%s", code, out)
		}
		if _, err := os.Stat(settings); err == nil {
			t.Errorf("hook uninstall claude left %s", settings)
		}
	}()

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
	var seen [stepDone]string
	for i, id := range ids {
		seen[i] = results[id]
	}
	e.check(t, seen, output)
}

// TestE2EGemini drives `gemini --yolo -p` against a stub of the Gemini API
// (GOOGLE_GEMINI_BASE_URL, streamGenerateContent with alt=sse), with the
// hook that `gatekeep hook install gemini` merged into the person's
// ~/.gemini/settings.json (which holds the auth choice), and takes it out
// again with `gatekeep hook uninstall gemini`.
// GEMINI_CLI_TRUST_WORKSPACE=true trusts the project folder, without which
// Gemini CLI ignores the settings there and runs in a safe mode.
func TestE2EGemini(t *testing.T) {
	e := setupE2E(t, "@google/gemini-cli", geminiVersion, "gemini")
	rec := &recorder{}
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || !strings.Contains(r.URL.Path, "/models/") {
			http.NotFound(w, r)
			return
		}
		req := rec.add(body)
		tools, _ := json.Marshal(req["tools"])
		contents, _ := req["contents"].([]any)
		step := 0
		for _, c := range contents {
			parts, _ := c.(map[string]any)["parts"].([]any)
			for _, pt := range parts {
				if _, ok := pt.(map[string]any)["functionResponse"]; ok {
					step++
				}
			}
		}
		part := map[string]any{"text": "done"}
		switch {
		case !bytes.Contains(tools, []byte("run_shell_command")):
			// Side requests (routing, next speaker, summaries).
			part = map[string]any{"text": `{"reasoning":"done","next_speaker":"user","model_choice":"flash"}`}
		case step < stepDone:
			part = map[string]any{"functionCall": map[string]any{"name": "run_shell_command",
				"args": map[string]any{"command": e.command(step), "description": "step"}}}
		}
		resp := map[string]any{
			"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
				"finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
			"modelVersion":  "gemini-2.5-flash",
		}
		b, _ := json.Marshal(resp)
		if strings.Contains(r.URL.Path, "streamGenerateContent") {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", b)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer stub.Close()

	geminiDir := filepath.Join(e.home, ".gemini")
	if err := os.MkdirAll(geminiDir, 0o700); err != nil {
		t.Fatal(err)
	}
	settingsFile := filepath.Join(geminiDir, "settings.json")
	original := "{\n  \"security\": {\n    \"auth\": {\n      \"selectedType\": \"gemini-api-key\"\n    }\n  }\n}"
	if err := os.WriteFile(settingsFile, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, code := e.gatekeepRun(t, nil, "hook", "install", "gemini"); code != 0 || !strings.Contains(out, "gatekeep is in Gemini CLI's loop") {
		t.Fatalf("gatekeep hook install gemini: exit %d\n%s", code, out)
	}
	output := e.run(t, []string{"GOOGLE_GEMINI_BASE_URL=" + stub.URL, "GEMINI_API_KEY=e2e-test-key",
		"GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_CLI_NO_RELAUNCH=true"},
		"--yolo", "-m", "gemini-2.5-flash", "-p", "list the files")
	defer func() {
		if out, code := e.gatekeepRun(t, nil, "hook", "uninstall", "gemini"); code != 0 {
			t.Errorf("gatekeep hook uninstall gemini: exit %d\n%s", code, out)
		}
		if b, err := os.ReadFile(settingsFile); err != nil || string(b) != original {
			t.Errorf("after hook uninstall gemini, %s is not the original (%v):\n%s", settingsFile, err, b)
		}
	}()

	// The function responses, in the order the calls were made.
	var seen [stepDone]string
	rec.mu.Lock()
	for _, b := range rec.bodies {
		contents, _ := b["contents"].([]any)
		n := 0
		for _, c := range contents {
			parts, _ := c.(map[string]any)["parts"].([]any)
			for _, pt := range parts {
				if fr, ok := pt.(map[string]any)["functionResponse"]; ok && n < len(seen) {
					out, _ := json.Marshal(fr)
					seen[n] = string(out)
					n++
				}
			}
		}
	}
	rec.mu.Unlock()
	e.check(t, seen, output)
}

// outsideBase is where the end-to-end tests make the directory outside
// every sandbox root that the agent's writes must not reach: the package
// directory, or when the checkout itself lies in a temp dir (a sandbox
// root: /tmp, /var/tmp, $TMPDIR), the real user's cache or home dir.
func outsideBase(t *testing.T) string {
	temps := []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"}
	inTemp := func(dir string) bool {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return true
		}
		for _, tmp := range temps {
			if r, err := filepath.EvalSymlinks(tmp); err == nil {
				tmp = r
			}
			if real == tmp || strings.HasPrefix(real, tmp+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	candidates := []string{"."}
	if d, err := os.UserCacheDir(); err == nil {
		candidates = append(candidates, d)
	}
	if d, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, d)
	}
	for _, c := range candidates {
		if abs, err := filepath.Abs(c); err == nil && !inTemp(abs) {
			if os.MkdirAll(abs, 0o755) == nil {
				return abs
			}
		}
	}
	t.Fatalf("no directory outside the temp dirs to write the test's outside files in (tried %v)", candidates)
	return ""
}
