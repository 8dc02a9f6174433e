package policy

// AgentVerdict is what a hook tells its agent about a call.
type AgentVerdict uint8

const (
	AgentNone  AgentVerdict = iota // no opinion: the agent's own permission flow decides
	AgentAllow                     // gatekeep positively allowed the call
	AgentAsk                       // the agent should ask its person
	AgentDeny                      // the call is blocked
)

// Agent is what an agent says of itself and of a call in a hook, besides
// the call's requests.
type Agent struct {
	// CanAsk: the agent's hook protocol has an "ask" answer (Claude Code,
	// Gemini CLI; not Codex).
	CanAsk bool
	// PermissionMode is the payload's permission_mode ("" for none).
	PermissionMode string
	// TrustedMode: the agent's mode replaced gatekeep's own
	// (`[hooks] trust_agent_mode`), so Config.Mode is the agent's.
	TrustedMode bool
	// Inline marks a shell command a skill runs inline, which the agent
	// is not known to ask its person about.
	Inline bool
	// UI marks the agent's planning and conversation tools.
	UI bool
}

// ForAgent is what a hook tells the agent about the call a answers, made
// of reqs under cfg:
//
//   - deny: deny. One exception: in plan mode reported by the agent, the
//     mode's deny of one of the agent's own tools (ExitPlanMode, TodoWrite,
//     an MCP tool) is no opinion, since the agent's own plan mode knows
//     which of its tools plan; denying ExitPlanMode would keep the agent in
//     plan mode for good.
//   - ask: an ask bypassPermissions lets through (Answer.Bypass) is no
//     opinion. When only the mode's fallback asked and the agent's own
//     mode asks its person about such calls too, no opinion, so that its
//     own prompt (which also knows the person's allow list there) runs
//     once. Otherwise an agent that can ask is told to ask, and one that
//     cannot gets a deny (whose reason says how a person can allow the
//     call: Answer.HowToAllow).
//   - allow: allow only when gatekeep allowed it on its own authority
//     (Answer.Explicit); an allow that only the mode's fallback gave is no
//     opinion, so the agent's own permission prompt still runs.
//
// The agent's planning and conversation tools (Agent.UI) get no opinion
// when only the fallback decided.
func (a Answer) ForAgent(cfg *Config, reqs []Request, ag Agent) AgentVerdict {
	dec := a.Decision
	if ag.UI && dec.Layer == LayerMode {
		return AgentNone
	}
	switch dec.Effect {
	case Allow:
		if a.Explicit {
			return AgentAllow
		}
		return AgentNone
	case Ask:
		switch {
		case a.Bypass:
			return AgentNone
		case ag.CanAsk && onlyModeAsked(dec) && ag.asksToo(cfg, dec):
			return AgentNone
		case ag.CanAsk:
			return AgentAsk
		}
		return AgentDeny
	}
	if ag.PermissionMode == "plan" && dec.Layer == LayerMode && len(reqs) == 1 && !BuiltinTool(reqs[0].Tool) {
		return AgentNone
	}
	return AgentDeny
}

// asksToo reports whether the agent's own permission flow asks its person
// about every part of the call that gatekeep's fallback asked about, so
// that answering nothing still reaches a person.
func (ag Agent) asksToo(cfg *Config, d Decision) bool {
	if ag.Inline {
		return false
	}
	mode := ag.PermissionMode
	if ag.TrustedMode {
		mode = string(cfg.Mode)
	}
	for _, s := range d.Asking() {
		if !agentAsksFor(mode, s.Category) {
			return false
		}
	}
	return true
}

// onlyModeAsked: every part of the call that asked was asked about by the
// mode's fallback, not by a rule, the sandbox or the input check.
func onlyModeAsked(d Decision) bool {
	parts := d.Asking()
	for _, s := range parts {
		if s.Layer != LayerMode {
			return false
		}
	}
	return len(parts) > 0 && !d.Final
}

// agentAsksFor reports whether the agent's own permission flow, in the
// mode it reported, asks its person before a call of category cat
// without being told to: default and plan ask before writes and
// commands, acceptEdits before commands. bypassPermissions, auto, dontAsk,
// an unknown mode and no mode at all (Gemini CLI's payload carries none)
// are taken not to ask.
func agentAsksFor(mode string, cat Category) bool {
	switch mode {
	case "default", "plan":
		return cat != CatRead
	case "acceptEdits":
		return cat == CatCommand
	}
	return false
}
