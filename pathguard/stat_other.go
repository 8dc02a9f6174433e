//go:build !unix

package pathguard

import "os"

// statAt is os.Stat (os.Lstat when !follow) of dir joined with name (name
// "" stats dir itself). nlink is the hard link count where the system
// reports it, else 0.
func statAt(dir, name string, follow bool) (fileStat, error) {
	lookups.Add(1)
	p := dir
	if name != "" {
		p = joinName(dir, name)
	}
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(p)
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{mode: fi.Mode(), nlink: linkCount(p, fi), id: fileID{size: fi.Size(), mtime: fi.ModTime().UnixNano()}}, nil
}
