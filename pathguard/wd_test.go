package pathguard

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// wdPaths are paths relative to a working directory inside the test tree:
// plain, missing, through links in and out of the root, dangling, looping,
// and `..` that leaves the directory, also after a link.
var wdPaths = []string{"a.txt", "src/main.go", "new/dir/f", "link/passwd", "notes.txt", "inlink/new/f",
	"up/proj/a.txt", "deep/../../../proj/a.txt", "dl/x", "loop1/x", "self", ".", "..", "../proj/src",
	"../homelink/.ssh/x", "hooklink/pre-push", ".git/config", "sub/.git", "./src//main.go", "x/../a.txt"}

// checkSameAsWalk checks every path of wdPaths from cwd, one Memo per
// path as one decision would, against Check without a Memo (which looks
// up each component), and returns the lookups the Memo's checks made;
// and resolves cwd and each path joined to it with ResolveFrom, against
// Resolve.
func checkSameAsWalk(t *testing.T, g *Guard, cwd string) uint64 {
	t.Helper()
	var total uint64
	for _, p := range wdPaths {
		want := g.Check(cwd, p)
		var m Memo
		n0 := Lookups()
		got := g.CheckWith(&m, cwd, p)
		total += Lookups() - n0
		if got.Abs != want.Abs || got.Real != want.Real || got.Root != want.Root || got.Code != want.Code || (got.Err == nil) != (want.Err == nil) {
			t.Errorf("from %s, CheckWith(%q) = %+v, the walk gives %+v", cwd, p, got, want)
		}
	}
	for _, p := range append([]string{cwd}, wdPaths...) {
		if p != cwd {
			p = cwd + "/" + p
		}
		want, werr := Resolve(p)
		got, err := new(Memo).ResolveFrom(cwd, p)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("from %s, ResolveFrom(%q) = %q, %v; the walk gives %q, %v", cwd, p, got, err, want, werr)
		}
	}
	return total
}

// TestWorkingDirSameAnswers: a check from the process's working directory
// answers as the walk of every component does, whether that directory is
// the cwd given (one openat2 stands for its lookups), was entered
// through a symlink, renamed, removed, or replaced by a symlink to
// somewhere else after it was entered; and from a directory that is not
// the process's.
func TestWorkingDirSameAnswers(t *testing.T) {
	tr := newTree(t)
	t.Chdir(tr.proj)
	checkSameAsWalk(t, tr.g, tr.proj)
	checkSameAsWalk(t, tr.g, filepath.Join(tr.proj, "src"))
	checkSameAsWalk(t, tr.g, tr.out)
	// A working directory given unclean (`..` after a real directory):
	// not taken as its own real path.
	checkSameAsWalk(t, tr.g, tr.proj+"/src/..")
	checkSameAsWalk(t, tr.g, tr.proj+"/src/../link")

	// Entered through a link: the kernel's cwd is the target, the cwd
	// given is the link's path.
	projLink := filepath.Join(tr.base, "projlink")
	symlink(t, "proj", projLink)
	t.Chdir(projLink)
	checkSameAsWalk(t, tr.g, projLink)
	checkSameAsWalk(t, tr.g, tr.proj)

	// Renamed after it was entered: the cwd given no longer exists (the
	// kernel's cwd has the new name); then a link under the old name leads
	// outside the root.
	moved := filepath.Join(tr.proj, "moved")
	work := filepath.Join(tr.proj, "work")
	mkdir(t, work)
	write(t, filepath.Join(work, "a.txt"), "x\n")
	t.Chdir(work)
	checkSameAsWalk(t, tr.g, work)
	if err := os.Rename(work, moved); err != nil {
		t.Fatal(err)
	}
	checkSameAsWalk(t, tr.g, work)
	symlink(t, tr.out, work)
	checkSameAsWalk(t, tr.g, work)
	if r := tr.g.CheckWith(new(Memo), work, "a.txt"); r.Code != CodeOutside {
		t.Errorf("from a cwd now a link outside the root: %+v, want %s", r, CodeOutside)
	}
	checkSameAsWalk(t, tr.g, moved)

	// Removed after it was entered.
	gone := filepath.Join(tr.proj, "gone")
	mkdir(t, gone)
	t.Chdir(gone)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	checkSameAsWalk(t, tr.g, gone)
}

// TestWorkingDirLookups: from the process's working directory, a check
// of a name below it costs one openat2 and one lookup of the name,
// whatever the depth of the directory, and a second check in the same
// decision none; from another directory (here a link to it) each
// component is looked up, and openat2, which refused it, is not asked
// again for it.
func TestWorkingDirLookups(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("openat2 stands for the lookups on Linux only")
	}
	base := realTempDir(t)
	deep := filepath.Join(base, "a", "b", "c", "d")
	mkdir(t, deep)
	g, errs := New([]string{base}, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	t.Chdir(deep)
	lookups := func(cwd, p string) uint64 {
		var m Memo
		n0 := Lookups()
		if r := g.CheckWith(&m, cwd, p); !r.Inside() {
			t.Fatalf("%s from %s: %+v", p, cwd, r)
		}
		return Lookups() - n0
	}
	if n := lookups(deep, "x.go"); n != 2 {
		t.Errorf("x.go from the working directory: %d lookups, want 2 (openat2, the name)", n)
	}
	var m Memo
	g.CheckWith(&m, deep, "x.go")
	n0 := Lookups()
	g.CheckWith(&m, deep, "x.go")
	if n := Lookups() - n0; n != 0 {
		t.Errorf("x.go from the working directory again in the decision: %d lookups, want 0", n)
	}
	link := filepath.Join(base, "l")
	symlink(t, deep, link)
	first, again := lookups(link, "x.go"), lookups(link, "x.go")
	if walk := uint64(len(splitNames(nil, deep))); again < walk || first != again+1 {
		t.Errorf("x.go from a link to the working directory: %d lookups, then %d; want the %d components looked up, and openat2 asked the first time only", first, again, walk)
	}
	if n := lookups(deep, "y.go"); n != 2 {
		t.Errorf("y.go from the working directory again: %d lookups, want 2", n)
	}
}
