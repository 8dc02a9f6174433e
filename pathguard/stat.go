package pathguard

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
)

// lookups counts the lookups the package asks of the file system.
var lookups atomic.Uint64

// Lookups returns how many file-system lookups (stat, lstat, readlink,
// openat2) the package has made in this process. What one decision costs
// is mostly these system calls (about 1-2 µs each, more than the rest of
// a simple decision), so a test pins a decision's budget by reading
// Lookups before and after it.
func Lookups() uint64 { return lookups.Load() }

// readlink is os.Readlink, counted.
func readlink(p string) (string, error) {
	lookups.Add(1)
	return os.Readlink(p)
}

// fileStat is what the guard asks of a stat: the file's type and
// permission bits, and its hard link count (0 where unknown).
type fileStat struct {
	mode  fs.FileMode
	nlink uint64
	id    fileID
}

// fileID tells one version of a file from another: its device and inode
// (0 where unknown), size and modification time in nanoseconds.
type fileID struct {
	dev, ino uint64
	size     int64
	mtime    int64
}

func (s fileStat) isDir() bool { return s.mode.IsDir() }

// joinName is filepath.Join(dir, name) for a clean dir and one name.
func joinName(dir, name string) string { return filepath.Join(dir, name) }

// Mode returns the type and permission bits of the file at p, symlinks
// followed, without allocating where the system allows (Linux): for the
// checks a decision makes on every path (is this a block device).
func Mode(p string) (fs.FileMode, error) {
	return ModeAt(p, "")
}

// ModeAt is Mode of dir joined with rel (a relative path without ".."),
// without building the joined string.
func ModeAt(dir, rel string) (fs.FileMode, error) {
	st, err := statAt(dir, rel, true)
	return st.mode, err
}
