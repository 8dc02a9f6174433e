package enforce

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ErrNotLink is RemoveLink's answer for an entry that is no symbolic link.
var ErrNotLink = fmt.Errorf("not a symbolic link")

// openParent opens, beneath the anchor and through no link, the
// directory holding rel, and returns it with rel's base name.
func (a *Anchor) openParent(rel string) (int, string, error) {
	dir, name := filepath.Split(filepath.Clean(rel))
	if filepath.IsAbs(rel) || name == ".." || name == "." {
		return -1, "", fmt.Errorf("%s: not beneath the anchor", rel)
	}
	if dir == "" {
		dir = "."
	}
	dfd, err := unix.Openat2(a.fd, dir, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: uint64(beneath),
	})
	return dfd, name, err
}

// RemoveLink removes the symbolic link at rel (beneath the anchor, no
// link on the way); anything else is left (ErrNotLink).
func (a *Anchor) RemoveLink(rel string) error {
	return a.removeIf(rel, func(m uint32) bool { return m == unix.S_IFLNK }, ErrNotLink)
}

// Unhead makes the directory at rel (beneath the anchor) no git
// directory: its HEAD is renamed to HEAD+QuarantineSuffix (git takes a
// directory for one only with a HEAD). A directory without a HEAD is
// left as it is.
func (a *Anchor) Unhead(rel string) error {
	dfd, err := unix.Openat2(a.fd, filepath.Clean(rel), &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: uint64(beneath),
	})
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	err = unix.Renameat2(dfd, "HEAD", dfd, "HEAD"+QuarantineSuffix, unix.RENAME_NOREPLACE)
	if err == unix.EEXIST {
		// A second quarantined HEAD: the first one stays, this one goes
		// under a free name.
		for i := 1; i < 100 && err == unix.EEXIST; i++ {
			err = unix.Renameat2(dfd, "HEAD", dfd, fmt.Sprintf("HEAD%s-%d", QuarantineSuffix, i), unix.RENAME_NOREPLACE)
		}
	}
	if err == unix.ENOENT {
		return nil
	}
	return err
}
