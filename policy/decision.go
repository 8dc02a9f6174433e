package policy

import (
	"encoding/json"
	"fmt"
)

// Effect is the answer for a call. The zero value is Deny, so a Decision that
// was never filled in stops the call.
type Effect uint8

const (
	Deny Effect = iota
	Ask
	Allow
)

func (e Effect) String() string {
	switch e {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	}
	return "deny"
}

// MarshalText renders the effect as "allow", "ask" or "deny".
func (e Effect) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText reads "allow", "ask" or "deny".
func (e *Effect) UnmarshalText(b []byte) error {
	v, err := ParseEffect(string(b))
	*e = v
	return err
}

// ParseEffect reads "allow", "ask" or "deny".
func ParseEffect(s string) (Effect, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "ask":
		return Ask, nil
	case "deny":
		return Deny, nil
	}
	return Deny, fmt.Errorf("unknown effect %q (want allow, ask or deny)", s)
}

// stricter reports whether a should win over b: deny over ask over allow.
func stricter(a, b Effect) bool { return a < b }

// Layer names the part of the chain that decided.
type Layer string

const (
	LayerInput   Layer = "input"   // the call could not be analysed
	LayerConfig  Layer = "config"  // the configuration could not be loaded
	LayerPlan    Layer = "plan"    // 1: plan-mode exception
	LayerSafe    Layer = "safe"    // 2: safe read-only commands
	LayerDanger  Layer = "danger"  // 3: dangerous commands
	LayerSandbox Layer = "sandbox" // 4: path sandbox
	LayerRules   Layer = "rules"   // 5: Tool(pattern) rules
	LayerMode    Layer = "mode"    // 6: permission-mode fallback
	LayerHuman   Layer = "human"   // 7: the person (resolved by the caller)
	// LayerInternal is a bug in gatekeep, never a judgement; it denies.
	LayerInternal Layer = "internal"
)

// Layers is every Layer a Decision can name, the chain's in its order.
var Layers = []Layer{LayerInput, LayerConfig, LayerPlan, LayerSafe, LayerDanger, LayerSandbox, LayerRules, LayerMode, LayerHuman, LayerInternal}

// Category is what a call does, for the mode matrix.
type Category string

const (
	CatRead    Category = "read"
	CatWrite   Category = "write"
	CatCommand Category = "command"
)

// RuleRef names the configuration rule that decided.
type RuleRef struct {
	Rule   string `json:"rule"`             // as written: "Bash(git push *)"
	Effect Effect `json:"effect"`           // the rule's effect
	Source string `json:"source"`           // config layer: managed, user, project, local, default
	File   string `json:"file,omitempty"`   // the file it came from
	Line   int    `json:"line,omitempty"`   // 1-based line of its [[rule]] header
	Index  int    `json:"index"`            // 0-based index of its [[rule]] in the file
	Reason string `json:"reason,omitempty"` // the rule's reason, shown to the model
}

func (r *RuleRef) String() string {
	if r == nil {
		return ""
	}
	loc := r.Source
	if r.File != "" {
		loc = r.File
		if r.Line > 0 {
			loc = fmt.Sprintf("%s:%d", r.File, r.Line)
		}
	}
	return fmt.Sprintf("%s %s (%s)", r.Effect, r.Rule, loc)
}

// Decision is the chain's answer for one call.
type Decision struct {
	Effect Effect `json:"effect"`
	Layer  Layer  `json:"layer"`
	// Code is a stable dotted identifier: "danger.rm_root",
	// "sandbox.outside_root", "rule.deny", "mode.ask", "safe.read_only" ...
	Code string `json:"code"`
	// Message is a lowercase sentence for the model, without a final period.
	Message string   `json:"message"`
	Rule    *RuleRef `json:"rule,omitempty"`
	// Command is the offending sub-command (for a file tool, the path) and
	// Offset its byte offset in the call's command text.
	Command  string   `json:"command,omitempty"`
	Offset   int      `json:"offset"`
	Category Category `json:"category,omitempty"`
	Mode     Mode     `json:"mode"`
	// Final marks an ask that nothing may turn into allow, not even
	// bypassPermissions: input that could not be analysed.
	Final bool `json:"final,omitempty"`
	// Explicit marks an allow that is gatekeep's own judgement for every
	// part of the call (the safe list, an allow rule, the plan exception,
	// a write to /dev/null), not only the mode's fallback. The files a safe
	// command reads count as that command's. Hooks answer "allow" only
	// then, since an allow skips the agent's own prompt.
	Explicit bool `json:"explicit,omitempty"`
	// UpdatedInput is the normalized call: absolute paths, unwrapped argv.
	UpdatedInput *Input `json:"updated_input,omitempty"`
	// Cause is, for a decision that resolved an ask (no terminal, the
	// person declined, a timeout), the layer and reason that asked.
	Cause *Cause `json:"cause,omitempty"`
	// Trace is every layer's verdict for every part, in order, for
	// --explain; it is built only when the Request asks (Request.Trace).
	Trace []Step `json:"trace,omitempty"`
	// Parts is the verdict that ended each part's chain, in order (one per
	// part; none when the call could not be split into parts).
	Parts []Step `json:"-"`
}

// Opaque returns the first part of the call whose effects the text does
// not show in full, or that writes what a later unconfined run obeys, and
// false when there is none:
//
//   - a command part the mode decided (an interpreter's script, a program
//     the command model does not describe, a word that may name any file);
//   - a part whose path is only known at run time (a variable, a
//     substitution, a link made earlier in the same call), whichever
//     layer let it through;
//   - a part that asks because what it touches is only known at run time
//     (sandbox.runtime_target, a glob that reaches a denied file only
//     under other shell options);
//   - a write to a protected path (sandbox.protected): git's config and
//     hooks, agents' settings and rc files hold code that later runs
//     unconfined, so bypassPermissions lets the ask through only to the
//     kernel, which keeps them read-only.
//
// A part the safe layer allowed, a write whose every target was judged,
// and a rule's ask are shown in full. bypassPermissions runs a call with an
// opaque part confined where the kernel can (`[sandbox] bypass`).
func (d Decision) Opaque() (Step, bool) {
	opaque := func(s Step) bool {
		return s.Layer == LayerMode && (s.Category == CatCommand || s.runTime) ||
			s.Verdict == VerdictAsk && (s.Code == CodeSandboxRuntimeTarget || s.Code == CodeRuleDenyShellOption ||
				s.Code == CodeSandboxProtected)
	}
	if len(d.Parts) == 0 {
		s := Step{Subject: d.Command, Layer: d.Layer, Verdict: VerdictOf(d.Effect), Category: d.Category,
			Code: d.Code, Message: d.Message}
		return s, opaque(s)
	}
	for _, s := range d.Parts {
		if opaque(s) {
			return s, true
		}
	}
	return Step{}, false
}

// Asking returns the parts of the call that asked, each with the layer,
// code and reason that asked: what a prompt lists and a hook weighs. A
// call that asked as a whole (input that could not be analysed) is one
// part, the Decision itself.
func (d Decision) Asking() []Step {
	if len(d.Parts) == 0 {
		if d.Effect != Ask {
			return nil
		}
		return []Step{{Subject: d.Command, Layer: d.Layer, Verdict: VerdictOf(d.Effect), Category: d.Category,
			Code: d.Code, Message: d.Message, Rule: d.Rule}}
	}
	var out []Step
	for _, s := range d.Parts {
		if s.Verdict == VerdictAsk {
			out = append(out, s)
		}
	}
	return out
}

// Cause is the ask behind a decision that the human layer resolved.
type Cause struct {
	Layer   Layer  `json:"layer"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Input is the normalized form of a request.
type Input struct {
	Tool    string   `json:"tool"`
	Command string   `json:"command,omitempty"`
	Argv    []string `json:"argv,omitempty"`
	Path    string   `json:"path,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
}

// Verdict is one layer's answer in a Step: an Effect, or VerdictPass when
// the layer had no answer and the chain went on. The first three share
// Effect's values, so the zero Verdict is a deny, as the zero Effect is.
type Verdict uint8

const (
	VerdictDeny  = Verdict(Deny)
	VerdictAsk   = Verdict(Ask)
	VerdictAllow = Verdict(Allow)
	VerdictPass  = Verdict(Allow + 1)
)

// VerdictOf is the verdict that answers with e.
func VerdictOf(e Effect) Verdict { return Verdict(e) }

// String is the verdict's name: "allow", "ask", "deny" or "pass".
func (v Verdict) String() string {
	if v == VerdictPass {
		return "pass"
	}
	return Effect(v).String()
}

// MarshalText renders the verdict as its name (String).
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Step is one layer's verdict on one part of a call.
type Step struct {
	Part    int     `json:"part"`    // index of the part (sub-command or file effect)
	Subject string  `json:"subject"` // the sub-command text or path
	Layer   Layer   `json:"layer"`
	Verdict Verdict `json:"verdict"`
	// Category is the part's category (read, write, command).
	Category Category `json:"category,omitempty"`
	Code     string   `json:"code,omitempty"`
	Message  string   `json:"message,omitempty"`
	Rule     *RuleRef `json:"rule,omitempty"`
	// runTime: the part's path or command is only known at run time (a
	// variable, a substitution, a link made earlier in the call).
	runTime bool
}

// String renders a one-line summary.
func (d Decision) String() string {
	b, _ := json.Marshal(struct {
		E Effect `json:"effect"`
		C string `json:"code"`
		M string `json:"message"`
	}{d.Effect, d.Code, d.Message})
	return string(b)
}
