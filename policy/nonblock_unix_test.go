//go:build unix

package policy

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// within fails the test when fn does not return in time: a blocking open
// of a FIFO would hang it forever.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still running after %v (a blocking open?)", what, d)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNoBlockingOpens: a FIFO with no writer in place of the git index
// or an ignore file read by a tree walk is refused or skipped at once,
// never waited on (package config's test covers config files and the
// trust store).
func TestNoBlockingOpens(t *testing.T) {
	t.Run("git index", func(t *testing.T) {
		v := newCfgEnv(t)
		v.write(filepath.Join(v.root, ".env"), "SECRET=1\n")
		mkfifo(t, filepath.Join(v.root, ".git", "index"))
		within(t, 5*time.Second, "git show", func() {
			if d := v.bash(v.config(v.load(), ModeDefault), "git show HEAD"); d.Effect == Allow {
				t.Errorf("git show with an unreadable index = %v", d)
			}
		})
	})
	t.Run("ignore files", func(t *testing.T) {
		for _, name := range []string{".ignore", ".gitignore", ".rgignore"} {
			v := newCfgEnv(t)
			v.write(filepath.Join(v.root, "src", "a.go"), "// TODO\n")
			mkfifo(t, filepath.Join(v.root, name))
			within(t, 5*time.Second, name, func() {
				v.bash(v.config(v.load(), ModeDefault), "rg TODO")
				v.bash(v.config(v.load(), ModeDefault), "grep -r TODO .")
			})
		}
	})
}
