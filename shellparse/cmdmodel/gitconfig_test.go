package cmdmodel

import (
	"strings"
	"testing"
)

// TestGitConfigValueOptRealGit asks the real git whether each option
// GitConfigValueOpt names requires a value (an option this git does not
// know yet, such as --comment before git 2.45, is skipped), and that a
// flag of git config is not taken for one.
func TestGitConfigValueOptRealGit(t *testing.T) {
	needBinary(t, "git")
	dir := t.TempDir()
	opts := []string{"-f", "-t"}
	for _, o := range gitConfigValueOpts {
		opts = append(opts, "--"+o)
	}
	for _, o := range opts {
		if !GitConfigValueOpt(o) {
			t.Errorf("GitConfigValueOpt(%q) = false", o)
		}
		out := gitRun(dir, "config", o)
		switch {
		case strings.Contains(out, "unknown option") || strings.Contains(out, "unknown switch"):
			t.Logf("git config %s: not known to this git", o)
		case !strings.Contains(out, "requires a value"):
			t.Errorf("git config %s with no value: %q, want it to require one", o, firstLine(out))
		}
	}
	for _, o := range []string{"--global", "-l", "--add", "-z", "--file=x", "--name-only"} {
		if GitConfigValueOpt(o) {
			t.Errorf("GitConfigValueOpt(%q) = true: it takes no next word", o)
		}
		if out := gitRun(dir, "config", o); strings.Contains(out, "requires a value") {
			t.Errorf("git config %s requires a value: %q", o, firstLine(out))
		}
	}
}
