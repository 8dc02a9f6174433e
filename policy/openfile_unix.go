//go:build unix

package policy

import (
	"io"
	"os"
	"syscall"
)

const oNonblock = syscall.O_NONBLOCK

// readRegular reads path (see ReadRegular), up to limit+1 bytes, as
// OpenRegular opens it but without an *os.File: on Linux the runtime
// offers each file os.OpenFile opens to its poller, so the first one
// costs a process epoll_create1, eventfd2 and an epoll_ctl (which the
// kernel refuses for a regular file), and each later one an epoll_ctl.
// The errors are the *os.PathError values os.File gives.
func readRegular(path string, limit int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return readAllFrom(fdReader{fd, path}, st.Size, limit)
}

// fdReader reads a regular file's descriptor (which never blocks).
type fdReader struct {
	fd   int
	path string
}

func (r fdReader) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(r.fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: r.path, Err: err}
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
