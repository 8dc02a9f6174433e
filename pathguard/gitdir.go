package pathguard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// What git takes for a git directory, answered without running git, after
// git's setup.c (read at git/git 1a3e64c, 2026-08): is_git_directory,
// validate_headref, get_common_dir_noenv, read_gitfile_gently and
// repo_discovery_find_dir. Every answer errs wide: where the disk leaves a
// doubt (a file that cannot be read, a FIFO, a permission), a directory
// is taken for a git directory. Git's narrowing checks (ownership and
// safe.directory, safe.bareRepository, GIT_CEILING_DIRECTORIES, stopping
// at a file system boundary) are not applied: each only makes git find
// less, and git that finds no repository reads no repository config.
// GIT_DIR, GIT_COMMON_DIR and GIT_OBJECT_DIRECTORY in gatekeep's own
// environment are not read: a command that sets them is not safe anyway
// (every GIT_ variable makes it unsafe), and an inherited one is the
// person's own setup.

// MaybeGitDir reports whether git could take dir for a git directory
// (setup.c is_git_directory):
//
//   - dir/HEAD is a symlink whose target text starts with "refs/" (even
//     a dangling one), or a file whose first bytes are "ref:", blanks and
//     "refs/", or 40 hex digits (a detached HEAD);
//   - objects and refs pass access(X_OK) — a directory, or a file of any
//     kind with an execute bit — in the common directory: the one a
//     `commondir` file in dir names (relative to dir), else dir itself.
//
// A HEAD, commondir, objects or refs that cannot be read or judged counts
// as passing.
func MaybeGitDir(dir string) bool { return maybeGitDir(nil, dir) }

// maybeGitDir is MaybeGitDir with its stats remembered in m.
func maybeGitDir(m *Memo, dir string) bool {
	if !maybeHeadRef(m, dir) {
		return false
	}
	common, ok := commonDir(m, dir)
	if !ok {
		return true // objects and refs are somewhere unknown
	}
	return maybeExec(m, common, "objects") && maybeExec(m, common, "refs")
}

// FindGitDir returns the git directory git started in dir (a real,
// absolute path) would use, found as repo_discovery_find_dir does: from
// dir upwards, `.git` — a file `gitdir: PATH` (whose PATH must be a git
// directory, or git dies), or a directory that is a git directory (one
// that is not is passed over) — and then the directory itself (a bare
// repository). gitDir is "" with ok when git would find none; ok is false
// when the disk leaves the answer unclear (a `.git` that cannot be read,
// is neither file nor directory, or names no git directory: git dies
// there, and gatekeep does not guess).
func FindGitDir(dir string) (gitDir string, ok bool) {
	for d := dir; ; d = filepath.Dir(d) {
		st, err := statAt(d, ".git", true) // read_gitfile_gently: stat, following links
		switch {
		case err == nil && st.isDir():
			dot := joinName(d, ".git")
			if MaybeGitDir(dot) {
				r, err := realPath(dot)
				return r, err == nil
			}
		case err == nil && st.mode.IsRegular():
			t := gitFileTarget(d, joinName(d, ".git"))
			return t, t != ""
		case err == nil, !missing(err):
			return "", false
		}
		if MaybeGitDir(d) {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", true
		}
	}
}

// maxGitFile bounds the `.git` and `commondir` files read (git reads a
// `.git` file of up to 1 MiB; a path is far shorter).
const maxGitFile = 1 << 20

// gitFileTarget reads a `.git` file in d as read_gitfile_gently does: it
// starts with "gitdir: ", trailing CR and LF are dropped, the path is
// relative to d unless absolute, and must be a git directory. "" when it
// is not one of those (git dies).
func gitFileTarget(d, file string) string {
	b, err := readSmall(file)
	if err != nil {
		return ""
	}
	rest, ok := bytes.CutPrefix(b, []byte("gitdir: "))
	if !ok {
		return ""
	}
	rest = bytes.TrimRight(rest, "\r\n")
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		rest = rest[:i] // git uses it as a C string
	}
	if len(rest) == 0 {
		return ""
	}
	p := string(rest)
	if !filepath.IsAbs(p) {
		p = d + string(filepath.Separator) + p
	}
	if !MaybeGitDir(p) {
		return ""
	}
	r, err := realPath(p)
	if err != nil {
		return ""
	}
	return r
}

// commonDir returns the directory holding objects and refs for the git
// directory dir (get_common_dir_noenv): the path a `commondir` file names,
// relative to dir unless absolute, else dir. ok is false when a commondir
// file is there but its target cannot be known.
func commonDir(m *Memo, dir string) (string, bool) {
	if _, err := m.stat(dir, "commondir", true); err != nil {
		if missing(err) {
			return dir, true
		}
		return "", false
	}
	b, err := readSmall(joinName(dir, "commondir"))
	if err != nil || len(b) == 0 {
		return "", false // git dies; the target is unknown
	}
	b = bytes.TrimRight(b, "\r\n")
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	t := string(b)
	if !filepath.IsAbs(t) {
		t = dir + string(filepath.Separator) + t
	}
	r, err := m.realPath(t)
	if err != nil {
		return "", false
	}
	return r, true
}

// maybeHeadRef is validate_headref of dir/HEAD, erring toward yes.
func maybeHeadRef(m *Memo, dir string) bool {
	st, err := m.stat(dir, "HEAD", false)
	if err != nil {
		return !missing(err)
	}
	p := joinName(dir, "HEAD")
	switch m := st.mode; {
	case m&fs.ModeSymlink != 0:
		t, err := readlink(p)
		return err != nil || strings.HasPrefix(t, "refs/")
	case m.IsDir():
		return false // read(2) fails: EISDIR
	case !m.IsRegular():
		return true // a FIFO or a device: not opened here
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return true
	}
	defer f.Close()
	buf := make([]byte, 255)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return true
	}
	return headRefText(buf[:n])
}

// headRefText: "ref:", blanks (git's isspace: space, tab, LF, CR),
// "refs/..." (a symbolic ref), or a hex object name (get_oid_hex_any: 40
// hex digits, or 64 — which start with 40). Git reads the buffer as a C
// string.
func headRefText(b []byte) bool {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	if rest, ok := bytes.CutPrefix(b, []byte("ref:")); ok {
		if bytes.HasPrefix(bytes.TrimLeft(rest, " \t\n\r"), []byte("refs/")) {
			return true
		}
	}
	if len(b) < 40 {
		return false
	}
	for _, c := range b[:40] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// maybeExec is access(dir/name, X_OK), erring toward yes: a directory (search
// permission aside), or anything else with an execute bit; a dangling
// link fails, an error other than "missing" passes.
func maybeExec(m *Memo, dir, name string) bool {
	st, err := m.stat(dir, name, true)
	if err != nil {
		return !missing(err)
	}
	return st.isDir() || st.mode.Perm()&0o111 != 0
}

// missing: the path (or a directory on it) does not exist.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// readSmall reads a regular file of at most maxGitFile bytes, opened
// without blocking.
func readSmall(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxGitFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxGitFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", p, maxGitFile)
	}
	return b, nil
}

// gitDirShape returns why a write of real (inside root) could make or
// change a git directory, or "". others are the real paths the same call
// also writes (a call that builds the whole shape at once). For real and
// every directory A from its parent up to root:
//
//   - A may be a git directory now (MaybeGitDir): whatever is written
//     below it steers git run there (config, hooks, HEAD);
//   - A holds objects and refs: it may be the common directory of a git
//     directory elsewhere (a `commondir` file naming it), whose config
//     and hooks are read from A;
//   - the write names A/commondir: any directory holding HEAD may take
//     its objects and refs from anywhere;
//   - the write names A/objects or A/refs (or a path below one, as
//     `mkdir -p A/refs/heads` makes them) while the other one is there
//     or written by the call: A becomes a possible common directory;
//   - the write names A/HEAD while A would then hold objects and refs (in
//     its common directory) too: A becomes a git directory.
//
// A HEAD written by the call counts as valid; objects or refs written
// count as present, whatever kind of file they become.
func gitDirShape(m *Memo, root, real string, others []string) string {
	for a := filepath.Dir(real); within(root, a); a = filepath.Dir(a) {
		if why := gitDirShapeIn(m, a, real, others); why != "" {
			return why
		}
		if a == root || filepath.Dir(a) == a {
			break
		}
	}
	return ""
}

func gitDirShapeIn(m *Memo, a, real string, others []string) string {
	if maybeGitDir(m, a) {
		return fmt.Sprintf("%s is inside %s, which git may take for a git directory (HEAD, objects, refs), whose config and hooks run commands", real, a)
	}
	if maybeExec(m, a, "objects") && maybeExec(m, a, "refs") {
		return fmt.Sprintf("%s is inside %s, which holds objects and refs: a git directory whose commondir names it reads its config and hooks there", real, a)
	}
	first, exact := firstBelow(a, real)
	if !isShapeName(first) {
		return ""
	}
	// What the call leaves in a: the names written directly below it.
	wrote := map[string]bool{}
	headWritten, commonWritten := false, false
	for _, o := range append([]string{real}, others...) {
		n, ex := firstBelow(a, o)
		switch {
		case n == "":
		case sameName(n, "HEAD"):
			headWritten = headWritten || ex
		case sameName(n, "commondir"):
			commonWritten = commonWritten || ex
		case sameName(n, "objects"):
			wrote["objects"] = true
		case sameName(n, "refs"):
			wrote["refs"] = true
		}
	}
	switch {
	case sameName(first, "commondir") && exact:
		return fmt.Sprintf("%s is a commondir file, which lets a directory holding HEAD take objects and refs from anywhere and become a git directory", real)
	case sameName(first, "objects") || sameName(first, "refs"):
		if (wrote["objects"] || maybeExec(m, a, "objects")) && (wrote["refs"] || maybeExec(m, a, "refs")) {
			return fmt.Sprintf("%s would give %s both objects and refs, the shape of a git directory (or of the common directory of one), whose config and hooks run commands", real, a)
		}
	}
	if !headWritten && !maybeHeadRef(m, a) {
		return ""
	}
	objects, refs := wrote["objects"], wrote["refs"]
	if !objects || !refs {
		common, ok := a, !commonWritten
		if ok {
			common, ok = commonDir(m, a)
		}
		if !ok {
			return fmt.Sprintf("%s would make %s a git directory (HEAD and a commondir), whose config and hooks run commands", real, a)
		}
		objects = objects || maybeExec(m, common, "objects")
		refs = refs || maybeExec(m, common, "refs")
	}
	if objects && refs {
		return fmt.Sprintf("%s would make %s a git directory (HEAD, objects, refs), whose config and hooks run commands", real, a)
	}
	return ""
}

// isShapeName: the entries is_git_directory looks at.
func isShapeName(n string) bool {
	return n != "" && (sameName(n, "HEAD") || sameName(n, "commondir") || sameName(n, "objects") || sameName(n, "refs"))
}

// firstBelow returns the first component of p below the directory a, and
// whether it is p's last one; "" when p is not strictly below a.
func firstBelow(a, p string) (string, bool) {
	rel, ok := below(a, p)
	if !ok {
		return "", false
	}
	first, rest, found := strings.Cut(rel, string(filepath.Separator))
	return first, !found || rest == ""
}

// GitShapeReason is Protected's git-directory check for a write of real
// together with the other real paths the same call writes (others), so
// that a call building the whole shape at once (`mkdir -p d/objects
// d/refs && echo ... > d/HEAD`) is judged as it will be after it runs.
// "" when real is in no root or the writes make no git directory.
func (g *Guard) GitShapeReason(real string, others []string) string {
	return g.GitShapeReasonWith(nil, real, others)
}

// GitShapeReasonWith is GitShapeReason with its stats remembered in m
// (Memo).
func (g *Guard) GitShapeReasonWith(m *Memo, real string, others []string) string {
	root := g.rootOf(real)
	if root == "" {
		return ""
	}
	return gitDirShape(m, root, real, others)
}
