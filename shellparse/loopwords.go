package shellparse

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The variable of a `for NAME in WORDS` loop, used as a whole word in the
// loop's body (`for f in src/*.go; do wc -l "$f"; done`), takes each of
// the loop's words in turn: the policy judges the command once with each
// (Script.LoopItems), as it judges a glob word with what it expands to.
// That holds only while nothing in the loop can give NAME another value
// before the command runs (loopKept).

// maxLoopItems bounds the words of a loop whose variable is followed: a
// longer list is kept as it was (the variable only known at run time).
const maxLoopItems = 256

// loopVar is an enclosing loop whose variable words are known.
type loopVar struct {
	name       string
	index      int // into Script.loops
	otherShell int // the parser's otherShell where the loop is
}

// loopInfo is one such loop: its words as resolved (each static or a
// glob word), and the directory they are expanded in.
type loopInfo struct {
	items      []Word
	dir        string
	dirUnknown bool
}

// IsLoopVar reports a word that is exactly the variable of an enclosing
// `for NAME in WORDS` loop (`"$f"`, `"${f}"`, or `$f` when no word of the
// loop can be split or globbed), whose value is one of the loop's words
// (Script.LoopItems).
func IsLoopVar(w Word) bool { return w.Shell < 0 }

// LoopItems returns the words of the loop whose variable w is (each
// static or a glob word of s, to expand with Script.Expand), and the
// directory they are expanded in, as Command.Dir holds it; ok is false
// when w is no loop word of s or that directory is only known at run time.
func (s *Script) LoopItems(w Word) (items []Word, dir string, ok bool) {
	i := int(-w.Shell) - 1
	if w.Shell >= 0 || i >= len(s.loops) || s.loops[i].dirUnknown {
		return nil, "", false
	}
	return s.loops[i].items, s.loops[i].dir, true
}

// enterLoop makes the variable of `for NAME in WORDS` known in the body
// when every word is static or a glob word (in bash), nothing in the body
// can assign NAME (loopKept), and nothing before the loop gave NAME
// attributes or runs code before each command (a DEBUG trap): it returns
// whether the caller must leaveLoop after the body.
func (p *parser) enterLoop(l *syntax.WordIter, items []Word, body []*syntax.Stmt) bool {
	if p.dialect != Bash || !l.InPos.IsValid() || len(items) == 0 || p.vals.namerefs ||
		slices.Contains(p.state.tainted, l.Name.Value) || !loopKept(body, l.Name.Value, p.funcs) {
		return false
	}
	for _, it := range items {
		if it.Dynamic && !IsGlob(it) {
			return false
		}
	}
	for i := range p.cmds {
		c := &p.cmds[i]
		if len(c.Args) > 0 && (c.Args[0].Dynamic || slices.Contains([]string{"trap", "eval", "source", "."}, c.Args[0].Text)) {
			return false
		}
	}
	here := p.state.here()
	info := loopInfo{items: items, dirUnknown: here.unknown || len(here.dirs) != 1}
	if len(here.dirs) > 0 {
		info.dir = here.dirs[0]
	}
	p.loops = append(p.loops, info)
	p.loopVars = append(p.loopVars, loopVar{name: l.Name.Value, index: len(p.loops) - 1, otherShell: p.otherShell})
	return true
}

func (p *parser) leaveLoop() { p.loopVars = p.loopVars[:len(p.loopVars)-1] }

// loopKept reports whether nothing in a loop's body can give name a value
// other than the loop's: no assignment to it, no builtin that assigns
// variables (read, mapfile, printf -v, getopts, declare and its kin,
// unset, let, eval, source), no arithmetic, no inner loop over it, no
// `${name:=...}`, no function of the script called, and no trap.
func loopKept(body []*syntax.Stmt, name string, funcs []string) bool {
	kept := true
	visit := func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			kept = kept && (n.Name == nil || n.Name.Value != name)
		case *syntax.DeclClause, *syntax.FuncDecl, *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.LetClause,
			*syntax.CoprocClause:
			kept = false
		case *syntax.ForClause:
			wi, ok := n.Loop.(*syntax.WordIter)
			kept = kept && ok && wi.Name.Value != name
		case *syntax.ParamExp:
			kept = kept && (n.Exp == nil || n.Param == nil || n.Param.Value != name)
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				lit := n.Args[0].Lit()
				kept = kept && lit != "" && !slices.Contains(funcs, lit) && !slices.Contains([]string{"read", "mapfile",
					"readarray", "printf", "getopts", "unset", "eval", "source", ".", "wait", "declare", "typeset",
					"local", "export", "readonly", "let", "builtin", "command", "trap", "enable", "exec"}, lit)
			}
		}
		return kept
	}
	for _, st := range body {
		syntax.Walk(st, visit)
	}
	return kept
}

// loopWord marks out as the variable of an enclosing loop (Word.LoopVar)
// when w is exactly that variable: `"$NAME"` or `"${NAME}"`, or unquoted
// when no word of the loop holds a blank or a glob character (a glob
// word's names might).
func (p *parser) loopWord(w *syntax.Word, out *Word) {
	if len(p.loopVars) == 0 || len(w.Parts) != 1 {
		return
	}
	part, quoted := w.Parts[0], false
	if dq, ok := part.(*syntax.DblQuoted); ok && !dq.Dollar && len(dq.Parts) == 1 {
		part, quoted = dq.Parts[0], true
	}
	pe, ok := part.(*syntax.ParamExp)
	if !ok || pe.Param == nil || !isPlainParam(pe) {
		return
	}
	for k := len(p.loopVars) - 1; k >= 0; k-- {
		lv := p.loopVars[k]
		if lv.name != pe.Param.Value {
			continue
		}
		if lv.otherShell != p.otherShell {
			return
		}
		if !quoted {
			if slices.Contains(p.state.tainted, "IFS") {
				return // split at characters the script chose
			}
			for _, it := range p.loops[lv.index].items {
				if IsGlob(it) || strings.ContainsAny(it.Text, " \t\n*?[") || it.Text == "" {
					return
				}
			}
		}
		out.Shell = -int32(lv.index) - 1
		return
	}
}
