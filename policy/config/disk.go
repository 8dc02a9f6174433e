package config

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gatekeep/gatekeep/policy"
)

// Disk is the real file system as the decision reads it (policy.Disk):
// the trees a recursive read walks, their ignore files, git's index.
// Build sets it in every Config.
type Disk struct{}

var _ policy.Disk = Disk{}

func (Disk) ReadDir(dir string) ([]fs.DirEntry, error)   { return os.ReadDir(dir) }
func (Disk) Stat(name string) (fs.FileInfo, error)       { return os.Stat(name) }
func (Disk) Lstat(name string) (fs.FileInfo, error)      { return os.Lstat(name) }
func (Disk) EvalSymlinks(name string) (string, error)    { return filepath.EvalSymlinks(name) }
func (Disk) TrackedPaths(gitDir string) ([]string, bool) { return TrackedPaths(gitDir) }

func (Disk) ReadFile(name string, max int64) ([]byte, error) {
	return policy.ReadRegular(name, max)
}
