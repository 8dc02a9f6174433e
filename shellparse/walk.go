package shellparse

import "mvdan.cc/sh/v3/syntax"

// walkTree is syntax.Walk: f visits node, then (when f returns true) its
// children in the same order, then nil. syntax.Walk defers the walk of
// comments that trail a statement, a case item or an array element, so
// every call of it (one per node) ends in the runtime's slow deferreturn
// even when there is no comment; the commonest nodes (a file, a statement
// without comments, an `&&`/`||` list or pipeline, a simple command, its
// assignments and redirections, a word and its literal and quoted parts)
// are walked here, and syntax.Walk walks the rest.
// TestWalkTreeIsSyntaxWalk holds the two to the same visits.
func walkTree(node syntax.Node, f func(syntax.Node) bool) {
	switch n := node.(type) {
	case *syntax.File:
		if !f(n) {
			return
		}
		for _, s := range n.Stmts {
			walkTree(s, f)
		}
		for i := range n.Last {
			syntax.Walk(&n.Last[i], f)
		}
	case *syntax.Stmt:
		if len(n.Comments) > 0 {
			syntax.Walk(n, f)
			return
		}
		if !f(n) {
			return
		}
		if n.Cmd != nil {
			walkTree(n.Cmd, f)
		}
		for _, r := range n.Redirs {
			walkTree(r, f)
		}
	case *syntax.BinaryCmd:
		if !f(n) {
			return
		}
		walkTree(n.X, f)
		walkTree(n.Y, f)
	case *syntax.Redirect:
		if !f(n) {
			return
		}
		if n.N != nil {
			walkTree(n.N, f)
		}
		walkTree(n.Word, f)
		if n.Hdoc != nil {
			walkTree(n.Hdoc, f)
		}
	case *syntax.CallExpr:
		if !f(n) {
			return
		}
		for _, a := range n.Assigns {
			walkTree(a, f)
		}
		for _, w := range n.Args {
			walkTree(w, f)
		}
	case *syntax.Assign:
		if !f(n) {
			return
		}
		if n.Name != nil {
			walkTree(n.Name, f)
		}
		if n.Value != nil {
			walkTree(n.Value, f)
		}
		if n.Index != nil {
			syntax.Walk(n.Index, f)
		}
		if n.Array != nil {
			syntax.Walk(n.Array, f)
		}
	case *syntax.Word:
		if !f(n) {
			return
		}
		for _, part := range n.Parts {
			walkTree(part, f)
		}
	case *syntax.DblQuoted:
		if !f(n) {
			return
		}
		for _, part := range n.Parts {
			walkTree(part, f)
		}
	case *syntax.Lit, *syntax.SglQuoted:
		if !f(n) {
			return
		}
	default:
		syntax.Walk(node, f)
		return
	}
	f(nil)
}
