package config

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gofrs/flock"
)

// RemoveStaleTemps removes the temp files WriteFileAtomic left beside path
// when a writer was killed between creating and renaming one. The caller
// holds the lock that serialises writers of path, so no live writer owns
// them.
func RemoveStaleTemps(path string) {
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+".tmp-"
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// NewLock is a lock on the file at path (gofrs/flock), created when
// missing and opened without blocking: a FIFO planted in its place (a
// repository can ship `.gatekeep/config.local.toml.lock`) cannot hang the
// writer.
func NewLock(path string) *flock.Flock {
	return flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDONLY|oNonblock))
}
