package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// claudeCommit is the commit form Claude Code writes
// (anthropics/claude-code#31373).
const claudeCommit = "git commit -m \"$(cat <<'EOF'\nFix the parser\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\""

// TestHeredocCommit: an allow rule whose final `*` covers an argument
// built by a double-quoted substitution of safe commands matches, and
// "always" offers that rule; a commit message is not a path.
func TestHeredocCommit(t *testing.T) {
	v := newCfgEnv(t)
	cfg := v.config(v.load(), ModeDefault)
	if d := v.bash(cfg, claudeCommit); d.Effect != Ask {
		t.Fatalf("no rule: %v, want ask", d)
	}
	req := Request{Tool: ToolBash, Command: claudeCommit, Cwd: v.root}
	sugg := Suggest(cfg, req, v.root, v.home, v.localFile())
	if !slices.Equal(sugg.Rules, []string{"Bash(git commit *)"}) {
		t.Errorf("always offers %q (%s), want Bash(git commit *)", sugg.Rules, sugg.Unavailable)
	}

	for _, rule := range []string{"Bash(git commit *)", "Bash(git commit -m *)", "Bash(git *)"} {
		v.write(v.paths.User, "[[rule]]\nallow = "+quoteTOML(rule)+"\n")
		cfg := v.config(v.load(), ModeDefault)
		d := v.bash(cfg, claudeCommit)
		if d.Effect != Allow || !d.Explicit {
			t.Errorf("%s: %v explicit %v, want an explicit allow", rule, d, d.Explicit)
		}
		for _, tc := range []struct{ cmd, why string }{
			{"git commit -m \"$MSG\"", "a variable"},
			{"git commit $(echo -a)", "an unquoted substitution"},
			{"git commit -m \"$(rm -rf build)\"", "an unsafe substitution"},
			{"git commit -m \"$(cat .env)\"", "a substitution reading a secret"},
			{"cd \"$D\" && git commit -m \"$(date)\"", "a directory only known at run time"},
		} {
			if d := v.bash(cfg, tc.cmd); d.Effect == Allow {
				t.Errorf("%s: %q (%s): %v, want not allowed", rule, tc.cmd, tc.why, d)
			}
		}
	}
	// A pattern whose `*` does not end it cannot cover a message that may
	// hold anything.
	v.write(v.paths.User, "[[rule]]\nallow = \"Bash(git commit -m * --signoff)\"\n")
	cfg = v.config(v.load(), ModeDefault)
	if d := v.bash(cfg, "git commit -m \"$(date)\" --signoff"); d.Effect == Allow {
		t.Errorf("inner *: %v, want not allowed", d)
	}
}

// TestSameRepoGit: `cd DIR && git ...` and `git -C DIR ...` where DIR's
// git directory is the working directory's are plain git in the project;
// another repository is not.
func TestSameRepoGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is missing in CI")
		}
		t.Skip("no git")
	}
	v := newCfgEnv(t)
	other := filepath.Join(filepath.Dir(v.root), "other")
	for _, d := range []string{v.root, other} {
		os.RemoveAll(filepath.Join(d, ".git"))
		if out, err := exec.Command("git", "init", "-q", d).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(v.root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A directory shaped like a git directory inside the project is another
	// repository.
	for _, d := range []string{"fake/objects", "fake/refs"} {
		if err := os.MkdirAll(filepath.Join(v.root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	v.write(filepath.Join(v.root, "fake", "HEAD"), "ref: refs/heads/main\n")
	cfg := v.config(v.load(), ModeDefault)
	for _, cmd := range []string{
		"cd " + v.root + " && git diff", "git -C " + v.root + " status", "cd src && git log --oneline -3",
		"git -C src status", "git -C src -C .. status", "cd src && git -C .. branch",
		"cd src; git status", // src or the project: the same repository either way
	} {
		if d := v.bash(cfg, cmd); d.Effect != Allow || d.Code != "safe.read_only" {
			t.Errorf("%q: %v, want allow safe.read_only", cmd, d)
		}
	}
	for _, cmd := range []string{
		"cd " + other + " && git diff", "git -C " + other + " status", "git -C fake status", "cd fake && git log",
		"git -C \"$D\" status", "cd " + v.root + " && git -c core.pager=less log",
		// The cd may have failed: git may run in the project or in other.
		"cd src; cd " + other + "; git status", "cd " + other + "; git -C src status",
		"cd src || cd " + other + "; git status",
	} {
		if d := v.bash(cfg, cmd); d.Effect == Allow {
			t.Errorf("%q: %v, want not allowed", cmd, d)
		}
	}
	// The files such a git command names resolve where git runs (after
	// -C), not in the working directory: a Read deny on src/secret.txt
	// holds for `git -C src diff --no-index a secret.txt`.
	v.write(v.paths.User, "[[rule]]\ndeny = \"Read(src/secret.txt)\"\n")
	cfg = v.config(v.load(), ModeDefault)
	for _, cmd := range []string{"git -C src diff --no-index a secret.txt", "cd src || true; git -C . diff --no-index a secret.txt"} {
		if d := v.bash(cfg, cmd); d.Effect != Deny || d.Code != "rule.deny" {
			t.Errorf("%q: %v, want the Read deny of src/secret.txt", cmd, d)
		}
	}
	// An allow rule sees the plain form too.
	v.write(v.paths.User, "[[rule]]\nallow = \"Bash(git fetch *)\"\n")
	cfg = v.config(v.load(), ModeDefault)
	if d := v.bash(cfg, "git -C "+v.root+" fetch origin"); d.Effect != Allow {
		t.Errorf("git -C ROOT fetch with Bash(git fetch *): %v, want allow", d)
	}
}
