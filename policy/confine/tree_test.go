package confine

import (
	"bytes"
	"encoding/gob"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatekeep/gatekeep/pathguard"
)

// testTree is a project tree whose index lives in the test's temp dir,
// counting the directories it reads; later is added to the clock, so
// that a tree just made is not racy (0 keeps the real clock).
func testTree(t *testing.T, root, file string, later time.Duration, reads *[]string) *Tree {
	t.Helper()
	tr := NewTree(root, []string{"**/.env", "**/*.pem"})
	tr.file = file
	tr.old = tr.load()
	tr.readDir = func(p string) ([]fs.DirEntry, error) {
		*reads = append(*reads, p)
		return os.ReadDir(p)
	}
	tr.now = func() time.Time { return time.Now().Add(later) }
	return tr
}

// walkAll is what a walk yields, as paths relative to root ("/" after a
// directory).
func walkAll(tr *Tree) []string {
	var out []string
	tr.Walk(collect(tr.root, &out))
	return out
}

// collect appends each entry a walk of root yields to out, and skips
// what is in a .git.
func collect(root string, out *[]string) func(path string, d fs.DirEntry) error {
	return func(path string, d fs.DirEntry) error {
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			rel += "/"
		}
		*out = append(*out, rel)
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		return nil
	}
}

// makeTree creates the files (a name ending in / is a directory).
func makeTree(t *testing.T, root string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(root, n)
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var testTreeFiles = []string{"README", ".env", "a/main.go", "a/b/c/key.pem", "a/b/c/x.txt", "a/.claude/settings.json",
	"sub/.git/HEAD", "sub/.envrc", "node_modules/pkg/.env", "z/y/x/w/.env"}

// referenceWalk is the walk done with filepath.WalkDir, reading every
// directory, with the same keep (dependency dirs are entered too).
func referenceWalk(tr *Tree) []string {
	var out []string
	add := collect(tr.root, &out)
	filepath.WalkDir(tr.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() && !tr.keep(path) {
			return nil
		}
		return add(path, d)
	})
	return out
}

func TestTreeIndexReadsOnlyChangedDirs(t *testing.T) {
	root, file := t.TempDir(), filepath.Join(t.TempDir(), "index")
	makeTree(t, root, testTreeFiles...)
	var reads []string
	first := walkAll(testTree(t, root, file, time.Hour, &reads))
	if want := referenceWalk(testTree(t, root, "", 0, new([]string))); !slices.Equal(first, want) {
		t.Fatalf("walk = %q, want %q", first, want)
	}
	if len(reads) == 0 {
		t.Fatal("the first walk read no directory")
	}
	if !slices.Contains(first, "z/y/x/w/.env") || slices.Contains(first, "a/main.go") || !slices.Contains(first, "node_modules/pkg/.env") {
		t.Fatalf("walk = %q", first)
	}
	// A dependency dir and the entries below it say so, and only they.
	testTree(t, root, "", 0, new([]string)).Walk(func(path string, d fs.DirEntry) error {
		rel, _ := filepath.Rel(root, path)
		if want := rel == "node_modules" || strings.HasPrefix(rel, "node_modules/"); isDeps(d) != want {
			t.Errorf("%s: isDeps = %v, want %v", rel, isDeps(d), want)
		}
		return nil
	})

	reads = nil
	again := walkAll(testTree(t, root, file, time.Hour, &reads))
	if len(reads) != 0 || !slices.Equal(again, first) {
		t.Fatalf("unchanged tree: read %q, walk = %q, want %q", reads, again, first)
	}

	// A file added in a/b/c, a new directory with a secret below a/b:
	// those two are read, and nothing else.
	makeTree(t, root, "a/b/c/new.pem", "a/b/new/.env")
	reads = nil
	after := walkAll(testTree(t, root, file, time.Hour, &reads))
	want := []string{filepath.Join(root, "a/b"), filepath.Join(root, "a/b/c"), filepath.Join(root, "a/b/new")}
	slices.Sort(reads)
	if !slices.Equal(reads, want) {
		t.Fatalf("read %q, want %q", reads, want)
	}
	if ref := referenceWalk(testTree(t, root, "", 0, new([]string))); !slices.Equal(after, ref) {
		t.Fatalf("walk = %q, want %q", after, ref)
	}

	// An entry added and the directory's mtime set back (tar x, cp -p,
	// touch -d): its ctime changed, so it is read again.
	dir := filepath.Join(root, "a/b/c")
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	makeTree(t, root, "a/b/c/hidden.pem")
	if err := os.Chtimes(dir, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	reads = nil
	if got := walkAll(testTree(t, root, file, time.Hour, &reads)); !slices.Contains(got, "a/b/c/hidden.pem") || !slices.Equal(reads, []string{dir}) {
		t.Fatalf("mtime set back: read %q, walk = %q", reads, got)
	}

	// A directory replaced by another of the same name (a new inode, and
	// its parent's mtime changed) is read again.
	if err := os.Rename(filepath.Join(root, "z/y/x"), filepath.Join(root, "z/old")); err != nil {
		t.Fatal(err)
	}
	makeTree(t, root, "z/y/x/w/")
	reads = nil
	walkAll(testTree(t, root, file, time.Hour, &reads))
	if !slices.Contains(reads, filepath.Join(root, "z/y/x/w")) || !slices.Contains(reads, filepath.Join(root, "z/old/w")) {
		t.Fatalf("read %q", reads)
	}
}

func TestTreeIndexRacy(t *testing.T) {
	root, file := t.TempDir(), filepath.Join(t.TempDir(), "index")
	makeTree(t, root, testTreeFiles...)
	var reads []string
	walkAll(testTree(t, root, file, 0, &reads))
	n := len(reads)
	// Read with the real clock, within treeRacy of their mtimes: every
	// directory is read again.
	reads = nil
	walkAll(testTree(t, root, file, 0, &reads))
	if len(reads) != n {
		t.Fatalf("racy directories: read %d of %d again", len(reads), n)
	}
	// Read long after, they are not.
	walkAll(testTree(t, root, file, time.Hour, new([]string)))
	reads = nil
	walkAll(testTree(t, root, file, 0, &reads))
	if len(reads) != 0 {
		t.Fatalf("read %q again", reads)
	}
}

func TestTreeIndexUntrusted(t *testing.T) {
	root, file := t.TempDir(), filepath.Join(t.TempDir(), "index")
	makeTree(t, root, testTreeFiles...)
	var reads []string
	want := walkAll(testTree(t, root, file, time.Hour, &reads))
	n := len(reads)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// mutated is the good index decoded, changed by fn and encoded again.
	mutated := func(fn func(f *treeIndexFile)) string {
		var f treeIndexFile
		if err := gob.NewDecoder(bytes.NewReader(good)).Decode(&f); err != nil {
			t.Fatal(err)
		}
		fn(&f)
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(f); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for name, bad := range map[string]string{
		"garbage":    "\x00not gob",
		"truncated":  string(good[:len(good)/2]),
		"other root": mutated(func(f *treeIndexFile) { f.Root = "/elsewhere" + f.Root }),
		"other keep": mutated(func(f *treeIndexFile) { f.Key = "x" + f.Key }),
		"other form": mutated(func(f *treeIndexFile) { f.Format = "gatekeep-tree-index-0" }),
		"entry path": mutated(func(f *treeIndexFile) {
			for _, d := range f.Dirs {
				for i := range d.Entries {
					if d.Entries[i].Name == ".env" {
						d.Entries[i].Name = "../.env"
					}
				}
			}
		}),
		"dir outside": mutated(func(f *treeIndexFile) { f.Dirs["../b"] = f.Dirs["a/b"]; delete(f.Dirs, "a/b") }),
	} {
		if bad == string(good) {
			t.Fatalf("%s: the index was not changed", name)
		}
		if err := os.WriteFile(file, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		reads = nil
		got := walkAll(testTree(t, root, file, time.Hour, &reads))
		if len(reads) != n || !slices.Equal(got, want) {
			t.Errorf("%s: read %d of %d dirs, walk = %q, want %q", name, len(reads), n, got, want)
		}
		// Rebuilt: the next walk reads nothing.
		reads = nil
		walkAll(testTree(t, root, file, time.Hour, &reads))
		if len(reads) != 0 {
			t.Errorf("%s: not rebuilt, read %q", name, reads)
		}
	}
	// An index whose stamps do not match is not believed: a forged one
	// that drops the secret from a directory is read past.
	forged := mutated(func(f *treeIndexFile) {
		for _, d := range f.Dirs {
			d.Entries = slices.DeleteFunc(d.Entries, func(e treeItem) bool { return e.Name == ".env" })
			d.Mtime++
		}
	})
	if forged == string(good) {
		t.Fatal("the index was not forged")
	}
	os.WriteFile(file, []byte(forged), 0o600)
	if got := walkAll(testTree(t, root, file, time.Hour, new([]string))); !slices.Equal(got, want) {
		t.Errorf("forged index: walk = %q, want %q", got, want)
	}
}

// A directory the index knows holds no HEAD is judged without looking
// into it, and the same as pathguard.ShapeOf judges it: a bare
// repository's dir (HEAD, objects, refs) is a git dir, from the index too.
func TestTreeIndexShapes(t *testing.T) {
	root, file := t.TempDir(), filepath.Join(t.TempDir(), "index")
	makeTree(t, root, append([]string{"bare/objects/", "bare/refs/", "plain/x/"}, testTreeFiles...)...)
	if err := os.WriteFile(filepath.Join(root, "bare/HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, later := range []time.Duration{time.Hour, time.Hour} { // read, then from the index
		var reads []string
		gitDirs := 0
		testTree(t, root, file, later, &reads).Walk(func(path string, d fs.DirEntry) error {
			if got, want := TreeShape(path, d), pathguard.ShapeOf(path, d.IsDir(), false); got != want {
				t.Errorf("%s: shape %q, want %q", path, got, want)
			}
			if TreeShape(path, d) == pathguard.ShapeGitDir {
				gitDirs++
			}
			return nil
		})
		if gitDirs != 1 {
			t.Errorf("%d git dirs found (read %d dirs), want bare", gitDirs, len(reads))
		}
	}
}
