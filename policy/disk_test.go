package policy

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// mapDisk is a Disk held in memory: files under absolute paths (made
// relative to "/" for fstest.MapFS), and git indexes by git dir.
type mapDisk struct {
	fs      fstest.MapFS
	tracked map[string][]string
	reads   *int // TrackedPaths calls
}

func (d mapDisk) rel(name string) string {
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(name)), "/")
}
func (d mapDisk) ReadDir(dir string) ([]fs.DirEntry, error) { return fs.ReadDir(d.fs, d.rel(dir)) }
func (d mapDisk) Stat(name string) (fs.FileInfo, error)     { return fs.Stat(d.fs, d.rel(name)) }
func (d mapDisk) Lstat(name string) (fs.FileInfo, error)    { return fs.Stat(d.fs, d.rel(name)) }
func (d mapDisk) EvalSymlinks(name string) (string, error)  { return name, nil }
func (d mapDisk) ReadFile(name string, max int64) ([]byte, error) {
	b, err := fs.ReadFile(d.fs, d.rel(name))
	if err == nil && int64(len(b)) > max {
		return nil, errors.New("too large")
	}
	return b, err
}
func (d mapDisk) TrackedPaths(gitDir string) ([]string, bool) {
	*d.reads++
	p, ok := d.tracked[gitDir]
	return p, ok
}

// TestDiskSeam: the trees a recursive read walks and git's index are read
// through Config.Disk, so a tree held in memory is judged like one on disk
// (the default rules deny reading .env), and with no Disk such reads are
// not known and ask.
func TestDiskSeam(t *testing.T) {
	v := newCfgEnv(t)
	cfg := v.config(v.load(), ModeDefault)
	reads := 0
	rel := strings.TrimPrefix(filepath.ToSlash(v.root), "/")
	disk := mapDisk{fs: fstest.MapFS{
		rel + "/.git/index":     {Data: []byte("DIRC")},
		rel + "/src/a.go":       {Data: []byte("package a\n")},
		rel + "/src/deep/.env":  {Data: []byte("SECRET=1\n")},
		rel + "/docs/readme.md": {Data: []byte("hello\n")},
	}, tracked: map[string][]string{filepath.Join(v.root, ".git"): {"docs/readme.md", "conf/.env"}}, reads: &reads}
	cases := []struct {
		cmd       string
		disk, nil Effect
	}{
		{"grep -r SECRET src", Deny, Ask},
		{"grep -r hello docs", Allow, Ask},
		{"git grep hello", Deny, Ask},
		{"ls", Allow, Allow},
	}
	for _, c := range cases {
		cfg.Disk = disk
		if d := v.bash(cfg, c.cmd); d.Effect != c.disk {
			t.Errorf("%s with the tree in memory = %v, want %v", c.cmd, d, c.disk)
		}
		cfg.Disk = nil
		if d := v.bash(cfg, c.cmd); d.Effect != c.nil {
			t.Errorf("%s with no disk = %v, want %v", c.cmd, d, c.nil)
		}
	}
	if reads == 0 {
		t.Error("git grep read no index through the seam")
	}
}
