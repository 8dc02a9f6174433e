package pathguard

import (
	"io/fs"
	"path/filepath"
)

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
