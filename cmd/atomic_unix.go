//go:build !windows

package cmd

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// errChanged: the path changed between the check and the write (a
// component became a symlink), so nothing was written.
var errChanged = errors.New("the path changed after it was checked (a symlink appeared); nothing was written")

// errNotRegular: the file tools read and replace regular files only.
var errNotRegular = errors.New("not a regular file")

// openDir opens the directory at the absolute path dir one component at a
// time without following symlinks, so the directory used is the one that
// was checked. With create, missing components are made (mode 0755).
func openDir(dir string, create bool) (int, error) {
	fd, err := unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	for _, comp := range strings.Split(strings.Trim(filepath.Clean(dir), "/"), "/") {
		if comp == "" {
			continue
		}
		next, err := unix.Openat(fd, comp, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ENOENT) && create {
			if err = unix.Mkdirat(fd, comp, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
				unix.Close(fd)
				return -1, &os.PathError{Op: "mkdir", Path: dir, Err: err}
			}
			next, err = unix.Openat(fd, comp, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		}
		unix.Close(fd)
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return -1, errChanged
		}
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: dir, Err: err}
		}
		fd = next
	}
	return fd, nil
}

// openNoFollow opens the file at the real path that was checked for
// reading, following no symlink on the way.
func openNoFollow(real string) (*os.File, error) {
	dfd, err := openDir(filepath.Dir(real), false)
	if err != nil {
		return nil, err
	}
	defer unix.Close(dfd)
	// O_NONBLOCK: opening a FIFO must not wait for a writer; only regular
	// files are read.
	fd, err := unix.Openat(dfd, filepath.Base(real), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if errors.Is(err, unix.ELOOP) {
		return nil, errChanged
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: real, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, &os.PathError{Op: "open", Path: real, Err: errNotRegular}
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "open", Path: real, Err: err}
	}
	return os.NewFile(uintptr(fd), real), nil
}

// writeAtomic writes r to the real path: a temp file in the same directory,
// fsync, then rename over the target, so a reader sees the old file or the
// new one and a failure midway leaves the old file intact. An existing file
// keeps its mode; a new one gets 0644 less the umask.
func writeAtomic(real string, r io.Reader) (err error) {
	dfd, err := openDir(filepath.Dir(real), true)
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	name := filepath.Base(real)
	mode := uint32(0o644)
	var st unix.Stat_t
	switch serr := unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); {
	case serr == nil && uint32(st.Mode)&unix.S_IFMT == unix.S_IFLNK:
		return errChanged
	case serr == nil && uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG:
		return &os.PathError{Op: "write", Path: real, Err: errors.New("not a regular file")}
	case serr == nil:
		mode = uint32(st.Mode & 0o7777)
	}
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := fmt.Sprintf(".%s.gatekeep-%s", name, hex.EncodeToString(rnd[:]))
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, mode)
	if err != nil {
		return &os.PathError{Op: "create", Path: filepath.Join(filepath.Dir(real), tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), tmp)
	defer func() {
		if err != nil {
			f.Close()
			unix.Unlinkat(dfd, tmp, 0)
		}
	}()
	if _, err = io.Copy(f, r); err != nil {
		return err
	}
	if err = unix.Fchmod(fd, mode); err != nil { // exact mode, umask aside, for an existing file
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = unix.Renameat(dfd, tmp, dfd, name); err != nil {
		return &os.PathError{Op: "rename", Path: real, Err: err}
	}
	unix.Fsync(dfd)
	return nil
}
