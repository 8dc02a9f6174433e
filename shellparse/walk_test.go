package shellparse

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/gatekeep/gatekeep/policy/testcases"
)

// TestWalkTreeIsSyntaxWalk: walkTree visits what syntax.Walk visits, in
// the same order, with the same nil after each node's children, and skips
// the same children when the visitor says so, over the agent corpus and
// scripts with comments, redirections, here-documents and quoting.
func TestWalkTreeIsSyntaxWalk(t *testing.T) {
	extra := []string{
		"a # c\nb", "# only", "a; # x\n# y", "x=1 y=$(z) cmd \"a $b\" 'c' >f 2>&1 <<EOF\n$(d)\nEOF",
		"{ a; } # c\n(b) >o", "case x in a) b ;; # c\nesac", "arr=(a # c\nb)", "f() { a; } 2>/dev/null",
		"a | b && c || d &", "echo $'x' $\"y\" \"${a:-b}\" `c`",
		"a=(1 2); b[1]=x c+=y; 3>&- 2>>e d <<-'E'\n\tx\n\tE", "declare -a x=(a [2]=b); let i++", "! a |& b",
	}
	scripts := append(testcases.AgentCommands(t), extra...)
	n := 0
	for _, src := range scripts {
		f, err := syntax.NewParser(syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
		if err != nil {
			if slices.Contains(extra, src) {
				t.Fatalf("%q: %v", src, err)
			}
			continue
		}
		n++
		for skip := range 4 {
			// skip > 0: the visitor refuses the children of every
			// skip-th node.
			record := func(out *[]string) func(syntax.Node) bool {
				i := 0
				return func(node syntax.Node) bool {
					if node == nil {
						*out = append(*out, "nil")
						return true
					}
					i++
					*out = append(*out, fmt.Sprintf("%T@%d", node, node.Pos().Offset()))
					return skip == 0 || i%skip != 0
				}
			}
			var want, got []string
			syntax.Walk(f, record(&want))
			walkTree(f, record(&got))
			if !slices.Equal(got, want) {
				t.Fatalf("%q (skip %d): walkTree visits\n%v\nsyntax.Walk\n%v", src, skip, got, want)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d scripts parsed", n)
	}
}
