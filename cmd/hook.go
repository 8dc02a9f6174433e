package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/agentcall"
	"github.com/gatekeep/gatekeep/policy/config"
	"github.com/gatekeep/gatekeep/prompt"
)

// maxHookInput is the largest hook payload read from stdin (4 MiB). A
// larger one is refused with exit 2: it blocks the call rather than being
// half read. (A Write of a file near that size is the one ordinary call
// that reaches it.)
const maxHookInput = 4 << 20

// hookCmd is `gatekeep hook claude|codex|gemini`, and `gatekeep hook
// print|install|uninstall AGENT`. In hook mode every failure exits 2 (ExitHookBlock) with one line
// on stderr: in all three agents exit 2 blocks the call, while any other
// non-zero status, a crash or a timeout lets it proceed.
func (a *app) hookCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "hook (claude|codex|gemini) | hook print (claude|codex|gemini)",
		Short: "Decide an agent's tool call from its hook JSON on stdin",
		Long: `Read a coding agent's pre-tool hook JSON on stdin, run the same decision
chain as check for that tool call, and answer in the agent's own dialect.
It never prompts.

  gatekeep hook claude    Claude Code PreToolUse and PreSkillShellCommand
  gatekeep hook codex     Codex CLI PreToolUse
  gatekeep hook gemini    Gemini CLI BeforeTool
  gatekeep hook print AGENT
                          print the settings snippet that installs the hook
  gatekeep hook install AGENT [--project] [--dry-run]
                          merge it into the agent's settings file, then doctor
  gatekeep hook uninstall AGENT [--project] [--dry-run]
                          take exactly gatekeep's entries out again

An allow is given only when gatekeep itself allowed the call (the safe
list, an allow rule, the plan exception), with the checked real path for a
file tool; when only the mode's fallback would allow it, the hook gives no
opinion and the agent's own permission flow runs. The permission mode the
agent reports only tightens gatekeep's own ([hooks] trust_agent_mode in the
managed or user config lets it loosen): when gatekeep's fallback asks and
the agent would not ask by itself, Claude Code and Gemini CLI are told to
ask and Codex gets a deny naming the rule that would allow the call. Any
failure (unreadable or oversized input, a missing field, a config error)
exits 2 with a one-line reason on stderr, which every one of these agents
treats as a block. gatekeep doctor AGENT checks the set-up.`,
		// An unknown agent reaches here: it must block, not exit 64.
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return hookFail(errors.New("hook needs an agent: claude, codex or gemini"))
			}
			return hookFail(fmt.Errorf("unknown agent %q (want claude, codex or gemini)", args[0]))
		},
		// Replaces the root's pre-run so that a bad GATEKEEP_* variable
		// blocks too.
		PersistentPreRunE: func(c *cobra.Command, _ []string) error {
			if err := a.readEnv(c.Flags().Changed); err != nil {
				if forPerson(c) {
					return err
				}
				return hookFail(err)
			}
			return nil
		},
	}
	c.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if forPerson(c) {
			return withCode(ExitUsage, err)
		}
		return hookFail(err)
	})
	for _, d := range dialects {
		c.AddCommand(&cobra.Command{
			Use:   d.name,
			Short: "Answer a " + d.title + " " + d.preEvent + " hook",
			RunE: func(_ *cobra.Command, args []string) error {
				if len(args) > 0 {
					return hookFail(fmt.Errorf("hook %s takes no arguments", d.name))
				}
				a.hookMode = true
				return a.runHook(d)
			},
		})
	}
	c.AddCommand(a.hookPrintCmd(), a.hookInstallCmd(false), a.hookInstallCmd(true))
	return c
}

// forPerson: a hook subcommand a person runs at a terminal (print,
// install, uninstall), whose errors are usage errors, not blocks.
func forPerson(c *cobra.Command) bool {
	return c.Name() == "print" || c.Name() == "install" || c.Name() == "uninstall"
}

// hookFail blocks the call: exit 2 and the error as one line on stderr.
func hookFail(err error) error {
	return withCode(ExitHookBlock, errors.New(oneLineReason(err.Error())))
}

// hookPayload holds the fields of a hook's stdin that gatekeep reads. The
// three agents share these names (see the dialect docs in hook_dialect.go).
type hookPayload struct {
	event   string // hook_event_name
	session string // session_id
	cwd     string
	mode    string // permission_mode (Claude Code, Codex)
	tool    string // tool_name
	input   map[string]json.RawMessage
	rawIn   json.RawMessage // tool_input as sent, for the audit log
	// Gemini CLI's mcp_context: the MCP server and its own name for the tool.
	mcpServer, mcpTool string
}

// hookDeadline is how long a hook call may take before it blocks: below
// the 30 s timeout `hook print` writes into every agent's settings, since an
// agent lets a call through when its hook times out.
// GATEKEEP_HOOK_DEADLINE (a Go duration) changes it.
const hookDeadline = 20 * time.Second

// runHook decides one hook call for dialect d. The whole decision, from
// reading stdin to the answer, runs under hookDeadline; running out blocks
// the call (exit 2). The answer is written only here, after the decision
// returned, so a late decision can never write over a block.
func (a *app) runHook(d *dialect) error {
	deadline := hookDeadline
	if v := os.Getenv("GATEKEEP_HOOK_DEADLINE"); v != "" {
		dl, err := time.ParseDuration(v)
		if err != nil || dl <= 0 {
			return hookFail(fmt.Errorf("GATEKEEP_HOOK_DEADLINE=%s is not a positive duration", strconv.Quote(v)))
		}
		deadline = dl
	}
	type result struct {
		ans  hookAnswer
		none bool // not a pre-tool event: say nothing
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: hookFail(fmt.Errorf("internal error, the call is blocked: %v", r))}
			}
		}()
		ans, none, err := a.decideHook(d)
		done <- result{ans, none, err}
	}()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil || r.none {
			return r.err
		}
		return d.write(a, r.ans)
	case <-timer.C:
		return hookFail(fmt.Errorf("the decision took longer than %s, so the call is blocked", deadline))
	}
}

// decideHook reads and decides one hook call. none is set for an event
// the dialect does not decide.
func (a *app) decideHook(d *dialect) (ans hookAnswer, none bool, err error) {
	data, err := readHookInput(a.stdin)
	if err != nil {
		return ans, false, hookFail(err)
	}
	p, err := parseHookPayload(data)
	if err != nil {
		return ans, false, hookFail(err)
	}
	if !d.handles(p.event) {
		// Not a pre-tool event: gatekeep has nothing to decide, and says
		// nothing, which allows nothing that was not asked about.
		return ans, true, nil
	}
	if err := p.checkPreTool(); err != nil {
		return ans, false, hookFail(err)
	}
	home, _ := os.UserHomeDir()
	m, err := agentcall.Map(p.call(home))
	if err != nil {
		return ans, false, hookFail(err)
	}
	c, err := a.hookConfig(p)
	if err != nil {
		return ans, false, hookFail(err)
	}
	for i := range m.Requests {
		if m.Requests[i].Tool == policy.ToolBash {
			m.Requests[i].Dialect = c.dialect
		}
	}
	c.m, c.payload = m, p
	q := policy.Query{Requests: m.Requests, Opaque: m.Opaque}
	if !d.canAsk {
		// A deny of an ask says how a person can allow the call.
		q.Suggest = &policy.SuggestTarget{Root: c.root, Home: home, File: config.LocalConfigPath(c.root)}
	}
	c.ans = policy.Decide(c.cfg, q)
	ans = answerFor(d, c)
	ans.event = p.event
	if err := a.auditHook(d.name, p, c.ans.Decision, ans); err != nil && ans.kind != answerDeny {
		return ans, false, hookFail(fmt.Errorf("cannot write the audit log, so the call is blocked: %w", err))
	}
	return ans, false, nil
}

// readHookInput reads all of stdin, at most maxHookInput bytes.
func readHookInput(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no hook input on stdin")
	}
	data, err := io.ReadAll(io.LimitReader(r, maxHookInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading the hook input: %w", err)
	}
	if len(data) > maxHookInput {
		return nil, fmt.Errorf("the hook input is over %d bytes", maxHookInput)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("no hook input on stdin")
	}
	return data, nil
}

// parseHookPayload decodes the hook JSON. Keys are matched exactly (Go's
// decoder would otherwise match "Command" for "command"), and input that
// is not valid UTF-8 is refused rather than silently repaired, so what is
// checked is what the agent sent.
func parseHookPayload(data []byte) (*hookPayload, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("the hook input is not valid UTF-8")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, errors.New("the hook input is not a JSON object")
	}
	if err := checkStrictJSON(data); err != nil {
		return nil, fmt.Errorf("the hook input is ambiguous: %w", err)
	}
	p := &hookPayload{}
	for _, f := range []struct {
		key string
		dst *string
	}{
		{"hook_event_name", &p.event}, {"session_id", &p.session}, {"cwd", &p.cwd},
		{"permission_mode", &p.mode}, {"tool_name", &p.tool},
	} {
		raw, ok := top[f.key]
		if !ok || string(raw) == "null" {
			continue
		}
		if err := json.Unmarshal(raw, f.dst); err != nil {
			return nil, fmt.Errorf("%s is not a string", f.key)
		}
	}
	if p.event == "" {
		return nil, errors.New("hook_event_name is missing")
	}
	if raw, ok := top["mcp_context"]; ok && string(raw) != "null" {
		var mc map[string]json.RawMessage
		if err := json.Unmarshal(raw, &mc); err != nil {
			return nil, errors.New("mcp_context is not a JSON object")
		}
		for _, f := range []struct {
			key string
			dst *string
		}{{"server_name", &p.mcpServer}, {"tool_name", &p.mcpTool}} {
			if v, ok := mc[f.key]; ok && string(v) != "null" {
				if err := json.Unmarshal(v, f.dst); err != nil {
					return nil, fmt.Errorf("mcp_context.%s is not a string", f.key)
				}
			}
		}
	}
	if raw, ok := top["tool_input"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &p.input); err != nil {
			return nil, errors.New("tool_input is not a JSON object")
		}
		p.rawIn = raw
	}
	return p, nil
}

// call is the tool call the payload reports, with home as the home
// directory a working directory's `~` expands to.
func (p *hookPayload) call(home string) agentcall.Call {
	return agentcall.Call{Tool: p.tool, Input: p.input, Cwd: p.cwd, Home: home, MCPServer: p.mcpServer, MCPTool: p.mcpTool}
}

// checkPreTool checks the fields a pre-tool call must have.
func (p *hookPayload) checkPreTool() error {
	switch {
	case p.tool == "":
		return errors.New("tool_name is missing")
	case p.input == nil:
		return errors.New("tool_input is missing")
	case p.cwd == "":
		return errors.New("cwd is missing")
	case !filepath.IsAbs(p.cwd):
		return fmt.Errorf("cwd %q is not an absolute path", p.cwd)
	}
	return nil
}

// hookConfig builds the policy configuration for the payload's working
// directory, with the agent's permission mode and shell
// (config.AgentInput), and returns it with the project root in a hookCall.
// The configuration is built for the payload's cwd (config.Build), never
// the process's: gatekeep runs wherever the agent started it.
func (a *app) hookConfig(p *hookPayload) (*hookCall, error) {
	// A call cannot run in a directory that is not there.
	if fi, err := os.Stat(p.cwd); err != nil {
		return nil, fmt.Errorf("entering the working directory: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("entering the working directory: %s is not a directory", p.cwd)
	}
	root := a.root
	if root == "" {
		// The agent's project, not the cwd the model moves with `cd`.
		root = agentProjectDir()
	}
	in := a.input(p.cwd, root)
	in.Agent = &config.AgentInput{PermissionMode: p.mode}
	b, err := a.build(in)
	if err != nil {
		var cf *configFailure
		var ee *exitError
		switch {
		case errors.As(err, &cf):
			errs := config.ConfigErrors(cf.err)
			if len(errs) > 0 {
				err = fmt.Errorf("the configuration is invalid (%d problem(s)): %s", len(errs), errs[0].Error())
			}
		case errors.As(err, &ee) && ee.err != nil:
			err = ee.err
		}
		return nil, fmt.Errorf("configuration error, the call is blocked: %w", err)
	}
	c := &hookCall{cfg: b.Config, root: p.cwd, trustedMode: b.TrustedAgentMode, dialect: b.AgentDialect}
	if b.Loaded.Root != "" {
		c.root = b.Loaded.Root
	}
	return c, nil
}

// agentProjectDir is the project directory the agent gives its hooks in
// the environment, "" when none (or not an absolute directory): Claude
// Code sets CLAUDE_PROJECT_DIR (https://code.claude.com/docs/en/hooks),
// Gemini CLI sets GEMINI_PROJECT_DIR (and CLAUDE_PROJECT_DIR as an alias).
// Codex sets none; the payload's cwd is all there is then.
func agentProjectDir() string {
	for _, k := range []string{"GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"} {
		v := os.Getenv(k)
		if !filepath.IsAbs(v) {
			continue
		}
		if fi, err := os.Stat(v); err == nil && fi.IsDir() {
			return filepath.Clean(v)
		}
	}
	return ""
}

// oneLineReason makes text fit on one line for stderr and JSON reasons,
// with control and invisible characters shown as escapes (prompt.RenderLine):
// an agent shows the reason on its own terminal.
func oneLineReason(s string) string {
	s = prompt.RenderLine(s)
	const max = 2000
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
