package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTrackedFilesMeetReadRules: git commands that print whole commits or
// grep tracked files are judged against Read rules for every tracked file:
// a committed .env is denied to `git show HEAD`, not to `git show --stat`.
func TestTrackedFilesMeetReadRules(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git to build the repository")
	}
	v := newCfgEnv(t)
	run := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-C", v.root, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	v.write(filepath.Join(v.root, "a.txt"), "a")
	run("add", "a.txt")
	cfg := v.config(v.load(), ModeDefault)
	for _, cmd := range []string{"git show HEAD", "git log -p", "git grep x", "git diff"} {
		if d := v.bash(cfg, cmd); d.Effect != Allow {
			t.Errorf("%s with nothing secret tracked: %v", cmd, d)
		}
	}
	v.write(filepath.Join(v.root, ".env"), "SECRET=1")
	run("add", "-f", ".env")
	for _, cmd := range []string{"git show HEAD", "git log -p", "git grep x", "git diff HEAD", "bash -c 'git show'"} {
		if d := v.bash(cfg, cmd); d.Effect != Deny || d.Rule == nil || d.Rule.Rule != "Read(.env)" {
			t.Errorf("%s with .env tracked: %v", cmd, d)
		}
	}
	for _, cmd := range []string{"git show --stat HEAD", "git log --oneline", "git show HEAD -- a.txt", "git status"} {
		if d := v.bash(cfg, cmd); d.Effect != Allow {
			t.Errorf("%s prints no tracked content: %v", cmd, d)
		}
	}
}

// TestLsFilesSubstitution: `wc -l $(git ls-files)` names the tracked
// files, read from the index: allowed when none is a secret and each name
// stays one word; a tracked .env is denied; a name bash would split or
// glob leaves the words only known at run time (an ask, as `cat "$F"`).
func TestLsFilesSubstitution(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is needed and missing")
		}
		t.Skip("needs git to build the repository")
	}
	v := newCfgEnv(t)
	run := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-C", v.root, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	v.write(filepath.Join(v.root, "a.txt"), "a")
	v.write(filepath.Join(v.root, "src", "b.go"), "b")
	v.write(filepath.Join(v.root, ".env"), "SECRET=1")
	run("add", "a.txt", "src/b.go")
	cfg := v.config(v.load(), ModeDefault)
	for _, tt := range []struct {
		cmd  string
		want Effect
	}{
		{"wc -l $(git ls-files)", Allow},
		{"cd src && cat $(git ls-files)", Allow},
		{`wc -l "$(git ls-files)"`, Ask},
		{"wc -l $(git ls-files -o)", Ask},
		{"IFS=.; wc -l $(git ls-files)", Ask},
		{"sort -o x $(git ls-files)", Ask},
	} {
		if d := v.bash(cfg, tt.cmd); d.Effect != tt.want {
			t.Errorf("%s: %v %s: %s, want %v", tt.cmd, d.Effect, d.Code, d.Message, tt.want)
		}
	}
	v.write(filepath.Join(v.root, "x y*.txt"), "c")
	run("add", "x y*.txt")
	if d := v.bash(cfg, "wc -l $(git ls-files)"); d.Effect == Allow {
		t.Errorf("a tracked name bash splits and globs: %v %s", d.Effect, d.Code)
	}
	run("rm", "-q", "--cached", "x y*.txt")
	run("add", "-f", ".env")
	cfgBypass := v.config(v.load(), ModeBypass)
	for _, c := range []*Config{cfg, cfgBypass} {
		if d := v.bash(c, "wc -l $(git ls-files)"); d.Effect != Deny || d.Rule == nil || d.Rule.Rule != "Read(.env)" {
			t.Errorf("with .env tracked (%s): %v", c.Mode, d)
		}
	}
}
