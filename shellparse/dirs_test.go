package shellparse

import (
	"sort"
	"strings"
	"testing"
)

// TestDirsAsBashMoves: where each command may run, as bash moves the
// shell (issue 11): a cd moves the shell only when it succeeds, and only in
// the shell it runs in. Each row names the command (by its text) whose
// directories are checked; "?" stands for somewhere unknown.
func TestDirsAsBashMoves(t *testing.T) {
	tests := []struct {
		src, cmd string
		want     string // directories, sorted, space-separated, "." for the start; "?" somewhere unknown
	}{
		{"cd X && cat a", "cat a", "X"},
		{"cd X; cat a", "cat a", ". X"},
		{"cd X || exit; cat a", "cat a", "X"},
		{"cd X || exit 1\ncat a", "cat a", "X"},
		{"cd X || { echo no; exit 1; }; cat a", "cat a", "X"},
		{"if ! cd X; then exit 1; fi; cat a", "cat a", "X"},
		{"if cd X; then cat a; fi; cat b", "cat b", ". X"},
		{"if cd X; then cat a; fi", "cat a", "X"},
		{"if cd X; then :; else cat a; fi", "cat a", "."},
		{"false && cd X; cat a", "cat a", ". X"},
		{"true || cd X; cat a", "cat a", ". X"},
		{"cd X & cat a", "cat a", "."},
		{"(cd X); cat a", "cat a", "."},
		{"(cd X && cat a)", "cat a", "X"},
		{"cd X | cat a; cat b", "cat b", "."},
		{"echo $(cd X); cat a", "cat a", "."},
		{"bash -c 'cd X'; cat a", "cat a", "."},
		{"eval 'cd X' && cat a", "cat a", "X"},
		{"builtin cd X && cat a", "cat a", "X"},
		{"command cd X && cat a", "cat a", "X"},
		{"sudo cd X && cat a", "cat a", "."},
		{"env cd X && cat a", "cat a", "."},
		{"mkdir -p build && cd build && touch x", "touch x", "build"},
		{"cd /testbed && python3 x.py", "python3 x.py", "/testbed"},
		{"cd a && cd b && cat x", "cat x", "a/b"},
		{"cd a && cd .. && cat x", "cat x", "."},
		{"cd link && cd .. && cat x", "cat x", "."},
		{"cd -P up && cd .. && rm -f x", "rm -f x", ".. ?"},
		{"cd -LP up && cat x", "cat x", ". ?"},
		{"cd -PL up && cat x", "cat x", "up"},
		{"set -P; cd up && cat x", "cat x", ". ?"},
		{"set -o physical; cd up && cat x", "cat x", ". ?"},
		{"CDPATH=/tmp; cd up && cat x", "cat x", ". ?"},
		{"export CDPATH=/tmp; cd up && cat x", "cat x", ". ?"},
		{"CDPATH=/tmp cd up && cat x", "cat x", ". ?"},
		{"CDPATH=/tmp; cd ./up && cat x", "cat x", "up"},
		{"CDPATH=/tmp; cd /up && cat x", "cat x", "/up"},
		{"cd - && cat x", "cat x", ". ?"},
		{`cd "$D" && cat x`, "cat x", ". ?"},
		{"pushd X && cat a", "cat a", "X"},
		{"pushd X; popd; cat a", "cat a", ". X ?"},
		{"for i in 1 2; do cd X; done; cat a", "cat a", ". X ?"},
		{"for i in 1 2; do cat a; cd X; done", "cat a", ". ?"},
		{"for i in 1 2; do (cd X; cat a); done; cat b", "cat b", "."},
		{"while cd X; do :; done; cat a", "cat a", ". X ?"},
		{"until cd X; do sleep 1; done; cat a", "cat a", ". X ?"},
		{"while ! cd X; do sleep 1; done; cat a", "cat a", ". X ?"},
		{"while true; do cat a; done", "cat a", "."},
		{"time cd X && cat a", "cat a", "X"},
		{"{ cd X; } && cat a", "cat a", "X"},
		{"echo x | xargs cd X && cat a", "cat a", "."},
		{"timeout 5 cd X && cat a", "cat a", "."},
		{"select x in a; do cd X; done; cat a", "cat a", ". X ?"},
		{"case $x in a) cd X;; b) cat a;; esac", "cat a", "."},
		{"case $x in a) cd X;; esac; cat a", "cat a", ". X"},
		{"case $x in a) cd X;& b) cat a;; esac", "cat a", ". X"},
		{"f() { cd X; }; f; cat a", "cat a", ". ?"},
		{"f; f() { cd X; }; cat a", "cat a", ". ?"},
		{"g() { echo; }; g; cat a", "cat a", "."},
		{"f() { cd X || return; cat a; }", "cat a", "X"},
		{"return; cat a", "cat a", "."},
		{"exit; cat a", "cat a", "."},
		{"cd /tmp/q 2>/dev/null; cat ../a", "cat ../a", ". /tmp/q"},
		{"! cd X || cat a", "cat a", "X"},
		{"env -C /etc cat a; cat b", "cat a", "/etc"},
		{"cd X; env -C /etc cat a", "cat a", "/etc"},
		{"cd X; env -C e cat a", "cat a", "X/e e"},
		{"cd //x && cat a", "cat a", "//x"},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		found := false
		for _, c := range s.Commands {
			if c.Text != tt.cmd && strings.Join(c.Argv(), " ") != tt.cmd {
				continue
			}
			found = true
			var got []string
			for _, d := range c.Dirs() {
				if d == "" {
					d = "."
				}
				got = append(got, d)
			}
			sort.Strings(got)
			if c.DirDynamic {
				got = append(got, "?")
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("%s: %q runs in %q, want %q", tt.src, tt.cmd, g, tt.want)
			}
		}
		if !found {
			t.Errorf("%s: no command %q", tt.src, tt.cmd)
		}
	}
}
