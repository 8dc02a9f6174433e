//go:build linux

package pathguard

import "golang.org/x/sys/unix"

// wdMax bounds the working directory's path read on the stack: a longer
// one is looked up component by component.
const wdMax = 1024

// isWd reports whether dir is, byte for byte, what getcwd(2) answers for
// the process's working directory. Linux builds that answer from the
// directory up to the root through its parents (d_path), with the names
// they hold now, none of them a symlink: a path it answers names that
// directory as resolve would find it. A working directory that was
// removed answers ENOENT, one outside the process's root
// "(unreachable)…", one that was renamed (or a parent of it) its new
// name, one entered through a symlink the link's target: none of them is
// dir, and the caller looks dir up component by component.
//
// (What getcwd cannot tell: a file system mounted over the directory or
// a parent after the process entered it, which lookups by path would
// then see. Only a process that outlives such a mount could meet it:
// gatekeep decides each call in a process of its own, and `check
// --batch` runs nothing.)
func isWd(dir string) bool {
	if len(dir) < 2 || len(dir)+1 > wdMax {
		return false
	}
	lookups.Add(1)
	var buf [wdMax]byte
	n, err := unix.Getcwd(buf[:])
	// n counts the terminating NUL.
	return err == nil && n == len(dir)+1 && buf[n-1] == 0 && string(buf[:n-1]) == dir
}
