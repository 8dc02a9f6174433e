//go:build unix

package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// TestReadRegular: the bytes os.ReadFile reads, for sizes around the
// limit and a file the size of which is not known (/proc); a FIFO with no
// writer, a dir and a device refused at once with ErrNotRegular, a
// missing file fs.ErrNotExist, a larger one an error.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	const limit = 4096
	for _, n := range []int{0, 1, 511, 512, 513, limit - 1, limit} {
		p := filepath.Join(dir, fmt.Sprint("f", n))
		want := bytes.Repeat([]byte{'x'}, n)
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadRegular(p, limit)
		if err != nil || !bytes.Equal(got, want) || got == nil {
			t.Errorf("ReadRegular(%d bytes) = %d bytes, %v", n, len(got), err)
		}
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, limit+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRegular(big, limit); err == nil || !strings.Contains(err.Error(), "over the 4096-byte limit") {
		t.Errorf("ReadRegular(limit+1 bytes) = %v", err)
	}
	if want, err := os.ReadFile("/proc/self/mounts"); err == nil { // size 0 in stat
		if got, err := ReadRegular("/proc/self/mounts", 1<<20); err != nil || len(got) < 2 || !bytes.Equal(got, want) {
			t.Errorf("ReadRegular(/proc/self/mounts) = %q, %v", got, err)
		}
	}
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
	for _, p := range []string{fifo, dir, "/dev/null"} {
		within(t, 5*time.Second, p, func() {
			if _, err := ReadRegular(p, limit); !errors.Is(err, ErrNotRegular) {
				t.Errorf("ReadRegular(%s) = %v, want ErrNotRegular", p, err)
			}
		})
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing"), limit); !errors.Is(err, fs.ErrNotExist) ||
		err.Error() != "open "+filepath.Join(dir, "missing")+": no such file or directory" {
		t.Errorf("ReadRegular(missing) = %v", err)
	}
}
