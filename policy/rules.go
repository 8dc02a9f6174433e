package policy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// Config layers, highest precedence first: a managed policy above the
// user's, the user's above the project's. They name a rule's
// source in RuleRef.Source and a file in FileInfo.Source.
const (
	SourceManaged = "managed"
	SourceUser    = "user"
	SourceProject = "project"
	SourceLocal   = "local"
	SourceDefault = "default"
)

// Sources lists the config layers in the order they are scanned.
var Sources = []string{SourceManaged, SourceUser, SourceProject, SourceLocal, SourceDefault}

// Rule is one `Tool(pattern)` of a `[[rule]]` table. A table with a list
// (`deny = ["A", "B"]`) gives one Rule per item, sharing the table's Ref
// but for Ref.Rule.
type Rule struct {
	// Ref names the rule in Decisions: as written, effect, layer, file,
	// line of its [[rule]] header, index of the table, reason.
	Ref RuleRef `json:"ref"`
	// Tool is the tool name as written ("Bash", "Read", "WebFetch" ...).
	Tool string `json:"tool"`
	// Pattern is the text between the parentheses, "" for a bare tool.
	Pattern string `json:"pattern,omitempty"`
	// Trusted is false for a rule of a file that needs trust and lacks it.
	Trusted bool `json:"trusted"`
	// Active is false for an allow rule of an untrusted file: it is listed
	// but never matched.
	Active bool `json:"active"`

	// m is the compiled pattern; read it through matcher(), which
	// compiles a lazy rule (lazy set) on first use (lazyrule.go).
	m    matcher
	lazy *Compiler
	once sync.Once
	// first is the literal first word of a Bash pattern ("" for none, and
	// for every other tool): the rule index's key (ruleindex.go).
	first string
	// bash is a Bash rule's quick reject, when hasBash (not for a rule
	// that matches every command, nor for other tools).
	bash    bashKeys
	hasBash bool
	// piece is a file rule's quick reject: a literal, in lower case, that
	// every path the rule matches holds ("" for none; fileMatcher.piece),
	// and the byte pairs it holds (pairsOf), and toolKind(Tool) when
	// piece is set.
	piece      string
	piecePairs pairSet
	pieceKind  ruleKind
}

// DangerRule is one `[[danger]]` entry: a Go regexp (package regexp
// syntax, unanchored) over the normalized text of a simple command, that
// is its argv joined by single spaces, tried with the command name as
// written, as its basename, and for git without its global options. A match
// is a hard deny in the danger layer, from any layer, trusted or not.
type DangerRule struct {
	Ref RuleRef `json:"ref"`
	re  interface{ MatchString(string) bool }
}

// NewDangerRule is a `[[danger]]` entry: commands that re matches are
// denied by the danger layer, as ref says.
func NewDangerRule(ref RuleRef, re *regexp.Regexp) *DangerRule {
	return &DangerRule{Ref: ref, re: re}
}

// RuleSet is the Tool(pattern) rules and [[danger]] entries of every
// configuration layer. The zero value (and nil) has no rules.
type RuleSet struct {
	layers [][]*Rule // in Sources order; each layer in file order
	danger []*DangerRule
	kinds  uint8 // bit 1<<ruleKind for each kind of tool some rule names
	// idx is the rules indexed by what they can match (ruleIndex), built
	// on first use; Add drops it.
	idx atomic.Pointer[ruleIndex]
	// treeCands are the rules a tree walk checks files against
	// (treeCandidates), built on first use; Add drops them.
	treeCands atomic.Pointer[[]candidate]
}

// names reports whether some rule of kind k exists, so a decision skips
// building what rules of that kind would match.
func (rs *RuleSet) names(k ruleKind) bool { return rs.kinds&(1<<k) != 0 }

// Add appends a file's rules to its layer (source, one of Sources) and
// its [[danger]] entries to the danger list. Files of one layer are never
// more than one, but Add keeps their order if they were.
func (rs *RuleSet) Add(source string, rules []*Rule, danger []*DangerRule) {
	if rs.layers == nil {
		rs.layers = make([][]*Rule, len(Sources))
	}
	for i, s := range Sources {
		if s == source {
			rs.layers[i] = append(rs.layers[i], rules...)
		}
	}
	for _, r := range rules {
		rs.kinds |= 1 << toolKind(r.Tool)
	}
	rs.danger = append(rs.danger, danger...)
	rs.idx.Store(nil)
	rs.treeCands.Store(nil)
}

// Rules returns every rule in evaluation order: layer by layer (managed,
// user, project, local, default) and, inside a layer, from the last rule
// of the file to the first, since the last matching rule wins. Inactive
// rules (allow rules of untrusted files) are included with Active false.
func (rs *RuleSet) Rules() []*Rule {
	if rs == nil {
		return nil
	}
	var out []*Rule
	for _, layer := range rs.layers {
		for i := len(layer) - 1; i >= 0; i-- {
			out = append(out, layer[i])
		}
	}
	return out
}

// DangerRules returns the [[danger]] entries of every layer, in layer
// order.
func (rs *RuleSet) DangerRules() []*DangerRule {
	if rs == nil {
		return nil
	}
	return append([]*DangerRule(nil), rs.danger...)
}

// Danger reports the first [[danger]] entry whose pattern matches the
// normalized text of one simple command (argv joined by single spaces).
func (rs *RuleSet) Danger(cmdText string) (*RuleRef, bool) {
	if rs == nil {
		return nil, false
	}
	for _, d := range rs.danger {
		if d.re.MatchString(cmdText) {
			ref := d.Ref
			return &ref, true
		}
	}
	return nil, false
}

// configDanger is the part of the danger layer (3) that the configuration
// adds: the [[danger]] entries of every layer, over each normalized form of
// the command. dangerLayer calls it first.
func configDanger(e *evaluation, p *part) verdict {
	if p.cmd == nil || len(p.cmd.Args) == 0 || e.cfg.Rules == nil || len(e.cfg.Rules.danger) == 0 {
		return verdict{}
	}
	for _, words := range denyForms(p.cmd) {
		argv := make([]string, len(words))
		for i, w := range words {
			argv[i] = w.Text
		}
		if ref, ok := e.cfg.Rules.Danger(strings.Join(argv, " ")); ok {
			msg := "the command matches a dangerous pattern of the " + ref.Source + " config"
			if ref.Reason != "" {
				msg += ": " + reasonText(ref.Reason)
			}
			return verdict{ok: true, effect: Deny, code: CodeDangerConfigRegexp, message: msg, rule: ref}
		}
	}
	return verdict{}
}

// rulesLayer (5) answers from the first configuration layer with a matching
// rule.
func rulesLayer(e *evaluation, p *part) verdict {
	if v := e.ruleVerdict(p, Allow, Ask, Deny); v.ok {
		return v
	}
	if v := e.runtimeName(p); v.ok {
		return v
	}
	if v := e.runtimeObjects(p); v.ok {
		return v
	}
	return e.coveredArgument(p)
}

// coveredArgument allows a word that was only guessed to be a file
// (cmdmodel.FileEffect.Guess) and is built by command substitutions
// alone, when the allow rule that allows its command covers it: the
// message of `git commit -m "$(cat <<'EOF' ... EOF)"` under
// `Bash(git commit *)` is not a path (anthropics/claude-code#31373). The
// substitution's commands are parts of their own.
func (e *evaluation) coveredArgument(p *part) verdict {
	if p.cmd != nil || !p.guess || !p.substOnly || p.script == nil || p.index < 0 || p.index >= len(p.script.Commands) {
		return verdict{}
	}
	c := &p.script.Commands[p.index]
	cp := part{subject: commandText(c), offset: c.Offset, category: CatCommand, script: p.script, index: p.index,
		cmd: c, dir: p.dir, dynamic: c.DirDynamic, tool: ToolBash}
	v := e.ruleVerdict(&cp, Allow)
	if !v.ok {
		return verdict{}
	}
	v.message = "the argument " + clipText(p.path, 40) + " is built by commands judged on their own, and " + v.message + " covers it"
	return v
}

// decidingRule is the rule that decides subject s: the last matching rule
// of the first layer that has one, so a higher layer overrides a lower
// one whatever order the rules are read in. A file that needs trust and
// lacks it may only tighten: when its rule asks, the scan goes on, and a
// deny of a lower layer (the default secrets) wins over it.
func (rs *RuleSet) decidingRule(s *subject) *Rule {
	var untrusted *Rule
	ix := rs.index()
	for li, layer := range rs.layers {
		var c candidates
		ix.layers[li].candidates(&c, s, len(layer))
		for i := c.next(); i >= 0; i = c.next() {
			r := layer[i]
			if !r.Active || !r.match(s, r.Ref.Effect) {
				continue
			}
			switch {
			case untrusted != nil:
				if r.Ref.Effect == Deny {
					return r
				}
				return untrusted
			case !r.Trusted && r.Ref.Effect != Deny:
				untrusted = r
			default:
				return r
			}
			break
		}
	}
	return untrusted
}

// clipText shortens s to at most n bytes for a message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// ruleVerdict finds the rule that decides p (the first layer with a
// matching rule, and in it the last matching rule) and answers with
// it when its effect is one of effects; otherwise it gives no answer. The
// safe layer asks for Deny and Ask only, so a matching allow rule of a
// higher layer keeps a lower deny from stopping a safe command, as it
// would in this layer.
//
// Two kinds of allow rule decide without answering, so the chain goes on
// to the mode: an allow rule of the embedded default policy (its allow
// rules only carve exceptions out of its own denies, `.env.example` out of
// `.env.*`, and never open more than the mode does), and in plan mode an
// allow rule for a write or a command (plan mode is for reading: its
// writes and commands keep asking).
func (e *evaluation) ruleVerdict(p *part, effects ...Effect) verdict {
	rs := e.cfg.Rules
	if rs == nil || len(rs.layers) == 0 {
		return verdict{}
	}
	if p.cmd != nil && !rs.names(kindBash) {
		return verdict{} // no rule judges a command
	}
	s := e.subjectOf(p)
	if s == nil {
		return verdict{}
	}
	found := rs.decidingRule(s)
	if found == nil {
		return verdict{}
	}
	eff := found.Ref.Effect
	if eff == Allow && (found.Ref.Source == SourceDefault || e.cfg.planning() && p.category != CatRead) {
		return verdict{}
	}
	want := false
	for _, x := range effects {
		want = want || x == eff
	}
	if !want {
		return verdict{}
	}
	ref := found.Ref
	msg := ruleMessage(&ref)
	if s.tree != nil && eff != Allow {
		msg += "; " + s.tree.advice()
	}
	return verdict{ok: true, effect: eff, code: ruleCode(eff), message: msg, rule: &ref}
}

// ruleMessage says which rule decided, for the model.
func ruleMessage(r *RuleRef) string {
	var msg string
	switch r.Effect {
	case Allow:
		msg = fmt.Sprintf("allowed by the %s rule %s", r.Source, r.Rule)
	case Ask:
		msg = fmt.Sprintf("the %s rule %s asks for approval", r.Source, r.Rule)
	default:
		msg = fmt.Sprintf("denied by the %s rule %s", r.Source, r.Rule)
	}
	if r.Reason != "" {
		msg += ": " + reasonText(r.Reason)
	}
	return msg
}

// reasonText is a rule's reason as a message part: no final period.
func reasonText(s string) string {
	return strings.TrimRight(strings.TrimSpace(s), ".")
}

// denyForms are the argv forms deny and ask rules and [[danger]] entries
// are matched against, normalized toward denial so that another spelling
// of the same command cannot slip past a rule: as written,
// with the command name reduced to its basename (`/usr/bin/git`), and for
// git without its global options (`git -C dir push`).
func denyForms(c *shellparse.Command) [][]shellparse.Word {
	forms := [][]shellparse.Word{c.Args}
	if len(c.Args) == 0 {
		return forms
	}
	base := c.Args
	if name := c.Name(); name != c.Args[0].Text && !c.Args[0].Dynamic {
		base = slices.Clone(c.Args)
		base[0].Text = name
		forms = append(forms, base)
	}
	if cmdmodel.IsGit(base[0].Text) && !base[0].Dynamic {
		plain := base
		if stripped, ok := cmdmodel.StripGitGlobals(base); ok {
			forms = append(forms, stripped)
			plain = stripped
		}
		// Every spelling of git push's options: `-uf`,
		// `--forc`, `origin main --force` and `+main` are what a rule
		// `Bash(git push --force *)` or `Bash(git push -f *)` names.
		forms = append(forms, cmdmodel.GitPushForms(plain)...)
	}
	return forms
}
