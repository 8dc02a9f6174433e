package policy

import (
	"fmt"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// Lint codes of LintRules.
const (
	LintShadowed        = "lint.shadowed"         // a later rule of the same file matches everything this one does
	LintDuplicate       = "lint.duplicate"        // the same rule, with the same effect, twice in one file
	LintAllowAll        = "lint.allow_all"        // an allow rule for every call of a tool
	LintOpenInterpreter = "lint.open_interpreter" // an allow rule that runs any code through a shell or interpreter
	LintUntrustedAllow  = "lint.untrusted_allow"  // an allow rule of an untrusted file, ignored until trusted
)

// Lint is a warning about a config that loads: a rule that never decides,
// or one that opens more than it seems to.
type Lint struct {
	Code string `json:"code"`
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Key  string `json:"key,omitempty"` // "rule[3]"
	Rule string `json:"rule,omitempty"`
	Msg  string `json:"message"`
}

// String renders "FILE:LINE: KEY: MSG".
func (l Lint) String() string {
	var b strings.Builder
	b.WriteString(l.File)
	if l.Line > 0 {
		fmt.Fprintf(&b, ":%d", l.Line)
	}
	if l.Key != "" {
		b.WriteString(": " + l.Key)
	}
	b.WriteString(": " + l.Msg)
	return b.String()
}

// LintRules checks the rules of every layer but the embedded default, in
// file order:
//   - a rule shadowed by a later rule of the same file that matches
//     everything it does (approximated: the same pattern with another
//     effect, or the later one is `Tool`/`Tool(*)`), since the last
//     matching rule wins;
//   - a rule repeated with the same effect;
//   - an allow rule for every command or every file (`Bash`, `Read(*)`);
//   - an allow rule that hands a shell, an interpreter or a wrapper any
//     arguments (`Bash(python *)`, `Bash(bash -c *)`, `Bash(sudo *)`): that
//     allows every program;
//   - an allow rule in a file that is not trusted, which is ignored.
func LintRules(rs *RuleSet) []Lint {
	if rs == nil {
		return nil
	}
	var out []Lint
	for li, layer := range rs.layers {
		if Sources[li] == SourceDefault {
			continue
		}
		for i, r := range layer {
			lint := func(code, format string, args ...any) {
				out = append(out, Lint{Code: code, File: r.Ref.File, Line: r.Ref.Line,
					Key: fmt.Sprintf("rule[%d]", r.Ref.Index), Rule: r.Ref.Rule, Msg: fmt.Sprintf(format, args...)})
			}
			for _, later := range layer[i+1:] {
				if !later.Active || sameKind(r, later) == "" {
					continue
				}
				same := ruleKey(r) == ruleKey(later)
				switch {
				case same && later.Ref.Effect == r.Ref.Effect:
					lint(LintDuplicate, "%s repeats the rule at line %d (rule[%d])", r.Ref.Rule, later.Ref.Line, later.Ref.Index)
				case same || matchesAll(later.matcher()):
					lint(LintShadowed, "%s never decides: %s %s at line %d (rule[%d]) comes later and matches everything it does",
						r.Ref.Rule, later.Ref.Effect, later.Ref.Rule, later.Ref.Line, later.Ref.Index)
				default:
					continue
				}
				break
			}
			if r.Ref.Effect != Allow {
				continue
			}
			if !r.Trusted {
				lint(LintUntrustedAllow, "%s is ignored until the file is trusted (gatekeep trust)", r.Ref.Rule)
			}
			if matchesAll(r.matcher()) {
				lint(LintAllowAll, "%s allows every %s call without asking", r.Ref.Rule, r.Tool)
				continue
			}
			if bm, ok := r.matcher().(*bashMatcher); ok && opensInterpreter(bm) {
				lint(LintOpenInterpreter, "%s lets %s run any code: allow the scripts or subcommands you mean instead", r.Ref.Rule, bm.words[0])
			}
		}
	}
	return out
}

// sameKind returns a non-empty key when a and b judge the same calls
// (Read and ReadFile alike; Write, WriteFile and Edit alike).
func sameKind(a, b *Rule) string {
	ka, kb := toolKind(a.Tool), toolKind(b.Tool)
	if ka != kb || ka == kindOther && a.Tool != b.Tool {
		return ""
	}
	return "x"
}

// ruleKey is a rule's pattern in a canonical form.
func ruleKey(r *Rule) string {
	k := toolKind(r.Tool)
	name := fmt.Sprint(k)
	if k == kindOther {
		name = r.Tool
	}
	switch m := r.matcher().(type) {
	case *bashMatcher:
		if m.all {
			return name + "\x00*"
		}
		return name + "\x00" + fmt.Sprint(m.toks, m.trail != nil)
	case *fileMatcher:
		if m.all {
			return name + "\x00*"
		}
		key := name
		for _, g := range m.globs {
			key += "\x00" + g.glob
		}
		return key
	case *toolMatcher:
		if m.all {
			return name + "\x00*"
		}
		return name + "\x00" + m.domain
	}
	return name + "\x00" + r.Pattern
}

func matchesAll(m matcher) bool {
	switch m := m.(type) {
	case *bashMatcher:
		return m.all
	case *fileMatcher:
		return m.all
	case *toolMatcher:
		return m.all
	}
	return false
}

// opensInterpreter reports whether an allow pattern gives a shell, an
// interpreter or a wrapper arbitrary arguments: a wildcard comes before
// any fixed operand (a script or module name) after the program.
func opensInterpreter(m *bashMatcher) bool {
	if len(m.words) == 0 {
		return false
	}
	name := m.words[0]
	if strings.Contains(name, "*") {
		return true
	}
	if !shellparse.IsShell(name) && !cmdmodel.IsInterpreter(name) && !cmdmodel.RunsWords(name) {
		return false
	}
	for _, w := range m.words[1:] {
		switch {
		case strings.Contains(w, "*"):
			return true
		case strings.HasPrefix(w, "-"):
			continue
		default:
			return false
		}
	}
	return m.endsWild
}
