package confine

import (
	"errors"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestUsedCaches: a default cache is made writable (and created) only
// when it exists already or one of its tools is on PATH, so enforcing a
// call creates no ~/.npm or ~/.cargo for a user without npm or cargo.
func TestUsedCaches(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	onPath := map[string]bool{"go": true}
	lookPath := func(name string) (string, error) {
		if onPath[name] {
			return "/usr/bin/" + name, nil
		}
		return "", errors.New("not found")
	}
	npm := filepath.Join(home, ".npm")
	got := usedCaches(cmdmodel.ToolCaches(getenv, home), lookPath)
	want := []string{filepath.Join(home, ".cache", "go-build"), filepath.Join(home, "go", "pkg", "mod")}
	if !slices.Equal(got, want) {
		t.Fatalf("with only go on PATH: %q, want %q", got, want)
	}
	// A cache that exists is the person's: writable whatever is on PATH.
	if err := os.MkdirAll(npm, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := usedCaches(cmdmodel.ToolCaches(getenv, home), lookPath); !slices.Contains(got, npm) {
		t.Errorf("an existing ~/.npm is left out: %q", got)
	}
	onPath["uv"] = true
	if got := usedCaches(cmdmodel.ToolCaches(getenv, home), lookPath); !slices.Contains(got, filepath.Join(home, ".cache", "uv")) {
		t.Errorf("uv on PATH, its cache left out: %q", got)
	}
}
