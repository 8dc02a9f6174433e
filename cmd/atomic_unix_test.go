//go:build !windows

package cmd

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failingReader yields some bytes, then fails, like a stdin that breaks.
type failingReader struct{ r io.Reader }

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, errors.New("broken pipe")
	}
	return n, err
}

// TestWriteAtomicFailureKeepsOldFile: a write that fails midway (its input
// breaks, or the directory is read-only) leaves the old file whole, with
// its mode, and no temp file behind.
func TestWriteAtomicFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	real, _ := filepath.EvalSymlinks(dir)
	target := filepath.Join(real, "notes.txt")
	if err := os.WriteFile(target, []byte("old content\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	err := writeAtomic(target, &failingReader{strings.NewReader(strings.Repeat("new ", 10000))})
	if err == nil {
		t.Fatal("a broken input must fail the write")
	}
	assertOld := func() {
		t.Helper()
		got, _ := os.ReadFile(target)
		fi, _ := os.Stat(target)
		if string(got) != "old content\n" || fi.Mode().Perm() != 0o640 {
			t.Errorf("old file changed: %q %v", got, fi.Mode())
		}
		entries, _ := os.ReadDir(real)
		if len(entries) != 1 {
			t.Errorf("left behind: %v", entries)
		}
	}
	assertOld()

	if os.Geteuid() != 0 { // root writes into read-only directories
		os.Chmod(real, 0o555)
		defer os.Chmod(real, 0o755)
		if err := writeAtomic(target, strings.NewReader("new\n")); err == nil {
			t.Error("writing into a read-only directory must fail")
		}
		assertOld()
	}

	if err := writeAtomic(target, strings.NewReader("new\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new\n" {
		t.Errorf("after a good write: %q", got)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("the mode changed to %v", fi.Mode())
	}
}
