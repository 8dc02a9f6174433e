package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUnsafePath: a bare name found through (or not found before) a PATH
// entry that is relative, empty or inside a root is not safe, matches no
// allow rule, and a command of it is not a file edit.
func TestUnsafePath(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, "[[rule]]\nallow = \"Bash(ls *)\"\n")
	sys := filepath.Join(filepath.Dir(v.root), "sysbin")
	v.write(filepath.Join(sys, "ls"), "#!/bin/sh\n")
	v.write(filepath.Join(v.root, "ls"), "#!/bin/sh\n")
	for _, f := range []string{filepath.Join(sys, "ls"), filepath.Join(v.root, "ls")} {
		if err := os.Chmod(f, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		entries []string
		allow   bool
	}{
		{[]string{sys}, true},
		{[]string{sys, "."}, true},
		{[]string{".", sys}, false},
		{[]string{"", sys}, false},
		{[]string{"bin", sys}, false},
		{[]string{filepath.Join(v.root, "bin"), sys}, false},
	} {
		cfg := v.config(v.load(), ModeDefault)
		entries := tc.entries
		cfg.LookPath = func(name string) (string, error) { return cfg.Guard.LookPath(name, entries) }
		for _, cmd := range []string{"ls", "ls -la"} {
			d := v.bash(cfg, cmd)
			if got := d.Effect == Allow; got != tc.allow {
				t.Errorf("PATH %q: %s: %v %s, want allow %v", entries, cmd, d.Effect, d.Code, tc.allow)
			}
		}
	}
}
