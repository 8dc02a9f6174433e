package cmd

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
)

// maxIndexSize bounds the git index read to decide trust (64 MiB).
const maxIndexSize = 64 << 20

// indexShowsUntracked reports whether the git directory gitDir positively
// shows path (slash-separated, relative to the work tree) as not tracked:
// gitDir is a real directory (not a `gitdir:` file or a link) whose index
// is a version 2 or 3 index, without a split index or sparse directories,
// whose entries do not include path (gitformat-index(5)). Anything else — index version 4 with its compressed
// paths, an extension it does not know to be harmless, a read error — is no
// proof, and the answer is false.
func indexShowsUntracked(gitDir, path string) bool {
	fi, err := os.Lstat(gitDir)
	if err != nil || !fi.IsDir() {
		return false
	}
	// No index is no proof: an empty .git shipped in a tarball, or `git
	// init` run over unpacked files, has none either.
	f, err := os.Open(filepath.Join(gitDir, "index"))
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxIndexSize {
		return false
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return false
	}
	found, ok := indexHasPath(data, path)
	return ok && !found
}

// indexHasPath looks for path among the entries of a version 2 or 3 git
// index. ok is false when the index cannot be read with certainty.
func indexHasPath(data []byte, path string) (found, ok bool) {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return false, false
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version != 2 && version != 3 {
		return false, false
	}
	n := binary.BigEndian.Uint32(data[8:12])
	end := len(data) - 20 // the trailing checksum
	off := 12
	want := []byte(path)
	for i := uint32(0); i < n; i++ {
		start := off
		off += 62 // ctime, mtime, dev, ino, mode, uid, gid, size, sha-1, flags
		if off > end {
			return false, false
		}
		flags := binary.BigEndian.Uint16(data[off-2 : off])
		if flags&0x4000 != 0 { // extended flags (version 3)
			off += 2
		}
		nul := bytes.IndexByte(data[off:end], 0)
		if nul < 0 {
			return false, false
		}
		if bytes.Equal(data[off:off+nul], want) {
			found = true
		}
		off += nul + 1
		// Entries are padded with NULs to a multiple of 8 bytes.
		for (off-start)%8 != 0 {
			off++
		}
	}
	// Extensions: a split index ("link") keeps entries elsewhere, and
	// sparse directory entries ("sdir") stand for whole trees.
	for off+8 <= end {
		sig := string(data[off : off+4])
		size := int(binary.BigEndian.Uint32(data[off+4 : off+8]))
		if sig == "link" || sig == "sdir" || size < 0 || off+8+size > end {
			return false, false
		}
		off += 8 + size
	}
	return found, true
}
