//go:build unix

package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gatekeep/gatekeep/policy"
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

// TestNoBlockingOpens: a FIFO with no writer in place of a config file or
// the trust store is refused at once, never waited on.
func TestNoBlockingOpens(t *testing.T) {
	t.Run("config file", func(t *testing.T) {
		for _, src := range []string{policy.SourceManaged, policy.SourceUser, policy.SourceProject, policy.SourceLocal} {
			v := newCfgEnv(t)
			mkfifo(t, v.file(src))
			within(t, 5*time.Second, src, func() {
				_, err := Load(v.opts())
				if got := ConfigErrors(err); len(got) != 1 || !strings.Contains(got[0].Msg, "not a regular file") {
					t.Errorf("%s: err = %v", src, err)
				}
			})
		}
	})
	t.Run("trust store", func(t *testing.T) {
		v := newCfgEnv(t)
		v.write(v.projectFile(), "[[rule]]\nallow = \"Bash(make *)\"\n")
		mkfifo(t, v.paths.Trust)
		within(t, 5*time.Second, "load", func() {
			l := v.load()
			if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "cannot be read") || l.Files[2].Trusted {
				t.Errorf("warnings %q, project file %+v", l.Warnings, l.Files[2])
			}
		})
		within(t, 5*time.Second, "trust", func() {
			if _, err := (TrustStore{Path: v.paths.Trust}).Trust(v.projectFile()); err == nil {
				t.Error("trust over a FIFO store succeeded")
			}
		})
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
	cfg := v.config(l, policy.ModeDefault)
	for _, cmd := range []string{"ls", "make all", "cat a.txt"} {
		if d := v.bash(cfg, cmd); d.Effect != policy.Allow {
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
