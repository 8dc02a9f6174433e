//go:build !windows

package confine

import (
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// dirStamp is what the tree index compares to tell a directory changed:
// its mtime and ctime in nanoseconds, inode and device (lstat(2)). The
// ctime is there because a program can set the mtime back (utimensat(2):
// `touch -d`, `tar x`, `cp -p`) after adding an entry, and cannot set the
// ctime.
func dirStamp(fi fs.FileInfo) (mtime, ctime int64, ino, dev uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fi.ModTime().UnixNano(), 0, 0, 0
	}
	return fi.ModTime().UnixNano(), statCtime(st), uint64(st.Ino), uint64(st.Dev)
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
