//go:build unix

package pathguard

import (
	"io/fs"
	"syscall"
)

// statSlow is statAt through syscall's own path conversion.
func statSlow(dir, name string, follow bool) (fileStat, error) {
	p := dir
	if name != "" {
		p = joinName(dir, name)
	}
	var st syscall.Stat_t
	var err error
	for {
		if follow {
			err = syscall.Stat(p, &st)
		} else {
			err = syscall.Lstat(p, &st)
		}
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return fileStat{}, err
	}
	return fileStatOf(&st), nil
}

func fileStatOf(st *syscall.Stat_t) fileStat {
	var m fs.FileMode
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		m = fs.ModeDir
	case syscall.S_IFLNK:
		m = fs.ModeSymlink
	case syscall.S_IFBLK:
		m = fs.ModeDevice
	case syscall.S_IFCHR:
		m = fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFIFO:
		m = fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		m = fs.ModeSocket
	}
	if st.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if st.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if st.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return fileStat{mode: m | fs.FileMode(st.Mode&0o777), nlink: uint64(st.Nlink),
		id: fileID{dev: uint64(st.Dev), ino: uint64(st.Ino), size: int64(st.Size), mtime: mtime(st)}}
}
