//go:build unix

package pathguard

import (
	"io/fs"
	"syscall"
)

// systemTempDirs are the temp dirs of FHS 3.0 §3.18 and §5.15, besides
// os.TempDir().
var systemTempDirs = []string{"/tmp", "/var/tmp"}

// managedConfigDirs hold the administrator's configuration (design §6).
var managedConfigDirs = []string{"/etc/gatekeep"}

// normalize is the identity: on Unix a resolved path is already the one
// spelling of its location (case-insensitive volumes aside, see within).
func normalize(p string) string { return p }

// isLink reports whether an Lstat result is a symlink to follow.
func isLink(fi fs.FileInfo) bool { return fi.Mode()&fs.ModeSymlink != 0 }

// lstatKind is os.Lstat reduced to what resolve asks: is the path a
// directory, is it a link to follow. No FileInfo is allocated (statAt),
// and a missing path is the bare errno: os.Lstat allocates a FileInfo for
// every call and a PathError for every missing path.
func lstatKind(p string) (dir, link bool, err error) {
	return (*Memo)(nil).lstatKind(p)
}

// lstatKind is lstatKind, remembered in m.
func (m *Memo) lstatKind(p string) (dir, link bool, err error) {
	st, err := m.stat(p, "", false)
	switch {
	case err == syscall.ENOENT:
		return false, false, err
	case err != nil:
		return false, false, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	return st.mode.IsDir(), st.mode&fs.ModeSymlink != 0, nil
}
