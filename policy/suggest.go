package policy

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// Suggestion is what answering "always allow" to an ask would save: one
// allow rule per part that asked, each the narrowest that still covers this
// call. Rules is empty and Unavailable says why when "always"
// cannot be offered.
type Suggestion struct {
	Rules       []string `json:"rules,omitempty"`
	Unavailable string   `json:"unavailable,omitempty"`
}

// Suggest works out the "always allow" rules for req, and checks that with
// them saved to the local config file (localFile, a rule at its end) the
// identical call would be allowed with no prompt. root and home resolve
// relative and `~` patterns as the loader does. It is Decide's
// Answer.Suggestions for a call of one request.
func Suggest(cfg *Config, req Request, root, home, localFile string) Suggestion {
	if cfg == nil {
		return Suggestion{Unavailable: "no configuration"}
	}
	return Decide(cfg, Query{Requests: []Request{req}, Suggest: &SuggestTarget{Root: root, Home: home, File: localFile}}).Suggestions[0]
}

// howToAllow tells a person how the call could be allowed next time: the
// `gatekeep rules add` command (to run in root) with the rules of the
// requests that ask, the narrowest that cover every part that asked and
// that were checked to decide the next identical call; or why no rule can.
func (a *Answer) howToAllow(root string) string {
	var rules []string
	for i, d := range a.Parts {
		if d.Effect != Ask {
			continue
		}
		if d.Final {
			return "its input cannot be checked, so no rule can allow it: split or simplify the call"
		}
		sugg := a.Suggestions[min(i, len(a.Suggestions)-1)]
		if sugg.Unavailable != "" {
			hint := "no allow rule can be suggested: " + sugg.Unavailable
			if d.Layer == LayerSandbox {
				hint += " (only bypassPermissions mode lets it through)"
			}
			return hint
		}
		for _, r := range sugg.Rules {
			if !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
	}
	if len(rules) == 0 {
		return "no allow rule can be suggested for it"
	}
	return fmt.Sprintf("to allow it, run in %s: %s", root, shellparse.JoinArgv(append([]string{"gatekeep", "rules", "add"}, rules...)))
}

// AgentToolRule is the allow rule for an agent's own tool that only the
// mode asked about, which a rule of the tool's form does not cover:
// WebFetch(domain:HOST) for a fetch, the bare name for any other tool
// (mcp__server__tool, Task), since a bare Tool rule matches every call of
// it and that is as narrow as such a tool gets. "" for the built-in tools.
func AgentToolRule(req Request) string {
	switch {
	case req.Tool == "" || BuiltinTool(req.Tool):
		return ""
	case req.Tool == "WebFetch":
		u, err := url.Parse(req.URL)
		if err != nil || u.Hostname() == "" || strings.ContainsAny(u.Hostname(), "*()") {
			return ""
		}
		return "WebFetch(domain:" + strings.ToLower(u.Hostname()) + ")"
	}
	if req.URL != "" || req.Path != "" || strings.ContainsAny(req.Tool, "()*?[] \t\n\"'") {
		return ""
	}
	return req.Tool
}

// BuiltinTool reports the tools gatekeep judges by their effect: the
// shell and the file tools, under any agent's name for them.
func BuiltinTool(tool string) bool {
	switch tool {
	case ToolBash, ToolRead, ToolWrite, ToolEdit, "ReadFile", "WriteFile":
		return true
	}
	return false
}

// suggest works out the "always allow" rules for the call's parts, judging
// each part again (a part of an argument suffix counts here too), and the
// configuration with them saved to the local config file; next is nil
// when no rule can be suggested, and the Suggestion says why.
func (e *evaluation) suggest(parts []part, to *SuggestTarget) (Suggestion, *Config) {
	var rules []string
	for i := range parts {
		p := &parts[i]
		d := e.decide(i, p)
		switch {
		case d.Effect == Allow:
			continue
		case p.cmd == nil && p.guess && p.substOnly && d.Layer == LayerMode:
			continue // covered by the rule for its command (coveredArgument)
		case d.Effect == Deny:
			return Suggestion{Unavailable: fmt.Sprintf("part of the call is denied (%s), so no rule can allow it", d.Code)}, nil
		case d.Layer == LayerSandbox && d.Code == CodeSandboxRuntimeTarget:
			return Suggestion{Unavailable: "where it writes is only known at run time, so no rule can describe it"}, nil
		case d.Layer == LayerSandbox && d.Code == CodeSandboxRootDelete:
			return Suggestion{Unavailable: "it deletes a sandbox root or .git whole, which is asked about every time"}, nil
		case d.Layer == LayerSandbox:
			return Suggestion{Unavailable: "it writes a protected path, which is asked about every time"}, nil
		case d.Layer == LayerRules:
			return Suggestion{Unavailable: fmt.Sprintf("the %s rule %s asks first, and a local rule cannot override it", d.Rule.Source, d.Rule.Rule)}, nil
		case d.Layer != LayerMode:
			return Suggestion{Unavailable: "this ask cannot be turned into a rule"}, nil
		}
		rule, why := e.ruleFor(p)
		if why != "" {
			return Suggestion{Unavailable: why}, nil
		}
		if !slices.Contains(rules, rule) {
			rules = append(rules, rule)
		}
	}
	if len(rules) == 0 {
		return Suggestion{Unavailable: "nothing in the call asked"}, nil
	}
	with, err := e.cfg.Rules.withLocal(rules, to.Root, to.Home, to.File)
	if err != nil {
		return Suggestion{Unavailable: "the rule would not load: " + err.Error()}, nil
	}
	next := *e.cfg
	next.Rules = with
	return Suggestion{Rules: rules}, &next
}

// ruleFor is the narrowest allow rule for one part that asked.
func (e *evaluation) ruleFor(p *part) (string, string) {
	if p.cmd == nil && p.tool != ToolBash && p.tool != ToolRead && p.tool != ToolWrite && p.tool != ToolEdit {
		// Another tool: the tool itself, or for a web fetch its host.
		if p.url != "" {
			u, err := url.Parse(p.url)
			if err != nil || u.Hostname() == "" {
				return "", "the address has no host"
			}
			return p.tool + "(domain:" + strings.ToLower(u.Hostname()) + ")", ""
		}
		return p.tool, ""
	}
	if p.cmd == nil {
		if p.dynamic || p.path == "" {
			return "", "the path is only known at run time"
		}
		tool := "Write"
		if p.access == cmdmodel.Read {
			tool = "Read"
		}
		real := e.cfg.Guard.Check(p.dir, p.path).Real
		if real == "" {
			return "", "the path cannot be resolved"
		}
		return tool + "(" + escapeGlob(filepath.ToSlash(real)) + ")", ""
	}
	c := p.cmd
	if len(c.Args) > 0 && !c.Args[0].Dynamic && !c.Bare() && c.Unknown == "" {
		return "", "allow rules match a command by its bare name found through PATH, never by a path (" +
			c.Args[0].Text + "): run it by name from a directory on PATH, or answer each call"
	}
	if c.Unknown != "" || c.StdinCode || c.TrailingArgs || !c.Bare() || !substOnlyFrom(c, 1) || p.dynamic {
		return "", "the command is only known at run time, so no rule can describe it"
	}
	if why := e.notRuleContext(c); why != "" {
		return "", "allow rules never match a command with " + why
	}
	argv := c.Argv()
	name := argv[0]
	// A command with a word that runs code (go test -exec CMD) is saved
	// as the exact form: a `*` rule would not cover that word.
	if cmdmodel.ExactOnly(name) || shellparse.IsShell(name) || cmdmodel.IsInterpreter(name) || c.IsWrapper() ||
		len(cmdmodel.CodeWords(&c.Command, c.IsWrapper())) > 0 || slices.ContainsFunc(argv[1:], func(w string) bool { return riskyWord(name, w) }) {
		if c.HasDynamic(1) {
			return "", "the command's code or arguments are only known at run time, so no rule can describe it"
		}
		return "Bash(" + patternWords(argv) + ")", ""
	}
	keep := 1
	if len(argv) > 1 && isSubcommand(argv[1]) {
		keep = 2
		if len(argv) > 2 && cmdmodel.HasSubSubcommands(name, argv[1]) && isSubcommand(argv[2]) {
			keep = 3
		}
	}
	if slices.ContainsFunc(c.Args[1:keep], func(w shellparse.Word) bool { return w.Dynamic }) {
		// A word built by a substitution is covered only by a final `*`
		// before it (coversAll).
		return "", "the command is only known at run time, so no rule can describe it"
	}
	if keep == len(argv) {
		return "Bash(" + patternWords(argv) + " *)", ""
	}
	return "Bash(" + patternWords(argv[:keep]) + " *)", ""
}

// riskyLong are the long options that turn a command into the form deny
// and ask rules are written for (`Bash(git push --force *)`):
// forcing, deleting, rewriting, skipping hooks, recursing. A call that
// carries one is saved as its exact form, so "always" never allows the
// whole family (`Bash(git push *)` would allow every later force push).
var riskyLong = []string{"force", "force-with-lease", "force-if-includes", "mirror", "delete", "hard", "merge",
	"keep", "no-verify", "prune", "prune-tags", "recursive", "no-preserve-root", "amend", "all", "exec", "upload-pack",
	"receive-pack"}

// riskyWord reports a word of the command name's argv that makes its
// suggestion the exact form: a riskyLong option (or an unambiguous
// prefix of one, `--forc`), a short cluster holding f, r, R, D or d (force,
// recursive, delete), and for git a refspec that forces or deletes
// (`+main`, `:main`).
func riskyWord(name, w string) bool {
	switch {
	case strings.HasPrefix(w, "--") && len(w) > 2:
		opt, _, _ := strings.Cut(w[2:], "=")
		return slices.ContainsFunc(riskyLong, func(r string) bool { return len(opt) >= 3 && strings.HasPrefix(r, opt) })
	case strings.HasPrefix(w, "-") && len(w) > 1:
		return strings.ContainsAny(w[1:], "frRDd")
	case cmdmodel.IsGit(name):
		return cmdmodel.ForcingRefspec(w)
	}
	return false
}

// isSubcommand: a word that names a subcommand, not an option, a path or a
// value.
func isSubcommand(w string) bool {
	if w == "" || strings.HasPrefix(w, "-") || strings.ContainsAny(w, "/.=:@") {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// patternWords renders words for a Bash pattern: `*` escaped as `\*`, and
// a word holding anything but plain characters single-quoted.
func patternWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		w = strings.ReplaceAll(w, "*", `\*`)
		if w == "" || strings.ContainsFunc(w, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:=@%+,-\\", r))
		}) {
			w = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		out[i] = w
	}
	return strings.Join(out, " ")
}

// withLocal returns a copy of the rule set with allow rules appended to the
// local layer (the end of the file, so they win inside it).
func (rs *RuleSet) withLocal(texts []string, root, home, file string) (*RuleSet, error) {
	c := NewCompiler(root, home)
	var added []*Rule
	for i, t := range texts {
		r, err := c.Rule(t, RuleRef{Rule: t, Effect: Allow, Source: SourceLocal, File: file, Index: -1 - i})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		r.Trusted, r.Active = true, true
		added = append(added, r)
	}
	out := &RuleSet{layers: make([][]*Rule, len(Sources))}
	if rs != nil {
		for i := range rs.layers {
			out.layers[i] = append([]*Rule(nil), rs.layers[i]...)
		}
		out.danger, out.kinds = rs.danger, rs.kinds
	}
	out.Add(SourceLocal, added, nil)
	return out, nil
}

// CheckRules compiles rule texts as the loader would, and reports the first
// that does not compile.
func CheckRules(texts []string, root, home string) error {
	_, err := (*RuleSet)(nil).withLocal(texts, root, home, "")
	return err
}
