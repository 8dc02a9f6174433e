package policy

import "fmt"

// Mode is the permission mode: the fallback when no earlier layer decided.
type Mode string

const (
	ModeDefault     Mode = "default"
	ModeAcceptEdits Mode = "acceptEdits"
	ModePlan        Mode = "plan"
	ModeCustom      Mode = "custom"
	ModeBypass      Mode = "bypassPermissions"
)

// Modes lists every mode in the order of the documentation.
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeCustom, ModeBypass}

// ParseMode reads a mode name; the empty string is ModeDefault.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return ModeDefault, nil
	}
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return ModeDefault, fmt.Errorf("unknown mode %q (want one of default, acceptEdits, plan, custom, bypassPermissions)", s)
}

// modeMatrix is what each mode answers for each category when no earlier
// layer decided (README, "Modes").
var modeMatrix = map[Mode]map[Category]Effect{
	ModeDefault:     {CatRead: Allow, CatWrite: Ask, CatCommand: Ask},
	ModeAcceptEdits: {CatRead: Allow, CatWrite: Allow, CatCommand: Ask},
	ModePlan:        {CatRead: Allow, CatWrite: Deny, CatCommand: Deny},
	ModeCustom:      {CatRead: Ask, CatWrite: Ask, CatCommand: Ask},
	ModeBypass:      {CatRead: Allow, CatWrite: Allow, CatCommand: Allow},
}

// ModeEffect is the mode's answer for a category. An unknown mode asks.
func ModeEffect(m Mode, c Category) Effect {
	if row, ok := modeMatrix[m]; ok {
		if e, ok := row[c]; ok {
			return e
		}
	}
	return Ask
}

// modeLayer (6) answers from the mode x category matrix. A part only known
// at run time is never allowed by it (bypassPermissions aside).
func modeLayer(e *evaluation, p *part) verdict {
	eff, mode := e.cfg.fallback(p.category)
	// A part only known at run time is never allowed by the fallback: a
	// dynamic redirect (`< $F`) may read a denied file or open a socket.
	if eff == Allow && p.dynamic && !e.cfg.bypassing() {
		eff = Ask
	}
	v := verdict{ok: true, effect: eff, code: modeCode(eff)}
	switch {
	case eff == Deny && mode == ModePlan:
		v.message = "plan mode is read-only: " + string(p.category) + " calls are denied until the plan is approved"
	case eff == Allow:
		v.message = modeSentence(mode, " mode allows ", p.category)
	case p.dynamic && p.why != "":
		v.message = p.why
	case p.dynamic:
		v.message = fmt.Sprintf("%s is only known at run time, so it needs approval", describe(p))
	default:
		v.message = modeSentence(mode, " mode asks before ", p.category)
	}
	return v
}

// AgentMode maps an agent's permission_mode onto gatekeep's modes, to
// tighten gatekeep's own (Config.AgentMode). Claude Code's are default,
// acceptEdits, plan, auto, dontAsk and bypassPermissions
// (https://code.claude.com/docs/en/permission-modes); Codex sends the same
// names (bypassPermissions for its approval policy "never"). auto, dontAsk
// and any other name count as bypassPermissions, the loosest: they only
// tighten nothing.
func AgentMode(m string) Mode {
	switch m {
	case "default":
		return ModeDefault
	case "acceptEdits":
		return ModeAcceptEdits
	case "plan":
		return ModePlan
	}
	return ModeBypass
}

// TrustedAgentMode maps an agent's permission_mode onto gatekeep's modes
// when `[hooks] trust_agent_mode` lets it replace gatekeep's own: auto,
// dontAsk and unknown names map to default, whose asks the agent then
// resolves its own way.
func TrustedAgentMode(m string) Mode {
	switch m {
	case "acceptEdits":
		return ModeAcceptEdits
	case "plan":
		return ModePlan
	case "bypassPermissions":
		return ModeBypass
	}
	return ModeDefault
}
