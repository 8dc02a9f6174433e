package policy

import (
	"fmt"
	"slices"
)

// Query is one tool call to decide, with what the caller knows besides
// the configuration: the call's requests, whether the input can be
// analysed, the kernel enforcement in force and the machine's tier, and
// where an "always allow" rule would be saved.
type Query struct {
	// Requests are the call: one request, or an agent tool's several (a
	// patch of several files, a multi-edit).
	Requests []Request
	// Opaque marks input gatekeep cannot analyse (PowerShell): the call
	// asks, and no mode lets it through, unless a rule decided it.
	Opaque bool
	// Enforce is the kernel enforcement of a call gatekeep runs itself;
	// the zero value (a hook's call, which the agent runs) confines
	// nothing and auto-allows nothing.
	Enforce EnforceQuery
	// Suggest, when set, asks for the "always allow" rules of each
	// request that asks (Answer.Suggestions), checked against the local
	// config file it names.
	Suggest *SuggestTarget
}

// EnforceQuery is what Decide needs to choose how a call runs confined.
type EnforceQuery struct {
	// Settings are the `[sandbox]` keys of the configuration.
	Settings EnforceSettings
	// Level is the enforcement the flags and the environment ask for
	// (--enforce, GATEKEEP_ENFORCE); the strictest of it and
	// Settings.Enforce holds.
	Level EnforceLevel
	// Tier is the tier a confined call would run in on this machine
	// ("full", "landlock" or "none"); it is called only when a call may be
	// confined (probing the machine has a cost). Nil confines nothing.
	Tier func() string
	// ProbedTier is the tier the machine's full probe finds: a call is
	// auto-allowed only where the full tier is known to work. Nil
	// auto-allows nothing.
	ProbedTier func() string
	// NetworkEnv is what the network tools' own configuration is read
	// from: a network tool whose destinations are all on
	// Settings.AllowedHosts is auto-allowed (network.go).
	NetworkEnv NetworkEnv
}

// SuggestTarget is where an "always allow" rule would be saved: the local
// config file, and the root and home directory its patterns resolve
// against, as the loader resolves them.
type SuggestTarget struct {
	Root, Home, File string
	// Untrusted is set when File exists and is not trusted: a rule saved
	// there would not apply, so none is suggested.
	Untrusted bool
}

// Tier names of kernel enforcement, as the enforcing package names them.
const (
	TierFull     = "full"
	TierLandlock = "landlock"
	TierNone     = "none"
)

// Answer is the whole answer for one call.
type Answer struct {
	// Decision is the call's: the strictest of Parts, with auto-allow,
	// opaque input and required enforcement applied. With no requests it
	// is the zero Decision, a deny.
	Decision Decision
	// Parts are the requests' own decisions, in order (one Decision for
	// opaque input).
	Parts []Decision
	// Explicit is true when every request was allowed by a layer that
	// allows on its own authority (Decision.Explicit: the safe list, an
	// allow rule, the plan exception), not by the mode's fallback; false
	// with no requests.
	Explicit bool
	// Bypass is true when the Decision asks and bypassPermissions lets
	// it through without asking anyone: the ask is not final.
	Bypass bool
	// Confine is how the call runs under kernel enforcement; nil runs it
	// unconfined with nothing to say.
	Confine *Confinement
	// Suggestions are, with Query.Suggest, each request's "always allow"
	// rules (or why there are none), aligned with Parts.
	Suggestions []Suggestion
	// HowToAllow is, with Query.Suggest and a Decision that asks, the
	// sentence that tells a person how the call could be allowed next
	// time: the `gatekeep rules add` command with the Suggestions' rules,
	// or why no rule can.
	HowToAllow string
}

// Confinement is how one call runs under kernel enforcement.
type Confinement struct {
	// Level is the enforcement in force for the call.
	Level EnforceLevel
	// Tier is the tier it runs in; TierNone runs it unconfined.
	Tier string
	// Plan is set when the paths the call may write, read and must not
	// touch are to be worked out from the project (every tier but none).
	Plan bool
	// Network lets the call open sockets other than Unix ones.
	Network bool
	// RequireFull forbids falling back to the landlock tier when the full
	// tier fails at run time (an auto-allowed call).
	RequireFull bool
	// Limits are what the call's plan adds to the tier's own limits, in
	// lowercase sentences.
	Limits []string
	// Unconfined says why a call enforcement would have confined runs
	// unconfined on this machine ("" when it is confined).
	Unconfined string
	// BypassUnconfined is set when bypassPermissions would confine the
	// call (its text does not show all it does) and the machine has no
	// working Landlock: it runs unconfined.
	BypassUnconfined bool
}

// Decide decides one call from one parse of each request: the chain, then
// `[sandbox] auto_allow` from the parts' final steps, opaque input, the
// enforcement the call runs under, and with q.Suggest the "always allow"
// rules. A request's Trace asks for the trace of every layer
// (Decision.Trace); it is recorded during the one evaluation. Decide
// never panics on any input: a panic inside a layer becomes a deny.
func Decide(cfg *Config, q Query) Answer {
	if cfg == nil {
		cfg = &Config{Mode: ModeDefault}
	}
	a := Answer{Parts: make([]Decision, 0, len(q.Requests)), Explicit: len(q.Requests) > 0}
	autoAllow := q.Enforce.Settings.AutoAllow && q.Enforce.ProbedTier != nil && len(q.Requests) == 1
	for i, req := range q.Requests {
		var w *wants
		if q.Suggest != nil || req.Tool == ToolBash && (autoAllow || q.Enforce.Tier != nil && len(q.Enforce.Settings.Unconfined) > 0) {
			w = &wants{suggest: q.Suggest, autoAllow: autoAllow && req.Tool == ToolBash, unconfined: q.Enforce.Settings.Unconfined,
				hosts: q.Enforce.Settings.AllowedHosts, env: q.Enforce.NetworkEnv}
		}
		d, f := evaluateDialects(cfg, req, w)
		if w != nil && w.autoAllow {
			d = q.autoAllow(req, d, f)
		}
		if q.Suggest != nil {
			a.Suggestions = append(a.Suggestions, q.suggestion(req, d, w, f))
		}
		a.Parts = append(a.Parts, d)
		if d.Effect != Allow || !d.Explicit {
			a.Explicit = false
		}
		if i == 0 || d.Effect < a.Decision.Effect { // Deny < Ask < Allow
			a.Decision = d
		}
		if len(q.Requests) == 1 && q.Enforce.Tier != nil {
			a.Decision, a.Confine = q.confine(cfg, req, a.Decision, f)
			a.Parts[0] = a.Decision
		}
	}
	if q.Opaque && len(q.Requests) > 0 {
		a.Decision, a.Explicit = opaqueDecision(a.Decision), false
		a.Parts = []Decision{a.Decision}
	}
	a.Bypass = a.Decision.Effect == Ask && !a.Decision.Final && cfg.Mode == ModeBypass
	if q.Suggest != nil && a.Decision.Effect == Ask {
		a.HowToAllow = a.howToAllow(q.Suggest.Root)
	}
	return a
}

// opaqueDecision turns a decision about a call gatekeep cannot analyse
// (PowerShell) into an ask that no mode lets through, unless a rule
// decided it.
func opaqueDecision(d Decision) Decision {
	if d.Layer == LayerRules || d.Effect == Deny && d.Layer != LayerMode {
		return d
	}
	d.Effect, d.Layer, d.Code, d.Final = Ask, LayerInput, CodeInputUnanalysed, true
	d.Message = "PowerShell commands cannot be analysed, so they need approval; a PowerShell rule can allow or deny them"
	d.Explicit = false
	return d
}

// Strictest is the enforcement in force: the strictest of the flags' and
// the configuration's, so that none of them can loosen what another asks
// for.
func (q EnforceQuery) Strictest() EnforceLevel {
	return max(q.Level, q.Settings.Enforce)
}

// autoAllow turns an ask into an allow that runs confined (`[sandbox]
// auto_allow`): only when every part that asks was asked about by the
// mode fallback (mode.ask, run-time parts included) and nothing was
// denied, the input could be analysed, the tier is full, no part throws
// away the project's uncommitted work or history (git reset --hard, git
// clean, git checkout --, find -delete, shred: the sandbox leaves the
// project writable, so it cannot undo them), no part is a known network
// tool while the sandbox has no network, unless every place it connects
// to is known and on allowed_hosts (that call keeps asking, with code
// sandbox.no_network; network.go), and no `unconfined` pattern names a part. It
// returns d unchanged otherwise. The parts' facts (f) come from the
// evaluation that made d.
func (q Query) autoAllow(req Request, d Decision, f callFacts) Decision {
	if d.Effect != Ask || d.Final || req.Tool != ToolBash || f.unanalysed {
		return d
	}
	for _, s := range d.Parts {
		switch {
		case s.Verdict == VerdictDeny:
			return d
		case s.Verdict == VerdictAsk && (s.Layer != LayerMode || s.Code != CodeModeAsk):
			return d
		}
	}
	if f.unconfined || f.destroys {
		return d
	}
	tier := q.Enforce.ProbedTier()
	if tier != TierFull {
		return d
	}
	if !q.Enforce.Settings.Network && f.network.ok {
		n := d
		n.Layer, n.Code = LayerSandbox, CodeSandboxNoNetwork
		n.Command, n.Offset = f.network.subject, f.network.offset
		n.Message = noNetworkMessage(f.network.subject, q.Enforce.Settings.AllowedHosts, f.network.missing) + ", so it is not run confined without asking: " + d.Message
		return n
	}
	a := d
	a.Effect, a.Layer, a.Code = Allow, LayerSandbox, CodeSandboxAutoAllow
	a.Message = "runs confined by the kernel (" + tier + " tier) instead of asking: " + d.Message
	a.Cause = &Cause{Layer: d.Layer, Code: d.Code, Message: d.Message}
	a.Explicit = false
	if d.Trace != nil {
		a.Trace = append(append([]Step(nil), d.Trace...), Step{Part: -1, Subject: "the call", Layer: LayerSandbox,
			Verdict: VerdictAllow, Code: a.Code, Message: a.Message})
	}
	return a
}

// confine decides how the call d allows (or asks for) runs under kernel
// enforcement, before anyone is asked: an auto-allowed call runs fully
// confined; a bypassPermissions call whose text does not show all it does
// runs confined with the network on (`[sandbox] bypass`); otherwise the
// enforcement level applies to the shell and the file tools, and a
// required level that no tier can meet turns d into a deny with
// sandbox.unavailable.
func (q Query) confine(cfg *Config, req Request, d Decision, f callFacts) (Decision, *Confinement) {
	s := q.Enforce.Settings
	level := q.Enforce.Strictest()
	if d.Code == CodeSandboxAutoAllow {
		return d, &Confinement{Level: EnforceRequired, Tier: TierFull, Plan: true, Network: s.Network, RequireFull: true}
	}
	if why, ok := bypassConfines(cfg, s, level, req, d); ok {
		tier := q.Enforce.Tier()
		if tier == TierNone {
			return d, &Confinement{Level: EnforceOff, Tier: TierNone, BypassUnconfined: true}
		}
		return d, &Confinement{Level: EnforceBestEffort, Tier: tier, Plan: true, Network: true,
			Limits: []string{"bypassPermissions runs it confined, since the text does not show all it does: " + why}}
	}
	if level == EnforceOff || d.Effect == Deny || !enforceable(req) {
		return d, nil
	}
	if f.unconfined {
		return d, &Confinement{Level: level, Tier: TierNone,
			Limits: []string{"a [sandbox] unconfined pattern names this command: it runs unconfined"}}
	}
	tier := q.Enforce.Tier()
	if req.Tool != ToolBash && tier != TierNone {
		// The file tools are gatekeep's own code: Landlock bounds its
		// writes in process; no namespace is made for them.
		tier = TierLandlock
	}
	if tier == TierNone {
		if level == EnforceRequired {
			return UnavailableDeny(d, "this machine has no working Landlock"), nil
		}
		return d, &Confinement{Level: level, Tier: TierNone, Unconfined: "this machine has no working Landlock"}
	}
	return d, &Confinement{Level: level, Tier: tier, Plan: true, Network: s.Network}
}

// enforceable reports whether a call of this tool can be confined: the
// shell and the file tools.
func enforceable(req Request) bool {
	switch req.Tool {
	case ToolBash, ToolRead, ToolWrite, ToolEdit:
		return true
	}
	return false
}

// bypassConfines reports whether a shell call that bypassPermissions lets
// through holds a part whose effects the text does not show
// (Decision.Opaque), so that its files, devices and secrets rest on the
// kernel instead (`[sandbox] bypass`, "confine" by default); why names the
// part. A call enforcement already confines is left to that.
func bypassConfines(cfg *Config, s EnforceSettings, level EnforceLevel, req Request, d Decision) (string, bool) {
	if cfg.Mode != ModeBypass || s.BypassOff || req.Tool != ToolBash ||
		d.Effect == Deny || d.Effect == Ask && d.Final || level != EnforceOff {
		return "", false
	}
	st, ok := d.Opaque()
	if !ok {
		return "", false
	}
	return st.Subject + " (" + st.Message + ")", true
}

// UnavailableDeny is the deny for a call that must be confined and
// cannot be (sandbox.unavailable); why says what failed.
func UnavailableDeny(d Decision, why string) Decision {
	return Decision{Effect: Deny, Layer: LayerSandbox, Code: CodeSandboxUnavailable,
		Message: "enforcement is required and the command cannot be confined: " + why,
		Command: d.Command, Offset: -1, Category: d.Category, Mode: d.Mode, UpdatedInput: d.UpdatedInput, Trace: d.Trace}
}

// wants is what Decide asks an evaluation to work out about the call's
// parts besides its Decision, from the same parse, before the evaluation
// is released.
type wants struct {
	// unconfined are the `[sandbox] unconfined` patterns to look for.
	unconfined []*Rule
	// autoAllow asks whether a part throws project work away or needs
	// the network.
	autoAllow bool
	// hosts and env judge a network tool's destinations for autoAllow.
	hosts AllowedHosts
	env   NetworkEnv
	// suggest asks for the "always allow" rules. The call's own dialect
	// works them out into sugg, and next is the configuration with them
	// saved, which every dialect's parts are judged again under.
	suggest *SuggestTarget
	sugg    Suggestion
	next    *Config
}

// callFacts is what one evaluation found about the call's parts for
// wants; evaluateDialects merges those of every dialect.
type callFacts struct {
	unanalysed bool // the call could not be split into parts
	unconfined bool // an `unconfined` pattern names a part
	destroys   bool // a part throws away the project's work or history
	network    struct {
		ok      bool
		subject string
		offset  int
		missing []string // its known destinations not on allowed_hosts
	} // the first part that is a known network tool
	// rejected is a dialect's decision under wants.next that does not
	// allow: the suggested rules would not decide the next identical call.
	rejected *Decision
}

// merge adds the facts of another dialect's evaluation: what any dialect
// finds holds.
func (f *callFacts) merge(x callFacts, first bool) {
	if first {
		*f = x
		return
	}
	f.unanalysed = f.unanalysed || x.unanalysed
	f.unconfined = f.unconfined || x.unconfined
	f.destroys = f.destroys || x.destroys
	if !f.network.ok {
		f.network = x.network
	}
	if f.rejected == nil {
		f.rejected = x.rejected
	}
}

// findFacts works out w over parts, the parts of a call that could be
// analysed, which the chain answered with eff. The steps it judges again (a suggestion) leave e's trace and
// final steps as they were.
func (e *evaluation) findFacts(w *wants, f *callFacts, parts []part, first bool, eff Effect) {
	for i := range parts {
		c := parts[i].cmd
		if c == nil {
			continue
		}
		if len(w.unconfined) > 0 && !f.unconfined && e.req.Tool == ToolBash {
			if s := e.subjectOf(&parts[i]); s != nil && slices.ContainsFunc(w.unconfined, func(r *Rule) bool { return r.match(s, Deny) }) {
				f.unconfined = true
			}
		}
		if w.autoAllow {
			if !f.destroys && destroysProjectWork(c, commandDirs(e.cwd, c)) {
				f.destroys = true
			}
			if !f.network.ok && needsNetwork(c) {
				// Admitted when every destination is known and on the list
				// (never with no list: nothing is read then).
				var missing []string
				admitted := false
				if !w.hosts.Empty() {
					if known, ok := knownDestinations(c, e.cwd, w.env); ok {
						missing = notAdmitted(known, w.hosts)
						admitted = len(missing) == 0
					}
				}
				if !admitted {
					f.network.ok, f.network.subject, f.network.offset = true, parts[i].subject, parts[i].offset
					f.network.missing = missing
				}
			}
		}
	}
	if w.suggest == nil {
		return
	}
	nf, nt := len(e.final), len(e.trace)
	defer func() { e.final, e.trace = e.final[:nf], e.trace[:nt] }()
	switch {
	case first && eff == Allow:
		// Every part that counts allows: a part of an argument suffix
		// that asks decides nothing.
		w.sugg = Suggestion{Unavailable: "nothing in the call asked"}
	case first:
		w.sugg, w.next = e.suggest(parts, w.suggest)
	}
	if w.next == nil {
		return
	}
	cfg := e.cfg
	e.cfg = w.next
	if d := e.judge(parts); d.Effect != Allow {
		f.rejected = &d
	}
	e.cfg = cfg
}

// suggestion is the "always allow" answer for req, decided d, whose
// evaluation found f. A request that only the mode asked about and that
// no rule of its own form describes gets its tool's rule
// (AgentToolRule).
func (q Query) suggestion(req Request, d Decision, w *wants, f callFacts) Suggestion {
	s := w.suggestion(f)
	switch {
	case d.Final:
		return Suggestion{Unavailable: "the call could not be analysed, so no rule can describe it"}
	case q.Suggest.Untrusted:
		return Suggestion{Unavailable: "the local config file is not trusted, so a rule saved there would not apply (gatekeep trust " + q.Suggest.File + ")"}
	case s.Unavailable != "" && d.Effect == Ask && d.Layer == LayerMode:
		if rule := AgentToolRule(req); rule != "" {
			return Suggestion{Rules: []string{rule}}
		}
	}
	return s
}

// suggestion is the "always allow" answer for a call whose facts are f.
func (w *wants) suggestion(f callFacts) Suggestion {
	if f.rejected != nil {
		return Suggestion{Unavailable: fmt.Sprintf("a saved rule would not decide the next identical call (%s: %s)", f.rejected.Code, f.rejected.Message)}
	}
	if w.sugg.Rules == nil && w.sugg.Unavailable == "" {
		return Suggestion{Unavailable: "the call could not be analysed, so no rule can describe it"}
	}
	return w.sugg
}
