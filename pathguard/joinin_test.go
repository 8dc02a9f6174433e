package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestJoinIn: the shortcut that reuses the text of the path gives what
// join gives, whenever dest is or is not the text before the name.
func TestJoinIn(t *testing.T) {
	sep := string(filepath.Separator)
	for _, c := range []struct{ p, dest string }{
		{sep + "a" + sep + "b", sep + "a"},
		{sep + "a", sep},
		{sep + "a" + sep + sep + "b", sep + "a"},
		{sep + "a" + sep + "." + sep + "b", sep + "a"},
		{sep + "x" + sep + "b", sep + "y"},
		{sep + "ab" + sep + "b", sep + "a"},
		{sep + "a" + sep + "b", sep + "a" + sep + "z"},
	} {
		end := len(c.p)
		start := end - 1
		name := c.p[start:end]
		if got, want := joinIn(c.p, start, end, c.dest, name), join(c.dest, name); got != want {
			t.Errorf("joinIn(%q, %q, %q) = %q, want %q", c.p, c.dest, name, got, want)
		}
	}
	p := sep + "a" + sep + "b"
	var out string
	if n := testing.AllocsPerRun(10, func() { out = joinIn(p, 3, 4, p[:2], "b") }); n != 0 || out != p {
		t.Errorf("joinIn of a path's own prefix allocates %v times", n)
	}
}

// TestLstatKind: lstatKind tells directories, links and missing paths as
// os.Lstat does.
func TestLstatKind(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("x", filepath.Join(dir, "l")); err != nil {
		t.Skip(err)
	}
	for _, name := range []string{"", "l", "missing"} {
		p := filepath.Join(dir, name)
		isDir, link, err := lstatKind(p)
		fi, osErr := os.Lstat(p)
		if (err == nil) != (osErr == nil) || errors.Is(err, fs.ErrNotExist) != errors.Is(osErr, fs.ErrNotExist) {
			t.Fatalf("%s: err %v, os.Lstat %v", name, err, osErr)
		}
		if err == nil && (isDir != fi.IsDir() || link != isLink(fi)) {
			t.Errorf("%s: dir %v link %v, os.Lstat says %v", name, isDir, link, fi.Mode())
		}
	}
}
