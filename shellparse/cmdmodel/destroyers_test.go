package cmdmodel

import (
	"strings"
	"testing"
)

// TestDestroysProjectWork reads git's destroying forms through git's
// model: every spelling of a destroying option (abbreviated, clustered,
// after operands), and the forms that keep work.
func TestDestroysProjectWork(t *testing.T) {
	exists := func(name string) bool { return name == "main.go" }
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"git checkout -f main", true},
		{"git checkout --forc main", true},
		{"git checkout -qf main", true},
		{"git checkout main --theirs", true},
		{"git checkout main", false},
		{"git checkout main.go", true},
		{"git checkout -- x", true},
		{"git checkout HEAD -- x", true},
		{"git checkout -b new", false},
		{"git checkout -b new origin/x", false},
		{"git checkout -b new origin/x f", true},
		{"git checkout --unknown main", true},
		{"git checkout $BR", true},
		{"git -C sub checkout main", true},
		{"git switch main", false},
		{"git switch --discard-changes main", true},
		{"git switch -C main", true},
		{"git branch -d x", false},
		{"git branch -D x", true},
		{"git branch --force x y", true},
		{"git reset --soft HEAD~1", false},
		{"git reset --hard", true},
		{"git reset --ha", true},
		{"git rm --cached -r d", false},
		{"git rm -r d", true},
		{"git rm -rn d", false},
		{"git rm x", false},
		{"git gc", false},
		{"git gc --prune=now", true},
		{"git read-tree -u x", true},
		{"git checkout-index -a", false},
		{"git checkout-index --force -a", true},
		{"git stash list", false},
		{"git stash drop", true},
		{"git clean -n", true},
		{"git status", false},
		{"find . -delete", true},
		{"shred f", true},
	} {
		var c Command
		for _, w := range strings.Fields(tt.line) {
			c.Args = append(c.Args, Word{Text: w, Dynamic: strings.Contains(w, "$")})
		}
		if got := DestroysProjectWork(&c, exists); got != tt.want {
			t.Errorf("DestroysProjectWork(%s) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
