package cmdmodel

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func findWords(line string) []Word {
	var ws []Word
	for _, f := range strings.Fields(line) {
		ws = append(ws, Word{Text: f})
	}
	return ws
}

// TestReadFind: the one reader of find's words, as its readers see it.
func TestReadFind(t *testing.T) {
	for _, tt := range []struct {
		line          string
		deletes, safe bool
		execs         []string // the commands -exec and kin run
	}{
		{"/ -delete", true, false, nil},
		{", / -delete", true, false, nil}, // `,` is a start point
		{") / -delete", true, false, nil},
		{"-L , / -delete", true, false, nil},
		{". -name -delete", false, true, nil}, // -delete is -name's pattern
		{". -exec rm {} ;", false, true, []string{"rm {}"}},
		{". -exec echo -delete ;", false, true, []string{"echo -delete"}},
		{". -execdir sh -c x + -ok rm {} ;", false, false, []string{"sh -c x", "rm {}"}},
		{". -exec ;", false, true, nil},
		{". -exec rm {}", false, true, []string{"rm {}"}},
		{". -fprint out", false, false, nil},
		{". -fprintf out %p", false, false, nil},
		{". -exec+ x ;", false, false, nil},
	} {
		args := findWords(tt.line)
		if got := FindDeletes(args); got != tt.deletes {
			t.Errorf("find %s: deletes %v, want %v", tt.line, got, tt.deletes)
		}
		if got := findArgs(args); got != tt.safe {
			t.Errorf("find %s: read-only %v, want %v", tt.line, got, tt.safe)
		}
		var execs []string
		for _, x := range FindExecs(args) {
			var ws []string
			for _, w := range args[x.From:x.To] {
				ws = append(ws, w.Text)
			}
			execs = append(execs, strings.Join(ws, " "))
		}
		if !slices.Equal(execs, tt.execs) {
			t.Errorf("find %s: runs %q, want %q", tt.line, execs, tt.execs)
		}
	}
}

// TestFindArgsRealFind: each primary the model reads with an argument
// (findOneArg, -fprintf) is one GNU find refuses without it, and a
// primary the model reads without one is accepted alone.
func TestFindArgsRealFind(t *testing.T) {
	find := needBinary(t, "find")
	dir := t.TempDir()
	missing := func(prim string) bool {
		out, _ := exec.Command(find, dir, "-maxdepth", "0", prim).CombinedOutput()
		// (findutils 4.9 reads the numeric tests' argument from the
		// primary's own word when none follows: "invalid argument").
		return strings.Contains(string(out), "missing argument to `"+prim+"'") ||
			strings.Contains(string(out), "invalid argument `"+prim+"' to `"+prim+"'")
	}
	for p := range findOneArg {
		if !missing(p) {
			t.Errorf("find %s: the model reads an argument, find does not ask for one", p)
		}
	}
	if !missing("-fprintf") {
		t.Errorf("find -fprintf: the model reads arguments, find does not ask for them")
	}
	for _, p := range []string{"-delete", "-print", "-print0", "-prune", "-quit", "-ls", "-true", "-false", "-empty", "-readable"} {
		if missing(p) {
			t.Errorf("find %s: find asks for an argument the model does not read", p)
		}
	}
}
