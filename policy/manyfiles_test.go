package policy

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/pathguard"
)

// TestManyFilesLinear: a command naming many files costs a bounded
// number of bytes a file: its parts are allocated once, not regrown and
// copied as they are appended (`cat` of 500,000 files took 0.9 GB).
func TestManyFilesLinear(t *testing.T) {
	dir := t.TempDir()
	home := os.Getenv("HOME")
	g, _ := pathguard.New([]string{dir}, pathguard.Options{Home: home})
	loaded, err := testLoad(dir, home, TestPaths{Managed: dir + "/none", User: dir + "/none", Trust: dir + "/trust.json"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Mode: ModeDefault, Guard: g, Home: home}
	loaded.Apply(cfg)
	const n = 50000
	src := "cat" + strings.Repeat(" w", n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := Evaluate(cfg, Request{Tool: ToolBash, Command: src, Cwd: dir})
	runtime.ReadMemStats(&after)
	if d.Effect != Allow {
		t.Errorf("cat of %d files in the root: %s %s, want allow", n, d.Effect, d.Code)
	}
	perFile := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("%d bytes a file", perFile)
	if perFile > 1600 {
		t.Errorf("cat of %d files: %d bytes allocated a file, want at most 1600", n, perFile)
	}
}
