package shellparse

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Text that bash evaluates as code.
//
// Some places take a string and evaluate it, so that a value the gate cannot
// see decides what runs:
//
//   - Arithmetic (bash(1) ARITHMETIC EVALUATION): `$((...))`, `$[...]`,
//     `((...))`, `let`, `for ((...))`, array subscripts (`${a[i]}`, `a[i]=`,
//     `a=([i]=v)`), substring offsets (`${x:i:n}`), the operands of `[[ ...
//     -eq/-ne/-lt/-le/-gt/-ge ... ]]`, and assignments to a variable with
//     the integer attribute (`declare -i`). A name in an expression is
//     replaced by its value, which is evaluated as an expression in turn, and
//     a subscript in it is expanded: with x='a[$(rm -rf ~)]', `echo $((x))`
//     runs rm. An expansion or substitution in the expression (`$x`,
//     `$(cat f)`) is likewise evaluated after it is expanded, and inside
//     `$((...))` quotes do not quote (`$(( '$(id)' ))` runs id).
//   - Variable names given as strings: `[[ -v NAME ]]`, `test -v NAME` and
//     `[ -v NAME ]`, `read NAME`, `printf -v NAME`, `declare NAME=...`,
//     `declare -n REF=NAME`, `mapfile`, `getopts`, `unset`, `wait -p`: a
//     subscript in NAME (`'a[$(id)]'`) is expanded and runs.
//   - `${!x}` expands the variable whose name is the value of x (a
//     subscript in it runs), and `${x@P}` expands the value of x as a
//     prompt, running the substitutions in it.
//
// The rule: such a place is safe only when all it evaluates is known: the
// text holds no `$`, backquote, `[` or quote, and every name in it is a
// variable the script set to a number (an integer literal, an arithmetic
// expansion or assignment, a loop over integer literals, `$(wc -l)` and
// the few other commands listed in numericOutput), or one of bash's own
// numeric variables ($#, $?, $$, $!, RANDOM, SECONDS, LINENO ...). A
// variable taken from the environment is not known. Otherwise a Command is
// reported for the place, with Unknown saying why: for `((...))`, `let`,
// `[[ ]]`, `for ((...))` and the expansions inside a word it is a command
// of its own (Args are a keyword such as "((" and the source text); for a
// builtin given a name (`read`, `test -v`, `declare`) it is the builtin's
// own command. A place that relies on a variable being a number is
// reported too when the script also sets that variable to anything else
// anywhere (a loop can run the assignment before the use).
//
// `test`/`[` with -eq and friends read plain integers (bash's test builtin
// uses legal_number, not the arithmetic evaluator) and are not code;
// `${x@Q}`, `${!prefix*}` and `${!a[@]}` are not code either. Subscripts
// of associative arrays are strings, not arithmetic, but whether an array
// is associative depends on a `declare -A` that may not have run, so a
// subscript counts as arithmetic unless it is written inside the
// `declare -A` that creates the array.

// risk is the verdict on one place that evaluates text: why it may run
// code ("" when it cannot), and the variables it relies on holding numbers.
type risk struct {
	why  string
	vars []string
}

func (r *risk) set(why string) {
	if r.why == "" {
		r.why = why
	}
}

// valueFacts is what the whole walk learns about variables, for the checks
// that can only be settled once every assignment has been seen.
type valueFacts struct {
	text     map[string]bool     // set somewhere to a value not known to be a number
	ints     map[string]bool     // given the integer attribute somewhere
	deps     map[string][]string // set to a number that holds only while these do
	namerefs bool                // a nameref exists: an assignment may land on any variable
	mayInt   int8                // the source could declare an integer variable: 0 not looked yet, 1 yes, -1 no (parser.mayInt)
	pending  []pendingCode
}

// pendingCode is a place judged safe on the assumption that vars hold
// numbers and notInt have no integer attribute. If that turns out false,
// the command at idx is marked Unknown, or (idx < 0) cmd is added.
type pendingCode struct {
	idx    int
	cmd    Command
	vars   []string
	notInt []string
}

// numericSpecial lists bash's parameters and variables that hold a number
// whatever the environment says (bash(1) Special Parameters, Shell
// Variables).
func numericSpecial(name string) bool {
	switch name {
	case "#", "?", "$", "!", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "PPID",
		"UID", "EUID", "EPOCHSECONDS", "HISTCMD", "OPTIND":
		return true
	}
	return false
}

func (p *parser) isNumeric(name string) bool {
	return slices.Contains(p.state.numeric, name) || numericSpecial(name)
}

func (p *parser) needNumeric(name string, r *risk) {
	if p.isNumeric(name) {
		r.vars = append(r.vars, name)
		return
	}
	r.set("arithmetic evaluates the value of " + name + " as an expression, and a subscript in that value runs commands (bash(1) ARITHMETIC EVALUATION); the script does not set " + name + " to a number")
}

// setValue records what an assignment leaves in name for later arithmetic:
// a number (valid while deps hold numbers) or anything else.
func (p *parser) setValue(name string, numeric bool, deps []string) {
	p.state.numeric = removeStr(p.state.numeric, name)
	if numeric {
		p.state.numeric = append(p.state.numeric, name)
		if len(deps) > 0 {
			if p.vals.deps == nil {
				p.vals.deps = map[string][]string{}
			}
			p.vals.deps[name] = append(p.vals.deps[name], deps...)
		}
		return
	}
	if p.vals.text == nil {
		p.vals.text = map[string]bool{}
	}
	p.vals.text[name] = true
}

// assigned records an assignment to name made by the command at idx (temp:
// only for that command, `x=1 cmd`). A variable with the integer attribute
// evaluates what it is given as arithmetic (bash(1) declare -i): it returns
// why when that is code now, and otherwise leaves the check for the end,
// when every `declare -i` has been seen.
func (p *parser) assigned(name string, numeric bool, deps []string, idx int, temp bool) string {
	if !temp {
		p.setValue(name, numeric, deps)
	}
	if numeric {
		return ""
	}
	if slices.Contains(p.state.ints, name) {
		return intWhy(name)
	}
	if idx >= 0 && p.mayInt() {
		p.vals.pending = append(p.vals.pending, pendingCode{idx: idx, notInt: []string{name}})
	}
	return ""
}

func intWhy(name string) string {
	return name + " has the integer attribute, so bash evaluates what is assigned to it as arithmetic, where a subscript runs commands"
}

// arith judges an arithmetic expression in the order bash evaluates it;
// assignments in it leave numbers in their variables.
func (p *parser) arith(x syntax.ArithmExpr, r *risk) {
	if x == nil || p.err != nil {
		return
	}
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		if !isAssignOp(x.Op) {
			p.arith(x.X, r)
			p.arith(x.Y, r)
			return
		}
		p.arith(x.Y, r)
		p.arithStore(x.X, x.Op != syntax.Assgn, r)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			p.arithStore(x.X, true, r)
			return
		}
		p.arith(x.X, r)
	case *syntax.ParenArithm:
		p.arith(x.X, r)
	case *syntax.Word:
		p.operand(x, r)
	default:
		r.set("an arithmetic expression the gate does not know")
	}
}

// arithStore judges the target of an arithmetic assignment; reads says the
// old value is read too (`+=`, `++`). The variable then holds a number.
func (p *parser) arithStore(x syntax.ArithmExpr, reads bool, r *risk) {
	if name := arithName(x); name != "" {
		if reads {
			p.needNumeric(name, r)
		}
		p.setValue(name, true, nil)
		p.noteAssigns([]cmdmodel.Assign{{Name: name}})
		return
	}
	if w, ok := x.(*syntax.Word); ok && len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Index != nil {
			// An array element: its subscript is judged where the walk
			// meets it; its old value is not tracked.
			if reads {
				r.set("arithmetic reads the value of an element of " + pe.Param.Value + ", which is evaluated as an expression")
			}
			p.setValue(pe.Param.Value, false, nil)
			p.noteAssigns([]cmdmodel.Assign{{Name: pe.Param.Value}})
			return
		}
	}
	p.arith(x, r)
}

func arithName(x syntax.ArithmExpr) string {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return ""
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || !isName(lit.Value) {
		return ""
	}
	return lit.Value
}

func isAssignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
		syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// operand judges a word whose value bash evaluates as arithmetic: an
// operand of `$((...))`, or of `[[ ... -eq ... ]]`.
func (p *parser) operand(w *syntax.Word, r *risk) {
	if w != nil {
		p.operandParts(w.Parts, r)
	}
}

func (p *parser) operandParts(parts []syntax.WordPart, r *risk) {
	for _, part := range parts {
		switch x := part.(type) {
		case *syntax.Lit:
			p.arithText(x.Value, r)
		case *syntax.SglQuoted:
			p.arithText(sglValue(x), r)
		case *syntax.DblQuoted:
			p.operandParts(x.Parts, r)
		case *syntax.ParamExp:
			switch {
			case x.Length && !x.Excl && x.Exp == nil && x.Repl == nil && x.Slice == nil:
				// `${#x}`, `${#a[@]}`: a length is a number.
			case isPlainParam(x):
				p.needNumeric(x.Param.Value, r)
			default:
				r.set("the value of " + p.src(x.Pos(), x.End()) + " is evaluated as arithmetic, where a subscript in it runs commands")
			}
		case *syntax.ArithmExp:
			// A number; its own expression is judged where the walk meets it.
		case *syntax.CmdSubst:
			if !p.numericOutput(x) {
				r.set("the output of " + p.src(x.Pos(), x.End()) + " is evaluated as arithmetic, where a subscript in it runs commands")
			}
		default:
			r.set(p.src(part.Pos(), part.End()) + " is evaluated as arithmetic")
		}
	}
}

// arithText judges text that bash evaluates as an arithmetic expression.
func (p *parser) arithText(s string, r *risk) {
	if strings.ContainsAny(s, "$`[\\'\"") {
		r.set(fmt.Sprintf("the text %q is evaluated as arithmetic, where a subscript or substitution in it runs commands", clip(s)))
		return
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			// A number, in any base: 42, 0x2a, 16#2a, 64#@_.
			for i < len(s) && (isNameChar(s[i]) || s[i] == '#' || s[i] == '@') {
				i++
			}
		case isNameStart(c):
			j := i
			for j < len(s) && isNameChar(s[j]) {
				j++
			}
			p.needNumeric(s[i:j], r)
			i = j
		default:
			i++
		}
	}
}

// numberText reports text that arithmetic evaluates without reading any
// variable: numbers and operators only.
func numberText(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '$' || c == '`' || c == '[' || c == '\\' || c == '\'' || c == '"' || isNameStart(c):
			return false
		case c >= '0' && c <= '9':
			for i < len(s) && (isNameChar(s[i]) || s[i] == '#' || s[i] == '@') {
				i++
			}
		default:
			i++
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

func sglValue(q *syntax.SglQuoted) string {
	if q.Dollar {
		s, _, _ := expand.Format(nil, q.Value, nil)
		return s
	}
	return q.Value
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameChar(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }

func isName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

// numericValue reports whether a word's value is a number for arithmetic
// (numberText), and the variables that must stay numbers for that.
func (p *parser) numericValue(w *syntax.Word) (bool, []string) {
	if w == nil {
		return true, nil // `x=` leaves the empty string, which is 0
	}
	if len(w.Parts) == 1 {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && braceSeqRe().MatchString(lit.Value) {
			return true, nil // `{1..10}` in a for loop
		}
	}
	var deps []string
	ok := p.numericParts(w.Parts, &deps)
	return ok, deps
}

var braceSeqRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\{[+-]?[0-9]+\.\.[+-]?[0-9]+(\.\.[+-]?[0-9]+)?\}$`)
})

func (p *parser) numericParts(parts []syntax.WordPart, deps *[]string) bool {
	for _, part := range parts {
		switch x := part.(type) {
		case *syntax.Lit:
			if !numberText(x.Value) {
				return false
			}
		case *syntax.SglQuoted:
			if !numberText(sglValue(x)) {
				return false
			}
		case *syntax.DblQuoted:
			if !p.numericParts(x.Parts, deps) {
				return false
			}
		case *syntax.ParamExp:
			switch {
			case x.Length && !x.Excl && x.Exp == nil && x.Repl == nil && x.Slice == nil:
			case isPlainParam(x) && p.isNumeric(x.Param.Value):
				*deps = append(*deps, x.Param.Value)
			default:
				return false
			}
		case *syntax.ArithmExp:
		case *syntax.CmdSubst:
			if !p.numericOutput(x) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// numericOutput reports a command substitution that can only print a
// number: a pipeline ending in `wc` reading standard input, `grep -c` on
// standard input or one named file, `nproc`, `seq` with numeric operands,
// `date +%s`, `id -u`/`-g`.
func (p *parser) numericOutput(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 {
		return false
	}
	s := cs.Stmts[0]
	for n := 0; n < MaxDepth; n++ {
		b, ok := s.Cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		if b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			return false
		}
		s = b.Y
	}
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(call.Assigns) > 0 {
		return false
	}
	args := make([]string, len(call.Args))
	for i, w := range call.Args {
		r := p.word(w)
		if r.Dynamic {
			return false
		}
		args[i] = r.Text
	}
	return cmdmodel.PrintsNumber(args, numberText)
}

// nameText judges a variable name given as text (`read NAME`, `test -v
// NAME`): a subscript in it is expanded and, for an indexed array,
// evaluated as arithmetic.
func (p *parser) nameText(s string, r *risk) {
	i := strings.IndexByte(s, '[')
	if i < 0 {
		return
	}
	sub := strings.TrimSuffix(s[i+1:], "]")
	if sub == "@" || sub == "*" {
		return
	}
	p.arithText(sub, r)
}

// nameWord judges a word that a builtin takes as a variable name.
func (p *parser) nameWord(w Word, what string, r *risk) {
	if w.Dynamic {
		r.set(what + " is given a variable name only known at run time, and a subscript in a name runs commands")
		return
	}
	p.nameText(w.Text, r)
}

// codeSite reports one place that evaluates text: a Command with Unknown
// set when r says it may run code, a pending check when it relies on
// variables holding numbers. walk walks the place's own substitutions with
// the parent it is given.
func (p *parser) codeSite(node syntax.Node, kw string, r risk, parent int, walk func(parent int)) {
	if p.err != nil {
		return
	}
	if r.why != "" {
		idx := p.push(p.codeCommand(node, kw, r.why, parent))
		if idx >= 0 {
			walk(idx)
		}
		return
	}
	if len(r.vars) == 0 {
		walk(parent)
		return
	}
	c := p.codeCommand(node, kw, "", parent)
	start := len(p.cmds)
	walk(parent)
	for i := start; i < len(p.cmds); i++ {
		c.Feeders = append(c.Feeders, i)
	}
	p.vals.pending = append(p.vals.pending, pendingCode{idx: -1, cmd: c, vars: r.vars})
}

// codeCommand is the Command reported for a place that evaluates text.
func (p *parser) codeCommand(node syntax.Node, kw, why string, parent int) Command {
	text := p.src(node.Pos(), node.End())
	off := p.off(node.Pos())
	c := Command{Command: cmdmodel.Command{Args: []Word{{Text: kw, Offset: off}, {Text: text, Dynamic: true, Offset: off}}, Offset: off}, End: p.off(node.End()), Text: text, Parent: parent, Inner: -1, Unknown: why}
	p.context(&c)
	return c
}

// arithSite judges arithmetic expressions standing at node.
func (p *parser) arithSite(node syntax.Node, kw string, parent int, exprs ...syntax.ArithmExpr) {
	var r risk
	for _, x := range exprs {
		p.arith(x, &r)
	}
	p.codeSite(node, kw, r, parent, func(par int) {
		for _, x := range exprs {
			if x != nil {
				p.nested(x, par)
			}
		}
	})
}

// paramExp judges a parameter expansion met in a word. It returns false
// when it has walked the expansion's children itself.
func (p *parser) paramExp(pe *syntax.ParamExp, parent int) bool {
	var r risk
	name := ""
	if pe.Param != nil {
		name = pe.Param.Value
	}
	switch {
	case pe.Excl && pe.Names == 0 && !allIndex(pe.Index):
		r.set("${!" + name + "} expands the variable named by the value of " + name + ", and a subscript in that name runs commands")
	case pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps && pe.Exp.Word != nil && pe.Exp.Word.Lit() == "P":
		r.set("${" + name + "@P} expands the value of " + name + " as a prompt, which runs the command substitutions in it")
	}
	if pe.Index != nil && !allIndex(pe.Index) {
		p.arith(pe.Index, &r)
	}
	if name != "" && pe.Exp != nil && (pe.Exp.Op == syntax.AssignUnset || pe.Exp.Op == syntax.AssignUnsetOrNull) {
		// bash(1) Parameter Expansion: ${NAME:=word} and ${NAME=word}
		// assign word to NAME when it is unset (or null), as `NAME=word`
		// does for the commands after it (CDPATH, PATH, GIT_DIR ...).
		if why := p.assigned(name, false, nil, -1, false); why != "" {
			r.set(why)
		} else if p.mayInt() {
			r.set("${" + name + ":=...} assigns to " + name + ", which may have the integer attribute, so bash evaluates the value as arithmetic, where a subscript runs commands")
		}
		p.noteAssigns([]cmdmodel.Assign{{Name: name, Dynamic: true}})
	}
	if pe.Slice != nil {
		p.arith(pe.Slice.Offset, &r)
		p.arith(pe.Slice.Length, &r)
	}
	if r.why == "" && len(r.vars) == 0 {
		return true
	}
	p.codeSite(pe, "${", r, parent, func(par int) {
		for _, n := range []syntax.Node{pe.Index, sliceOffset(pe), sliceLength(pe), replOrig(pe), replWith(pe), expWord(pe)} {
			if !isNilNode(n) {
				p.nested(n, par)
			}
		}
	})
	return false
}

func allIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	l := w.Lit()
	return l == "@" || l == "*"
}

func sliceOffset(pe *syntax.ParamExp) syntax.Node {
	if pe.Slice == nil || pe.Slice.Offset == nil {
		return nil
	}
	return pe.Slice.Offset
}

func sliceLength(pe *syntax.ParamExp) syntax.Node {
	if pe.Slice == nil || pe.Slice.Length == nil {
		return nil
	}
	return pe.Slice.Length
}

func replOrig(pe *syntax.ParamExp) syntax.Node {
	if pe.Repl == nil || pe.Repl.Orig == nil {
		return nil
	}
	return pe.Repl.Orig
}

func replWith(pe *syntax.ParamExp) syntax.Node {
	if pe.Repl == nil || pe.Repl.With == nil {
		return nil
	}
	return pe.Repl.With
}

func expWord(pe *syntax.ParamExp) syntax.Node {
	if pe.Exp == nil || pe.Exp.Word == nil {
		return nil
	}
	return pe.Exp.Word
}

// isNilNode catches typed nil pointers in a Node interface.
func isNilNode(n syntax.Node) bool {
	switch x := n.(type) {
	case nil:
		return true
	case *syntax.Word:
		return x == nil
	}
	return false
}

// testClause judges `[[ ... ]]`.
func (p *parser) testClause(c *syntax.TestClause) {
	var r risk
	p.testExpr(c.X, &r)
	p.codeSite(c, "[[", r, p.parent, func(par int) { p.nested(c.X, par) })
}

func (p *parser) testExpr(x syntax.TestExpr, r *risk) {
	if x == nil || p.err != nil {
		return
	}
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	switch x := x.(type) {
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			// bash(1) CONDITIONAL EXPRESSIONS: inside [[, the operands of
			// the integer comparisons are evaluated as arithmetic.
			for _, o := range []syntax.TestExpr{x.X, x.Y} {
				if w, ok := o.(*syntax.Word); ok {
					p.operand(w, r)
				} else {
					p.testExpr(o, r)
				}
			}
		default:
			p.testExpr(x.X, r)
			p.testExpr(x.Y, r)
		}
	case *syntax.UnaryTest:
		if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
			if w, ok := x.X.(*syntax.Word); ok {
				p.nameWord(p.word(w), "[[ "+x.Op.String()+" ]]", r)
				return
			}
		}
		p.testExpr(x.X, r)
	case *syntax.ParenTest:
		p.testExpr(x.X, r)
	}
}

// builtinCode applies what the builtin at idx does with variables: the
// names it is given (a subscript in one runs code, see above), the
// variables it sets (for Tainted and for the arithmetic checks), and the
// code `mapfile -C` runs. A builtin reached through a program that runs
// it (`sudo`, `env`, `xargs` ...) is not the shell's, and sets nothing.
func (p *parser) builtinCode(idx int) {
	c := &p.cmds[idx]
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return
	}
	name := c.Args[0].Text
	same := p.sameShell(c)
	var r risk
	var sets []Word // variables the builtin assigns
	switch name {
	case "test", "[":
		for i := 1; i+1 < len(c.Args); i++ {
			if c.Args[i].Text == "-v" && !c.Args[i].Dynamic {
				p.nameWord(c.Args[i+1], name+" -v", &r)
			}
		}
	case "read":
		ops, opts, ok := getopts(c.Args, "adinNptu")
		if !ok {
			r.set("read is given an option only known at run time")
		}
		a, hasA := opts['a']
		if hasA {
			sets = append(sets, a)
		}
		if len(ops) == 0 && !hasA {
			sets = append(sets, Word{Text: "REPLY"})
		}
		sets = append(sets, ops...)
		if ok && same {
			p.readValues(c, ops, opts)
		}
	case "mapfile", "readarray":
		ops, opts, ok := getopts(c.Args, "dnOsuCc")
		if !ok {
			r.set(name + " is given an option only known at run time")
		}
		if cb, ok := opts['C']; ok {
			// bash(1) mapfile: the callback is evaluated as code, with the
			// index and the line read appended.
			at := len(p.cmds)
			p.reparse(idx, cb, name+" -C", false)
			for i := at; i < len(p.cmds); i++ {
				p.cmds[i].TrailingArgs = true
			}
		}
		if len(ops) > 0 {
			sets = append(sets, ops[0])
		} else {
			sets = append(sets, Word{Text: "MAPFILE"})
		}
	case "printf":
		if len(c.Args) > 1 && !c.Args[1].Dynamic && strings.HasPrefix(c.Args[1].Text, "-v") {
			if v := strings.TrimPrefix(c.Args[1].Text, "-v"); v != "" {
				sets = append(sets, Word{Text: v, Offset: c.Args[1].Offset})
			} else if len(c.Args) > 2 {
				sets = append(sets, c.Args[2])
			}
		}
	case "getopts":
		if len(c.Args) > 2 {
			sets = append(sets, c.Args[2], Word{Text: "OPTARG"})
		}
	case "wait":
		if _, opts, _ := getopts(c.Args, "p"); opts['p'].Text != "" || opts['p'].Dynamic {
			sets = append(sets, opts['p'])
		}
	case "unset":
		ops, opts, _ := getopts(c.Args, "")
		if _, f := opts['f']; !f {
			for _, w := range ops {
				p.nameWord(w, "unset", &r)
				if same && !w.Dynamic {
					p.state.numeric = removeStr(p.state.numeric, w.Text)
					p.noteAssigns([]cmdmodel.Assign{{Name: baseName(w.Text)}})
				}
			}
		}
	case "shopt":
		for _, w := range c.Args[1:] {
			if w.Dynamic || w.Text == "lastpipe" {
				p.lastpipe = true
			}
		}
	case "let":
		// `let` reached as a plain command (`builtin let ...`): its words
		// were not parsed as arithmetic.
		for _, w := range c.Args[1:] {
			if w.Dynamic {
				r.set("let evaluates " + w.Text + ", which is only known at run time")
			} else {
				p.arithText(w.Text, &r)
			}
		}
	case "declare", "typeset", "local", "export", "readonly":
		// Reached as a plain command (`builtin declare ...`): the words
		// were not parsed as assignments. Written directly, it is a
		// DeclClause, which decl handles.
		if len(c.Via) == 0 {
			break
		}
		for _, w := range c.Args[1:] {
			if !w.Dynamic && (strings.HasPrefix(w.Text, "-") || strings.HasPrefix(w.Text, "+")) {
				if name != "export" && strings.HasPrefix(w.Text, "-") && strings.Contains(w.Text, "n") {
					r.set(name + " -n makes a reference, and what is assigned to it lands on the variable its value names, which the gate does not follow")
				}
				continue
			}
			nm, _, _ := strings.Cut(w.Text, "=")
			sets = append(sets, Word{Text: nm, Dynamic: w.Dynamic, Offset: w.Offset})
		}
	}
	for _, w := range sets {
		p.nameWord(w, name, &r)
		if w.Dynamic || !same {
			continue
		}
		base := baseName(w.Text)
		if why := p.assigned(base, false, nil, idx, false); why != "" {
			r.set(why)
		}
		p.noteAssigns([]cmdmodel.Assign{{Name: base}})
	}
	c = &p.cmds[idx]
	if r.why != "" && c.Unknown == "" {
		c.Unknown = r.why
	}
	if r.why == "" && len(r.vars) > 0 {
		p.vals.pending = append(p.vals.pending, pendingCode{idx: idx, vars: r.vars})
	}
}

// baseName is the variable of `name[subscript]`.
func baseName(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		return s[:i]
	}
	return s
}

// getopts splits a builtin's words (after the name) into operands and
// options, getopt-style: withArg lists the letters that take an argument.
// ok is false when a word only known at run time stands where an option
// could.
func getopts(args []Word, withArg string) (ops []Word, opts map[byte]Word, ok bool) {
	opts = map[byte]Word{}
	for i := 1; i < len(args); i++ {
		w := args[i]
		t := w.Text
		if w.Dynamic {
			if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "$") || strings.HasPrefix(t, "\"$") {
				return args[i:], opts, false
			}
			return args[i:], opts, true
		}
		if t == "--" {
			return args[i+1:], opts, true
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			return args[i:], opts, true
		}
		for j := 1; j < len(t); j++ {
			l := t[j]
			if strings.IndexByte(withArg, l) < 0 {
				opts[l] = Word{}
				continue
			}
			if j+1 < len(t) {
				opts[l] = Word{Text: t[j+1:], Offset: w.Offset}
			} else if i+1 < len(args) {
				i++
				opts[l] = args[i]
			} else {
				opts[l] = Word{}
			}
			break
		}
	}
	return nil, opts, true
}

// sameShell reports whether the command at c runs in the shell that
// walks it, so that a builtin's assignments stay for later commands, rather
// than as a program run by a wrapper (`sudo read` is not bash's read).
func (p *parser) sameShell(c *Command) bool {
	if len(c.Via) == 0 {
		return true
	}
	v := c.Via[len(c.Via)-1]
	if v == "command" || v == "builtin" {
		return true
	}
	external := cmdmodel.IsWrapper(v)
	return !external && !strings.HasPrefix(v, "find ")
}

// settleCode decides the pending checks once the whole script is walked.
func (p *parser) settleCode() {
	v := &p.vals
	memo := map[string]int{} // 1 bad, 2 good, 3 in progress
	var bad func(name string, n int) bool
	bad = func(name string, n int) bool {
		if v.namerefs || v.text[name] {
			return true
		}
		switch memo[name] {
		case 1:
			return true
		case 2, 3:
			return false
		}
		if n > MaxDepth {
			return true
		}
		memo[name] = 3
		for _, d := range v.deps[name] {
			if bad(d, n+1) {
				memo[name] = 1
				return true
			}
		}
		memo[name] = 2
		return false
	}
	for _, pc := range v.pending {
		why := ""
		for _, name := range pc.vars {
			if bad(name, 0) {
				why = "arithmetic evaluates the value of " + name + " as an expression, and the script also sets " + name + " to text that is not a number, where a subscript runs commands (bash(1) ARITHMETIC EVALUATION)"
				break
			}
		}
		for _, name := range pc.notInt {
			if why == "" && v.ints[name] {
				why = intWhy(name)
			}
		}
		if why == "" {
			continue
		}
		if pc.idx >= 0 {
			if p.cmds[pc.idx].Unknown == "" {
				p.cmds[pc.idx].Unknown = why
			}
			continue
		}
		pc.cmd.Unknown = why
		if p.push(pc.cmd) < 0 {
			return
		}
	}
}

func removeStr(list []string, s string) []string {
	for i, x := range list {
		if x == s {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}
