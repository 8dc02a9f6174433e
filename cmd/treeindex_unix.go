//go:build !windows

package cmd

import (
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// dirStamp is what the tree index compares to tell a directory changed:
// its mtime in nanoseconds, inode and device (lstat(2)).
func dirStamp(fi fs.FileInfo) (mtime int64, ino, dev uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fi.ModTime().UnixNano(), 0, 0
	}
	return fi.ModTime().UnixNano(), uint64(st.Ino), uint64(st.Dev)
}

// searchable reports whether this process can surely look up names in
// the directory: it owns it and its owner may search it (an ACL cannot
// take that from the owner). Anything else is left to the full check.
func searchable(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == euid() && fi.Mode().Perm()&0o100 != 0
}

// euid is this process's effective uid, asked once.
var euid = sync.OnceValue(os.Geteuid)
