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
