//go:build windows

package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

var (
	systemTempDirs    []string
	managedConfigDirs []string
)

// linkCount returns the number of hard links of path, 0 when unknown.
// Windows' FileInfo does not carry it; GetFileInformationByHandle does
// (opened as os.SameFile does: no access rights, backup semantics).
func linkCount(path string, _ fs.FileInfo) uint64 {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return 0
	}
	h, err := syscall.CreateFile(p, 0, syscall.FILE_SHARE_READ|syscall.FILE_SHARE_WRITE|syscall.FILE_SHARE_DELETE,
		nil, syscall.OPEN_EXISTING, syscall.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return 0
	}
	defer syscall.CloseHandle(h)
	var d syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(h, &d); err != nil {
		return 0
	}
	return uint64(d.NumberOfLinks)
}

// normalize gives the existing part of a resolved path the spelling
// filepath.EvalSymlinks gives it (drive letter, case, long names), so that
// roots and paths compare byte for byte; the missing tail is kept as is.
func normalize(p string) string {
	existing, tail := p, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return p
		}
		up := filepath.Dir(existing)
		if up == existing {
			return p
		}
		tail = filepath.Join(filepath.Base(existing), tail)
		existing = up
	}
	n, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return p
	}
	return filepath.Join(n, tail)
}

// isLink reports whether an Lstat result is a link to follow: a symlink,
// or (since Go 1.23, winsymlink=1) a name-surrogate reparse point such as
// a junction, which Lstat reports as ModeIrregular and which
// filepath.EvalSymlinks no longer follows. os.Readlink reads junctions; for
// any other irregular reparse point it fails, and the path is unresolvable
// (fail closed) rather than judged at the link's own location.
func isLink(fi fs.FileInfo) bool { return fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 }

// executable reports whether a file of this mode may be executed: any
// execute bit (no user-specific check here).
func executable(_ string, mode fs.FileMode) bool { return mode.Perm()&0o111 != 0 }
