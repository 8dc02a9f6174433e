package config

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/gatekeep/gatekeep/policy"
)

// maxIndexSize bounds the git index read (64 MiB).
const maxIndexSize = 64 << 20

// indexReads counts the attempts to read a git index, for the tests that
// show a call does not read it (trust never does).
var indexReads atomic.Int64

// readIndex reads the index of gitDir (a real directory), or reports false.
func readIndex(gitDir string) ([]byte, bool) {
	fi, err := os.Lstat(gitDir)
	if err != nil || !fi.IsDir() {
		return nil, false
	}
	indexReads.Add(1)
	f, err := policy.OpenRegular(filepath.Join(gitDir, "index"))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() > maxIndexSize {
		return nil, false
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, false
	}
	return data, true
}

// TrackedPaths lists the paths (slash-separated, relative to the work
// tree) in the index of gitDir; ok is false when the index cannot be read
// with certainty: gitDir is not a real directory (a `gitdir:` file, a
// link), the index is not a regular file, is version 4 with its
// compressed paths, or has an extension not known to be harmless (a split
// index, sparse directories) — gitformat-index(5).
func TrackedPaths(gitDir string) (paths []string, ok bool) {
	data, ok := readIndex(gitDir)
	if !ok {
		return nil, false
	}
	ok = scanIndex(data, func(p []byte) { paths = append(paths, string(p)) })
	return paths, ok
}

// scanIndex calls fn with the path of every entry of a version 2 or 3 git
// index, and reports whether the index could be read with certainty.
func scanIndex(data []byte, fn func(path []byte)) bool {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return false
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version != 2 && version != 3 {
		return false
	}
	n := binary.BigEndian.Uint32(data[8:12])
	end := len(data) - 20 // the trailing checksum
	off := 12
	for i := uint32(0); i < n; i++ {
		start := off
		off += 62 // ctime, mtime, dev, ino, mode, uid, gid, size, sha-1, flags
		if off > end {
			return false
		}
		flags := binary.BigEndian.Uint16(data[off-2 : off])
		if flags&0x4000 != 0 { // extended flags (version 3)
			off += 2
		}
		nul := bytes.IndexByte(data[off:end], 0)
		if nul < 0 {
			return false
		}
		fn(data[off : off+nul])
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
			return false
		}
		off += 8 + size
	}
	return true
}
