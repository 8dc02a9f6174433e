//go:build windows

package confine

import "io/fs"

// dirStamp is what the tree index compares to tell a directory changed:
// its mtime in nanoseconds (no ctime or inode here; nothing is confined
// on Windows, so no sweep relies on it).
func dirStamp(fi fs.FileInfo) (mtime, ctime int64, ino, dev uint64) {
	return fi.ModTime().UnixNano(), 0, 0, 0
}

// searchable: never known here; the full check is made.
func searchable(fs.FileInfo) bool { return false }
