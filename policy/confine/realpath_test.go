package confine

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRealPathsAsEvalSymlinks: the plan's memoized resolution gives what
// filepath.EvalSymlinks and os.Lstat give, for paths through links
// (relative, absolute, chained, to a file, dangling, in a loop), through
// a file, and missing ones, asked in any order and twice.
func TestRealPathsAsEvalSymlinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a/b/c"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a/b/file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"a/rel": "b", "abs": filepath.Join(dir, "a/b/c"), "chain": "abs",
		"tofile": "a/b/file", "dangling": "nowhere", "loop1": "loop2", "loop2": "loop1", "a/b/c/up": "../.."} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{"", "a", "a/b", "a/b/c", "a/b/file", "a/b/file/x", "a/rel", "a/rel/c", "a/rel/file",
		"abs", "abs/up", "abs/up/rel/c", "chain", "chain/x", "tofile", "dangling", "dangling/x", "loop1", "loop1/x",
		"missing", "missing/x", "a/b/c/up/b", "a/rel/../rel"}
	r := realPaths{}
	for range 2 {
		for _, rel := range paths {
			p := dir + "/" + rel
			if rel == "" {
				p = dir
			}
			want, wantErr := filepath.EvalSymlinks(p)
			got, err := r.eval(p)
			if (err != nil) != (wantErr != nil) || got != want {
				t.Errorf("eval(%s) = %q, %v; EvalSymlinks: %q, %v", rel, got, err, want, wantErr)
			}
			wfi, wErr := os.Lstat(p)
			fi, err := r.lstat(p)
			if (err != nil) != (wErr != nil) || err == nil && (fi.Mode() != wfi.Mode() || !os.SameFile(fi, wfi)) {
				t.Errorf("lstat(%s) = %v, %v; os.Lstat: %v, %v", rel, fi, err, wfi, wErr)
			}
		}
	}
	// A directory made after a failed lookup is found.
	if _, err := r.eval(filepath.Join(dir, "missing/x")); err == nil {
		t.Fatal("missing/x resolved before it exists")
	}
	if err := os.MkdirAll(filepath.Join(dir, "missing/x"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.created()
	if got, err := r.eval(filepath.Join(dir, "missing/x")); err != nil || got != filepath.Join(dir, "missing/x") {
		t.Errorf("after created: %q, %v", got, err)
	}
}
