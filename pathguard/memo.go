package pathguard

import (
	"io/fs"
	"strings"
	"sync/atomic"
	"syscall"
)

// Memo remembers the stats one decision makes, so that a path several
// checks ask about is stat'ed once: the sandbox and the file rules
// resolve the same path, the git-directory checks of every write walk
// the same parent directories (GitShapeReasonWith, then
// ProtectedWith), and the writes of one call share their directories.
// A decision judges the disk as one snapshot anyway; a Memo must not
// outlive it, since the disk changes between decisions. The zero Memo
// is empty; a nil *Memo remembers nothing. Not safe for concurrent use.
type Memo struct {
	entries []memoEntry
	// missing are paths a stat of the whole path found missing (ENOENT):
	// the kernel finds nothing below them either, whatever follows.
	missing []string
	// wd is the real path of the process's working directory, when a
	// check of this decision was given it as its working directory
	// (useWd); "" when not known. wdAsked: linkFree was asked.
	wd      string
	wdAsked bool
}

// memoEntry is one stat: of dir joined with name (statAt's arguments),
// following a final symlink or not.
type memoEntry struct {
	dir, name string
	follow    bool
	st        fileStat
	err       error
}

// maxMemo bounds the entries a Memo searches (one by one) and keeps; a
// decision that stats more paths stats the rest every time.
const maxMemo = 64

// Reset empties m, keeping its memory for the next decision.
func (m *Memo) Reset() {
	clear(m.entries)
	m.entries = m.entries[:0]
	clear(m.missing)
	m.missing = m.missing[:0]
	m.wd, m.wdAsked = "", false
}

// useWd learns, once per decision, whether cwd (absolute and clean) is
// its own real path (linkFree: every component exists and none is a
// link): then resolve starts a path below it at cwd instead of looking
// up each of its components again (two system calls instead of one per
// component). It is asked again in every decision: the directory may be
// renamed, removed or replaced by a link in between.
//
// A cwd that was not link-free is not asked about again while it is the
// last one that missed (wdMiss): a decision from a directory entered
// through a link would pay the calls for nothing every time. What that
// remembers only ever makes a decision take the walk, which is exact;
// it never stands for a lookup.
func (m *Memo) useWd(cwd string) {
	if m == nil || m.wdAsked {
		return
	}
	m.wdAsked = true
	if miss := wdMiss.Load(); miss != nil && *miss == cwd {
		return
	}
	if linkFree(cwd) {
		m.wd = cwd
	} else {
		miss := cwd // (only a miss is copied to the heap)
		wdMiss.Store(&miss)
	}
}

// wdMiss is the last working directory linkFree refused (useWd).
var wdMiss atomic.Pointer[string]

// wdPrefix is how many bytes at the start of p are the working
// directory known real in this decision (useWd), ending at a
// separator or at the end of p; 0 when none.
func (m *Memo) wdPrefix(p string) int {
	if m == nil || m.wd == "" || !within(m.wd, p) {
		return 0
	}
	return len(m.wd)
}

// stat is statAt, remembered.
func (m *Memo) stat(dir, name string, follow bool) (fileStat, error) {
	if m == nil {
		return statAt(dir, name, follow)
	}
	for i := range m.entries {
		x := &m.entries[i]
		if x.names(dir, name) && (x.follow == follow || follow && x.sameFollowed()) {
			return x.st, x.err
		}
	}
	if m.below(dir, name) {
		// A lookup of a path below a missing one fails at that
		// component with ENOENT, as the kernel's would.
		return fileStat{}, syscall.ENOENT
	}
	st, err := statAt(dir, name, follow)
	if len(m.entries) < maxMemo {
		m.entries = append(m.entries, memoEntry{dir: dir, name: name, follow: follow, st: st, err: err})
		if name == "" && err == syscall.ENOENT && len(m.missing) < maxMemo {
			m.missing = append(m.missing, dir)
		}
	}
	return st, err
}

// names reports whether x is a stat of dir joined with name: its own
// arguments, or the same path split otherwise (the danger checks stat
// cwd and out.txt, resolve cwd/out.txt). Only a join statAt makes
// letter for letter everywhere counts, a name of clean components (the
// !linux forms clean the join, which a `..` or a trailing slash would
// change); another split is a miss, which only costs a stat.
func (x *memoEntry) names(dir, name string) bool {
	switch {
	case x.name == name:
		return x.dir == dir
	case x.name == "":
		return joins(x.dir, dir, name)
	case name == "":
		return joins(dir, x.dir, x.name)
	}
	return false
}

// joins reports whether p is dir joined with name, a relative path of
// clean components, by a slash.
func joins(p, dir, name string) bool {
	if dir == "" || len(p) != len(dir)+1+len(name) || p[len(dir)] != '/' ||
		p[len(dir)+1:] != name || p[:len(dir)] != dir || dir[len(dir)-1] == '/' {
		return false
	}
	for rest := name; ; {
		c, after, more := strings.Cut(rest, "/")
		if c == "" || c == "." || c == ".." {
			return false
		}
		if !more {
			return true
		}
		rest = after
	}
}

// sameFollowed reports whether a stat that follows a final symlink
// answers as x, an lstat, did: x found no symlink at the end, or failed
// with a bare errno, which the lookup meets before it could follow one.
func (x *memoEntry) sameFollowed() bool {
	if x.err != nil {
		_, bare := x.err.(syscall.Errno)
		return bare
	}
	return x.st.mode&fs.ModeSymlink == 0
}

// below reports whether dir joined with name lies strictly below a path
// known to be missing. Where the system's errors are not bare errnos
// (statAt's !unix form), nothing is recorded as missing.
func (m *Memo) below(dir, name string) bool {
	for _, x := range m.missing {
		if len(dir) > len(x) && dir[len(x)] == '/' && dir[:len(x)] == x ||
			name != "" && dir == x {
			return true
		}
	}
	return false
}

// ModeAt is the package's ModeAt, remembered in m. It asks lstat(2)
// first, as resolve does, so that a check of the same path later in the
// decision finds it remembered; an lstat that finds no symlink, or fails
// with a bare errno, answers as the followed stat would (sameFollowed),
// which is asked only for a symlink.
func (m *Memo) ModeAt(dir, rel string) (fs.FileMode, error) {
	if m != nil {
		st, err := m.stat(dir, rel, false)
		if x := (memoEntry{st: st, err: err}); x.sameFollowed() {
			return st.mode, err
		}
	}
	st, err := m.stat(dir, rel, true)
	return st.mode, err
}

// isDir reports whether dir/name is a directory (symlinks followed).
func (m *Memo) isDir(dir, name string) bool {
	st, err := m.stat(dir, name, true)
	return err == nil && st.isDir()
}

// realPath is the package's realPath, its lookups remembered in m.
func (m *Memo) realPath(p string) (string, error) {
	real, err := resolve(m, p, false)
	if err != nil {
		return "", err
	}
	return normalize(real), nil
}
