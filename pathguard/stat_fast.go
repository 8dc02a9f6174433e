//go:build linux && (amd64 || arm64)

package pathguard

import (
	"syscall"
	"unsafe"
)

// statPathMax is the longest path statAt builds on the stack; a longer one
// goes through syscall's own conversion (one allocation).
const statPathMax = 1024

// statAt is stat(2) (lstat(2) when !follow) of dir joined with name (name
// "" stats dir itself; name is one path component, dir a clean path, as
// filepath.Join would join them). The path is built NUL-terminated in a
// stack buffer and handed to fstatat(2) directly: syscall.Stat and os.Stat
// copy every path into a fresh heap slice, and os.Stat adds a FileInfo,
// which was the largest share of a decision's allocations. A missing path
// is the bare errno.
func statAt(dir, name string, follow bool) (fileStat, error) {
	lookups.Add(1)
	var buf [statPathMax]byte
	n := copy(buf[:], dir)
	if name != "" {
		if n == 0 || buf[n-1] != '/' {
			if n < len(buf) {
				buf[n] = '/'
			}
			n++
		}
		if n < len(buf) {
			n += copy(buf[n:], name)
		} else {
			n += len(name)
		}
	}
	if n >= len(buf) || hasNUL(buf[:n]) {
		return statSlow(dir, name, follow)
	}
	buf[n] = 0
	flags := 0
	if !follow {
		flags = _AT_SYMLINK_NOFOLLOW
	}
	var st syscall.Stat_t
	for {
		fd := _AT_FDCWD
		_, _, e := syscall.Syscall6(sysFstatat, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&st)), uintptr(flags), 0, 0)
		switch e {
		case 0:
			return fileStatOf(&st), nil
		case syscall.EINTR:
			continue
		}
		return fileStat{}, e
	}
}

const (
	_AT_FDCWD            = -0x64
	_AT_SYMLINK_NOFOLLOW = 0x100
)

func hasNUL(b []byte) bool {
	for _, c := range b {
		if c == 0 {
			return true
		}
	}
	return false
}
