package policy

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/pathguard"
)

// TestDecisionLookupBudget pins what a decision asks of the disk
// (pathguard.Lookups: stat, lstat, readlink, openat2), which is most of
// what a simple decision costs (a lookup is 1-2 µs, the rest of a read
// of one file a few µs): in the process's working directory, as gatekeep
// decides (Request.Cwd is its own), a file operand costs an openat2 of it and a
// lookup of each of its components, not one per component of the
// working directory. Budgets, not exact counts: fewer is fine.
func TestDecisionLookupBudget(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("openat2 stands for the working directory's lookups on Linux only")
	}
	v := newCfgEnv(t)
	// A working directory deep enough that looking up each component
	// would break every budget below.
	v.root = filepath.Join(v.root, "a", "b", "c", "d", "e")
	if err := os.MkdirAll(filepath.Join(v.root, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	v.write(filepath.Join(v.root, "lib", "a.py"), "x\n")
	cfg := v.config(v.load(), ModeDefault)
	t.Chdir(v.root)
	levels := uint64(strings.Count(v.root, "/") + 1) // from v.root up to /
	for _, tc := range []struct {
		cmd    string
		budget uint64
	}{
		{"ls", 0},
		{"pwd && echo hi", 0},
		{"grep -n x missing/dir/a.py", 2},              // openat2, missing
		{"grep -n x lib/a.py", 3},                      // openat2, lib, lib/a.py
		{"cat lib/a.py lib/b.py && wc -l lib/a.py", 4}, // openat2, lib, lib/a.py, lib/b.py
		// openat2, out.txt (one lstat, which tells the danger layer it is
		// no block device and the sandbox where it leads), the global git
		// config files' identities (hooksPath), HEAD and objects (a git
		// directory?), .git (the repository whose hooks config applies).
		{"echo hi > out.txt", 7},
		// getcwd, then git's own discovery from the working directory up
		// to / (.git and HEAD at each level, .git/HEAD where .git is a
		// directory); the project root and the working directory are
		// one, resolved once.
		{"git status", 2 + 2*levels},
	} {
		// Once before, for what a process reads once (the global git
		// config's identity is checked in every decision that writes).
		v.bash(cfg, tc.cmd)
		n0 := pathguard.Lookups()
		d := v.bash(cfg, tc.cmd)
		if n := pathguard.Lookups() - n0; n > tc.budget {
			t.Errorf("%s: %d lookups, budget %d (%s %s)", tc.cmd, n, tc.budget, d.Effect, d.Code)
		}
	}
}
