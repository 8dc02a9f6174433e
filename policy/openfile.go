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
	b, err := readRegular(path, max)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is over the %d-byte limit", path, max)
	}
	return b, nil
}

// ReadOpened reads f, a file OpenRegular opened, to its end or to max+1
// bytes (so that a caller can tell a file over max from one of max).
func ReadOpened(f *os.File, max int64) ([]byte, error) {
	size := int64(512)
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	return readAllFrom(f, size, max)
}

// readAllFrom reads r to its end, or to limit+1 bytes, into a buffer sized
// from the file's size (as os.ReadFile does): one allocation where
// io.ReadAll grows from 512 bytes, copying as it goes.
func readAllFrom(r io.Reader, size, limit int64) ([]byte, error) {
	b := make([]byte, 0, min(max(size, 0), limit)+1)
	for int64(len(b)) <= limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew
		}
		n, err := r.Read(b[len(b):int(min(int64(cap(b)), limit+1))])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}
