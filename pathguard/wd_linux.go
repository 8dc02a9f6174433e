//go:build linux

package pathguard

import (
	"path"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// wdMax bounds the path linkFree builds on the stack.
const wdMax = 1024

// linkFree reports whether dir (absolute and clean) is its own real
// path: every component exists, the last is a directory, and none is a
// symlink. openat2(2) with RESOLVE_NO_SYMLINKS looks dir up the way
// resolve does, one component at a time through the mounts a lookup by
// path sees now, and fails at the first link (ELOOP) or missing
// component; when it succeeds, resolve's walk would find dir itself.
// Two system calls (the open and the close of an O_PATH descriptor)
// instead of one lstat per component.
//
// It is not getcwd(2): that spells the process's working directory as
// the mount it was entered on sees it, which a file system mounted over
// a parent later hides from lookups by path
// (TestWorkingDirCoveredByMount). A kernel without openat2 (before 5.6)
// or a seccomp filter that refuses it answers an error, and the caller
// looks dir up component by component.
func linkFree(dir string) bool {
	// The path NUL-terminated on the stack (unix.Openat2 would copy it
	// to the heap); a longer one is looked up component by component.
	var buf [wdMax]byte
	// Only a clean path: openat2 steps back through `..` as the kernel
	// does, where resolve, starting below dir, would take dir as it is.
	if len(dir) < 2 || dir[0] != '/' || len(dir) >= len(buf) || strings.IndexByte(dir, 0) >= 0 || path.Clean(dir) != dir {
		return false
	}
	copy(buf[:], dir)
	how := unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	lookups.Add(1)
	cwd := unix.AT_FDCWD
	for {
		fd, _, e := unix.Syscall6(unix.SYS_OPENAT2, uintptr(cwd), uintptr(unsafe.Pointer(&buf[0])),
			uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		switch e {
		case 0:
			unix.Close(int(fd))
			return true
		case unix.EINTR:
			continue
		}
		return false
	}
}
