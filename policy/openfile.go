package policy

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is returned by OpenRegular for a FIFO, a device, a socket
// or a directory: reading one could block forever or never end.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens path for reading without blocking: with O_NONBLOCK, so
// that a FIFO with no writer cannot hang the call, and then refuses
// (ErrNotRegular) anything but a regular file. Symlinks are followed. Every
// file gatekeep reads on its own account (config, trust store, git index,
// ignore files, batch input) is opened this way.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return f, nil
}

// ReadRegular reads a regular file of at most max bytes (see OpenRegular).
// A missing file is an error matching fs.ErrNotExist; a larger one is an
// error too.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is over the %d-byte limit", path, max)
	}
	return b, nil
}
