package policy

import (
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// modelRule is a Bash pattern read by the command model, so that a rule
// matches every spelling the tool reads alike: the
// tool it names, the options it names (by their first name in the model,
// with a value pattern when it gives one) and its operands as a pattern.
// A deny or ask rule matches a command that, read by the same model, has
// every option the rule names — in any position and any spelling the
// tool accepts: a cluster, the short or long name, an unambiguous
// abbreviation, `--opt=value` — and operands the rule's operands match in
// order. `Bash(rm -rf *)` so matches `rm -fr x`, `rm -r -f x`,
// `rm --recursive --force x`; `Bash(git reset --hard *)` matches
// `git reset -q --hard` and `git reset HEAD --hard`. The command may give
// more options than the rule names (toward denial). A pattern whose tool
// has no complete model, or that holds a `*` inside an option, or that
// the model does not understand, keeps its textual match alone.
type modelRule struct {
	key   string
	opts  []cmdmodel.RuleOpt
	ops   []int32 // the operands as a token pattern
	trail []int32 // ops + a word break + any, when the pattern ends in " *"
}

// compileModelRule reads a Bash pattern's words (trailing " *" removed,
// escaped stars as litStar) by the command model, or returns nil.
func compileModelRule(words []string, trailing bool) *modelRule {
	if len(words) == 0 || strings.ContainsAny(words[0], "*"+litStar) {
		return nil
	}
	ws := make([]shellparse.Word, len(words))
	for i, w := range words {
		if strings.HasPrefix(w, "-") && strings.ContainsAny(w, "*"+litStar) && !optValueStar(w) {
			return nil
		}
		ws[i] = shellparse.Word{Text: w}
	}
	if cmdmodel.IsGit(ws[0].Text) {
		if stripped, ok := cmdmodel.StripGitGlobals(ws); ok {
			ws = stripped
		}
	}
	lines := cmdmodel.ReadRuleLines(ws, false)
	if len(lines) == 0 || !lines[0].Understood {
		return nil
	}
	l := lines[0]
	r := &modelRule{key: l.Key, opts: l.Opts}
	for i, w := range l.Operands {
		if i > 0 {
			r.ops = append(r.ops, tokSep)
		}
		r.ops = appendPatternToks(r.ops, w.Text)
	}
	if trailing {
		r.trail = slices.Clone(r.ops)
		if len(r.trail) > 0 {
			r.trail = append(r.trail, tokSep)
		}
		r.trail = append(r.trail, tokStar)
	}
	return r
}

// optValueStar reports whether a star in an option word stands only in
// its value (`--force-with-lease=*`): the option itself is named.
func optValueStar(w string) bool {
	opt, val, ok := strings.Cut(w, "=")
	return ok && strings.HasPrefix(opt, "--") && !strings.ContainsAny(opt, "*"+litStar) && val != ""
}

// appendPatternToks appends a pattern word's tokens: `*` any run, an
// escaped star (litStar) a literal one.
func appendPatternToks(toks []int32, w string) []int32 {
	for j, seg := range strings.Split(w, litStar) {
		if j > 0 {
			toks = append(toks, '*')
		}
		for k := 0; k < len(seg); k++ {
			if seg[k] == '*' {
				toks = append(toks, tokStar)
			} else {
				toks = append(toks, int32(seg[k]))
			}
		}
	}
	return toks
}

// match reports whether some reading of the command matches the rule.
func (r *modelRule) match(s *subject) bool {
	for i := range s.modelLines() {
		if r.matchLine(&s.lines[i]) {
			return true
		}
	}
	return false
}

func (r *modelRule) matchLine(l *cmdmodel.RuleLine) bool {
	if l.Key != r.key {
		return false
	}
	for _, want := range r.opts {
		if !hasRuleOpt(l, want) && !l.AnyOpt {
			return false
		}
	}
	f := makeForm(l.Operands, l.AnyOpt)
	if f.dyn {
		return overlap(r.ops, f.toks) || r.trail != nil && overlap(r.trail, f.toks)
	}
	return glob(r.ops, f.toks) || r.trail != nil && glob(r.trail, f.toks)
}

// hasRuleOpt reports whether the line gives the option the rule names,
// with a value the rule's value pattern matches when it gives one (a
// value only known at run time matches any).
func hasRuleOpt(l *cmdmodel.RuleLine, want cmdmodel.RuleOpt) bool {
	for _, o := range l.Opts {
		if o.Name != want.Name {
			continue
		}
		if !want.Has || o.Has && (o.Val.Dynamic || glob(appendPatternToks(nil, want.Val.Text), textToks(o.Val.Text))) {
			return true
		}
	}
	return false
}

func textToks(s string) []int32 {
	t := make([]int32, len(s))
	for i := 0; i < len(s); i++ {
		t[i] = int32(s[i])
	}
	return t
}

// modelLines returns the readings of the subject's command by the
// command model (cmdmodel.ReadRuleLines), computed on first use: its
// name as a basename, and for git without its global options.
func (s *subject) modelLines() []cmdmodel.RuleLine {
	if s.linesDone || s.cmd == nil {
		return s.lines
	}
	s.linesDone = true
	c := s.cmd
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return nil
	}
	words := slices.Clone(c.Args)
	words[0].Text = c.Name()
	if cmdmodel.IsGit(words[0].Text) {
		if stripped, ok := cmdmodel.StripGitGlobals(words); ok {
			words = stripped
		}
	}
	s.lines = cmdmodel.ReadRuleLines(words, c.TrailingArgs)
	return s.lines
}
