package shellparse

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
	"mvdan.cc/sh/v3/syntax"
)

// Limits on what Parse accepts. Past them the input is refused with an
// *Error rather than analysed partly, so a caller can never allow it.
const (
	// MaxSize is the largest script Parse reads, in bytes (1 MiB).
	MaxSize = 1 << 20
	// MaxDepth is how deeply constructs may nest: subshells, groups,
	// substitutions, control flow, re-parsed `bash -c`/`eval` text, and
	// the operators of arithmetic and `[[ ]]` expressions and nested
	// parameter expansions each add a level.
	MaxDepth = 100
	// MaxCommands is the most simple commands one script may hold.
	MaxCommands = 20000
	// MaxNesting bounds the running depth of brackets in any text handed
	// to the parser (the script, and code re-parsed from it): each `(`,
	// `{`, `[` adds one and each `)`, `}`, `]` takes one away, quoting
	// ignored. MaxBrackets bounds how many `(`, `{`, `[` and `!` such a
	// text holds at all. See checkNesting.
	MaxNesting  = 1000
	MaxBrackets = 20000
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
	// POSIX parses as POSIX sh instead of Bash (the same as Dialect Sh).
	POSIX bool
	// Dialect is the shell that runs the script; "" is Bash.
	Dialect Dialect
	// CDPATH is set when the script starts with CDPATH in its
	// environment: a `cd name` may then go elsewhere.
	CDPATH bool
	// Home, when set, is what an unquoted `~` and a plain `$HOME` resolve
	// to. Without it they are dynamic.
	Home string
	// Glob is what is known of the glob options of the shell the script
	// starts in (Command.Glob). The zero value knows nothing: an agent's
	// shell; BashDefaults is a bash gatekeep starts itself.
	Glob GlobState
}

// parses counts the scripts Parse and ParseArgv analysed (Parses).
var parses atomic.Uint64

// Parses returns how many scripts Parse and ParseArgv have analysed in this
// process, for tests that check a call is parsed once: read it before and
// after the call.
func Parses() uint64 { return parses.Load() }

// Parse analyses a shell script. It never runs anything. On failure it
// returns an *Error whose Code says why.
func Parse(src string, opt Options) (*Script, error) {
	parses.Add(1)
	if err := CheckInput(src); err != nil {
		return nil, err
	}
	p := newParser(src, opt)
	defer p.release()
	p.parseInto(src, 0, nil)
	p.finish()
	if p.err != nil {
		return nil, p.err
	}
	return p.script(), nil
}

// ParseArgv analyses an argv that will be passed to execve as it is: every
// word is literal. Wrappers in it (`sudo`, `bash -c '...'`) are seen through
// like in Parse.
func ParseArgv(argv []string, opt Options) (*Script, error) {
	parses.Add(1)
	src := JoinArgv(argv)
	if err := CheckInput(strings.Join(argv, " ")); err != nil {
		return nil, err
	}
	p := newParser(src, opt)
	defer p.release()
	words := make([]Word, len(argv))
	off := 0
	for i, a := range argv {
		words[i] = Word{Text: a, Offset: off}
		off += len(quoteWord(a)) + 1
	}
	if len(words) > 0 {
		p.reserve(1, 0)
		p.emit(Command{Command: cmdmodel.Command{Args: words, Offset: 0}, End: len(src), Text: src, Parent: -1, Inner: -1})
	}
	p.finish()
	if p.err != nil {
		return nil, p.err
	}
	return p.script(), nil
}

// script is the parse's result, in the allocation reserve made for it
// when there is one.
func (p *parser) script() *Script {
	s := p.out
	if s == nil {
		s = new(Script)
	}
	*s = Script{Source: p.top, Commands: p.cmds, Funcs: p.funcs, ForkBombs: p.forkBombs, Values: p.values, globs: p.globs, loops: p.loops}
	return s
}

// scriptOfOne is a Script with room for one command of up to four words:
// most scripts are one such command (`git status`, `ls -la src`), and they
// cost one allocation, not three.
type scriptOfOne struct {
	s     Script
	one   [1]Command
	words [4]Word
}

// reserve sizes the parse's results from what the syntax tree about to be
// walked holds (checkTree counts it): cmds simple commands with words
// words between them. Wrappers, `bash -c` and the places that evaluate
// code add commands; the slice grows for those. The words of all the
// commands share one array (wordsFor).
func (p *parser) reserve(cmds, words int) {
	cmds = min(cmds, MaxCommands)
	switch {
	case p.cmds == nil && p.out == nil && cmds == 1:
		a := new(scriptOfOne)
		p.out, p.cmds, p.words = &a.s, a.one[:0], a.words[:0]
	case cap(p.cmds)-len(p.cmds) < cmds:
		p.cmds = slices.Grow(p.cmds, cmds)
	}
	if cap(p.words)-len(p.words) < words {
		p.words = make([]Word, 0, words)
	}
}

// wordsFor returns an empty slice with room for the n words of one
// command, from the array reserve made when it has room left. Its
// capacity is n, so an append past it copies instead of writing over
// another command's words.
func (p *parser) wordsFor(n int) []Word {
	if n == 0 {
		return nil // a bare assignment's Args stay nil, as callers expect
	}
	if cap(p.words)-len(p.words) < n {
		return make([]Word, 0, n)
	}
	at := len(p.words)
	p.words = p.words[:at+n]
	return p.words[at : at : at+n]
}

// finish settles what needs the whole script: the arithmetic checks that
// relied on variables holding numbers, AfterLink for commands that run
// again or concurrently, and calls of the script's functions.
func (p *parser) finish() {
	if p.err != nil {
		return
	}
	p.settleCode()
	p.settleLinks()
	p.settleGlob()
	p.markFuncCalls()
}

// markFuncCalls marks the commands whose name is a function the script
// defines, wherever the definition stands.
func (p *parser) markFuncCalls() {
	if len(p.funcs) == 0 {
		return
	}
	for i := range p.cmds {
		c := &p.cmds[i]
		if len(c.Args) > 0 && !c.Args[0].Dynamic && slices.Contains(p.funcs, c.Args[0].Text) {
			c.UserFunc = true
		}
	}
}

// CheckInput refuses input that is not analysed at all: larger than MaxSize,
// holding a NUL byte, a carriage return or U+FFFD, or not valid UTF-8.
//
// A carriage return is a blank to the parser but an ordinary word character
// to bash, so `ls\r#; rm -rf ~/` would be `ls` and a comment to the gate and
// run rm in bash; CRLF scripts fail in bash anyway. U+FFFD is what a decoder
// puts in place of text it could not read (a JSON `\ud800`), so the text
// checked is not the text that was sent.
func CheckInput(src string) error {
	if len(src) > MaxSize {
		return &Error{Code: CodeTooLarge, Offset: -1, Msg: fmt.Sprintf("input is %d bytes, over the %d-byte limit", len(src), MaxSize)}
	}
	if i := strings.IndexByte(src, 0); i >= 0 {
		return &Error{Code: CodeInvalid, Offset: i, Msg: "input holds a NUL byte"}
	}
	if i := strings.IndexByte(src, '\r'); i >= 0 {
		return &Error{Code: CodeInvalid, Offset: i, Msg: "input holds a carriage return, which bash reads as part of a word and the parser as a blank (CRLF scripts fail in bash anyway)"}
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
	if i := strings.Index(src, "\uFFFD"); i >= 0 {
		return &Error{Code: CodeInvalid, Offset: i, Msg: "input holds U+FFFD, the replacement character: the input was not valid text"}
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
	opt       Options
	top       string
	cmds      []Command
	out       *Script             // where the result goes, when reserve allocated it with cmds
	words     []Word              // the array the commands' words are taken from (wordsFor)
	funcs     []string            // names of the functions defined, in any nested code too
	forkBombs []string            // functions that call themselves asynchronously, twice or more
	values    map[string][]string // Script.Values
	err       error

	// per nested text being walked
	text     string
	base     int  // offset of text in top, or -1 when text is re-parsed code
	baseWord Word // the outer word re-parsed code came from

	depth        int
	via          []string
	parent       int
	upstream     []int // commands in earlier stages of enclosing pipelines
	prevStage    []int // the commands of the stage just before, whose output is this stage's input
	homeAssigned bool
	state        shellState
	assoc        bool // walking the array literal of a `declare -A`
	lastpipe     bool // `shopt -s lastpipe`: a pipeline's last stage runs in the shell
	stdoutAway   int  // > 0: inside a pipeline stage before the last, or a compound whose stdout is redirected

	// Glob options (glob.go): the state now, the options some command
	// changes, the commands that change them, and how deep the walk is
	// in code another shell runs.
	glob         GlobState
	globs        []*syntax.Word // the glob words' parsed forms (Word.Shell)
	loops        []loopInfo     // loops whose variable words are known (loopwords.go)
	loopVars     []loopVar      // the enclosing ones
	globChanged  GlobOpt
	globChangers []int
	otherShell   int

	// Links (links.go): a command that can create a link has run, the
	// commands that can, and the ranges of commands that run again or
	// concurrently.
	afterLink bool
	linkers   []int
	spans     []span

	vals valueFacts // code.go

	dialect  Dialect  // of the code being walked
	inFunc   int      // walking a function body
	dirFuncs []string // functions that may change the caller's directory (dirs.go)

	// walk's stacks and its visitor, built once per parser
	walkParents []int
	walkCounted []bool
	visitFn     func(syntax.Node) bool
	// checkTree's state and visitor
	chk     treeCheck
	checkFn func(syntax.Node) bool
}

// shellState is what earlier commands of the same shell change for later
// ones: the directory, tainted variables, and what is known of variables'
// values (code.go). A subshell gets a copy.
type shellState struct {
	// ok and fail are where the shell may be after the last statement
	// succeeded and failed (dirs.go); live is where it last could be.
	ok, fail, live dirSet
	physical       bool // `set -P`: every cd is physical
	tainted        []string
	numeric        []string // variables that hold a number
	ints           []string // variables with the integer attribute
}

// parserPool keeps parsers for reuse: a parser's walk stacks and its
// visitors, bound once to it, outlive a parse. Everything else is reset by
// newParser; nothing a parse returns points into the parser.
var parserPool = sync.Pool{New: func() any { return new(parser) }}

// newParser takes a parser from the pool, which holds only parsers that
// are new or were reset by release, and sets it up for src.
func newParser(src string, opt Options) *parser {
	p := parserPool.Get().(*parser)
	p.opt, p.top, p.text, p.base, p.parent, p.dialect = opt, src, src, 0, -1, Bash
	switch {
	case opt.POSIX:
		p.dialect = Sh
	case opt.Dialect != "":
		p.dialect = opt.Dialect
	}
	p.state.setDirs(startDirs)
	p.state.live = startDirs
	p.glob = opt.Glob
	return p
}

// mayInt reports whether the script could give a variable the integer
// attribute (it names declare, typeset or local anywhere). It is looked
// up once, when an assignment first asks: most scripts assign nothing.
func (p *parser) mayInt() bool {
	if p.vals.mayInt == 0 {
		p.vals.mayInt = -1
		if strings.Contains(p.top, "declare") || strings.Contains(p.top, "typeset") || strings.Contains(p.top, "local") {
			p.vals.mayInt = 1
		}
	}
	return p.vals.mayInt > 0
}

// release returns p to the pool, keeping only its scratch: the parse's
// results and text are let go.
func (p *parser) release() {
	clear(p.chk.funcs[:cap(p.chk.funcs)])
	*p = parser{walkParents: p.walkParents[:0], walkCounted: p.walkCounted[:0], visitFn: p.visitFn,
		chk: treeCheck{counted: p.chk.counted[:0], funcs: p.chk.funcs[:0]}, checkFn: p.checkFn}
	parserPool.Put(p)
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
	switch p.dialect {
	case Sh:
		return syntax.LangPOSIX
	case Zsh:
		return syntax.LangZsh
	case korn:
		return syntax.LangMirBSDKorn
	}
	return syntax.LangBash
}

// parseInto parses text and walks it. from is the outer word that held the
// text (nil for the top-level script).
func (p *parser) parseInto(text string, base int, from *Word) {
	if p.err != nil {
		return
	}
	at := func(i int) int {
		if from != nil {
			return from.Offset
		}
		return base + i
	}
	prefix := ""
	if from != nil {
		prefix = "nested code: "
		// Quote removal made new text ($'\r', $'\x28'): it gets the checks
		// the script got.
		if err := CheckInput(text); err != nil {
			e := err.(*Error)
			p.fail(e.Code, from.Offset, prefix+e.Msg)
			return
		}
	}
	if e := checkNesting(text); e != nil {
		p.fail(e.Code, at(e.Offset), prefix+e.Msg)
		return
	}
	f, err := parseFile(p.lang(), text)
	if err != nil {
		off := -1
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			off = int(pe.Pos.Offset())
		}
		if from != nil {
			off = from.Offset
		}
		p.fail(CodeParse, off, prefix+err.Error())
		return
	}
	p.checkTree(f, text)
	if p.chk.deep {
		p.fail(CodeTooDeep, at(0), prefix+fmt.Sprintf("the syntax tree nests deeper than %d levels", 10*MaxDepth))
		return
	} else if pos := p.chk.comment; pos.IsValid() {
		p.fail(CodeParse, at(int(pos.Offset())), prefix+"a comment ends in a backslash: bash ends the comment at the newline, the parser joins the next line to it")
		return
	}
	if p.chk.misMsg != "" {
		p.fail(CodeParse, at(int(p.chk.misPos.Offset())), prefix+p.chk.misMsg)
		return
	}
	p.noteDirFuncs(p.chk.funcs)
	p.reserve(p.chk.cmds, p.chk.words)
	savedText, savedBase, savedWord := p.text, p.base, p.baseWord
	p.text, p.base = text, base
	if from != nil {
		p.base, p.baseWord = -1, *from
	}
	p.stmts(f.Stmts)
	p.text, p.base, p.baseWord = savedText, savedBase, savedWord
}

// checkNesting is a resource guard run before the parser sees any text. The
// parser recurses once per level of nesting, and about 150,000 levels of
// `(` overflow the Go stack, which kills the process instead of returning
// an error (60,000 take half a gigabyte). It is not a tokenizer: quoting,
// comments and here-documents are ignored on purpose, so it errs toward
// refusing. The running depth of brackets (each `(`, `{`, `[` adds one,
// each `)`, `}`, `]` takes one away, never below zero) must stay within
// MaxNesting. Closers that close nothing in the shell (`( echo ')'; ( echo
// ')'; ...`, `{ echo }; { echo }; ...`, case patterns) could keep that
// count low while the real nesting grows, so the number of `(`, `{`, `[`
// and `!` (`[[ ! ! ! ...`) must also stay within MaxBrackets, which bounds
// the nesting whatever the closers.
func checkNesting(text string) *Error {
	// The depth never exceeds the number of openers, nor the total their
	// number plus the `!`s: most texts are far within both limits, which
	// strings.Count (vectorized) tells without a pass byte by byte.
	opens := strings.Count(text, "(") + strings.Count(text, "{") + strings.Count(text, "[")
	if opens <= MaxNesting && opens+strings.Count(text, "!") <= MaxBrackets {
		return nil
	}
	return scanNesting(text)
}

// scanNesting is checkNesting's pass over every byte.
func scanNesting(text string) *Error {
	depth, total := 0, 0
	for i := 0; i < len(text); i++ {
		// One table load per byte: most bytes are none of these.
		switch bracketKind[text[i]] {
		case 0:
			continue
		case bracketOpen:
			depth++
			total++
			if depth > MaxNesting {
				return &Error{Code: CodeTooDeep, Offset: i, Msg: fmt.Sprintf("brackets nest deeper than %d levels", MaxNesting)}
			}
		case bracketBang:
			total++
		case bracketClose:
			if depth > 0 {
				depth--
			}
			continue
		}
		if total > MaxBrackets {
			return &Error{Code: CodeTooDeep, Offset: i, Msg: fmt.Sprintf("the text holds more than %d brackets and negations, more than is parsed", MaxBrackets)}
		}
	}
	return nil
}

// What checkNesting counts, by byte.
const (
	bracketOpen = 1 + iota
	bracketBang
	bracketClose
)

var bracketKind = [256]uint8{
	'(': bracketOpen, '{': bracketOpen, '[': bracketOpen,
	'!': bracketBang,
	')': bracketClose, '}': bracketClose, ']': bracketClose,
}

// treeCheck is the state of the one walk parseInto makes over a parsed
// file before reading it (checkTree). It lives on the parser, with the
// visitor bound once, so the walk allocates nothing.
type treeCheck struct {
	text    string
	depth   int
	counted []bool
	comment syntax.Pos // the first comment that ends in a backslash
	deep    bool
	misPos  syntax.Pos // the first construct bash and the parser read differently
	misMsg  string
	funcs   []*syntax.FuncDecl // the functions f defines (noteDirFuncs)
	// The simple commands f holds and their words, to size the results
	// (reserve).
	cmds, words int
}

// checkTree walks f once for what must hold before it is read, and for the
// functions it defines (p.chk.funcs):
//
// A comment that ends in a backslash (p.chk.comment). bash ends a comment
// at the newline whatever precedes it; the parser reads a
// backslash-newline inside a comment as a line continuation and joins the
// next line to the comment or to the command before it, so `ls # see \` +
// newline + `rm -rf ~/` is one `ls` to the parser and runs rm in bash.
// p.chk.deep is set when the tree is too deep to look through before such
// a comment is found.
//
// The constructs that bash and the parser read differently, found by
// TestDifferentialBash against the real bash (p.chk.misPos, misMsg):
//
//   - Backquotes inside backquotes. bash removes one level of `\“, `\\`
//     and `\$` escaping at every level of nesting; mvdan.cc/sh sees the
//     innermost command as plain words from the third level on, and from
//     the second when a backslash-newline is involved. Any backquote inside
//     a backquoted substitution is refused; `$(...)` nests without that
//     ambiguity.
//   - `coproc` followed by a simple command. bash runs the whole simple
//     command as the coprocess; the parser reads `coproc dd if=x of=y` as
//     assignments before `dd`, and `coproc X=1 git push` as a command named
//     `X=1`. Only a compound command (`coproc { ...; }`, `coproc NAME (
//     ... )`, a loop ...) is accepted.
//
// The first of each in the walk's order is kept.
func (p *parser) checkTree(f *syntax.File, text string) {
	if p.checkFn == nil {
		p.checkFn = p.checkNode
	}
	p.chk = treeCheck{text: text, counted: p.chk.counted[:0], funcs: p.chk.funcs[:0]}
	walkTree(f, p.checkFn)
}

func (p *parser) checkNode(n syntax.Node) bool {
	c := &p.chk
	if n == nil {
		if c.counted[len(c.counted)-1] {
			c.depth--
		}
		c.counted = c.counted[:len(c.counted)-1]
		return true
	}
	if c.deep {
		return false
	}
	switch n := n.(type) {
	case *syntax.Comment:
		if !c.comment.IsValid() && (strings.HasSuffix(n.Text, "\\") || strings.Contains(n.Text, "\\\n")) {
			c.comment = n.Hash
		}
		return false
	case *syntax.CmdSubst:
		if n.Backquotes && c.misMsg == "" {
			a, b := int(n.Left.Offset())+1, int(n.Right.Offset())
			if a <= b && b <= len(c.text) && strings.ContainsRune(c.text[a:b], '`') {
				c.misPos, c.misMsg = n.Left, "backquotes nest inside backquotes, which bash and the parser unescape differently: write $(...) instead"
			}
		}
	case *syntax.CoprocClause:
		var body syntax.Command
		if n.Stmt != nil {
			body = n.Stmt.Cmd
		}
		switch body.(type) {
		case *syntax.Block, *syntax.Subshell, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause,
			*syntax.CaseClause, *syntax.ArithmCmd, *syntax.TestClause:
		default:
			if c.misMsg == "" {
				c.misPos, c.misMsg = n.Coproc, "coproc followed by a simple command, which bash runs whole and the parser splits: write coproc { ...; }"
			}
		}
	case *syntax.FuncDecl:
		c.funcs = append(c.funcs, n)
	case *syntax.CallExpr:
		c.cmds++
		c.words += len(n.Args)
	case *syntax.DeclClause:
		c.cmds++
	}
	// Ten syntax nodes per level of MaxDepth: a tree this deep is refused
	// by the walk anyway. (Past a comment that ends in a backslash, that
	// comment is the answer.)
	if c.depth >= 10*MaxDepth {
		c.deep = !c.comment.IsValid()
		return false
	}
	// A word of literals holds nothing looked for here: its parts are not
	// visited, unless they would reach the depth limit.
	if w, ok := n.(*syntax.Word); ok && c.depth+1 < 10*MaxDepth && literalWord(w) {
		return false
	}
	// A list or pipeline is a tree as deep as it is long; its links are
	// not nesting (andOr and pipeline walk them flat).
	counted := !listLink(n)
	if counted {
		c.depth++
	}
	c.counted = append(c.counted, counted)
	return true
}

// literalWord reports a word made of unquoted and single-quoted literals
// only (`ls`, `'a b'`, `$'\n'`): it holds no substitution, expansion or
// nesting, so walking its parts finds nothing.
func literalWord(w *syntax.Word) bool {
	for _, part := range w.Parts {
		switch part.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			return false
		}
	}
	return true
}

// listLink reports a node that only links the commands of an `&&`/`||`
// list or a pipeline: the operator, and the plain statement holding one.
func listLink(n syntax.Node) bool {
	if s, ok := n.(*syntax.Stmt); ok {
		if plainStmt(s) != nil {
			return false
		}
		n = s.Cmd
	}
	b, ok := n.(*syntax.BinaryCmd)
	return ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt || b.Op == syntax.Pipe || b.Op == syntax.PipeAll)
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

// walk is syntax.Walk over a word, an expression or a test, calling
// p.nestedNode on each node with parent, and with the nodes that can nest
// (parameter and arithmetic expansions, double quotes, arithmetic and test
// operators) counted against MaxDepth. Walks nest (a node's visit can walk
// again), so the parents and the counted marks are stacks on the parser,
// and the visitor is one method value per parser: a walk allocates nothing.
func (p *parser) walk(node syntax.Node, parent int) {
	if p.visitFn == nil {
		p.visitFn = p.visit
	}
	base := len(p.walkCounted)
	p.walkParents = append(p.walkParents, parent)
	walkTree(node, p.visitFn)
	p.walkParents = p.walkParents[:len(p.walkParents)-1]
	p.walkCounted = p.walkCounted[:base]
}

func (p *parser) visit(n syntax.Node) bool {
	if n == nil {
		if p.walkCounted[len(p.walkCounted)-1] {
			p.leave()
		}
		p.walkCounted = p.walkCounted[:len(p.walkCounted)-1]
		return true
	}
	if p.err != nil || !p.nestedNode(n, p.walkParents[len(p.walkParents)-1]) {
		return false
	}
	c := nests(n)
	if c && !p.enter() {
		p.leave()
		return false
	}
	p.walkCounted = append(p.walkCounted, c)
	return true
}

func nests(n syntax.Node) bool {
	switch n.(type) {
	case *syntax.ParamExp, *syntax.ArithmExp, *syntax.DblQuoted, *syntax.BinaryArithm, *syntax.UnaryArithm,
		*syntax.ParenArithm, *syntax.BinaryTest, *syntax.UnaryTest, *syntax.ParenTest:
		return true
	}
	return false
}

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
	d := p.enterStmt()
	if s.Background || s.Coprocess {
		// It runs alongside every command after it, in a subshell: what
		// it changes does not reach the shell.
		start := len(p.cmds)
		p.subshell(func() { p.stmtIn(s) })
		p.spans = append(p.spans, span{start, len(p.cmds), spanConcurrent})
		p.state.setDirs(d)
		return
	}
	p.stmtIn(s)
	if s.Negated {
		p.state.ok, p.state.fail = p.state.fail, p.state.ok
	}
}

func (p *parser) stmtIn(s *syntax.Stmt) {
	if call, ok := s.Cmd.(*syntax.CallExpr); ok || s.Cmd == nil {
		p.call(call, s)
		return
	}
	// A compound command: its redirects apply to all of it.
	if len(s.Redirs) > 0 {
		p.call(nil, &syntax.Stmt{Position: s.Position, Redirs: s.Redirs})
	}
	if away := redirectsStdout(s.Redirs); away {
		p.stdoutAway++
		defer func() { p.stdoutAway-- }()
	}
	p.compound(s.Cmd)
}

// subshell runs fn with a copy of the shell state that is dropped after.
// The lists are only ever appended to or rebuilt (removeStr), so capping
// them makes the saved copy's first append reallocate, away from what fn
// appended, without copying them here.
func (p *parser) subshell(fn func()) {
	saved := p.state
	saved.tainted = saved.tainted[:len(saved.tainted):len(saved.tainted)]
	saved.numeric = saved.numeric[:len(saved.numeric):len(saved.numeric)]
	saved.ints = saved.ints[:len(saved.ints):len(saved.ints)]
	fn()
	p.state = saved
}

// calledByShell reports whether the shell may call the function name by
// itself, with no call in the script: bash's command_not_found_handle
// (bash(1) COMMAND EXECUTION), and in zsh any function, since besides
// the hooks and TRAP functions called by name (chpwd, zshexit,
// command_not_found_handler, TRAPEXIT ...; zshmisc(1) SPECIAL FUNCTIONS)
// a hook array (chpwd_functions ...) may name any of them.
func (p *parser) calledByShell(name string) bool {
	return name == "command_not_found_handle" || p.zsh()
}

// loop walks fn, whose commands may run more than once.
func (p *parser) loop(fn func()) {
	start := len(p.cmds)
	fn()
	p.spans = append(p.spans, span{start, len(p.cmds), spanTogether})
}

func (p *parser) compound(c syntax.Command) {
	d := p.state.here()
	switch c := c.(type) {
	case *syntax.Block:
		p.stmts(c.Stmts)
	case *syntax.Subshell:
		p.subshell(func() { p.stmts(c.Stmts) })
		p.state.setDirs(d)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			p.pipeline(c)
			return
		}
		p.andOr(c)
	case *syntax.IfClause:
		p.ifClause(c)
	case *syntax.WhileClause:
		p.repeated(d, func() []dirSet {
			p.stmts(c.Cond)
			ok, fail := p.state.ok, p.state.fail
			if c.Until {
				p.state.setDirs(fail)
			} else {
				p.state.setDirs(ok)
			}
			p.stmts(c.Do)
			return []dirSet{ok, fail}
		})
	case *syntax.ForClause:
		p.repeated(d, func() []dirSet { p.forClause(c); return nil })
	case *syntax.CaseClause:
		p.nested(c.Word, p.parent)
		p.caseClause(c, d)
	case *syntax.FuncDecl:
		names := c.Names
		if c.Name != nil {
			names = append(names, c.Name)
		}
		implicit := false
		for _, n := range names {
			if !slices.Contains(p.funcs, n.Value) {
				p.funcs = append(p.funcs, n.Value)
			}
			implicit = implicit || p.calledByShell(n.Value)
			calls, async := 0, 0
			countSelfCalls(c.Body, n.Value, false, &calls, &async)
			if calls >= 2 && async >= 1 && !slices.Contains(p.forkBombs, n.Value) {
				p.forkBombs = append(p.forkBombs, n.Value)
			}
		}
		// The body runs when the function is called; judge it as if it ran.
		start := len(p.cmds)
		p.inFunc++
		p.subshell(func() { p.stmt(c.Body) })
		p.inFunc--
		p.state.setDirs(d)
		p.spans = append(p.spans, span{start, len(p.cmds), spanAnytime})
		if implicit {
			// No call in the script shows where it runs: wherever the
			// shell is when it calls it.
			for i := start; i < len(p.cmds); i++ {
				p.cmds[i].DirDynamic = true
			}
		}
	case *syntax.TimeClause:
		p.stmt(c.Stmt)
	case *syntax.CoprocClause:
		// A coprocess runs alongside every command after it.
		start := len(p.cmds)
		p.subshell(func() { p.stmt(c.Stmt) })
		p.state.setDirs(d)
		if c.Name != nil {
			// bash(1) Coprocesses: NAME holds the coprocess's descriptors
			// and NAME_PID its process id (`coproc PATH { :; }` leaves
			// PATH=63).
			// bash expands the name as a word (`coproc "$x" { :; }`).
			if w := p.word(c.Name); w.Dynamic {
				p.push(p.codeCommand(c, "coproc", "coproc is given a name only known at run time, and sets that variable", p.parent))
			} else {
				p.noteAssigns([]cmdmodel.Assign{{Name: w.Text}, {Name: w.Text + "_PID"}})
			}
		}
		p.spans = append(p.spans, span{start, len(p.cmds), spanConcurrent})
	case *syntax.DeclClause:
		p.decl(c)
	case *syntax.ArithmCmd:
		p.arithSite(c, "((", p.parent, c.X)
	case *syntax.LetClause:
		p.arithSite(c, "let", p.parent, c.Exprs...)
	case *syntax.TestClause:
		p.testClause(c)
	default:
		p.nested(c, p.parent)
	}
}

// forClause walks `for NAME in WORDS`, `select NAME in WORDS` and
// `for ((...))`. The loop variable is assigned before each pass, like a
// standalone `NAME=item`: it taints later commands, and it holds a number
// only when every item is one.
func (p *parser) forClause(c *syntax.ForClause) {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		// Without `in`, the loop runs over "$@".
		numeric := l.InPos.IsValid()
		var deps []string
		var items []Word
		for _, w := range l.Items {
			iw := p.nested(w, p.parent)
			p.addValue(l.Name.Value, iw)
			if len(l.Items) <= maxLoopItems {
				items = append(items, iw)
			}
			ok, d := p.numericValue(w)
			numeric = numeric && ok
			deps = append(deps, d...)
		}
		name := l.Name.Value
		if why := p.assigned(name, numeric, deps, -1, false); why != "" {
			p.push(p.codeCommand(c, "for", why, p.parent))
		} else if !numeric && p.mayInt() {
			cmd := p.codeCommand(c, "for", "", p.parent)
			p.vals.pending = append(p.vals.pending, pendingCode{idx: -1, cmd: cmd, notInt: []string{name}})
		}
		known := p.enterLoop(l, items, c.Do)
		p.noteAssigns([]cmdmodel.Assign{{Name: name, Dynamic: !numeric}})
		p.stmts(c.Do)
		if known {
			p.leaveLoop()
		}
		return
	case *syntax.CStyleLoop:
		p.arithSite(l, "for ((", p.parent, l.Init, l.Cond, l.Post)
	}
	p.stmts(c.Do)
}

// pipeline walks the stages of `a | b | c`; each stage's commands know the
// commands of the earlier stages, whose output they may read.
func (p *parser) pipeline(c *syntax.BinaryCmd) {
	// Flatten without recursion: a pipeline can have any number of stages.
	var stages []*syntax.Stmt
	todo := []*syntax.Stmt{c.Y, c.X}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Negated {
			todo = append(todo, b.Y, b.X)
			continue
		}
		stages = append(stages, s)
		if len(stages) > MaxCommands {
			p.fail(CodeTooLarge, -1, fmt.Sprintf("script holds more than %d commands", MaxCommands))
			return
		}
	}
	saved, savedPrev := p.upstream, p.prevStage
	up := append([]int(nil), saved...)
	first := len(p.cmds)
	prevStart := -1
	for i, s := range stages {
		p.upstream = up
		p.prevStage = nil
		if prevStart >= 0 {
			p.prevStage = up[prevStart:len(up):len(up)]
		}
		prevStart = len(up)
		start := len(p.cmds)
		// Each stage of a pipeline runs in a subshell in bash, but for the
		// last one after `shopt -s lastpipe` (bash(1) SHELL BUILTIN
		// COMMANDS, shopt).
		if i < len(stages)-1 {
			p.stdoutAway++ // into the pipe
		}
		if p.lastpipe && i == len(stages)-1 {
			p.stmt(s)
		} else {
			p.subshell(func() { p.stmt(s) })
		}
		if i < len(stages)-1 {
			p.stdoutAway--
		}
		for i := start; i < len(p.cmds); i++ {
			up = append(up, i)
		}
	}
	p.upstream, p.prevStage = saved, savedPrev
	// The stages run at the same time.
	p.spans = append(p.spans, span{first, len(p.cmds), spanTogether})
}

// decl handles `export`, `declare`, `local`, `readonly`, `typeset`. Its
// options change what its assignments do (bash(1) declare): with -i the
// variable evaluates what it is given as arithmetic, with -n it refers to
// the variable its value names, with -A array subscripts are strings.
func (p *parser) decl(c *syntax.DeclClause) {
	idx := p.emit(Command{Parent: p.parent, Inner: -1})
	if idx < 0 {
		return
	}
	variant := c.Variant.Value
	args := []Word{{Text: variant, Offset: p.off(c.Pos())}}
	var assigns []cmdmodel.Assign
	var r risk
	flags := ""
	for _, a := range c.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			w := p.nested(a.Value, idx)
			args = append(args, w)
			switch {
			case w.Dynamic:
				r.set(variant + " is given a word only known at run time, and a subscript in a variable name runs commands")
			case strings.HasPrefix(w.Text, "-"):
				flags += w.Text[1:]
			case strings.HasPrefix(w.Text, "+"):
			default:
				// `declare 'a[1]=x'`: a name the parser did not split off.
				name, val, hasVal := strings.Cut(w.Text, "=")
				p.nameText(name, &r)
				base := baseName(name)
				p.declared(base, flags, hasVal && numberText(val) && base == name, nil, hasVal, idx, &r)
				assigns = append(assigns, cmdmodel.Assign{Name: base, Value: val})
			}
			continue
		}
		if a.Name == nil {
			continue
		}
		p.assoc = a.Array != nil && strings.Contains(flags, "A")
		as, numeric, deps := p.assignIn(a, idx)
		p.assoc = false
		if variant != "export" && strings.Contains(flags, "n") && a.Value != nil {
			// A reference: what is assigned to it lands on the variable
			// its value names, which may hold a subscript.
			p.nameWord(Word{Text: as.Value, Dynamic: as.Dynamic}, variant+" -n", &r)
			p.vals.namerefs = true
			if !as.Dynamic {
				p.noteAssigns([]cmdmodel.Assign{{Name: baseName(as.Value)}})
			}
		}
		if strings.Contains(flags, "i") && a.Value != nil && a.Index == nil {
			// The value is evaluated as arithmetic, and a number is kept.
			p.operand(a.Value, &r)
			numeric, deps = true, nil
		}
		p.declared(as.Name, flags, numeric && a.Index == nil && a.Array == nil, deps, a.Value != nil || a.Array != nil || !a.Naked, idx, &r)
		assigns = append(assigns, as)
		args = append(args, Word{Text: as.Name + "=" + as.Value, Dynamic: as.Dynamic, Offset: p.off(a.Pos())})
	}
	if variant != "export" && variant != "readonly" && strings.Contains(flags, "n") && len(assigns) > 0 {
		// `declare -n r; r=PATH; r=/tmp/x` sets PATH: which variable an
		// assignment lands on is only known when it runs.
		p.vals.namerefs = true
		r.set(variant + " -n makes a reference, and what is assigned to it lands on the variable its value names, which the gate does not follow")
	}
	cmd := Command{Command: cmdmodel.Command{Args: args, Offset: p.off(c.Pos())}, End: p.off(c.End()), Text: p.src(c.Pos(), c.End()), Parent: p.parent, Inner: -1, Unknown: r.why}
	if r.why == "" && len(r.vars) > 0 {
		p.vals.pending = append(p.vals.pending, pendingCode{idx: idx, vars: r.vars})
	}
	p.fill(idx, cmd)
	p.noteAssigns(assigns)
}

// declared records a variable given to declare and its kin, with the
// options seen so far; hasVal says it is assigned a value.
func (p *parser) declared(name, flags string, numeric bool, deps []string, hasVal bool, idx int, r *risk) {
	if strings.Contains(flags, "i") {
		if !slices.Contains(p.state.ints, name) {
			p.state.ints = append(p.state.ints, name)
		}
		if p.vals.ints == nil {
			p.vals.ints = map[string]bool{}
		}
		p.vals.ints[name] = true
	}
	if !hasVal {
		return
	}
	if why := p.assigned(name, numeric, deps, idx, false); why != "" {
		r.set(why)
	}
}

// assignIn resolves an assignment; substitutions in its value and subscript
// get parent as their parent command. It also reports whether the value is
// a number for arithmetic, and the variables that relies on.
func (p *parser) assignIn(a *syntax.Assign, parent int) (cmdmodel.Assign, bool, []string) {
	as := cmdmodel.Assign{Name: a.Name.Value}
	if a.Index != nil {
		// `a[i]=v`, `a[i]+=v`: the subscript is arithmetic, and its
		// substitutions run (code.go).
		p.arithSite(a, a.Name.Value+"[...]=", parent, a.Index)
	}
	numeric := !a.Naked // `x=` leaves the empty string, which is 0
	var deps []string
	switch {
	case a.Array != nil:
		as.Dynamic = true
		as.Value = p.src(a.Array.Pos(), a.Array.End())
		p.nested(a.Array, parent)
		for _, el := range a.Array.Elems {
			if el.Index == nil && el.Value != nil {
				p.addValue(as.Name, p.word(el.Value))
			}
		}
		numeric = false
	case a.Value != nil:
		w := p.nested(a.Value, parent)
		as.Value, as.Dynamic = w.Text, w.Dynamic
		if strings.Contains(as.Value, ":~") {
			as.Dynamic = true // bash expands a tilde after each : of an assignment
		}
		numeric, deps = p.numericValue(a.Value)
	}
	if a.Index != nil {
		as.Dynamic = true
		numeric = false
	}
	if a.Append {
		// `x+=5` appends to the text already there.
		if numeric && p.isNumeric(as.Name) {
			deps = append(deps, as.Name)
		} else {
			numeric = false
		}
	}
	return as, numeric, deps
}

// noteAssigns records assignments that stand alone (`X=1`, `export X=1`):
// they change later commands of the same shell.
func (p *parser) noteAssigns(as []cmdmodel.Assign) {
	p.checkLocale(as, -1)
	for _, a := range as {
		if a.Name == "HOME" {
			p.homeAssigned = true
		}
		if !slices.Contains(p.state.tainted, a.Name) {
			p.state.tainted = append(p.state.tainted, a.Name)
		}
	}
}

// nested walks a node (a word, an arithmetic expression, a test) with
// parent as the parent command of what it finds: command and process
// substitutions, and the places that evaluate text as code (code.go). It
// returns the resolved word when node is a word.
func (p *parser) nested(node syntax.Node, parent int) Word {
	if isNilNode(node) || p.err != nil {
		return Word{}
	}
	p.walkNested(node, parent)
	if w, ok := node.(*syntax.Word); ok {
		return p.word(w)
	}
	return Word{}
}

// walkNested is nested's walk of node, without resolving it as a word.
func (p *parser) walkNested(node syntax.Node, parent int) {
	if w, ok := node.(*syntax.Word); ok && !p.zsh() && literalWord(w) {
		// Nothing in it for the walk: no substitution, expansion or
		// nesting (and zsh's word checks are not needed).
		return
	}
	p.walk(node, parent)
}

// nestedNode is nested's visit of one node n; false skips n's
// children.
func (p *parser) nestedNode(n syntax.Node, parent int) bool {
	switch n := n.(type) {
	case *syntax.CmdSubst:
		p.substitution(n.Stmts, "$(...)", parent)
		return false
	case *syntax.ProcSubst:
		p.substitution(n.Stmts, n.Op.String()+"...)", parent)
		return false
	case *syntax.ArithmExp:
		kw := "$(("
		if n.Bracket {
			kw = "$["
		}
		p.arithSite(n, kw, parent, n.X)
		return false
	case *syntax.ParamExp:
		return p.paramExp(n, parent)
	case *syntax.DblQuoted:
		if n.Dollar {
			// bash translates $"…" when it runs, through the catalogue
			// TEXTDOMAIN and TEXTDOMAINDIR name, and expands the
			// translation as a double-quoted string (noexpand_translation
			// is off by default): a catalogue the agent wrote runs code.
			p.push(p.codeCommand(n, `$"`, `$"…" is translated at run time and the translation is expanded, which can run commands`, parent))
		}
	case *syntax.Word:
		if p.zsh() {
			if why := zshCode(n, p.homeParam); why != "" {
				p.push(p.codeCommand(n, "zsh", why, parent))
			}
		}
	case *syntax.ArrayElem:
		if n.Index != nil && !p.assoc {
			p.arithSite(n, "[...]=", parent, n.Index)
			if n.Value != nil {
				p.nested(n.Value, parent)
			}
			return false
		}
	}
	return true
}

func (p *parser) substitution(stmts []*syntax.Stmt, via string, parent int) {
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	savedVia, savedParent, savedUp, savedAssoc := p.via, p.parent, p.upstream, p.assoc
	savedPrev := p.prevStage
	defer func() { p.prevStage = savedPrev }()
	p.via = appendVia(p.via, via)
	p.parent = parent
	p.upstream, p.prevStage = nil, nil
	p.assoc = false
	p.subshell(func() { p.stmts(stmts) })
	p.via, p.parent, p.upstream, p.assoc = savedVia, savedParent, savedUp, savedAssoc
}

// call handles one simple command (or, with c nil, a statement that is only
// redirects).
func (p *parser) call(c *syntax.CallExpr, s *syntax.Stmt) {
	idx := len(p.cmds)
	end := s.End()
	if s.Semicolon.IsValid() {
		end = s.Semicolon
	}
	cmd := Command{Command: cmdmodel.Command{Offset: p.off(s.Pos()), StdoutAway: p.stdoutAway > 0}, Parent: p.parent, Inner: -1, End: p.off(end)}
	cmd.Text = strings.TrimRight(p.src(s.Pos(), end), " \t")
	// Reserve the slot so substitutions in this command's words name it as
	// their parent.
	p.emit(Command{Parent: p.parent, Inner: -1})
	if p.err != nil {
		return
	}
	if c != nil {
		// A bare assignment stays in the shell; one before a command is
		// for that command only.
		bare := len(c.Args) == 0
		for _, a := range c.Assigns {
			if a.Name == nil {
				continue
			}
			as, numeric, deps := p.assignIn(a, idx)
			cmd.Assigns = append(cmd.Assigns, as)
			if why := p.assigned(as.Name, numeric, deps, idx, !bare); why != "" && cmd.Unknown == "" {
				cmd.Unknown = why
			}
		}
		cmd.Args = p.wordsFor(len(c.Args))
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

func (p *parser) redirect(r *syntax.Redirect, parent int) cmdmodel.Redirect {
	rd := cmdmodel.Redirect{Op: r.Op.String(), Fd: -1, Offset: p.off(r.Pos())}
	if r.N != nil {
		rd.Fd = atoiOr(r.N.Value, -1)
		if name, ok := strings.CutPrefix(r.N.Value, "{"); ok {
			// bash(1) REDIRECTION: {NAME}>file puts the descriptor's
			// number in NAME, in the shell itself for a builtin or a
			// compound command (`: {PATH}>/dev/null` leaves PATH=10).
			p.noteAssigns([]cmdmodel.Assign{{Name: strings.TrimSuffix(name, "}")}})
		}
	}
	if r.Hdoc != nil {
		// The body is walked for its substitutions and resolved by
		// heredoc: it is not a word (no globbing, braces or tildes),
		// and resolving it as one cost a pass over every byte of it.
		if p.err == nil {
			p.walkNested(r.Hdoc, parent)
		}
		rd.Target = p.heredoc(r)
		return rd
	}
	rd.Target = p.nested(r.Word, parent)
	return rd
}

// push appends a command as it is and returns its index, or -1 past
// MaxCommands.
func (p *parser) push(c Command) int {
	if len(p.cmds) >= MaxCommands {
		p.fail(CodeTooLarge, -1, fmt.Sprintf("script holds more than %d commands", MaxCommands))
		return -1
	}
	p.cmds = append(p.cmds, c)
	return len(p.cmds) - 1
}

// emit appends a command and returns its index.
func (p *parser) emit(c Command) int {
	idx := p.push(c)
	if idx >= 0 && (c.Args != nil || c.Redirects != nil) {
		p.fill(idx, c)
	}
	return idx
}

// context sets what the walk knows of where a command runs.
func (p *parser) context(c *Command) {
	c.Via = append([]string(nil), p.via...)
	here := p.state.here()
	c.Dir, c.OtherDirs, c.DirDynamic = "", nil, here.unknown
	if len(here.dirs) > 0 {
		c.Dir = here.dirs[0]
		if len(here.dirs) > 1 {
			c.OtherDirs = here.dirs[1:len(here.dirs):len(here.dirs)]
		}
	}
	// Shared with the state, capped: the state only ever appends, so the
	// command's view never changes, and a script with thousands of
	// variables does not copy them for every command.
	if n := len(p.state.tainted); n > 0 {
		c.Tainted = p.state.tainted[:n:n]
	}
	c.AfterLink = p.afterLink
	c.Glob = p.glob
	if p.otherShell > 0 {
		c.Glob = p.glob.unknown(globAll, p.opt.Glob.On)
	}
}

// fill completes the command at idx: context from the walk, then wrappers,
// then what it changes for the commands after it.
func (p *parser) fill(idx int, c Command) {
	p.context(&c)
	if p.zsh() && c.Unknown == "" {
		c.Unknown = zshCommand(&c)
	}
	p.cmds[idx] = c
	p.afterCommand(idx)
	p.noteGlobChange(idx)
	p.envCode(idx)
	p.unwrap(idx)
	p.builtinCode(idx)
	p.noteLinker(idx)
}

func appendVia(via []string, v string) []string {
	out := make([]string, len(via), len(via)+1)
	copy(out, via)
	return append(out, v)
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

// countSelfCalls counts the simple commands in node that call name, and how
// many of them run asynchronously (in the background or in a pipeline).
func countSelfCalls(node syntax.Node, name string, async bool, calls, asyncCalls *int) {
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && !async {
				countSelfCalls(n, name, true, calls, asyncCalls)
				return false
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && !async {
				countSelfCalls(n, name, true, calls, asyncCalls)
				return false
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && n.Args[0].Lit() == name {
				*calls++
				if async {
					*asyncCalls++
				}
			}
		}
		return true
	})
}

// parsers keeps syntax parsers for reuse, one pool per language variant: a
// parser's buffers outlive a parse, and a fresh one per call (bash -c,
// eval and every batch line parse again) was a seventh of a decision's
// allocations. A parser is reset by each Parse and the File it returns
// does not share its memory, so one parse never sees another's state.
var parsers sync.Map // syntax.LangVariant -> *sync.Pool of *pooledParser

// pooledParser is a syntax parser with the reader it reads from.
type pooledParser struct {
	p *syntax.Parser
	r strings.Reader
}

func parseFile(lang syntax.LangVariant, text string) (*syntax.File, error) {
	pool, ok := parsers.Load(lang)
	if !ok {
		pool, _ = parsers.LoadOrStore(lang, &sync.Pool{New: func() any {
			return &pooledParser{p: syntax.NewParser(syntax.Variant(lang), syntax.KeepComments(true))}
		}})
	}
	pp := pool.(*sync.Pool).Get().(*pooledParser)
	defer pool.(*sync.Pool).Put(pp)
	pp.r.Reset(text)
	defer pp.r.Reset("")
	return pp.p.Parse(&pp.r, "")
}

// redirectsStdout reports whether the redirects send standard output to a
// file (`> f`, `>> f`, `>| f`, `&> f`, `&>> f`, `1> f`); a duplication
// (`>&2`) sends it where another descriptor goes, which may be a terminal.
func redirectsStdout(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
			if r.N == nil || r.N.Value == "1" || r.Op == syntax.RdrAll || r.Op == syntax.AppAll {
				return true
			}
		}
	}
	return false
}
