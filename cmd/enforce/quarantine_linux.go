package enforce

import (
	"fmt"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// QuarantineSuffix ends the name a quarantined entry is given: no program
// reads it under that name (`.vscode.gatekeep-quarantine`, `HEAD.…`), and
// nothing of it is lost.
const QuarantineSuffix = ".gatekeep-quarantine"

// Quarantine renames rel, a relative path beneath the anchor, to its name
// with QuarantineSuffix (and a number when that is taken) in the same
// directory, whatever it is: a file, a directory, a link (the link
// itself, never its target). Its directory is opened beneath the anchor
// with no symbolic link on the way, as RemoveFile's is, and the rename
// never replaces an entry (RENAME_NOREPLACE). It returns the new name.
func (a *Anchor) Quarantine(rel string) (string, error) {
	dir, name := filepath.Split(filepath.Clean(rel))
	if filepath.IsAbs(rel) || name == ".." || name == "." {
		return "", fmt.Errorf("%s: not beneath the project", rel)
	}
	if dir == "" {
		dir = "."
	}
	dfd, err := unix.Openat2(a.fd, dir, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: uint64(beneath),
	})
	if err != nil {
		return "", err
	}
	defer unix.Close(dfd)
	for i := 0; i < 100; i++ {
		to := name + QuarantineSuffix
		if i > 0 {
			to += "-" + strconv.Itoa(i)
		}
		err := unix.Renameat2(dfd, name, dfd, to, unix.RENAME_NOREPLACE)
		if err == unix.EEXIST {
			continue
		}
		if err != nil {
			return "", err
		}
		return filepath.Join(filepath.Dir(filepath.Clean(rel)), to), nil
	}
	return "", fmt.Errorf("%s: no free quarantine name", rel)
}

// FileID is what a directory entry is, beyond its name: its device,
// inode, type and birth time. An entry renamed keeps it; one made anew in
// its place does not, even when the file system hands it the inode number
// just freed (the birth time differs; where the file system keeps none it
// is zero, and only the inode tells).
type FileID struct {
	Dev, Ino uint64
	Mode     uint32
	Birth    int64 // nanoseconds, statx(2) STATX_BTIME
}

// IDOf returns the FileID of path (not following a final link).
func IDOf(path string) (FileID, bool) {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_TYPE|unix.STATX_INO|unix.STATX_BTIME, &st); err != nil {
		return FileID{}, false
	}
	id := FileID{Dev: unix.Mkdev(st.Dev_major, st.Dev_minor), Ino: st.Ino, Mode: uint32(st.Mode) & unix.S_IFMT}
	if st.Mask&unix.STATX_BTIME != 0 {
		id.Birth = st.Btime.Sec*1e9 + int64(st.Btime.Nsec)
	}
	return id, true
}
