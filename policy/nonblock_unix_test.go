//go:build unix

package policy

import (
	"os"
	"os/exec"
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

// TestTrustReadsNoIndex: with a local config file in a git work tree (a
// real index), loading the config and deciding `ls` read no git index:
// trust comes from the trust store alone.
func TestTrustReadsNoIndex(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is needed")
		}
		t.Skip("needs git")
	}
	v := newCfgEnv(t)
	os.RemoveAll(filepath.Join(v.root, ".git"))
	v.write(filepath.Join(v.root, "a.txt"), "a\n")
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt"}} {
		c := exec.Command("git", append([]string{"-C", v.root}, args...)...)
		c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	v.write(v.localFile(), "[[rule]]\nallow = \"Bash(make *)\"\n")
	before := indexReads.Load()
	l := v.load()
	cfg := v.config(l, ModeDefault)
	for _, cmd := range []string{"ls", "make all", "cat a.txt"} {
		if d := v.bash(cfg, cmd); d.Effect != Allow {
			t.Errorf("%s = %v", cmd, d)
		}
	}
	if n := indexReads.Load() - before; n != 0 {
		t.Errorf("%d reads of the git index", n)
	}
	// The seam counts: a whole-tree git read does read it.
	v.bash(cfg, "git show HEAD")
	if indexReads.Load() == before {
		t.Error("git show HEAD read no index: the counter is broken")
	}
}
