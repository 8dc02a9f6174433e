package confine

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy/config"
)

// The index of the project's tree: what the plan needs
// from the project (secrets to hide, nested repositories and agent dirs to
// pin, the protected shapes the sweep compares against) is kept per
// project in os.UserCacheDir()/gatekeep/tree/<SHA-256 of the real project
// root>, revalidated by directory mtimes the way git's untracked cache is
// (git's Documentation/technical/index-format.txt, "Untracked cache"): for
// each directory the index holds its mtime and ctime in nanoseconds, its
// inode and device, its subdirectories, and only the entries a walk's keep
// function holds (not every file). A walk lstats each directory once: one
// whose mtime, ctime, inode and device are those recorded reuses its
// entries without reading it (an entry is added, removed or renamed only
// by changing its directory's mtime, and setting the mtime back changes
// the ctime); any other is read again. A directory whose mtime is within
// treeRacy of when its entries were read is read again too (git's
// racy-clean rule: a change in the same clock tick would not show).
//
// The index is untrusted input: one that does not decode, is of another
// format, root or keep function, or holds a name that is not one entry
// name, is ignored and rebuilt; nothing in it is ever used to skip a
// directory the walk would otherwise read (a directory it does not know,
// or whose stamp differs, is read). It is written atomically
// (config.WriteFileAtomic) and only when a directory was read.

// treeIndexFormat changes whenever the index file's form does.
const treeIndexFormat = "gatekeep-tree-index-3"

// treeRacy is how close to the reading of a directory its mtime may be
// and still be trusted: file systems with coarse timestamps (FAT's 2 s)
// would not show a change in the same tick.
const treeRacy = 2 * time.Second

// treeSkipped are the dependency and build dirs (large, and not where
// the person keeps secrets or repositories). The walk enters them too
// (a confined command can plant a repository or a tool's config there,
// which a later unconfined git or tool obeys), through the same index:
// an unchanged one costs an lstat per directory, no read. The entries
// yielded below them say so (inDeps): the plan looks for no secrets and
// pins nothing there (a package manager replaces those dirs whole).
var treeSkipped = []string{"node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache", "target", ".gradle"}

// treeIndexFile is the index file as stored.
type treeIndexFile struct {
	Format string
	Root   string
	Key    string
	Dirs   map[string]*treeDir // by path relative to the root ("." for it)
}

// treeDir is one directory as last read.
type treeDir struct {
	Mtime int64 // ns
	Ctime int64 // ns
	Ino   uint64
	Dev   uint64
	Read  int64 // ns, taken just before the directory was read
	// Head: the directory held an entry named HEAD (any case), which
	// makes it a possible git dir (pathguard.MaybeGitDir).
	Head bool
	// Unread: reading the directory failed; it holds nothing then.
	Unread  bool
	Entries []treeItem // sorted by name
}

// treeItem is an entry of a directory: every subdirectory, and the other
// entries the keep function holds.
type treeItem struct {
	Name string
	Type fs.FileMode // fs.DirEntry.Type
}

// Tree walks a project through its index.
type Tree struct {
	root string
	// keep says which non-directory entries the walk yields (by path);
	// key names keep, so that an index made for another is not used.
	keep func(path string) bool
	key  string
	// file is where the index is kept ("" to keep none).
	file string
	// readDir reads a directory (a hook for tests).
	readDir func(string) ([]fs.DirEntry, error)
	now     func() time.Time

	old, cur map[string]*treeDir
	dirty    bool
}

// treeIndexPath is where the index of the project at the real path root
// is kept, or "" without a cache dir.
func treeIndexPath(root string) string {
	d, err := os.UserCacheDir()
	if err != nil || d == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(d, "gatekeep", "tree", hex.EncodeToString(sum[:]))
}

// newProjectTree is the tree of the project at the real path root, its
// index loaded from file ("" for none).
func newProjectTree(root, file, key string, keep func(string) bool) *Tree {
	t := &Tree{root: root, keep: keep, key: key, file: file, readDir: os.ReadDir, now: time.Now}
	t.old = t.load()
	return t
}

// load reads the index; anything doubtful gives an empty one.
func (t *Tree) load() map[string]*treeDir {
	if t.file == "" {
		return nil
	}
	b, err := os.ReadFile(t.file)
	if err != nil {
		return nil
	}
	var f treeIndexFile
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&f) != nil || f.Format != treeIndexFormat || f.Root != t.root || f.Key != t.key {
		return nil
	}
	for rel, d := range f.Dirs {
		if d == nil || rel != "." && (!filepath.IsLocal(rel) || filepath.Clean(rel) != rel) {
			return nil
		}
		for i, e := range d.Entries {
			if !entryName(e.Name) || i > 0 && d.Entries[i-1].Name >= e.Name {
				return nil
			}
		}
	}
	return f.Dirs
}

// entryName reports whether n is one directory entry's name.
func entryName(n string) bool {
	return n != "" && n != "." && n != ".." && !strings.ContainsRune(n, '/') && !strings.ContainsRune(n, 0) &&
		(filepath.Separator == '/' || !strings.ContainsRune(n, filepath.Separator))
}

// save writes the index when a directory was read; only the directories
// this walk visited are kept.
func (t *Tree) save() {
	if t.file == "" || !t.dirty && len(t.cur) == len(t.old) {
		return
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(treeIndexFile{Format: treeIndexFormat, Root: t.root, Key: t.key, Dirs: t.cur}) != nil {
		return
	}
	b := buf.Bytes()
	if os.MkdirAll(filepath.Dir(t.file), 0o700) != nil {
		return
	}
	_ = config.WriteFileAtomic(t.file, b, 0o600)
}

// treeEntry is an entry the walk yields.
type treeEntry struct {
	name string
	typ  fs.FileMode
	path string
	// noHead: a directory known to hold no HEAD while it can be searched,
	// so that git cannot take it for a git directory.
	noHead bool
	// deps: the entry stands below a treeSkipped dir.
	deps bool
}

func (e treeEntry) Name() string               { return e.name }
func (e treeEntry) IsDir() bool                { return e.typ.IsDir() }
func (e treeEntry) Type() fs.FileMode          { return e.typ }
func (e treeEntry) Info() (fs.FileInfo, error) { return os.Lstat(e.path) }

// TreeShape is pathguard.ShapeOf(path, d.IsDir(), false) for an entry
// of a walk, without looking into a directory the index knows holds no
// HEAD.
func TreeShape(path string, d fs.DirEntry) pathguard.Shape {
	if e, ok := d.(treeEntry); ok && e.noHead {
		return pathguard.ShapeOf(path, false, false)
	}
	return pathguard.ShapeOf(path, d.IsDir(), false)
}

// Walk calls fn for the root, every directory below it and the entries
// keep holds, in lexical order as
// filepath.WalkDir does, without following links; fn may return
// filepath.SkipDir or filepath.SkipAll. It then saves the index.
func (t *Tree) Walk(fn func(path string, d fs.DirEntry) error) {
	t.cur, t.dirty = map[string]*treeDir{}, false
	defer t.save()
	fi, err := os.Lstat(t.root)
	if err != nil || !fi.IsDir() {
		return
	}
	d := t.dir(".", t.root, fi)
	_ = t.visit(".", t.root, d, fi, false, fn)
	// A later walk (the sweep after the run) compares with what this one
	// saw, in memory: never with the file on disk, which the command may
	// have rewritten meanwhile.
	t.old = t.cur
}

// visit yields the directory at path (rel to the root), then its entries.
func (t *Tree) visit(rel, path string, d *treeDir, fi fs.FileInfo, deps bool, fn func(string, fs.DirEntry) error) error {
	e := treeEntry{name: filepath.Base(path), typ: fs.ModeDir, path: path, noHead: d != nil && !d.Head && !d.Unread && searchable(fi), deps: deps}
	if err := fn(path, e); err != nil {
		if err == filepath.SkipDir {
			return nil
		}
		return err
	}
	if d == nil {
		return nil
	}
	for _, it := range d.Entries {
		p := filepath.Join(path, it.Name)
		if !it.Type.IsDir() {
			if err := fn(p, treeEntry{name: it.Name, typ: it.Type, path: p, deps: deps}); err == filepath.SkipAll {
				return err
			}
			continue
		}
		cfi, err := os.Lstat(p)
		if err != nil || !cfi.IsDir() {
			continue // gone since it was listed
		}
		var cd *treeDir
		crel := filepath.Join(rel, it.Name)
		if !isDotGit(it.Name) {
			// A .git dir is not entered (the callers skip it) nor read.
			cd = t.dir(crel, p, cfi)
		}
		if err := t.visit(crel, p, cd, cfi, deps || inDeps(it.Name), fn); err != nil {
			return err
		}
	}
	return nil
}

// inDeps: a directory of that name is a treeSkipped one.
func inDeps(n string) bool { return slices.Contains(treeSkipped, n) }

// isDeps reports whether a walk's entry stands below a treeSkipped dir.
func isDeps(d fs.DirEntry) bool {
	e, ok := d.(treeEntry)
	return ok && e.deps
}

// isDotGit: an entry named .git (any case, as pathguard.ShapeOf).
func isDotGit(n string) bool { return strings.EqualFold(n, ".git") }

// dir returns the directory at path as the index knows it, when its stamp
// is the one recorded and not racy, else as read now; it records it in
// the index written back.
func (t *Tree) dir(rel, path string, fi fs.FileInfo) *treeDir {
	mtime, ctime, ino, dev := dirStamp(fi)
	if d := t.old[rel]; d != nil && d.Mtime == mtime && d.Ctime == ctime && d.Ino == ino && d.Dev == dev && !d.Unread &&
		time.Duration(d.Read-mtime) >= treeRacy {
		t.cur[rel] = d
		return d
	}
	d := &treeDir{Mtime: mtime, Ctime: ctime, Ino: ino, Dev: dev, Read: t.now().UnixNano()}
	t.dirty = true
	t.cur[rel] = d
	entries, err := t.readDir(path)
	if err != nil {
		d.Unread = true
		return d
	}
	for _, e := range entries {
		n := e.Name()
		if strings.EqualFold(n, "HEAD") {
			d.Head = true
		}
		if e.IsDir() || t.keep(filepath.Join(path, n)) {
			d.Entries = append(d.Entries, treeItem{Name: n, Type: e.Type()})
		}
	}
	return d
}

// NewTree is the tree of the project at the real path root as the
// plan and the sweep walk it: its directories, and the entries with a
// protected shape (pathguard.ShapeOf) or a name a bare secret glob
// matches (matchBare).
func NewTree(root string, bare []string) *Tree {
	return newProjectTree(root, treeIndexPath(root), strings.Join(bare, "\n"), func(path string) bool {
		return pathguard.ShapeOf(path, false, false) != "" || matchBare(bare, path)
	})
}
