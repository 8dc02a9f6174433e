//go:build windows

package cmd

import (
	"errors"
	"io"
	"os"
	"path/filepath"
)

var errChanged = errors.New("the path changed after it was checked; nothing was written")

var errNotRegular = errors.New("not a regular file")

func openNoFollow(real string) (*os.File, error) { return os.Open(real) }

// writeAtomic writes r to real through a temp file in the same directory
// and a rename.
func writeAtomic(real string, r io.Reader) (err error) {
	dir := filepath.Dir(real)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Lstat(real); err == nil {
		if fi.Mode()&os.ModeSymlink != 0 {
			return errChanged
		}
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(real)+".gatekeep-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = io.Copy(f, r); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	os.Chmod(f.Name(), mode)
	return os.Rename(f.Name(), real)
}
