package pathguard

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCheckWithFromWd: one decision's checks, from the process's working
// directory or a directory near it, with one Memo, answer as checks
// without a Memo do (each component looked up), and the Memo's ModeAt as
// the package's; whatever the paths checked before in the decision.
func FuzzCheckWithFromWd(f *testing.F) {
	tr := newTree(f)
	for _, s := range []string{
		"a.txt\x00link/passwd", "src\x00../proj/a.txt\x00a.txt", "\x00notes.txt\x00notes.txt",
		"sub\x00.git\x00../.git/config", "up/proj\x00a.txt\x00./a.txt", "deep\x00../x\x00x",
		"\x00src/main.go\x00src\x00main.go", "inlink\x00../a.txt\x00.", "..\x00proj/a.txt\x00proj",
	} {
		f.Add(s)
	}
	f.Chdir(tr.proj)
	f.Fuzz(func(t *testing.T, in string) {
		parts := strings.Split(in, "\x00")
		if len(parts) > 8 {
			parts = parts[:8]
		}
		cwd := filepath.Join(tr.proj, parts[0])
		var m Memo
		for _, p := range parts[1:] {
			want := tr.g.Check(cwd, p)
			got := tr.g.CheckWith(&m, cwd, p)
			if got.Abs != want.Abs || got.Real != want.Real || got.Root != want.Root || got.Code != want.Code || (got.Err == nil) != (want.Err == nil) {
				t.Fatalf("from %s after %q, CheckWith(%q) = %+v, without a Memo %+v", cwd, parts[1:], p, got, want)
			}
			if p == "" || strings.Contains(p, "..") || filepath.IsAbs(p) || strings.HasSuffix(p, "/") {
				continue
			}
			wm, werr := ModeAt(cwd, p)
			gm, gerr := m.ModeAt(cwd, p)
			if wm != gm || (werr == nil) != (gerr == nil) {
				t.Fatalf("from %s after %q, Memo.ModeAt(%q) = %v, %v; ModeAt %v, %v", cwd, parts[1:], p, gm, gerr, wm, werr)
			}
		}
	})
}
