package cmd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/cmd/enforce"
	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/config"
	"github.com/gatekeep/gatekeep/shellparse"
)

// doctorCmd is `gatekeep doctor [claude|codex|gemini] [--json]`: is
// gatekeep in the agent's loop, and would its calls be decided? It builds
// the configuration a hook call in the current directory would (every
// layer, trust, enforcement); reads the agent's settings files, finds the
// pre-tool hooks that run gatekeep, and for each checks that it covers
// every tool, that its binary is there (and is this one), that the agent
// will run it (Codex: trusted; nothing disables hooks), and that it
// answers a probe the way the agent needs. Exit 0 when the gate is in the
// loop, 78 when a config file is invalid, 1 otherwise.
func (a *app) doctorCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "doctor [claude|codex|gemini] [--json]",
		Short: "Check that an agent's settings put gatekeep in the loop, and that its configuration loads",
		Long: `Check that gatekeep decides the agent's tool calls here: load every config
layer as a hook call in the current directory would (an invalid file is
config.invalid with its file and line; a project or local file that is
not trusted is named with the ` + "`gatekeep trust FILE`" + ` that trusts it; the
enforcement tier this machine gives), then read the agent's settings
files, find gatekeep's pre-tool hook, check that it covers every tool,
points at an existing gatekeep (this one, or says which), is trusted
(Codex), is not disabled, and answers a probe (rm -rf /) with a block.

Exit 0 when the gate is in the loop, 78 when a config file is invalid
(every hook call would be blocked), 1 otherwise. Without an agent, every
agent whose settings name gatekeep is checked (and at least one must).
--json prints one object: {"source","version","ok","config","agents"}.`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: []string{"claude", "codex", "gemini"},
		RunE: func(_ *cobra.Command, args []string) error {
			agents := []string{"claude", "codex", "gemini"}
			if len(args) == 1 {
				if dialectNamed(args[0]) == nil {
					return usageErr("unknown agent %q (want claude, codex or gemini)", args[0])
				}
				agents = args
			}
			env, err := newDoctorEnv()
			if err != nil {
				return withCode(ExitInternal, err)
			}
			cr := a.doctorConfig()
			out := doctorJSON{Source: "gatekeep", Version: SchemaVersion, Config: cr, Agents: []doctorAgentJSON{}}
			if !asJSON {
				cr.print(a.stdout)
			}
			inLoop, configured := 0, 0
			for _, name := range agents {
				r := env.check(name)
				if !asJSON {
					r.print(a.stdout)
				}
				out.Agents = append(out.Agents, r.json())
				if r.found || len(args) == 1 {
					configured++
					if r.ok() {
						inLoop++
					}
				}
			}
			out.OK = configured > 0 && inLoop == configured && cr.ok()
			if asJSON {
				writeJSONLine(a.stdout, out)
			} else if !cr.ok() {
				fmt.Fprintln(a.stdout, "gatekeep cannot decide calls here: fix the config problems above (`gatekeep config validate`)")
			}
			switch {
			case len(cr.Errors) > 0:
				return silentExit(ExitConfig)
			case !out.OK:
				return silentExit(ExitFailure)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	return c
}

// doctorJSON is doctor's --json report.
type doctorJSON struct {
	Source  string             `json:"source"`
	Version int                `json:"version"`
	OK      bool               `json:"ok"` // every agent checked is in the loop and the config loads
	Config  *doctorConfigCheck `json:"config"`
	// Agents are the agents checked, as the text report lists them:
	// without an agent argument all three, and ok asks only those found.
	Agents []doctorAgentJSON `json:"agents"`
}

// doctorAgentJSON is one agent's part of the --json report.
type doctorAgentJSON struct {
	Agent    string   `json:"agent"`
	InLoop   bool     `json:"in_loop"`
	Found    bool     `json:"found"`    // a settings file installs gatekeep's hook
	Checked  []string `json:"checked"`  // what was read and checked, in order
	Problems []string `json:"problems"` // why gatekeep is not in the loop
}

func (r *doctorReport) json() doctorAgentJSON {
	return doctorAgentJSON{Agent: r.agent, InLoop: r.ok(), Found: r.found, Checked: nonNil(r.lines),
		Problems: nonNil(append(append([]string{}, r.blockers...), r.problems...))}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// doctorConfigCheck is what a hook call in the current directory would
// load: the config files, their problems, the untrusted ones, and the
// enforcement this machine gives.
type doctorConfigCheck struct {
	Files []config.FileInfo `json:"files"`
	// Errors are the config.invalid problems (file, line, message):
	// every hook call is blocked while there is one.
	Errors []*config.ConfigError `json:"errors,omitempty"`
	// Problem is an error that is not a config file's (a bad
	// environment variable), "" when none.
	Problem string `json:"problem,omitempty"`
	// Untrusted are the files that only tighten until trusted, each with
	// the command that trusts it.
	Untrusted []doctorUntrusted `json:"untrusted,omitempty"`
	// Warnings are what loading said about ignored settings.
	Warnings []string `json:"warnings,omitempty"`
	// Enforce is the enforcement level ([sandbox] enforce, --enforce,
	// GATEKEEP_ENFORCE); Tier the one this machine gives a confined call.
	Enforce string `json:"enforce"`
	Tier    string `json:"tier"`
}

type doctorUntrusted struct {
	File    string `json:"file"`
	Changed bool   `json:"changed,omitempty"` // edited since it was trusted
	Command string `json:"command"`
}

func (c *doctorConfigCheck) ok() bool {
	return len(c.Errors) == 0 && c.Problem == "" && !c.enforceFails()
}

// enforceFails: enforcement is required and nothing can confine a call,
// so every shell call is denied (sandbox.unavailable).
func (c *doctorConfigCheck) enforceFails() bool {
	return c.Enforce == policy.EnforceRequired.String() && c.Tier == string(enforce.TierNone)
}

// doctorConfig builds the configuration as a hook call made in the current
// directory does (hookConfig: --root or GATEKEEP_ROOT, else the agent's
// project directory, config.Build), and the enforcement tier.
func (a *app) doctorConfig() *doctorConfigCheck {
	c := &doctorConfigCheck{Files: []config.FileInfo{}}
	cwd, err := os.Getwd()
	if err != nil {
		c.Problem = "reading the working directory: " + err.Error()
		return c
	}
	root := a.root
	if root == "" {
		root = agentProjectDir()
	}
	b, err := config.Build(a.input(cwd, root))
	switch {
	case err != nil && config.IsConfigError(err):
		c.Errors = config.ConfigErrors(err)
		if len(c.Errors) == 0 {
			c.Errors = []*config.ConfigError{{Msg: err.Error()}}
		}
	case err != nil:
		c.Problem = err.Error()
	default:
		a.loaded = b.Loaded
		c.Files = b.Loaded.Files
		c.Warnings = b.Loaded.Warnings
		for _, f := range b.Loaded.Files {
			if f.Exists && f.NeedsTrust && !f.Trusted {
				c.Untrusted = append(c.Untrusted, doctorUntrusted{File: f.Path, Changed: f.Changed,
					Command: shellparse.JoinArgv([]string{"gatekeep", "trust", f.Path})})
			}
		}
	}
	c.Enforce, c.Tier = a.enforceLevel().String(), string(a.support().Tier())
	return c
}

func (c *doctorConfigCheck) print(w io.Writer) {
	for _, f := range c.Files {
		if f.Exists && f.Source != "default" {
			fmt.Fprintf(w, "config: read %s (%s)\n", f.Path, f.Source)
		}
	}
	for _, e := range c.Errors {
		fmt.Fprintf(w, "config: problem: %s: %s (every hook call is blocked until it is fixed)\n", policy.CodeConfigInvalid, e)
	}
	if c.Problem != "" {
		fmt.Fprintf(w, "config: problem: %s\n", c.Problem)
	}
	for _, wa := range c.Warnings {
		fmt.Fprintf(w, "config: warning: %s\n", wa)
	}
	for _, u := range c.Untrusted {
		why := "not trusted"
		if u.Changed {
			why = "changed since it was trusted"
		}
		fmt.Fprintf(w, "config: %s is %s: only its deny and ask rules apply; review it, then run `%s`\n", u.File, why, u.Command)
	}
	fmt.Fprintf(w, "enforcement: %s, tier %s on this machine\n", c.Enforce, c.Tier)
	if c.enforceFails() {
		fmt.Fprintf(w, "enforcement: problem: enforcement is required and this machine confines nothing, so every shell call is denied (%s)\n", policy.CodeSandboxUnavailable)
	}
}

// doctorEnv is what the checks read: this binary, the home and working
// directories, and the environment.
type doctorEnv struct {
	exe, home, cwd string
	getenv         func(string) string
	// Codex: the user config, its [hooks.state], the managed files
	codexUser    string
	codexState   map[string]any
	codexManaged map[string]bool
}

func newDoctorEnv() (*doctorEnv, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the gatekeep binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	home, _ := os.UserHomeDir()
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("reading the working directory: %w", err)
	}
	return &doctorEnv{exe: exe, home: home, cwd: cwd, getenv: os.Getenv}, nil
}

// doctorReport is what was found for one agent.
type doctorReport struct {
	agent    string
	lines    []string // what was checked, in order
	problems []string // why a gatekeep hook does not work
	blockers []string // why no hook runs at all (hooks disabled)
	found    bool     // a settings file names gatekeep's hook
	working  bool     // one such hook passes every check
}

func (r *doctorReport) ok() bool { return r.found && r.working && len(r.blockers) == 0 }

// block records a setting that keeps every hook from running.
func (r *doctorReport) block(format string, args ...any) {
	r.blockers = append(r.blockers, fmt.Sprintf(format, args...))
}

func (r *doctorReport) note(format string, args ...any) {
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

func (r *doctorReport) fail(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

func (r *doctorReport) print(w io.Writer) {
	title := dialectNamed(r.agent).title
	for _, l := range r.lines {
		fmt.Fprintf(w, "%s: %s\n", r.agent, l)
	}
	for _, p := range append(r.blockers, r.problems...) {
		fmt.Fprintf(w, "%s: problem: %s\n", r.agent, p)
	}
	switch {
	case r.ok():
		fmt.Fprintf(w, "%s: gatekeep is in %s's loop\n", r.agent, title)
	case !r.found:
		fmt.Fprintf(w, "%s: gatekeep is NOT in %s's loop: no settings file installs `gatekeep hook %s` (run `gatekeep hook install %s`)\n",
			r.agent, title, r.agent, r.agent)
	default:
		fmt.Fprintf(w, "%s: gatekeep is NOT in %s's loop\n", r.agent, title)
	}
}

// hookEntry is one configured pre-tool hook command.
type hookEntry struct {
	file     string // the settings file
	matcher  *string
	command  string
	group    int // indices in the file, for Codex's trust key
	handler  int
	timeout  *int64 // Codex: seconds
	async    bool
	status   *string
	kind     string // "command", or another handler type
	disabled bool
}

func (e *doctorEnv) check(agent string) *doctorReport {
	r := &doctorReport{agent: agent}
	var entries []hookEntry
	switch agent {
	case "claude":
		entries = e.claudeHooks(r)
	case "codex":
		entries = e.codexHooks(r)
	case "gemini":
		entries = e.geminiHooks(r)
	}
	for _, h := range entries {
		argv, why := gatekeepArgv(h.command, agent)
		if why != "" {
			continue
		}
		r.found = true
		r.note("%s runs %s", h.file, h.command)
		good := true
		if h.kind != "command" {
			r.fail("%s: the gatekeep hook is of type %q, not command", h.file, h.kind)
			good = false
		}
		if h.disabled {
			r.fail("%s: the gatekeep hook is disabled", h.file)
			good = false
		}
		if !matchesEveryTool(agent, h.matcher) {
			r.fail("%s: the gatekeep hook's matcher %q does not cover every tool: use %s", h.file, *h.matcher, everyToolMatcher(agent))
			good = false
		}
		bin, err := resolveHookBinary(argv[0])
		switch {
		case err != nil:
			r.fail("%s: the hook's binary %s cannot run: %v", h.file, argv[0], err)
			good = false
		case !sameFile(bin, e.exe):
			r.note("the hook runs %s, not this binary (%s)", bin, e.exe)
		default:
			r.note("the hook runs this binary (%s)", e.exe)
		}
		if agent == "codex" && good {
			good = e.codexTrusted(r, h)
		}
		if good {
			if err := probeHook(agent, bin, argv[1:], e.cwd); err != nil {
				r.fail("the hook did not block the probe `rm -rf /` as %s needs: %v", dialectNamed(agent).title, err)
				good = false
			} else {
				r.note("the hook blocks the probe `rm -rf /`")
			}
		}
		r.working = r.working || good
	}
	if r.found && !r.working && len(r.problems) == 0 {
		r.fail("no gatekeep hook passes every check")
	}
	if r.working {
		// A problem with one hook does not matter when another works.
		r.problems = nil
	}
	return r
}

// gatekeepArgv splits a hook command into its argv when it runs gatekeep
// as agent's hook (`/path/gatekeep hook claude`): the command must be one
// simple command of static words, as gatekeep's own snippet is. Else it
// says why not.
func gatekeepArgv(command, agent string) ([]string, string) {
	sc, err := shellparse.Parse(command, shellparse.Options{})
	if err != nil || len(sc.Commands) != 1 {
		return nil, "not one simple command"
	}
	c := sc.Commands[0]
	if len(c.Args) < 3 || len(c.Assigns) > 0 || len(c.Redirects) > 0 || c.Parent >= 0 || len(c.Via) > 0 {
		return nil, "not gatekeep hook AGENT"
	}
	var argv []string
	for _, w := range c.Args {
		if w.Dynamic {
			return nil, "a word is only known when it runs"
		}
		argv = append(argv, w.Text)
	}
	base := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	if base != "gatekeep" || argv[1] != "hook" || argv[2] != agent {
		return nil, "not gatekeep hook " + agent
	}
	return argv, ""
}

// resolveHookBinary finds the file a hook's argv[0] runs.
func resolveHookBinary(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return p, nil
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// matchesEveryTool: the hook's matcher covers every tool. Claude Code and
// Gemini CLI take "", "*" or none; Codex none, "" or "*" (its matcher is a
// regular expression otherwise).
func matchesEveryTool(agent string, m *string) bool {
	return m == nil || *m == "" || *m == "*" || agent != "claude" && *m == ".*"
}

func everyToolMatcher(agent string) string {
	if agent == "codex" {
		return "no matcher"
	}
	return `"*"`
}

// probeHook runs the hook (bin with args, no shell) on a pre-tool payload
// for Bash `rm -rf /` and checks that the answer blocks the call in the
// agent's protocol.
func probeHook(agent, bin string, args []string, cwd string) error {
	tool, event := "Bash", "PreToolUse"
	if agent == "gemini" {
		tool, event = "run_shell_command", "BeforeTool"
	}
	payload, _ := json.Marshal(map[string]any{
		"session_id": "gatekeep-doctor", "cwd": cwd, "hook_event_name": event, "permission_mode": "default",
		"tool_name": tool, "tool_input": map[string]any{"command": "rm -rf /"}, "tool_use_id": "gatekeep-doctor",
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(hookTimeout)*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	c.Dir = cwd
	c.Stdin = bytes.NewReader(payload)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return err
	}
	if code == ExitHookBlock && strings.TrimSpace(errb.String()) != "" {
		return nil // a block in all three protocols
	}
	if code != 0 {
		return fmt.Errorf("exit status %d (%s)", code, strings.TrimSpace(errb.String()))
	}
	var ans struct {
		Decision string `json:"decision"`
		HSO      struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &ans); err != nil {
		return fmt.Errorf("no answer on stdout (%q)", strings.TrimSpace(out.String()))
	}
	switch {
	case agent == "claude" && ans.HSO.PermissionDecision == "deny",
		agent == "gemini" && (ans.Decision == "deny" || ans.Decision == "block"),
		agent == "codex" && ans.HSO.PermissionDecision == "deny":
		return nil
	}
	return fmt.Errorf("the answer does not block: %s", strings.TrimSpace(out.String()))
}

// readJSONSettings reads a JSON settings file; a missing file is nil.
func readJSONSettings(r *doctorReport, path string) map[string]any {
	b, err := policy.ReadRegular(path, config.MaxConfigSize) // never blocks on a FIFO
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		r.note("%s cannot be read: %v", path, err)
		return nil
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		r.note("%s is not valid JSON (%v): the agent may ignore it", path, err)
		return nil
	}
	r.note("read %s", path)
	return v
}

// jsonHookEntries lists the command hooks of event in a JSON settings
// file's "hooks" (Claude Code's and Gemini CLI's shape; Codex's hooks.json).
func jsonHookEntries(file string, settings map[string]any, event string) []hookEntry {
	hooks, _ := settings["hooks"].(map[string]any)
	groups, _ := hooks[event].([]any)
	var out []hookEntry
	for gi, g := range groups {
		gm, _ := g.(map[string]any)
		var matcher *string
		if m, ok := gm["matcher"].(string); ok {
			matcher = &m
		}
		handlers, _ := gm["hooks"].([]any)
		for hi, h := range handlers {
			hm, _ := h.(map[string]any)
			cmd, _ := hm["command"].(string)
			kind, _ := hm["type"].(string)
			e := hookEntry{file: file, matcher: matcher, command: cmd, group: gi, handler: hi, kind: kind}
			if t, ok := hm["timeout"].(float64); ok {
				n := int64(t)
				e.timeout = &n
			}
			e.async, _ = hm["async"].(bool)
			if s, ok := hm["statusMessage"].(string); ok {
				e.status = &s
			}
			out = append(out, e)
		}
	}
	return out
}

// --- Claude Code ---

// claudeHooks reads Claude Code's settings files
// (https://code.claude.com/docs/en/settings#settings-files): managed,
// user ($CLAUDE_CONFIG_DIR or ~/.claude), and the project's shared and
// local files in the working directory.
func (e *doctorEnv) claudeHooks(r *doctorReport) []hookEntry {
	managed := "/etc/claude-code/managed-settings.json"
	switch runtime.GOOS {
	case "darwin":
		managed = "/Library/Application Support/ClaudeCode/managed-settings.json"
	case "windows":
		managed = `C:\Program Files\ClaudeCode\managed-settings.json`
	}
	userDir := pathguard.AgentHomesOf(e.getenv, e.home).Claude
	files := []string{managed, filepath.Join(userDir, "settings.json"),
		filepath.Join(e.cwd, ".claude", "settings.json"), filepath.Join(e.cwd, ".claude", "settings.local.json")}
	var out []hookEntry
	managedOnly := false
	for i, f := range files {
		s := readJSONSettings(r, f)
		if s == nil {
			continue
		}
		if v, _ := s["disableAllHooks"].(bool); v {
			r.block("%s sets disableAllHooks: no hook runs", f)
		}
		if v, _ := s["allowManagedHooksOnly"].(bool); v && i == 0 {
			managedOnly = true
		}
		if managedOnly && i > 0 {
			if len(jsonHookEntries(f, s, "PreToolUse")) > 0 {
				r.note("%s: its hooks are ignored (allowManagedHooksOnly in %s)", f, managed)
			}
			continue
		}
		out = append(out, jsonHookEntries(f, s, "PreToolUse")...)
		if len(jsonHookEntries(f, s, claudeSkillEvent)) == 0 && len(jsonHookEntries(f, s, "PreToolUse")) > 0 {
			r.note("%s: no %s hook, so commands skills run inline are not checked (Claude Code 2.1.332 and later)", f, claudeSkillEvent)
		}
	}
	return out
}

// --- Gemini CLI ---

// geminiHooks reads Gemini CLI's settings files
// (https://geminicli.com/docs/get-started/configuration): system, user
// (~/.gemini) and project (.gemini in the working directory, honoured in
// a trusted folder).
func (e *doctorEnv) geminiHooks(r *doctorReport) []hookEntry {
	system := "/etc/gemini-cli/settings.json"
	switch runtime.GOOS {
	case "darwin":
		system = "/Library/Application Support/GeminiCli/settings.json"
	case "windows":
		system = `C:\ProgramData\gemini-cli\settings.json`
	}
	if p := e.getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); p != "" {
		system = p
	}
	files := []string{system, filepath.Join(pathguard.AgentHomesOf(e.getenv, e.home).Gemini, "settings.json"), filepath.Join(e.cwd, ".gemini", "settings.json")}
	var out []hookEntry
	var disabled []string
	for _, f := range files {
		s := readJSONSettings(r, f)
		if s == nil {
			continue
		}
		if hc, ok := s["hooksConfig"].(map[string]any); ok {
			if v, ok := hc["enabled"].(bool); ok && !v {
				r.block("%s sets hooksConfig.enabled to false: no hook runs", f)
			}
			if list, ok := hc["disabled"].([]any); ok {
				for _, d := range list {
					if s, ok := d.(string); ok {
						disabled = append(disabled, s)
					}
				}
			}
		}
		entries := jsonHookEntries(f, s, "BeforeTool")
		hooks, _ := s["hooks"].(map[string]any)
		groups, _ := hooks["BeforeTool"].([]any)
		for i := range entries {
			if g, ok := groups[entries[i].group].(map[string]any); ok {
				if hs, ok := g["hooks"].([]any); ok {
					if h, ok := hs[entries[i].handler].(map[string]any); ok {
						name, _ := h["name"].(string)
						entries[i].disabled = name != "" && slices.Contains(disabled, name) || slices.Contains(disabled, entries[i].command)
					}
				}
			}
		}
		out = append(out, entries...)
	}
	return out
}

// --- Codex ---

// codexHooks reads Codex's hook layers
// (https://developers.openai.com/codex/hooks; codex-rs/hooks/src/engine/discovery.rs):
// the system config (/etc/codex/config.toml, managed: trusted as it is),
// the user's ($CODEX_HOME, default ~/.codex) config.toml and hooks.json,
// and the project's .codex/ in the working directory when the user config
// trusts the project.
func (e *doctorEnv) codexHooks(r *doctorReport) []hookEntry {
	home := pathguard.AgentHomesOf(e.getenv, e.home).Codex
	e.codexUser = filepath.Join(home, "config.toml")
	e.codexState, e.codexManaged = nil, map[string]bool{}
	var out []hookEntry
	userCfg := readTOMLSettings(r, e.codexUser)
	if userCfg != nil {
		if hooks, ok := userCfg["hooks"].(map[string]any); ok {
			if st, ok := hooks["state"].(map[string]any); ok {
				e.codexState = st
			}
		}
	}
	system := "/etc/codex/config.toml"
	if s := readTOMLSettings(r, system); s != nil {
		for _, h := range tomlHookEntries(system, s) {
			e.codexManaged[h.file] = true
			out = append(out, h)
		}
	}
	out = append(out, tomlHookEntries(e.codexUser, userCfg)...)
	if s := readJSONSettings(r, filepath.Join(home, "hooks.json")); s != nil {
		out = append(out, jsonHookEntries(filepath.Join(home, "hooks.json"), s, "PreToolUse")...)
	}
	proj := filepath.Join(e.cwd, ".codex")
	if _, err := os.Stat(proj); err == nil {
		trusted := false
		if projects, ok := userCfg["projects"].(map[string]any); ok {
			for dir, v := range projects {
				if m, ok := v.(map[string]any); ok && m["trust_level"] == "trusted" && (dir == e.cwd || strings.HasPrefix(e.cwd, dir+string(filepath.Separator))) {
					trusted = true
				}
			}
		}
		if !trusted {
			r.note("%s is ignored: the project is not trusted in %s", proj, e.codexUser)
		} else {
			f := filepath.Join(proj, "config.toml")
			out = append(out, tomlHookEntries(f, readTOMLSettings(r, f))...)
			if s := readJSONSettings(r, filepath.Join(proj, "hooks.json")); s != nil {
				out = append(out, jsonHookEntries(filepath.Join(proj, "hooks.json"), s, "PreToolUse")...)
			}
		}
	}
	return out
}

// readTOMLSettings reads a TOML file; a missing file is nil.
func readTOMLSettings(r *doctorReport, path string) map[string]any {
	b, err := policy.ReadRegular(path, config.MaxConfigSize) // never blocks on a FIFO
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		r.note("%s cannot be read: %v", path, err)
		return nil
	}
	var v map[string]any
	if err := config.CheckTOMLShape(path, b); err != nil {
		r.note("%s cannot be read: %v", path, err)
		return nil
	}
	if err := toml.Unmarshal(b, &v); err != nil {
		r.note("%s is not valid TOML (%v): Codex refuses to start with it", path, err)
		return nil
	}
	r.note("read %s", path)
	return v
}

// tomlHookEntries lists the [[hooks.PreToolUse]] command hooks of a Codex
// config.toml.
func tomlHookEntries(file string, cfg map[string]any) []hookEntry {
	hooks, _ := cfg["hooks"].(map[string]any)
	groups, _ := hooks["PreToolUse"].([]map[string]any)
	var out []hookEntry
	for gi, g := range groups {
		var matcher *string
		if m, ok := g["matcher"].(string); ok {
			matcher = &m
		}
		handlers, _ := g["hooks"].([]map[string]any)
		for hi, h := range handlers {
			cmd, _ := h["command"].(string)
			kind, _ := h["type"].(string)
			e := hookEntry{file: file, matcher: matcher, command: cmd, group: gi, handler: hi, kind: kind}
			if t, ok := h["timeout"].(int64); ok {
				e.timeout = &t
			}
			e.async, _ = h["async"].(bool)
			if s, ok := h["statusMessage"].(string); ok {
				e.status = &s
			}
			out = append(out, e)
		}
	}
	return out
}

// codexTrusted checks that Codex runs the hook: a hook from a managed
// layer always; any other only when the user config records, under
// [hooks.state."FILE:pre_tool_use:GROUP:HANDLER"], the trusted_hash of the
// hook as it is now (a person trusts it in Codex's /hooks) and does not
// disable it. `codex exec --dangerously-bypass-hook-trust` skips the
// check; doctor does not count on it.
func (e *doctorEnv) codexTrusted(r *doctorReport, h hookEntry) bool {
	if e.codexManaged[h.file] {
		r.note("the hook is managed (%s): Codex trusts it", h.file)
		return true
	}
	key := fmt.Sprintf("%s:pre_tool_use:%d:%d", h.file, h.group, h.handler)
	want := codexHookHash(h)
	state, _ := e.codexState[key].(map[string]any)
	if v, ok := state["enabled"].(bool); ok && !v {
		r.fail("the hook is disabled in %s ([hooks.state.%q] enabled = false)", e.codexUser, key)
		return false
	}
	got, _ := state["trusted_hash"].(string)
	switch {
	case got == want:
		r.note("the hook is trusted in %s", e.codexUser)
		return true
	case got == "":
		r.fail("the hook is not trusted, so Codex does not run it (codex exec drops it without a word): "+
			"open codex, run /hooks and trust it (%s records [hooks.state.%q] trusted_hash = %q)", e.codexUser, key, want)
	default:
		r.fail("the hook changed since it was trusted, so Codex does not run it: open codex, run /hooks and trust it again "+
			"(%s records [hooks.state.%q] trusted_hash = %q, the hook now hashes to %q)", e.codexUser, key, got, want)
	}
	return false
}

// codexHookHash is the hash Codex records when a person trusts a command
// hook (codex-rs/hooks/src/engine/discovery.rs, command_hook_hash, and
// codex-rs/config/src/fingerprint.rs, version_for_toml): the identity
// {event_name, matcher, hooks: [handler]}, with the handler normalized
// (timeout defaults to 600, at least 1; async false; no commandWindows)
// and absent options left out, as JSON with every object's keys sorted,
// no spaces, hashed with SHA-256: "sha256:HEX".
func codexHookHash(h hookEntry) string {
	timeout := int64(600)
	if h.timeout != nil {
		timeout = max(*h.timeout, 1)
	}
	handler := map[string]any{"type": "command", "command": h.command, "timeout": timeout, "async": h.async}
	if h.status != nil {
		handler["statusMessage"] = *h.status
	}
	identity := map[string]any{"event_name": "pre_tool_use", "hooks": []any{handler}}
	if h.matcher != nil {
		identity["matcher"] = *h.matcher
	}
	var b strings.Builder
	canonicalJSON(&b, identity)
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// canonicalJSON writes v as serde_json writes it, with object keys
// sorted: no spaces; strings escape only '"', '\\' and control characters.
func canonicalJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			canonicalJSON(b, k)
			b.WriteByte(':')
			canonicalJSON(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			canonicalJSON(b, e)
		}
		b.WriteByte(']')
	case string:
		b.WriteByte('"')
		for _, r := range x {
			switch {
			case r == '"':
				b.WriteString(`\"`)
			case r == '\\':
				b.WriteString(`\\`)
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\r':
				b.WriteString(`\r`)
			case r == '\t':
				b.WriteString(`\t`)
			case r == '\b':
				b.WriteString(`\b`)
			case r == '\f':
				b.WriteString(`\f`)
			case r < 0x20:
				fmt.Fprintf(b, `\u%04x`, r)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	}
}
