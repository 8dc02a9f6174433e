package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// indexShowsUntracked: the index of gitDir is read with certainty and does
// not hold path.
func indexShowsUntracked(gitDir, path string) bool {
	paths, ok := TrackedPaths(gitDir)
	return ok && !slices.Contains(paths, path)
}

// TestTrackedPathsCertainty reads real git indexes: only a readable version
// 2 or 3 index is read with certainty; every other case is no answer.
func TestTrackedPathsCertainty(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git to build the indexes")
	}
	const local = ".gatekeep/config.local.toml"
	git := func(t *testing.T, dir string, args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	repo := func(t *testing.T, setup ...[]string) string {
		dir := t.TempDir()
		git(t, dir, "init", "-q")
		os.MkdirAll(filepath.Join(dir, ".gatekeep"), 0o755)
		os.WriteFile(filepath.Join(dir, local), []byte("[[rule]]\n"), 0o600)
		os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
		for _, args := range setup {
			git(t, dir, args...)
		}
		return dir
	}
	for _, tt := range []struct {
		name  string
		setup [][]string
		want  bool
	}{
		{"no index yet", nil, false},
		{"other files tracked", [][]string{{"add", "a.txt"}}, true},
		{"tracked", [][]string{{"add", "a.txt", local}}, false},
		{"tracked and committed", [][]string{{"add", "a.txt", local}, {"commit", "-qm", "x"}}, false},
		{"index version 3 untracked", [][]string{{"add", "a.txt"}, {"update-index", "--index-version", "3"}}, true},
		{"index version 4", [][]string{{"add", "a.txt"}, {"update-index", "--index-version", "4"}}, false},
		{"split index", [][]string{{"add", "a.txt"}, {"update-index", "--split-index"}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := repo(t, tt.setup...)
			if got := indexShowsUntracked(filepath.Join(dir, ".git"), local); got != tt.want {
				t.Errorf("indexShowsUntracked = %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("no git dir", func(t *testing.T) {
		if indexShowsUntracked(filepath.Join(t.TempDir(), ".git"), local) {
			t.Error("without a git dir nothing is proven")
		}
	})
	t.Run("gitdir file", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: /elsewhere\n"), 0o644)
		if indexShowsUntracked(filepath.Join(dir, ".git"), local) {
			t.Error("a gitdir file proves nothing")
		}
	})
	t.Run("garbage index", func(t *testing.T) {
		dir := repo(t, []string{"add", "a.txt"})
		os.WriteFile(filepath.Join(dir, ".git", "index"), []byte("DIRC\x00\x00\x00\x02\xff\xff\xff\xffjunk"), 0o644)
		if indexShowsUntracked(filepath.Join(dir, ".git"), local) {
			t.Error("a corrupt index proves nothing")
		}
	})
}
