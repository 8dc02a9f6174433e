package pathguard

import "io/fs"

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
}

// stat is statAt, remembered.
func (m *Memo) stat(dir, name string, follow bool) (fileStat, error) {
	if m == nil {
		return statAt(dir, name, follow)
	}
	for i := range m.entries {
		x := &m.entries[i]
		if x.follow == follow && x.name == name && x.dir == dir {
			return x.st, x.err
		}
	}
	st, err := statAt(dir, name, follow)
	if len(m.entries) < maxMemo {
		m.entries = append(m.entries, memoEntry{dir: dir, name: name, follow: follow, st: st, err: err})
	}
	return st, err
}

// ModeAt is the package's ModeAt, remembered in m.
func (m *Memo) ModeAt(dir, rel string) (fs.FileMode, error) {
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
