package shellparse

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Limits on what Parse accepts. Past them the input is refused with an
// *Error rather than analysed partly, so a caller can never allow it.
const (
	// MaxSize is the largest script Parse reads, in bytes (1 MiB).
	MaxSize = 1 << 20
	// MaxDepth is how deeply constructs may nest: subshells, groups,
	// substitutions, control flow and re-parsed `bash -c`/`eval` text
	// each add a level.
	MaxDepth = 100
	// MaxCommands is the most simple commands one script may hold.
	MaxCommands = 20000
)

// Error codes of *Error. The policy reports them as the Decision's code.
const (
	CodeParse    = "parse.error"
	CodeTooLarge = "input.too_large"
	CodeInvalid  = "input.invalid"
	CodeTooDeep  = "parse.too_deep"
)

// Error is why a script could not be analysed. Offset is a byte offset into
// the source, or -1.
type Error struct {
	Code   string
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("%s at byte %d", e.Msg, e.Offset)
	}
	return e.Msg
}

// Options tune Parse.
type Options struct {
	// POSIX parses as POSIX sh instead of Bash.
	POSIX bool
	// Home, when set, is what an unquoted `~` and a plain `$HOME` resolve
	// to. Without it they are dynamic.
	Home string
}

// Parse analyses a shell script. It never runs anything. On failure it
// returns an *Error whose Code says why.
func Parse(src string, opt Options) (*Script, error) {
	if err := CheckInput(src); err != nil {
		return nil, err
	}
	p := newParser(src, opt)
	p.parseInto(src, 0, nil)
	if p.err != nil {
		return nil, p.err
	}
	p.markFuncCalls()
	return &Script{Source: src, Commands: p.cmds, Funcs: p.funcs}, nil
}

// ParseArgv analyses an argv that will be passed to execve as it is: every
// word is literal. Wrappers in it (`sudo`, `bash -c '...'`) are seen through
// like in Parse.
func ParseArgv(argv []string, opt Options) (*Script, error) {
	src := JoinArgv(argv)
	if err := CheckInput(strings.Join(argv, " ")); err != nil {
		return nil, err
	}
	p := newParser(src, opt)
	words := make([]Word, len(argv))
	off := 0
	for i, a := range argv {
		words[i] = Word{Text: a, Offset: off}
		off += len(quoteWord(a)) + 1
	}
	if len(words) > 0 {
		p.emit(Command{Args: words, Offset: 0, End: len(src), Text: src, Parent: -1, Inner: -1})
	}
	if p.err != nil {
		return nil, p.err
	}
	return &Script{Source: src, Commands: p.cmds, Funcs: p.funcs}, nil
}

// markFuncCalls marks the commands whose name is a function the script
// defines, wherever the definition stands.
func (p *parser) markFuncCalls() {
	if len(p.funcs) == 0 {
		return
	}
	for i := range p.cmds {
		c := &p.cmds[i]
		if len(c.Args) > 0 && !c.Args[0].Dynamic && containsStr(p.funcs, c.Args[0].Text) {
			c.UserFunc = true
		}
	}
}

// CheckInput refuses input that is not analysed at all: larger than MaxSize,
// holding a NUL byte, or not valid UTF-8.
func CheckInput(src string) error {
	if len(src) > MaxSize {
		return &Error{Code: CodeTooLarge, Offset: -1, Msg: fmt.Sprintf("input is %d bytes, over the %d-byte limit", len(src), MaxSize)}
	}
	if i := strings.IndexByte(src, 0); i >= 0 {
		return &Error{Code: CodeInvalid, Offset: i, Msg: "input holds a NUL byte"}
	}
	if !utf8.ValidString(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return &Error{Code: CodeInvalid, Offset: i, Msg: "input is not valid UTF-8"}
	}
	return nil
}

// JoinArgv renders an argv as one shell-quoted line, for display and for
// matching rules against the argv form.
func JoinArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = quoteWord(a)
	}
	return strings.Join(q, " ")
}

func quoteWord(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}

// parser walks one script and the code nested in it. Source positions are
// kept relative to the top-level script: nested text reports the offset of
// the word it came from.
type parser struct {
	opt   Options
	top   string
	cmds  []Command
	funcs []string // names of the functions defined, in any nested code too
	err   error

	// per nested text being walked
	text     string
	base     int  // offset of text in top, or -1 when text is re-parsed code
	baseWord Word // the outer word re-parsed code came from

	depth        int
	via          []string
	parent       int
	upstream     []int // commands in earlier stages of enclosing pipelines
	homeAssigned bool
	state        shellState
}

// shellState is what earlier commands of the same shell change for later
// ones: the directory and tainted variables. A subshell gets a copy.
type shellState struct {
	dir        string
	dirDynamic bool
	tainted    []string
}

func newParser(src string, opt Options) *parser {
	return &parser{opt: opt, top: src, text: src, base: 0, parent: -1}
}

func (p *parser) fail(code string, off int, msg string) {
	if p.err == nil {
		p.err = &Error{Code: code, Offset: off, Msg: msg}
	}
}

// off maps a position in the text being walked to an offset in the top-level
// source.
func (p *parser) off(pos syntax.Pos) int {
	if p.base < 0 {
		return p.baseWord.Offset
	}
	return p.base + int(pos.Offset())
}

func (p *parser) src(from, to syntax.Pos) string {
	a, b := int(from.Offset()), int(to.Offset())
	if a < 0 || b > len(p.text) || a > b {
		return ""
	}
	return p.text[a:b]
}

func (p *parser) lang() syntax.LangVariant {
	if p.opt.POSIX {
		return syntax.LangPOSIX
	}
	return syntax.LangBash
}

// parseInto parses text and walks it. from is the outer word that held the
// text (nil for the top-level script).
func (p *parser) parseInto(text string, base int, from *Word) {
	if p.err != nil {
		return
	}
	f, err := syntax.NewParser(syntax.Variant(p.lang())).Parse(strings.NewReader(text), "")
	if err != nil {
		off := -1
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			off = int(pe.Pos.Offset())
		}
		if from != nil {
			off = from.Offset
		}
		msg := err.Error()
		if from != nil {
			msg = "nested code: " + msg
		}
		p.fail(CodeParse, off, msg)
		return
	}
	saved := *p
	p.text, p.base = text, base
	if from != nil {
		p.base, p.baseWord = -1, *from
	}
	p.stmts(f.Stmts)
	p.text, p.base, p.baseWord = saved.text, saved.base, saved.baseWord
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > MaxDepth {
		p.fail(CodeTooDeep, -1, fmt.Sprintf("constructs nest deeper than %d levels", MaxDepth))
		return false
	}
	return p.err == nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) stmts(list []*syntax.Stmt) {
	for _, s := range list {
		p.stmt(s)
	}
}

func (p *parser) stmt(s *syntax.Stmt) {
	if s == nil || !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	if call, ok := s.Cmd.(*syntax.CallExpr); ok || s.Cmd == nil {
		p.call(call, s)
		return
	}
	// A compound command: its redirects apply to all of it.
	if len(s.Redirs) > 0 {
		p.call(nil, &syntax.Stmt{Position: s.Position, Redirs: s.Redirs})
	}
	p.compound(s.Cmd)
}

// subshell runs fn with a copy of the shell state that is dropped after.
func (p *parser) subshell(fn func()) {
	saved := p.state
	saved.tainted = append([]string(nil), saved.tainted...)
	fn()
	p.state = saved
}

func (p *parser) compound(c syntax.Command) {
	switch c := c.(type) {
	case *syntax.Block:
		p.stmts(c.Stmts)
	case *syntax.Subshell:
		p.subshell(func() { p.stmts(c.Stmts) })
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			p.pipeline(c)
			return
		}
		p.stmt(c.X)
		p.stmt(c.Y)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			p.stmts(ic.Cond)
			p.stmts(ic.Then)
		}
	case *syntax.WhileClause:
		p.stmts(c.Cond)
		p.stmts(c.Do)
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			for _, w := range wi.Items {
				p.nested(w, -1)
			}
		} else {
			p.nested(c.Loop, -1)
		}
		p.stmts(c.Do)
	case *syntax.CaseClause:
		p.nested(c.Word, -1)
		for _, item := range c.Items {
			for _, pat := range item.Patterns {
				p.nested(pat, -1)
			}
			p.stmts(item.Stmts)
		}
	case *syntax.FuncDecl:
		names := c.Names
		if c.Name != nil {
			names = append(names, c.Name)
		}
		for _, n := range names {
			if !containsStr(p.funcs, n.Value) {
				p.funcs = append(p.funcs, n.Value)
			}
		}
		// The body runs when the function is called; judge it as if it ran.
		p.subshell(func() { p.stmt(c.Body) })
	case *syntax.TimeClause:
		p.stmt(c.Stmt)
	case *syntax.CoprocClause:
		p.stmt(c.Stmt)
	case *syntax.DeclClause:
		p.decl(c)
	default:
		// Arithmetic commands, [[ ]] tests, let: only their substitutions run.
		p.nested(c, -1)
	}
}

// pipeline walks the stages of `a | b | c`; each stage's commands know the
// commands of the earlier stages, whose output they may read.
func (p *parser) pipeline(c *syntax.BinaryCmd) {
	var stages []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Negated {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		stages = append(stages, s)
	}
	flatten(c.X)
	flatten(c.Y)
	saved := p.upstream
	up := append([]int(nil), saved...)
	for _, s := range stages {
		p.upstream = up
		start := len(p.cmds)
		// Each stage of a pipeline runs in a subshell in bash.
		p.subshell(func() { p.stmt(s) })
		for i := start; i < len(p.cmds); i++ {
			up = append(up, i)
		}
	}
	p.upstream = saved
}

// decl handles `export`, `declare`, `local`, `readonly`, `typeset`.
func (p *parser) decl(c *syntax.DeclClause) {
	idx := p.emit(Command{Parent: p.parent, Inner: -1})
	if idx < 0 {
		return
	}
	args := []Word{{Text: c.Variant.Value, Offset: p.off(c.Pos())}}
	var assigns []Assign
	for _, a := range c.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			args = append(args, p.nested(a.Value, idx))
			continue
		}
		if a.Name == nil {
			continue
		}
		as := p.assignIn(a, idx)
		assigns = append(assigns, as)
		args = append(args, Word{Text: as.Name + "=" + as.Value, Dynamic: as.Dynamic, Offset: p.off(a.Pos())})
	}
	p.fill(idx, Command{Args: args, Offset: p.off(c.Pos()), End: p.off(c.End()), Text: p.src(c.Pos(), c.End()), Parent: p.parent, Inner: -1})
	p.noteAssigns(assigns)
}

// assignIn resolves an assignment; substitutions in its value get parent
// as their parent command.
func (p *parser) assignIn(a *syntax.Assign, parent int) Assign {
	as := Assign{Name: a.Name.Value}
	switch {
	case a.Array != nil:
		as.Dynamic = true
		as.Value = p.src(a.Array.Pos(), a.Array.End())
		p.nested(a.Array, parent)
	case a.Value != nil:
		w := p.nested(a.Value, parent)
		as.Value, as.Dynamic = w.Text, w.Dynamic
	}
	if a.Index != nil {
		as.Dynamic = true
	}
	return as
}

// noteAssigns records assignments that stand alone (`X=1`, `export X=1`):
// they change later commands of the same shell.
func (p *parser) noteAssigns(as []Assign) {
	for _, a := range as {
		if a.Name == "HOME" {
			p.homeAssigned = true
		}
		if !containsStr(p.state.tainted, a.Name) {
			p.state.tainted = append(p.state.tainted, a.Name)
		}
	}
}

// nested walks the command and process substitutions inside a node (a word,
// an arithmetic expression, a test) with parent as their parent command, and
// returns the resolved word when node is a word.
func (p *parser) nested(node syntax.Node, parent int) Word {
	if node == nil || p.err != nil {
		return Word{}
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			p.substitution(n.Stmts, "$(...)", parent)
			return false
		case *syntax.ProcSubst:
			p.substitution(n.Stmts, n.Op.String()+"...)", parent)
			return false
		}
		return p.err == nil
	})
	if w, ok := node.(*syntax.Word); ok {
		return p.word(w)
	}
	return Word{}
}

func (p *parser) substitution(stmts []*syntax.Stmt, via string, parent int) {
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	savedVia, savedParent, savedUp := p.via, p.parent, p.upstream
	p.via = appendVia(p.via, via)
	p.parent = parent
	p.upstream = nil
	p.subshell(func() { p.stmts(stmts) })
	p.via, p.parent, p.upstream = savedVia, savedParent, savedUp
}

// call handles one simple command (or, with c nil, a statement that is only
// redirects).
func (p *parser) call(c *syntax.CallExpr, s *syntax.Stmt) {
	idx := len(p.cmds)
	end := s.End()
	if s.Semicolon.IsValid() {
		end = s.Semicolon
	}
	cmd := Command{Parent: p.parent, Inner: -1, Offset: p.off(s.Pos()), End: p.off(end)}
	cmd.Text = strings.TrimRight(p.src(s.Pos(), end), " \t")
	// Reserve the slot so substitutions in this command's words name it as
	// their parent.
	p.emit(Command{Parent: p.parent, Inner: -1})
	if p.err != nil {
		return
	}
	if c != nil {
		for _, a := range c.Assigns {
			if a.Name != nil {
				cmd.Assigns = append(cmd.Assigns, p.assignIn(a, idx))
			}
		}
		for _, w := range c.Args {
			cmd.Args = append(cmd.Args, p.nested(w, idx))
		}
	}
	for _, r := range s.Redirs {
		cmd.Redirects = append(cmd.Redirects, p.redirect(r, idx))
	}
	p.fill(idx, cmd)
	if c != nil && len(c.Args) == 0 {
		p.noteAssigns(cmd.Assigns)
	}
}

func (p *parser) redirect(r *syntax.Redirect, parent int) Redirect {
	rd := Redirect{Op: r.Op.String(), Fd: -1, Offset: p.off(r.Pos())}
	if r.N != nil {
		rd.Fd = atoiOr(r.N.Value, -1)
	}
	if r.Hdoc != nil {
		p.nested(r.Hdoc, parent)
		rd.Target = p.heredoc(r)
		return rd
	}
	rd.Target = p.nested(r.Word, parent)
	return rd
}

// emit appends a command and returns its index.
func (p *parser) emit(c Command) int {
	if len(p.cmds) >= MaxCommands {
		p.fail(CodeTooLarge, -1, fmt.Sprintf("script holds more than %d commands", MaxCommands))
		return -1
	}
	p.cmds = append(p.cmds, c)
	idx := len(p.cmds) - 1
	if c.Args != nil || c.Redirects != nil {
		p.fill(idx, c)
	}
	return idx
}

// fill completes the command at idx: context from the walk, then wrappers.
func (p *parser) fill(idx int, c Command) {
	c.Via = append([]string(nil), p.via...)
	c.Dir, c.DirDynamic = p.state.dir, p.state.dirDynamic
	c.Tainted = append([]string(nil), p.state.tainted...)
	p.cmds[idx] = c
	p.afterCommand(idx)
	p.unwrap(idx)
}

// afterCommand updates the shell state with what the command at idx changes
// for the commands after it: `cd`.
func (p *parser) afterCommand(idx int) {
	c := &p.cmds[idx]
	if len(c.Args) == 0 || c.Args[0].Dynamic || c.Args[0].Text != "cd" || len(c.Via) > 0 && c.Via[len(c.Via)-1] == "xargs" {
		return
	}
	args := c.Args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0].Text, "-") && args[0].Text != "-" && !args[0].Dynamic {
		if args[0].Text == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
	}
	if len(args) == 0 {
		p.state.dir, p.state.dirDynamic = p.opt.Home, p.opt.Home == ""
		return
	}
	p.chdir(args[0])
}

// chdir changes the shell state's directory to dir, as `cd dir` does.
func (p *parser) chdir(dir Word) {
	switch {
	case dir.Dynamic || dir.Text == "-":
		p.state.dirDynamic = true
	case strings.HasPrefix(dir.Text, "/"):
		p.state.dir = dir.Text
	default:
		p.state.dir = joinDir(p.state.dir, dir.Text)
	}
}

func joinDir(dir, rel string) string {
	if dir == "" {
		return rel
	}
	return strings.TrimSuffix(dir, "/") + "/" + rel
}

func appendVia(via []string, v string) []string {
	out := make([]string, len(via), len(via)+1)
	copy(out, via)
	return append(out, v)
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func atoiOr(s string, def int) int {
	n := 0
	if s == "" {
		return def
	}
	for _, c := range s {
		if c < '0' || c > '9' || n > 1<<20 {
			return def
		}
		n = n*10 + int(c-'0')
	}
	return n
}
