package pathguard

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestMemoSameAnswers: Check, Protected and GitShapeReason answer the same
// with a Memo as without, over the test tree (links in and out, dangling
// links, loops, a hard link, a .git file, git directories of every shape)
// and paths below, beside and through all of it, one Memo kept over
// several calls as a decision keeps it.
func TestMemoSameAnswers(t *testing.T) {
	tr := newTree(t)
	for _, d := range []string{"bare/objects", "bare/refs", "half/objects", "shaped/objects", "shaped/refs", "wt", "evil/objects", "lnhead/objects", "lnhead/refs"} {
		mkdir(t, filepath.Join(tr.proj, d))
	}
	write(t, filepath.Join(tr.proj, "half/HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(tr.proj, "shaped/HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(tr.proj, "wt/HEAD"), "ref: refs/heads/x\n")
	write(t, filepath.Join(tr.proj, "wt/commondir"), "../evil\n")
	write(t, filepath.Join(tr.proj, ".git/config"), "[core]\n\thooksPath = hooks2\n")
	symlink(t, "refs/heads/x", filepath.Join(tr.proj, "lnhead/HEAD"))
	symlink(t, "shaped", filepath.Join(tr.proj, "shapelink"))
	var paths []string
	err := filepath.Walk(tr.base, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		paths = append(paths, p, filepath.Join(p, "new"), filepath.Join(p, "HEAD"), filepath.Join(p, "refs/heads"),
			filepath.Join(p, "objects"), filepath.Join(p, "commondir"), filepath.Join(p, "../x"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"link/passwd", "inlink/new/f", "up/proj/a.txt", "deep/../../../proj/a.txt", "dl/x",
		"loop1/x", "self", "hooks2/pre-commit", "shapelink/config", "hooklink/pre-push", "sub/.git"} {
		paths = append(paths, filepath.Join(tr.proj, rel))
	}
	if len(paths) < 200 {
		t.Fatalf("only %d paths", len(paths))
	}
	var m Memo
	protected, shaped := 0, 0
	for i, p := range paths {
		if i%5 == 0 {
			m.Reset() // a decision's worth of calls
		}
		want, got := tr.g.Check(tr.proj, p), tr.g.CheckWith(&m, tr.proj, p)
		if got.Abs != want.Abs || got.Real != want.Real || got.Root != want.Root || got.Code != want.Code || (got.Err == nil) != (want.Err == nil) {
			t.Fatalf("CheckWith(%q) = %+v, Check %+v", p, got, want)
		}
		if want.Real == "" {
			continue
		}
		if w, g := tr.g.Protected(want.Real), tr.g.ProtectedWith(&m, want.Real); g != w {
			t.Fatalf("ProtectedWith(%q) = %q, Protected %q", want.Real, g, w)
		} else if w != "" {
			protected++
		}
		others := []string{filepath.Join(filepath.Dir(want.Real), "refs"), filepath.Join(filepath.Dir(want.Real), "HEAD")}
		if w, g := tr.g.GitShapeReason(want.Real, others), tr.g.GitShapeReasonWith(&m, want.Real, others); g != w {
			t.Fatalf("GitShapeReasonWith(%q) = %q, GitShapeReason %q", want.Real, g, w)
		} else if w != "" {
			shaped++
		}
	}
	if protected < 50 || shaped < 50 {
		t.Errorf("only %d protected and %d git shapes among %d paths", protected, shaped, len(paths))
	}
}

// TestMemoRemembers: a stat asked again is answered from the Memo, a
// followed stat and an lstat of one path are told apart, and Reset
// forgets.
func TestMemoRemembers(t *testing.T) {
	tr := newTree(t)
	var m Memo
	r := tr.g.CheckWith(&m, tr.proj, "src/main.go")
	n := len(m.entries)
	if n == 0 {
		t.Fatal("nothing remembered")
	}
	if again := tr.g.CheckWith(&m, tr.proj, "src/main.go"); again != r || len(m.entries) != n {
		t.Errorf("the same check again: %+v and %d entries, was %+v and %d", again, len(m.entries), r, n)
	}
	link := filepath.Join(tr.proj, "inlink")
	if st, err := m.stat(link, "", false); err != nil || st.mode&os.ModeSymlink == 0 {
		t.Errorf("lstat of a link: %v %v", st.mode, err)
	}
	if st, err := m.stat(link, "", true); err != nil || !st.isDir() {
		t.Errorf("stat of a link to a directory: %v %v", st.mode, err)
	}
	m.Reset()
	if len(m.entries) != 0 {
		t.Errorf("%d entries after Reset", len(m.entries))
	}
	for i := 0; i < 2*maxMemo; i++ {
		m.stat(tr.proj, filepath.Base(t.TempDir())+string(rune('a'+i%26)), true)
	}
	if len(m.entries) > maxMemo {
		t.Errorf("%d entries, more than %d", len(m.entries), maxMemo)
	}
}

// TestMemoMissing: below a path a stat found missing, the Memo answers
// ENOENT without asking (as the kernel would), but only strictly below
// it: not beside it (a name it is a prefix of), and not for a path found
// missing by another name (a/HEAD missing says nothing of a/HEAD2).
func TestMemoMissing(t *testing.T) {
	tr := newTree(t)
	var m Memo
	if _, _, err := m.lstatKind(filepath.Join(tr.proj, "su")); err != syscall.ENOENT {
		t.Fatalf("lstat of a missing path: %v", err)
	}
	if _, err := m.stat(filepath.Join(tr.proj, "su", "x"), "HEAD", false); err != syscall.ENOENT {
		t.Errorf("below a missing path: %v", err)
	}
	if _, err := m.stat(filepath.Join(tr.proj, "su"), "objects", true); err != syscall.ENOENT {
		t.Errorf("in a missing path: %v", err)
	}
	n := len(m.entries)
	if st, err := m.stat(filepath.Join(tr.proj, "sub"), "", true); err != nil || !st.isDir() {
		t.Errorf("beside a missing path: %v %v", st.mode, err)
	}
	if st, err := m.stat(filepath.Join(tr.proj, "su")+"b", ".git", true); err != nil || st.isDir() {
		t.Errorf("a file beside a missing path: %v %v", st.mode, err)
	}
	if len(m.entries) != n+2 {
		t.Errorf("%d entries, want %d: the paths beside were not stat'ed", len(m.entries), n+2)
	}
	if _, err := m.stat(tr.proj, "HEAD2", false); err != syscall.ENOENT {
		t.Fatal(err)
	}
	if _, err := m.stat(filepath.Join(tr.proj, ".git"), "HEAD", false); err != nil {
		t.Errorf(".git/HEAD: %v", err)
	}
	// A dangling link: found missing when followed, so is all below it.
	if _, err := m.stat(filepath.Join(tr.proj, "dangling"), "", true); err != syscall.ENOENT {
		t.Fatalf("a dangling link followed: %v", err)
	}
	if _, err := m.stat(filepath.Join(tr.proj, "dangling"), "x", false); err != syscall.ENOENT {
		t.Errorf("below a dangling link: %v", err)
	}
	if st, err := m.stat(filepath.Join(tr.proj, "dangling"), "", false); err != nil || st.mode&os.ModeSymlink == 0 {
		t.Errorf("the dangling link itself, not followed: %v %v", st.mode, err)
	}
}

// TestMemoLstatAnswersStat: a followed stat of a path an lstat found not
// to be a symlink, or found missing, is answered from that lstat without
// asking (the disk changed after it here, and the answer did not); a
// followed stat of a symlink asks, and sees the target.
func TestMemoLstatAnswersStat(t *testing.T) {
	dir := t.TempDir()
	file, missing, link, target := filepath.Join(dir, "f"), filepath.Join(dir, "m"), filepath.Join(dir, "l"), filepath.Join(dir, "t")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	var m Memo
	fst, err := m.stat(file, "", false)
	if err != nil || !fst.mode.IsRegular() {
		t.Fatalf("lstat of a file: %v %v", fst.mode, err)
	}
	if _, err := m.stat(dir, "m", false); err != syscall.ENOENT {
		t.Fatalf("lstat of a missing name: %v", err)
	}
	if st, err := m.stat(link, "", false); err != nil || st.mode&os.ModeSymlink == 0 {
		t.Fatalf("lstat of a link: %v %v", st.mode, err)
	}
	// Change the disk: the file becomes a directory, the missing name a
	// file.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(file, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(missing, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := len(m.entries)
	if st, err := m.stat(file, "", true); err != nil || st != fst {
		t.Errorf("stat of a file its lstat found: %v %v, want the lstat's answer %v", st.mode, err, fst.mode)
	}
	if _, err := m.stat(dir, "m", true); err != syscall.ENOENT {
		t.Errorf("stat of a name its lstat found missing: %v, want ENOENT", err)
	}
	if len(m.entries) != n {
		t.Errorf("%d entries, want %d: a stat the lstats answer was asked again", len(m.entries), n)
	}
	if st, err := m.stat(link, "", true); err != nil || !st.isDir() {
		t.Errorf("stat of a link to a directory: %v %v", st.mode, err)
	}
	if len(m.entries) != n+1 {
		t.Errorf("%d entries, want %d: the link's target was not stat'ed", len(m.entries), n+1)
	}
}

// TestMemoJoinedNames: a stat of dir and a relative name answers a later
// one of the joined path and the other way round (the danger layer stats
// cwd and out.txt, the sandbox resolves cwd/out.txt), followed or not as
// sameFollowed allows; a name whose join the system would clean (`..`,
// `.`, a doubled or trailing slash) is asked again.
func TestMemoJoinedNames(t *testing.T) {
	tr := newTree(t)
	var m Memo
	if _, err := m.stat(tr.proj, "src/main.go", false); err != nil {
		t.Fatal(err)
	}
	if _, err := m.stat(filepath.Join(tr.proj, "src"), "", false); err != nil {
		t.Fatal(err)
	}
	if _, err := m.stat(tr.proj, "missing", false); err != syscall.ENOENT {
		t.Fatal(err)
	}
	n0, e0 := Lookups(), len(m.entries)
	for _, c := range []struct {
		dir, name string
		follow    bool
	}{
		{tr.proj + "/src/main.go", "", false},
		{tr.proj + "/src/main.go", "", true},
		{tr.proj, "src", false},
		{tr.proj + "/missing", "", true},
	} {
		if _, err := m.stat(c.dir, c.name, c.follow); err != nil && c.name != "" {
			t.Errorf("%s %s: %v", c.dir, c.name, err)
		}
	}
	if n := Lookups() - n0; n != 0 || len(m.entries) != e0 {
		t.Errorf("%d lookups and %d new entries for paths the Memo holds split otherwise", n, len(m.entries)-e0)
	}
	for _, name := range []string{"src/../a.txt", "./a.txt", "src//main.go", "src/", "/src"} {
		n0 := Lookups()
		m.stat(tr.proj, name, false)
		m.stat(tr.proj+"/"+name, "", false)
		if n := Lookups() - n0; n != 2 {
			t.Errorf("%q: %d lookups, want 2 (a join the system may clean is not the same path)", name, n)
		}
	}
}

// TestMemoModeAt: Memo.ModeAt, which asks lstat first, answers as
// ModeAt (one followed stat) for a file, a directory, links to both, a
// dangling link, a loop, a missing name and one below a file.
func TestMemoModeAt(t *testing.T) {
	tr := newTree(t)
	for _, rel := range []string{"a.txt", "src", "notes.txt", "inlink", "dangling", "loop1", "self", "missing", "a.txt/x", "link/passwd", "src/main.go"} {
		want, werr := ModeAt(tr.proj, rel)
		var m Memo
		got, err := m.ModeAt(tr.proj, rel)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("Memo.ModeAt(%s) = %v, %v; ModeAt %v, %v", rel, got, err, want, werr)
		}
		again, err2 := m.ModeAt(tr.proj, rel)
		if again != got || err2 != err {
			t.Errorf("Memo.ModeAt(%s) again = %v, %v; was %v, %v", rel, again, err2, got, err)
		}
	}
}
