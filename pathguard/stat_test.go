package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestStatAt: statAt of dir and name tells what os.Stat and os.Lstat of
// filepath.Join(dir, name) tell (type, permissions, missing) and the hard link count,
// for files, dirs, links, dangling links, a path through a file, a path
// longer than the stack buffer and a NUL; on Linux it allocates nothing.
func TestStatAt(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o640))
	must(os.Link(filepath.Join(dir, "f"), filepath.Join(dir, "f2")))
	must(os.Mkdir(filepath.Join(dir, "d"), 0o755))
	links := runtime.GOOS != "windows"
	if links {
		must(os.Symlink("d", filepath.Join(dir, "ld")))
		must(os.Symlink("nowhere", filepath.Join(dir, "dangling")))
	}
	long := dir
	for len(long) < 1100 {
		long = filepath.Join(long, strings.Repeat("a", 200))
		must(os.Mkdir(long, 0o755))
	}
	cases := []struct{ dir, name string }{
		{dir, ""}, {dir, "f"}, {dir, "f2"}, {dir, "d"}, {dir, "ld"}, {dir, "dangling"},
		{dir, "missing"}, {filepath.Join(dir, "f"), "x"}, {long, ""}, {long, "x"},
		{filepath.Dir(long), filepath.Base(long)}, {dir, "a\x00b"}, {"/", ""}, {"/", "tmp"},
	}
	for _, c := range cases {
		p := c.dir
		if c.name != "" {
			p = filepath.Join(c.dir, c.name)
		}
		for _, follow := range []bool{true, false} {
			st, err := statAt(c.dir, c.name, follow)
			stat := os.Lstat
			if follow {
				stat = os.Stat
			}
			fi, osErr := stat(p)
			if (err == nil) != (osErr == nil) || errors.Is(err, fs.ErrNotExist) != errors.Is(osErr, fs.ErrNotExist) {
				t.Errorf("statAt(%q, %q, %v): err %v, os says %v", c.dir, c.name, follow, err, osErr)
				continue
			}
			if err != nil {
				continue
			}
			if st.mode != fi.Mode() {
				t.Errorf("statAt(%q, %q, %v): mode %v, os says %v", c.dir, c.name, follow, st.mode, fi.Mode())
			}
		}
	}
	for _, name := range []string{"f", "f2", "d/../f"} {
		if st, _ := statAt(dir, name, true); links && st.nlink != 2 {
			t.Errorf("%s has %d links, want 2", name, st.nlink)
		}
	}
	if runtime.GOOS == "linux" && (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64") {
		if n := testing.AllocsPerRun(10, func() { statAt(dir, "f", true); statAt(dir, "missing", false) }); n != 0 {
			t.Errorf("statAt allocates %v times", n)
		}
	}
}
