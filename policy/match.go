package policy

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mattn/go-shellwords"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// ruleKind is what a rule judges.
type ruleKind uint8

const (
	kindBash  ruleKind = iota + 1 // a simple command
	kindRead                      // a file read: the Read tool, or a shell read
	kindWrite                     // a file write: Write, Edit, or a shell write
	kindOther                     // any other tool, by name
)

// KnownTools are the tool names a rule, a [[test]] or `[plan] tools` may
// name, besides `mcp__server__tool` names: gatekeep's own (Bash, Read,
// ReadFile, Write, WriteFile, Edit) and those the supported agents' hooks
// send (Claude Code's tool list; Gemini CLI's and Codex's built-in tool
// names). A misspelt name is a config error rather than a rule that never
// matches.
var KnownTools = []string{
	ToolBash, ToolRead, "ReadFile", ToolWrite, "WriteFile", ToolEdit,
	// Claude Code
	"Agent", "Task", "Glob", "Grep", "LS", "MultiEdit", "NotebookEdit", "NotebookRead",
	"WebFetch", "WebSearch", "TodoWrite", "TodoRead", "ExitPlanMode", "EnterPlanMode", "BashOutput",
	"KillShell", "KillBash", "SlashCommand", "Skill", "AskUserQuestion", "PowerShell", "Monitor",
	// Gemini CLI
	"run_shell_command", "read_file", "read_many_files", "write_file", "replace", "glob",
	"search_file_content", "grep_search", "list_directory", "web_fetch", "google_web_search", "save_memory",
	"write_todos", "ask_user", "enter_plan_mode", "exit_plan_mode", "update_topic", "activate_skill",
	// Codex
	"shell", "local_shell", "exec_command", "write_stdin", "apply_patch", "update_plan", "view_image", "web_search",
}

// CheckToolName returns why name is not a tool name a config may use, or
// "".
func CheckToolName(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		// mcp__server (every tool of the server), mcp__server__tool, and
		// mcp__server__* or mcp__server__prefix* (a prefix of its tools).
		server, tool, _ := strings.Cut(rest, "__")
		if server == "" || !isToolName(strings.TrimSuffix(name, "*")) || strings.Count(name, "*") > 1 ||
			strings.HasSuffix(name, "*") && !strings.Contains(rest, "__") || strings.HasPrefix(tool, "*") && tool != "*" {
			return fmt.Sprintf("%q is not an MCP tool name (want mcp__server, mcp__server__tool, mcp__server__* or mcp__server__prefix*)", name)
		}
		return ""
	}
	if !isToolName(name) {
		return fmt.Sprintf("%q is not a tool name", name)
	}
	if slices.Contains(KnownTools, name) {
		return ""
	}
	for _, k := range KnownTools {
		if strings.EqualFold(k, name) {
			return fmt.Sprintf("unknown tool %q (did you mean %q?)", name, k)
		}
	}
	return fmt.Sprintf("unknown tool %q (want Bash, Read, Write, Edit, another agent tool such as WebFetch, or mcp__server__tool)", name)
}

// isToolName: a letter, then letters, digits, `_` and `-`.
func isToolName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case i > 0 && (c >= '0' && c <= '9' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return s != ""
}

func toolKind(tool string) ruleKind {
	switch tool {
	case ToolBash:
		return kindBash
	case ToolRead, "ReadFile":
		return kindRead
	case ToolWrite, "WriteFile", ToolEdit:
		return kindWrite
	}
	return kindOther
}

// IsFileTool reports whether name is a file tool whose rules take path
// patterns: Read, Write, Edit and their aliases.
func IsFileTool(name string) bool { return toolKind(name) != kindOther }

// splitRule reads `Tool` or `Tool(pattern)`.
func splitRule(text string) (tool, pattern string, has bool, err error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return "", "", false, errors.New("the rule is empty")
	}
	i := strings.IndexByte(t, '(')
	if i < 0 {
		tool = t
	} else {
		if !strings.HasSuffix(t, ")") {
			return "", "", false, errors.New(`want Tool or Tool(pattern): missing ")" at the end`)
		}
		tool, pattern, has = strings.TrimSpace(t[:i]), t[i+1:len(t)-1], true
	}
	if msg := CheckToolName(tool); msg != "" {
		return "", "", false, errors.New(msg)
	}
	return tool, pattern, has, nil
}

// matcher is a compiled rule pattern.
type matcher interface {
	// match reports whether the rule matches the subject, judged as a rule
	// of effect eff: allow rules match only what is known statically;
	// deny and ask rules match every form the command could take.
	match(s *subject, eff Effect) bool
}

// Compiler compiles rule patterns as a config file's are read: file
// patterns against the project root and the home directory, each both as
// written and as its real path (symlinks resolved).
type Compiler struct {
	root, home string
	// realRoot and realHome are root and home with symlinks resolved,
	// on the first file pattern that needs them (reals).
	realOnce           sync.Once
	realRoot, realHome string
}

// NewCompiler returns a Compiler for the project root (absolute) and the
// home directory ("" when unknown: a `~` pattern is then an error).
func NewCompiler(root, home string) *Compiler {
	return &Compiler{root: root, home: home}
}

// reals resolves the root and the home directory, once.
func (c *Compiler) reals() {
	c.realOnce.Do(func() {
		c.realRoot = realOrAbs(c.root)
		if c.home != "" {
			c.realHome = realOrAbs(filepath.Clean(c.home))
		}
	})
}

// Rule compiles `Tool` or `Tool(pattern)` into a rule carrying ref;
// Trusted and Active are left for the caller to set. The error says why
// the text is not a rule.
func (c *Compiler) Rule(text string, ref RuleRef) (*Rule, error) {
	tool, pattern, has, err := splitRule(text)
	if err != nil {
		return nil, err
	}
	m, err := c.compile(tool, pattern, has)
	if err != nil {
		return nil, err
	}
	r := &Rule{Ref: ref, Tool: tool, Pattern: pattern, m: m}
	r.setKeys()
	return r, nil
}

// realOrAbs returns the real location of an absolute path (symlinks
// resolved, a missing tail re-joined), or the path itself when it cannot be
// resolved.
func realOrAbs(abs string) string {
	var g *pathguard.Guard
	if r := g.Check(abs, abs); r.Real != "" {
		return r.Real
	}
	return filepath.Clean(abs)
}

// compile turns a rule's pattern into a matcher.
func (c *Compiler) compile(tool, pattern string, has bool) (matcher, error) {
	kind := toolKind(tool)
	switch kind {
	case kindBash:
		if !has || strings.TrimSpace(pattern) == "*" {
			return &bashMatcher{all: true}, nil
		}
		return compileBash(pattern)
	case kindRead, kindWrite:
		if !has {
			return &fileMatcher{kind: kind, all: true}, nil
		}
		return c.compileFile(kind, pattern)
	}
	m := &toolMatcher{tool: tool}
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		server, name, hasName := strings.Cut(rest, "__")
		switch {
		case !hasName:
			m.server = server // mcp__server: every tool of it
		case strings.HasSuffix(name, "*"):
			m.server, m.prefix = server, strings.TrimSuffix(name, "*")
		}
		if m.server != "" && has && strings.TrimSpace(pattern) != "*" {
			return nil, fmt.Errorf("%s rules take no pattern but *: write %s or %s(*)", tool, tool, tool)
		}
	}
	switch {
	case !has || strings.TrimSpace(pattern) == "*":
		m.all = true
	case tool == "WebFetch" && strings.HasPrefix(pattern, "domain:"):
		host := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(pattern, "domain:")))
		if host == "" || strings.ContainsAny(host, "/:@ ") {
			return nil, fmt.Errorf("want domain:HOST, such as domain:example.com or domain:*.example.com")
		}
		if _, err := path.Match(host, ""); err != nil {
			return nil, fmt.Errorf("%q is not a valid host pattern", host)
		}
		m.domain = host
	case tool == "WebFetch":
		return nil, fmt.Errorf("WebFetch patterns are domain:HOST (or * for every fetch)")
	default:
		return nil, fmt.Errorf("%s rules take no pattern but *: write %s or %s(*)", tool, tool, tool)
	}
	return m, nil
}

// subject is a part as the rules see it, computed once per part.
type subject struct {
	kind ruleKind
	tool string
	// A simple command: the forms deny and ask rules match (as written,
	// basename, git global options stripped; dynamic words are
	// wildcards), and the one form allow rules match when allowOK.
	forms     []form
	allow     form
	allowOK   bool
	trailArgs bool
	// code are the words that run code beyond the command's name by the
	// command model (cmdmodel.CodeWords): an allow rule matches only
	// when its own words name each of them.
	code []shellparse.Word
	// cmd is the simple command; lines its readings by the command
	// model, computed on first use by a rule that has one (modelLines).
	cmd       *shellparse.Command
	lines     []cmdmodel.RuleLine
	linesDone bool
	// A file: its path made absolute, and its real location ("" when it
	// cannot be resolved). For a path only known at run time, dynamic is
	// set and expanded lists what its glob matches on disk now.
	abs, real string
	// absLower and realLower are abs and real lowercased, filled on first
	// use by a deny or ask rule, with their pair sets (pairsOf).
	absLower, realLower string
	absPairs, realPairs pairSet
	dynamic             bool
	expanded            [][2]string
	// A read of a whole tree (grep -r DIR) whose walk found files that
	// deny or ask rules decide: the rules that decide them with the
	// strictest effect (recursive.go), and what to tell the model. Nil
	// when the walk found none.
	treeHits map[matcher]bool
	tree     *treeReport
	// Another tool: the URL's host, "" when there is none.
	host string
}

// form is one argv as a token string: bytes, tokSep between words, and
// tokStar for a dynamic word.
type form struct {
	toks     []int32
	first    string
	firstDyn bool
	dyn      bool
}

const (
	tokStar int32 = -1 // any run of characters, word breaks included
	tokSep  int32 = -2 // a word break
)

func makeForm(words []shellparse.Word, trailing bool) form {
	n := len(words) + 2 // word breaks and a trailing star
	for _, w := range words {
		n += len(w.Text)
	}
	f := form{toks: make([]int32, 0, n)}
	for i, w := range words {
		if i > 0 {
			f.toks = append(f.toks, tokSep)
		}
		if w.Dynamic {
			f.toks = append(f.toks, tokStar)
			f.dyn = true
			if i == 0 {
				f.firstDyn = true
			}
			continue
		}
		for j := 0; j < len(w.Text); j++ {
			f.toks = append(f.toks, int32(w.Text[j]))
		}
		if i == 0 {
			f.first = w.Text
		}
	}
	if trailing {
		// More words are appended at run time (`xargs CMD`).
		if len(words) > 0 {
			f.toks = append(f.toks, tokSep)
		}
		f.toks = append(f.toks, tokStar)
		f.dyn = true
	}
	return f
}

// newSubject sets the evaluation's one subject to s, keeping the arrays
// its slices had: a subject is used up before the next is built.
func (e *evaluation) newSubject(s subject) *subject {
	forms, code, expanded := e.subj.forms[:0], e.subj.code[:0], e.subj.expanded[:0]
	e.subj = s
	e.subj.forms, e.subj.code, e.subj.expanded = forms, code, expanded
	return &e.subj
}

// subjectOf computes what the rules match for p, or nil when no rule
// judges it. The subject is the evaluation's, valid until the next call.
func (e *evaluation) subjectOf(p *part) *subject {
	switch {
	case p.cmd != nil:
		if p.tool != ToolBash && p.tool != "" {
			return nil
		}
		return e.commandSubject(p)
	case p.tool == ToolRead || p.tool == "ReadFile":
		return e.fileSubject(p, kindRead)
	case p.tool == ToolWrite || p.tool == "WriteFile" || p.tool == ToolEdit:
		return e.fileSubject(p, kindWrite)
	case p.tool == ToolBash || p.tool == "":
		return nil
	}
	s := e.newSubject(subject{kind: kindOther, tool: p.tool})
	if p.url != "" {
		if u, err := url.Parse(p.url); err == nil {
			s.host = strings.ToLower(u.Hostname())
		}
	}
	return s
}

func (e *evaluation) commandSubject(p *part) *subject {
	c := p.cmd
	s := e.newSubject(subject{kind: kindBash, trailArgs: c.TrailingArgs, cmd: c})
	for _, words := range denyForms(c) {
		s.forms = append(s.forms, makeForm(words, c.TrailingArgs))
	}
	s.allowOK = len(c.Args) > 0 && c.Unknown == "" && !c.StdinCode && c.Bare() && substOnlyFrom(c, 1) &&
		!p.dynamic && e.notRuleContext(c) == "" && e.resolvesOutsideRoots(c.Args[0].Text)
	if s.allowOK {
		for _, i := range cmdmodel.CodeWords(&c.Command, c.IsWrapper()) {
			s.code = append(s.code, c.Args[i])
		}
		s.allow = makeForm(c.Args, false)
		if g := e.plainGit(c); g != nil {
			s.allow = makeForm(g.Args, false) // judged as plain git in the project
		}
	}
	return s
}

// substOnlyFrom reports whether every dynamic word of c from index i on is
// built by command substitutions only (shellparse.Word.SubstOnly): their
// commands are judged as parts of their own, and an allow rule matches
// such a word only where its final `*` covers it (coversAll).
func substOnlyFrom(c *shellparse.Command, i int) bool {
	for _, w := range c.Args[min(i, len(c.Args)):] {
		if w.Dynamic && !w.SubstOnly {
			return false
		}
	}
	return true
}

func (e *evaluation) fileSubject(p *part, kind ruleKind) *subject {
	s := e.newSubject(subject{kind: kind, dynamic: p.dynamic})
	if p.path == "" {
		s.dynamic = true
		return s
	}
	if !p.dynamic {
		s.abs, s.real = e.resolveFile(p.dir, p.path)
		if p.tree != nil && kind == kindRead {
			e.walkTree(p, s, [][2]string{{s.abs, s.real}}, p.path)
		}
		if p.tracked && kind == kindRead {
			e.trackedFiles(p, s)
		}
		return s
	}
	// A path only known at run time: no allow rule matches it, but a glob
	// written in it is expanded against the disk as it is now, so that
	// `cat .en?` still meets `deny Read(.env)`.
	e.spelledFiles(p, s, kind)
	dirDynamic := p.script != nil && p.index >= 0 && p.index < len(p.script.Commands) && p.script.Commands[p.index].DirDynamic
	if dirDynamic || strings.ContainsAny(p.path, "$`") || strings.Contains(p.path, "<(") || !filepath.IsAbs(p.dir) {
		return s
	}
	matches, ok := e.globNames(p, p.path)
	if !ok {
		return s
	}
	for _, m := range matches {
		abs, real := e.resolveFile(p.dir, m)
		s.expanded = append(s.expanded, [2]string{abs, real})
	}
	if p.tree != nil && kind == kindRead && len(s.expanded) > 0 {
		// `grep -r x sub*`: each directory the glob names now is read whole.
		e.walkTree(p, s, s.expanded, "")
	}
	return s
}

// maxGlobMatches caps how many files a dynamic path's glob is checked
// against.
const maxGlobMatches = 256

// resolveFile returns a path made absolute and its real location, both
// with forward slashes; real is "" when the path does not resolve.
func (e *evaluation) resolveFile(dir, p string) (abs, real string) {
	g := e.cfg.Guard
	if g == nil && e.cfg.Home != "" {
		switch {
		case p == "~" || p == "$HOME" || p == "${HOME}":
			p = e.cfg.Home
		case strings.HasPrefix(p, "~/"):
			p = filepath.Join(e.cfg.Home, p[2:])
		case strings.HasPrefix(p, "$HOME/"):
			p = filepath.Join(e.cfg.Home, p[6:])
		case strings.HasPrefix(p, "${HOME}/"):
			p = filepath.Join(e.cfg.Home, p[8:])
		}
	}
	r := e.check(dir, p)
	abs, real = r.Abs, r.Real
	if abs == "" && filepath.IsAbs(p) {
		abs = filepath.Clean(p)
	}
	return filepath.ToSlash(abs), filepath.ToSlash(real)
}

// bashMatcher matches one simple command: the pattern's words
// (split like a shell would, with go-shellwords) against the command's
// words; `*` matches any run of characters, spaces included; a trailing
// ` *` (or `:*`) also matches no further words, at a word boundary.
type bashMatcher struct {
	all      bool
	toks     []int32 // the pattern, without a trailing " *"
	trail    []int32 // toks + word break + any, when trailing
	first    string  // the first word when it holds no `*`, for a quick reject
	endsWild bool    // the pattern accepts any further words
	words    []string
	// model is the pattern read by the command model, which deny and ask
	// rules also match (nil when the tool has none).
	model *modelRule
}

// litStar stands for an escaped `\*` while a Bash pattern is split into
// words (U+E000, a private-use character no command needs).
const litStar = "\ue000"

// compileBash compiles a Bash pattern: words split as a shell would
// (go-shellwords), `*` matching any run of characters, `\*` a literal
// star, a trailing " *" (or ":*") also matching no further words.
func compileBash(pattern string) (*bashMatcher, error) {
	text := strings.TrimSpace(pattern)
	if text == "" {
		return nil, errors.New("the pattern is empty; write Bash or Bash(*) to match every command")
	}
	if strings.HasSuffix(text, ":*") {
		text = strings.TrimSuffix(text, ":*") + " *"
	}
	// `\*` is a literal star: hide it from the word splitter (which would
	// drop the backslash) behind a private-use rune.
	text = strings.ReplaceAll(text, `\*`, litStar)
	p := shellwords.NewParser()
	words, err := p.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("cannot split the pattern into words: %v", err)
	}
	if p.Position >= 0 {
		return nil, errors.New("a pattern matches one simple command: it cannot hold ;, |, &, > or <")
	}
	if len(words) == 0 {
		return nil, errors.New("the pattern has no words")
	}
	m := &bashMatcher{words: words}
	if len(words) == 1 && words[0] == "*" {
		m.all = true
		return m, nil
	}
	trailing := len(words) > 1 && words[len(words)-1] == "*" &&
		(strings.HasSuffix(text, " *") || strings.HasSuffix(text, "\t*"))
	if trailing {
		words = words[:len(words)-1]
	}
	for i, w := range words {
		if i > 0 {
			m.toks = append(m.toks, tokSep)
		}
		for j, seg := range strings.Split(w, litStar) {
			if j > 0 {
				m.toks = append(m.toks, '*')
			}
			for k := 0; k < len(seg); k++ {
				if seg[k] == '*' {
					m.toks = append(m.toks, tokStar)
				} else {
					m.toks = append(m.toks, int32(seg[k]))
				}
			}
		}
	}
	if !strings.Contains(words[0], "*") {
		m.first = strings.ReplaceAll(words[0], litStar, "*")
	}
	if trailing {
		m.trail = append(append(slices.Clone(m.toks), tokSep), tokStar)
	}
	m.endsWild = trailing || m.toks[len(m.toks)-1] == tokStar
	m.model = compileModelRule(words, trailing)
	return m, nil
}

func (m *bashMatcher) match(s *subject, eff Effect) bool {
	if s.kind != kindBash {
		return false
	}
	if eff == Allow {
		if !s.allowOK || s.trailArgs && !m.endsWild || !m.all && !m.names(s.code) {
			return false
		}
		if s.allow.dyn {
			return m.all || m.coversAll(&s.allow)
		}
		return m.all || m.matchForm(&s.allow)
	}
	if m.all {
		return true
	}
	for i := range s.forms {
		if m.matchForm(&s.forms[i]) {
			return true
		}
	}
	return m.model != nil && (m.first == "" || s.cmd != nil && s.cmd.Name() == m.first) && m.model.match(s)
}

func (m *bashMatcher) matchForm(f *form) bool {
	if m.first != "" && !f.firstDyn && f.first != m.first {
		return false
	}
	if f.dyn {
		return overlap(m.toks, f.toks) || m.trail != nil && overlap(m.trail, f.toks)
	}
	return glob(m.toks, f.toks) || m.trail != nil && glob(m.trail, f.toks)
}

// names reports whether the pattern's own words name each of the words
// that run code, so an allow rule never covers code it does not name
// (`Bash(go test *)` does not cover `go test -exec CMD`, `Bash(go test
// -exec *)` covers only the option): a pattern word
// matches the word, or its option part before "=", with `*` in a pattern
// word matching any run. A dynamic word is named only by a pattern word
// that is all `*` after its option part.
func (m *bashMatcher) names(code []shellparse.Word) bool {
	words := m.words
	if len(words) > 1 && words[len(words)-1] == "*" {
		words = words[:len(words)-1]
	}
	for _, w := range code {
		opt, _, _ := strings.Cut(w.Text, "=")
		named := false
		for _, p := range words {
			p = strings.ReplaceAll(p, litStar, "*")
			if !w.Dynamic && (wordGlob(p, w.Text) || p == opt) {
				named = true
				break
			}
		}
		if !named {
			return false
		}
	}
	return true
}

// wordGlob matches one word against a pattern word where `*` is any run.
func wordGlob(p, s string) bool {
	ps, ss := make([]int32, 0, len(p)), make([]int32, 0, len(s))
	for i := 0; i < len(p); i++ {
		if p[i] == '*' {
			ps = append(ps, tokStar)
		} else {
			ps = append(ps, int32(p[i]))
		}
	}
	for i := 0; i < len(s); i++ {
		ss = append(ss, int32(s[i]))
	}
	return glob(ps, ss)
}

// coversAll reports whether the pattern matches every text the form can
// stand for, whatever its dynamic words turn out to be: the words before
// the first dynamic one are matched by the pattern up to a final `*`
// (`Bash(git commit *)` covers `git commit -m "$(cat <<'EOF' ...)"`, and
// so does `Bash(git commit -m *)`; `Bash(git commit -m * --amend)` does
// not, since the message could end anywhere).
func (m *bashMatcher) coversAll(f *form) bool {
	if m.first != "" && f.first != m.first {
		return false
	}
	first := slices.Index(f.toks, tokStar)
	if first < 0 {
		return glob(m.toks, f.toks) || m.trail != nil && glob(m.trail, f.toks)
	}
	for _, p := range [][]int32{m.toks, m.trail} {
		if len(p) == 0 || p[len(p)-1] != tokStar {
			continue
		}
		head := p[:len(p)-1]
		for k := 0; k <= first; k++ {
			if glob(head, f.toks[:k]) {
				return true
			}
		}
	}
	return false
}

// glob reports whether s (no tokStar) matches the pattern p, where tokStar
// matches any run of tokens. Greedy with one backtrack point, linear in
// practice.
func glob(p, s []int32) bool {
	px, sx := 0, 0
	starP, starS := -1, 0
	for sx < len(s) {
		switch {
		case px < len(p) && p[px] == tokStar:
			starP, starS = px, sx
			px++
		case px < len(p) && p[px] == s[sx]:
			px++
			sx++
		case starP >= 0:
			starS++
			px, sx = starP+1, starS
		default:
			return false
		}
	}
	for px < len(p) && p[px] == tokStar {
		px++
	}
	return px == len(p)
}

// maxOverlapCells bounds the work of overlap once the literal ends are
// set aside; past it a deny or ask rule is taken to match (toward
// denial).
const maxOverlapCells = 1 << 22

// overlap reports whether some text matches both a and b, where tokStar
// in either matches any run of tokens: can a command with dynamic words
// (wildcards in b) be what the pattern a describes?
func overlap(a, b []int32) bool {
	// A text matching both starts and ends with the literal tokens both
	// start and end with: those must agree, and are then set aside (the
	// rule index's quick reject, litAgrees, relies on the first half).
	for len(a) > 0 && len(b) > 0 && a[0] != tokStar && b[0] != tokStar {
		if a[0] != b[0] {
			return false
		}
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] != tokStar && b[len(b)-1] != tokStar {
		if a[len(a)-1] != b[len(b)-1] {
			return false
		}
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	n, m := len(a), len(b)
	if (n+1)*(m+1) > maxOverlapCells {
		return true
	}
	// next[j] is the answer for a[i+1:], b[j:]; cur for a[i:], b[j:].
	next := make([]bool, m+1)
	cur := make([]bool, m+1)
	// i == n: only wildcards may remain in b.
	next[m] = true
	for j := m - 1; j >= 0; j-- {
		next[j] = b[j] == tokStar && next[j+1]
	}
	for i := n - 1; i >= 0; i-- {
		cur[m] = a[i] == tokStar && next[m]
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i] == tokStar:
				cur[j] = next[j] || cur[j+1]
			case b[j] == tokStar:
				cur[j] = cur[j+1] || next[j]
			default:
				cur[j] = a[i] == b[j] && next[j+1]
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

// fileMatcher matches a file path: gitignore-style globs with
// doublestar over the path made absolute and over its real location.
// `/abs/**` is absolute, `~/x` under home, a pattern with a slash is
// relative to the project root, and a bare name (`.env`, `*.pem`) matches
// at any depth. A pattern also matches everything below what it names,
// as a gitignore line does.
//
// Deny and ask rules match regardless of case, on every system: on a
// case-insensitive file system (macOS, Windows) `cat .ENV` opens `.env`,
// and on Linux asking about `.ENV` costs little. Allow rules match the
// case as written. (Case is folded rune by rune, as strings.ToLower does;
// a bracket range that spans both cases, `[A-z]`, folds to a smaller one.)
type fileMatcher struct {
	kind  ruleKind
	all   bool
	globs []fileGlob
	// piece is a literal every path a glob matches holds, in lower case
	// (globPiece), for the rule's quick reject; "" for none.
	piece string
}

// fileGlob is one compiled glob: the pattern, its "/**" twin (a pattern
// also matches everything below what it names), and a literal the path
// must hold for either to match, so most paths are rejected without
// running the matcher.
type fileGlob struct {
	glob, below string
	prefix      string // the path starts with it
	contains    string // the path holds it
	// fold is the same glob in lower case, matched against a lower-case
	// path by deny and ask rules; foldSame when that is glob itself.
	fold     *fileGlob
	foldSame bool
}

func newFileGlob(g string) fileGlob {
	fg := newCaseGlob(g)
	lower := newCaseGlob(strings.ToLower(g))
	fg.fold, fg.foldSame = &lower, lower.glob == g
	return fg
}

func newCaseGlob(g string) fileGlob {
	fg := fileGlob{glob: g, below: g + "/**"}
	// A trailing "/" is left out: `dir/**` also matches `dir` itself.
	prefix, rest := literalPrefix(g)
	fg.prefix = strings.TrimSuffix(prefix, "/")
	// The path also holds the longest literal piece of the glob after
	// its prefix (which HasPrefix checks already): `**/.env.*` needs
	// ".env.", `/root/**/*.pem` needs ".pem", not the root's longest
	// name. Pieces are cut at "/", which may vanish next to `**`.
	for _, run := range literalRuns(rest) {
		for _, piece := range strings.Split(run, "/") {
			if len(piece) > len(fg.contains) {
				fg.contains = piece
			}
		}
	}
	return fg
}

// literalRuns lists the runs of a glob that match only themselves, up to
// its first bracket expression or brace alternative (what follows one is
// not scanned: they nest in ways best left to the matcher), escapes
// removed.
func literalRuns(g string) []string {
	var runs []string
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '\\':
			if i+1 < len(g) {
				i++
				b.WriteByte(g[i])
			}
		case '*', '?', '[', '{':
			if b.Len() > 0 {
				runs = append(runs, b.String())
				b.Reset()
			}
			if c == '[' || c == '{' {
				return runs
			}
		default:
			b.WriteByte(c)
		}
	}
	if b.Len() > 0 {
		runs = append(runs, b.String())
	}
	return runs
}

// literalPrefix is the part of a glob before its first special character,
// with escapes removed, and the rest of the glob from that character on.
func literalPrefix(g string) (prefix, rest string) {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch g[i] {
		case '*', '?', '[', '{':
			return b.String(), g[i:]
		case '\\':
			i++
			if i < len(g) {
				b.WriteByte(g[i])
			}
			continue
		}
		b.WriteByte(g[i])
	}
	return b.String(), ""
}

func (c *Compiler) compileFile(kind ruleKind, pattern string) (*fileMatcher, error) {
	m := &fileMatcher{kind: kind}
	pat := filepath.ToSlash(pattern)
	switch pat {
	case "":
		return nil, errors.New("the pattern is empty; write Read or Read(*) to match every file")
	case "*", "**", "/**", "/":
		m.all = true
		return m, nil
	}
	if len(pat) > 1 {
		pat = strings.TrimRight(pat, "/")
	}
	var bases []string
	rest := pat
	c.reals()
	switch {
	case pat == "~" || strings.HasPrefix(pat, "~/"):
		if c.home == "" {
			return nil, errors.New("~ needs the home directory, which is not known")
		}
		bases, rest = []string{filepath.ToSlash(c.home), filepath.ToSlash(c.realHome)}, pat[1:]
	case strings.HasPrefix(pat, "~"):
		return nil, errors.New("~user is not supported; write the path out")
	case strings.HasPrefix(pat, "/"):
		bases = []string{""}
	case strings.Contains(pat, "/"):
		bases, rest = []string{filepath.ToSlash(c.root), filepath.ToSlash(c.realRoot)}, "/"+strings.TrimPrefix(pat, "./")
	default:
		bases, rest = []string{""}, "**/"+pat
	}
	for i, b := range bases {
		g := rest
		eb := escapeGlob(b)
		if b != "" || strings.HasPrefix(rest, "/") {
			g = path.Clean(eb + rest)
		}
		if !doublestar.ValidatePattern(g) || !doublestar.ValidatePattern(strings.ToLower(g)) {
			return nil, fmt.Errorf("%q is not a valid glob", pattern)
		}
		if !slices.ContainsFunc(m.globs, func(x fileGlob) bool { return x.glob == g }) {
			m.globs = append(m.globs, newFileGlob(g))
		}
		// Pieces that differ between the bases: none.
		if p := globPiece(g, eb); i == 0 {
			m.piece = p
		} else if p != m.piece {
			m.piece = ""
		}
	}
	return m, nil
}

// globPiece is the longest literal piece (cut at "/") of a glob after its
// base (base's escaped path, "" for none), in lower case: every path the
// glob matches, or matches below, holds it, and lower-cased, every path
// its lower-case fold matches; "" when the glob does not start with its
// base (a pattern that climbs out of it) or has no literal piece.
func globPiece(g, base string) string {
	if !strings.HasPrefix(g, base) {
		return ""
	}
	piece := ""
	for _, run := range literalRuns(g[len(base):]) {
		for _, p := range strings.Split(run, "/") {
			if len(p) > len(piece) {
				piece = p
			}
		}
	}
	return strings.ToLower(piece)
}

// splitMCP splits an MCP tool name, mcp__SERVER__TOOL, at the first "__"
// after the server's name.
func splitMCP(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	return server, tool, ok && server != "" && tool != ""
}

// escapeGlob quotes the glob characters of a literal path.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (m *fileMatcher) match(s *subject, eff Effect) bool {
	if s.kind != m.kind {
		return false
	}
	if eff == Allow {
		// A tree holding files that deny or ask rules decide is never
		// allowed whole: an allow rule that names the directory may miss
		// a file below it (a symlink out of it).
		if s.dynamic || s.real == "" || len(s.treeHits) > 0 {
			return false
		}
		// (A path that is its own real location is matched once.)
		return m.all || m.matchPath(s.abs, false) && (s.real == s.abs || m.matchPath(s.real, false))
	}
	if m.all || len(s.treeHits) > 0 && s.treeHits[m] {
		return true
	}
	s.fillLower()
	if m.matchFold(s.abs, s.absLower) || s.real != s.abs && m.matchFold(s.real, s.realLower) {
		return true
	}
	for _, x := range s.expanded {
		if m.matchFold(x[0], strings.ToLower(x[0])) || m.matchFold(x[1], strings.ToLower(x[1])) {
			return true
		}
	}
	return false
}

// fillLower fills absLower and realLower, once.
func (s *subject) fillLower() {
	if s.absLower == "" && s.abs != "" {
		s.absLower = strings.ToLower(s.abs)
		s.realLower = s.absLower
		s.absPairs = pairsOf(s.absLower)
		s.realPairs = s.absPairs
		if s.real != s.abs {
			s.realLower = strings.ToLower(s.real)
			s.realPairs = pairsOf(s.realLower)
		}
	}
}

// matchFold is matchPath for deny and ask rules: the path as it is, or
// lowercased (lp) against the rule's lowercased globs, since a
// case-insensitive file system opens `.ENV` as `.env`.
func (m *fileMatcher) matchFold(p, lp string) bool {
	if p == "" {
		return false
	}
	for i := range m.globs {
		if m.globs[i].matches(p) {
			return true
		}
	}
	// A lower-case path meets a lower-case glob's fold in the loop above
	// already.
	lower := lp == p
	for i := range m.globs {
		if g := m.globs[i].fold; g != nil && !(lower && m.globs[i].foldSame) && g.matches(lp) {
			return true
		}
	}
	return false
}

// matchPath reports whether a path matches one of the globs: as written,
// or with fold (deny and ask rules) also lowercased.
func (m *fileMatcher) matchPath(p string, fold bool) bool {
	if fold {
		return m.matchFold(p, strings.ToLower(p))
	}
	if p == "" {
		return false
	}
	for i := range m.globs {
		if m.globs[i].matches(p) {
			return true
		}
	}
	return false
}

func (g *fileGlob) matches(p string) bool {
	if g.prefix != "" && !strings.HasPrefix(p, g.prefix) || g.contains != "" && !strings.Contains(p, g.contains) {
		return false
	}
	return doublestar.MatchUnvalidated(g.glob, p) || doublestar.MatchUnvalidated(g.below, p)
}

// toolMatcher matches the calls of another tool: all of them, or for
// WebFetch the URL's host (`domain:example.com`, `domain:*.example.com`).
// An MCP rule naming a server (`mcp__github`, `mcp__github__*`) or a
// prefix of its tools (`mcp__github__create*`) matches by server and tool
// name, whichever agent named the call (Gemini CLI's calls are named as
// Claude Code's: mcp__SERVER__TOOL).
type toolMatcher struct {
	tool   string
	all    bool
	domain string
	server string // an MCP server's rule: every tool of it whose name starts with prefix
	prefix string
}

func (m *toolMatcher) match(s *subject, eff Effect) bool {
	if m.server != "" {
		server, tool, ok := splitMCP(s.tool)
		return s.kind == kindOther && ok && server == m.server && strings.HasPrefix(tool, m.prefix)
	}
	if s.kind != kindOther || s.tool != m.tool {
		return false
	}
	if m.all {
		return true
	}
	if s.host == "" {
		// No host to judge: deny and ask rules hold, allow rules do not.
		return eff != Allow
	}
	ok, _ := path.Match(m.domain, s.host)
	return ok
}
