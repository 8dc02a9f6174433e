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

// linkCount returns the number of hard links of the file fi describes,
// 0 when unknown.
func linkCount(_ string, fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}

// normalize is the identity: on Unix a resolved path is already the one
// spelling of its location (case-insensitive volumes aside, see within).
func normalize(p string) string { return p }

// isLink reports whether an Lstat result is a symlink to follow.
func isLink(fi fs.FileInfo) bool { return fi.Mode()&fs.ModeSymlink != 0 }

// lstatKind is os.Lstat reduced to what resolve asks: is the path a
// directory, is it a link to follow. The Stat_t stays on the stack, and a
// missing path is the bare errno: os.Lstat allocates a FileInfo for every
// call and a PathError for every missing path.
func lstatKind(p string) (dir, link bool, err error) {
	var st syscall.Stat_t
	for {
		err = syscall.Lstat(p, &st)
		if err != syscall.EINTR {
			break
		}
	}
	switch {
	case err == syscall.ENOENT:
		return false, false, err
	case err != nil:
		return false, false, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	m := st.Mode & syscall.S_IFMT
	return m == syscall.S_IFDIR, m == syscall.S_IFLNK, nil
}
