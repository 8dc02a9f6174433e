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
