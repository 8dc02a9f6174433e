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

// modeMatrix is design §7: what each mode answers for each category when no
// earlier layer decided.
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
