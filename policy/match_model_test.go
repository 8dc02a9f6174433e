package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gatekeep/gatekeep/pathguard"
)

// TestModelRuleMatch: a deny or ask rule's words are read by
// the command model as the command is, so the rule matches every
// spelling the tool accepts of the options it names — in any position,
// clustered, short or long, abbreviated, `=value` — with the rule's
// operands in order; a tool without a complete model keeps the textual
// match.
func TestModelRuleMatch(t *testing.T) {
	tests := []struct {
		rule, cmd string
		match     bool
	}{
		{"Bash(rm -rf *)", "rm -rf x", true},
		{"Bash(rm -rf *)", "rm -fr x", true},
		{"Bash(rm -rf *)", "rm -r -f x", true},
		{"Bash(rm -rf *)", "rm --recursive --force x", true},
		{"Bash(rm -rf *)", "rm -Rf x", true},
		{"Bash(rm -rf *)", "rm --rec --forc x", true},
		{"Bash(rm -rf *)", "rm x -r -f", true},
		{"Bash(rm -rf *)", "/bin/rm -v -fR x", true},
		{"Bash(rm -rf *)", "sudo rm -fr x", true},
		{"Bash(rm -rf *)", "rm -fr", true},
		{"Bash(rm -rf *)", "rm -r x", false},
		{"Bash(rm -rf *)", "rm -f x", false},
		{"Bash(rm -rf *)", "rm -- -rf", false}, // a file named -rf
		{"Bash(rm -rf build)", "rm -fR build", true},
		{"Bash(rm -rf build)", "rm -fr build/x", false},
		{"Bash(rm --recursive *)", "rm -R x", true},
		{"Bash(git reset --hard *)", "git reset -q --hard", true},
		{"Bash(git reset --hard *)", "git reset HEAD --hard", true},
		{"Bash(git reset --hard *)", "git reset --ha HEAD~1", true},
		{"Bash(git reset --hard *)", "git -C . reset --hard", true},
		{"Bash(git reset --hard *)", "git reset --soft HEAD~1", false},
		{"Bash(git reset --hard *)", "git reset", false},
		{"Bash(git reset --hard HEAD~1)", "git reset -q HEAD~1 --hard", true},
		{"Bash(git reset --hard HEAD~1)", "git reset --hard HEAD~2", false},
		{"Bash(chmod 777 *)", "chmod 0777 f", true},
		{"Bash(chmod 777 *)", "chmod 00777 f", true},
		{"Bash(chmod 777 *)", "chmod a+rwx f", true},
		{"Bash(chmod 777 *)", "chmod a=rwx f", true},
		{"Bash(chmod 777 *)", "chmod ugo=rwx f", true},
		{"Bash(chmod 777 *)", "chmod u=rwx,g=rwx,o=rwx f", true},
		{"Bash(chmod 777 *)", "chmod 4777 f", true}, // the permission bits are 777
		{"Bash(chmod 777 *)", "chmod -R 0777 d", true},
		{"Bash(chmod 777 *)", "chmod 755 f", false},
		{"Bash(chmod 777 *)", "chmod o+w f", false}, // 777 only from some modes
		{"Bash(chmod 777 *)", "chmod a+rwX f", false},
		{"Bash(chmod 777 *)", "chmod u+x f", false},
		{"Bash(chmod 4755 *)", "chmod u+s,u=rwxs,go=rx f", true},
		{"Bash(chmod 4755 *)", "chmod 755 f", false},
		{"Bash(chmod a+rwx *)", "chmod 777 f", true},
		{"Bash(git push --force *)", "git push --mirror origin", true},
		{"Bash(git push -f *)", "git push --mirror origin", true},
		{"Bash(git push --force *)", "git push origin +main", true},
		{"Bash(git push --force *)", "git push -uf origin main", true},
		{"Bash(git push --force *)", "git push --force-with-lease origin main", false},
		{"Bash(git push --force *)", "git push origin :old", false},
		{"Bash(git push --delete *)", "git push origin :old", true},
		{"Bash(git push --delete *)", "git push -d origin old", true},
		{"Bash(git push --delete *)", "git push --prune origin", true},
		{"Bash(git push --mirror *)", "git push --mir origin", true},
		{"Bash(git push --force-with-lease=* *)", "git push --force-with-lease=main origin", true},
		{"Bash(git push * --force)", "git push --force origin", true},
		{"Bash(git commit --amend *)", "git commit -a --amen", true},
		{"Bash(git commit --amend *)", "git commit -a", false},
		// No complete model: the textual match alone.
		{"Bash(docker run --privileged *)", "docker run --privileged x", true},
		{"Bash(docker run --privileged *)", "docker run x --privileged", false},
		// A star inside an option keeps the textual match alone.
		{"Bash(rm -r* *)", "rm -rf x", true},
		{"Bash(rm -r* *)", "rm -fr x", false},
	}
	for _, tt := range tests {
		dir, home := t.TempDir(), t.TempDir()
		g, _ := pathguard.New([]string{dir}, pathguard.Options{Home: home})
		user := filepath.Join(dir, "user.toml")
		if err := os.WriteFile(user, []byte("[[rule]]\ndeny = "+quoteTOML(tt.rule)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		loaded, err := testLoad(dir, home, TestPaths{Managed: dir + "/m", User: user, Trust: dir + "/t"})
		if err != nil {
			t.Fatal(err)
		}
		cfg := &Config{Mode: ModeBypass, Guard: g, Home: home}
		loaded.Apply(cfg)
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tt.cmd, Cwd: dir})
		if got := d.Code == "rule.deny"; got != tt.match {
			t.Errorf("%s, %q: matched %v (%s), want %v", tt.rule, tt.cmd, got, d.Code, tt.match)
		}
	}
}
