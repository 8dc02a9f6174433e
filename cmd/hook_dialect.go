package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/agentcall"
	"github.com/gatekeep/gatekeep/shellparse"
)

// answerKind is what a hook tells its agent.
type answerKind uint8

const (
	answerNone  answerKind = iota // no opinion: the agent's own permission flow decides
	answerAllow                   // gatekeep positively allowed the call
	answerAsk                     // the agent should ask its person (Claude Code, Gemini CLI)
	answerDeny                    // the call is blocked
)

func (k answerKind) String() string {
	return [...]string{"none", "allow", "ask", "deny"}[k]
}

// hookAnswer is the answer and the reason shown with it.
type hookAnswer struct {
	kind   answerKind
	reason string
	event  string // the hook_event_name answered
	// input is, on an allow of a file tool, the agent's tool_input with
	// its path replaced by the real absolute path gatekeep checked
	// (updatedInput); nil otherwise.
	input map[string]json.RawMessage
}

// dialect is one agent's hook protocol.
type dialect struct {
	name     string   // the argument: claude, codex, gemini
	title    string   // the agent's name for people
	preEvent string   // hook_event_name of the pre-tool event
	more     []string // other events that carry a tool call to decide
	canAsk   bool     // the protocol has an "ask" answer
	write    func(a *app, ans hookAnswer) error
}

// handles reports whether event is one that d decides.
func (d *dialect) handles(event string) bool {
	return event == d.preEvent || slices.Contains(d.more, event)
}

// claudeSkillEvent is Claude Code's event for a shell command a skill runs
// inline (tool_name Bash or PowerShell, tool_input.command, command_name,
// invoked_by). Its ask keeps the command from running, as does its deny;
// no answer lets it run.
const claudeSkillEvent = "PreSkillShellCommand"

var dialects = []*dialect{
	{name: "claude", title: "Claude Code", preEvent: "PreToolUse", more: []string{claudeSkillEvent}, canAsk: true, write: writeClaude},
	{name: "codex", title: "Codex", preEvent: "PreToolUse", write: writeCodex},
	{name: "gemini", title: "Gemini CLI", preEvent: "BeforeTool", canAsk: true, write: writeGemini},
}

func dialectNamed(name string) *dialect {
	for _, d := range dialects {
		if d.name == name {
			return d
		}
	}
	return nil
}

// hookCall is one decided hook call.
type hookCall struct {
	cfg         *policy.Config
	payload     *hookPayload
	m           agentcall.Mapping
	ans         policy.Answer      // policy.Decide's answer for m.Requests
	root        string             // the project root
	trustedMode bool               // [hooks] trust_agent_mode: the agent's mode replaced gatekeep's
	dialect     shellparse.Dialect // the dialect of the agent's shell commands (config.AgentInput)
}

// answerFor renders policy.Answer.ForAgent as what the hook tells the
// agent, with gatekeep's reason.
func answerFor(d *dialect, c *hookCall) hookAnswer {
	dec := c.ans.Decision
	ag := policy.Agent{CanAsk: d.canAsk, TrustedMode: c.trustedMode, UI: c.m.UI}
	if c.payload != nil {
		ag.PermissionMode, ag.Inline = c.payload.mode, c.payload.event == claudeSkillEvent
	}
	switch c.ans.ForAgent(c.cfg, c.m.Requests, ag) {
	case policy.AgentAllow:
		return hookAnswer{kind: answerAllow, reason: "gatekeep allowed this call: " + describeDecision(dec), input: updatedInput(c)}
	case policy.AgentAsk:
		return hookAnswer{kind: answerAsk, reason: "gatekeep asks before this call: " + describeDecision(dec)}
	case policy.AgentDeny:
		if dec.Effect == policy.Ask {
			return hookAnswer{kind: answerDeny, reason: fmt.Sprintf("gatekeep needs a person's approval for this call and %s cannot ask, so it is denied: %s; %s",
				d.title, describeDecision(dec), c.ans.HowToAllow)}
		}
		return hookAnswer{kind: answerDeny, reason: "gatekeep denied this call: " + describeDecision(dec)}
	}
	return hookAnswer{kind: answerNone}
}

// updatedInput is the agent's tool_input with the file path replaced by
// the real absolute path gatekeep checked, for a file tool with one path;
// nil otherwise.
func updatedInput(c *hookCall) map[string]json.RawMessage {
	if c.m.PathKey == "" || len(c.ans.Parts) != 1 || c.payload == nil || c.ans.Parts[0].UpdatedInput == nil {
		return nil
	}
	real := c.ans.Parts[0].UpdatedInput.Path
	if real == "" || !filepath.IsAbs(real) {
		return nil
	}
	b, err := json.Marshal(real)
	if err != nil {
		return nil
	}
	out := make(map[string]json.RawMessage, len(c.payload.input))
	for k, v := range c.payload.input {
		out[k] = v
	}
	out[c.m.PathKey] = b
	return out
}

// describeDecision is the decision's message with its code, the part of the
// call it is about when that is not the whole call, and the rule's reason.
func describeDecision(d policy.Decision) string {
	s := d.Message
	if d.Rule != nil && d.Rule.Reason != "" && !strings.Contains(s, d.Rule.Reason) {
		s += " (" + d.Rule.Reason + ")"
	}
	s += " [" + d.Code + "]"
	if d.Effect != policy.Allow && d.Command != "" && d.UpdatedInput != nil && d.UpdatedInput.Tool == policy.ToolBash &&
		d.Command != d.UpdatedInput.Command {
		s += " at: " + d.Command
	}
	return oneLineReason(s)
}

// Claude Code, PreToolUse: https://code.claude.com/docs/en/hooks#pretooluse
// (decision control: https://code.claude.com/docs/en/hooks#pretooluse-decision-control).
// Exit 0 with {"hookSpecificOutput":{"hookEventName":"PreToolUse",
// "permissionDecision":"allow|deny|ask","permissionDecisionReason":"...",
// "updatedInput":{...}}} on stdout. "allow" skips Claude's permission
// prompt (but not its deny or ask rules) and runs the tool with
// updatedInput when given, "deny" blocks and shows the reason to Claude,
// "ask" shows the reason in the prompt (a headless session refuses). Exit
// 0 without output gives no opinion. Exit 2 blocks with stderr as the
// reason; any other status, or a timeout, lets the call proceed unless the
// hook is configured with onFailure "block". PreSkillShellCommand answers
// the same way under its own hookEventName (its updatedInput is never
// applied and would keep the command from running, so none is sent).
func writeClaude(a *app, ans hookAnswer) error {
	if ans.kind == answerNone {
		return nil
	}
	type hso struct {
		HookEventName            string                     `json:"hookEventName"`
		PermissionDecision       string                     `json:"permissionDecision"`
		PermissionDecisionReason string                     `json:"permissionDecisionReason"`
		UpdatedInput             map[string]json.RawMessage `json:"updatedInput,omitempty"`
	}
	event := ans.event
	if event == "" {
		event = "PreToolUse"
	}
	out := hso{event, ans.kind.String(), ans.reason, ans.input}
	if event == claudeSkillEvent {
		out.UpdatedInput = nil
	}
	return writeHookJSON(a, struct {
		HookSpecificOutput hso `json:"hookSpecificOutput"`
	}{out})
}

// Codex, PreToolUse: https://developers.openai.com/codex/hooks#pretooluse
// (parser: openai/codex codex-rs/hooks/src/engine/output_parser.rs,
// events/pre_tool_use.rs). Codex blocks on exit 2 with a non-empty stderr,
// or on exit 0 with a JSON permissionDecision "deny" and a non-empty
// reason. It takes "allow" only together with updatedInput, and has no
// "ask": both of those others are reported as an invalid hook output and
// the call proceeds. So an allow is exit 0 without output, or the JSON
// allow with updatedInput when gatekeep has the checked path to give; no
// opinion is exit 0 without output; ask becomes a deny; and a deny is exit
// 2 with the reason on stderr: that path is the same in every Codex
// release with hooks, whereas a JSON answer that a later release's
// stricter schema rejected would fail open.
func writeCodex(a *app, ans hookAnswer) error {
	switch {
	case ans.kind == answerAllow && ans.input != nil:
		type hso struct {
			HookEventName      string                     `json:"hookEventName"`
			PermissionDecision string                     `json:"permissionDecision"`
			UpdatedInput       map[string]json.RawMessage `json:"updatedInput"`
		}
		return writeHookJSON(a, struct {
			HookSpecificOutput hso `json:"hookSpecificOutput"`
		}{hso{"PreToolUse", "allow", ans.input}})
	case ans.kind != answerDeny:
		return nil
	}
	fmt.Fprintln(a.stderr, oneLineReason(ans.reason))
	return silentExit(ExitHookBlock)
}

// Gemini CLI, BeforeTool: https://geminicli.com/docs/hooks/reference#beforetool
// (source: google-gemini/gemini-cli packages/core/src/hooks/types.ts and
// scheduler/hook-utils.ts, 0.61). Exit 0 with
// {"decision":"allow|deny|ask","reason":"..."} on stdout ("block" is an
// alias of deny); the reason of a deny is sent to the model as the tool's
// error. "ask" (0.61 and later) makes Gemini CLI ask its person, with
// systemMessage shown in the prompt, whatever its approval mode or its
// own policy engine says; a session with nobody to ask refuses the call.
// hookSpecificOutput.tool_input replaces the tool's input. Exit 0 without
// output gives no opinion; exit 2 blocks with stderr as the reason; any
// other status is a warning and the call proceeds.
func writeGemini(a *app, ans hookAnswer) error {
	type hso struct {
		HookEventName string                     `json:"hookEventName"`
		ToolInput     map[string]json.RawMessage `json:"tool_input"`
	}
	out := struct {
		Decision      string `json:"decision"`
		Reason        string `json:"reason"`
		SystemMessage string `json:"systemMessage,omitempty"`
		HSO           *hso   `json:"hookSpecificOutput,omitempty"`
	}{Reason: ans.reason}
	switch ans.kind {
	case answerNone:
		return nil
	case answerAllow:
		out.Decision = "allow"
		if ans.input != nil {
			out.HSO = &hso{"BeforeTool", ans.input}
		}
	case answerAsk:
		out.Decision, out.SystemMessage = "ask", ans.reason
	default:
		out.Decision = "deny"
	}
	return writeHookJSON(a, out)
}

// writeHookJSON writes v as one line of JSON on stdout.
func writeHookJSON(a *app, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return hookFail(fmt.Errorf("cannot render the answer: %w", err))
	}
	if _, err := a.stdout.Write(buf.Bytes()); err != nil {
		return hookFail(fmt.Errorf("cannot write the answer: %w", err))
	}
	return nil
}
