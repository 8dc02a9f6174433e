//go:build unix

package pathguard

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// systemTempDirs are the temp dirs of FHS 3.0 §3.18 and §5.15, besides
// os.TempDir().
var systemTempDirs = []string{"/tmp", "/var/tmp"}

// managedConfigDirs hold the administrator's configuration (policy/config's
// ManagedConfigFile).
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

// executable reports whether the current user may execute the regular
// file p (mode is its mode), as execvp(3), bash and exec.LookPath decide:
// eaccess(p, X_OK). A file with an execute bit for others only is
// skipped there, and the search goes on to a later PATH entry: judging it
// would judge a file that never runs. Where the kernel cannot say (ENOSYS,
// or EPERM from a seccomp filter), any execute bit counts, as in
// exec.LookPath.
func executable(p string, mode fs.FileMode) bool {
	err := unix.Faccessat(unix.AT_FDCWD, p, unix.X_OK, unix.AT_EACCESS)
	if err == unix.ENOSYS || err == unix.EPERM {
		return mode.Perm()&0o111 != 0
	}
	return err == nil
}
