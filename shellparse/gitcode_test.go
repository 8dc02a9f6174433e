package shellparse

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// foundCode reports whether the script parsed from src holds a command
// `touch MARK` (the code a case plants), and whether a command is
// Unknown.
func foundCode(t *testing.T, src string, opt Options) (found, unknown bool) {
	t.Helper()
	s, err := Parse(src, opt)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	for _, c := range s.Commands {
		if len(c.Args) >= 2 && c.Args[0].Text == "touch" && c.Args[1].Text == "MARK" {
			found = true
		}
		if c.Unknown != "" {
			unknown = true
		}
	}
	return found, unknown
}

// TestRealGitConfigCode runs the real git with configuration that holds
// `touch MARK` as a command and checks that gatekeep reads the value as
// code exactly when git runs it: for each key git runs through the shell
// (git-config(1)), MARK appears and the parsed script holds `touch
// MARK`; for a key whose value is only text, neither happens. Every key
// of gitCodeKey's lists is also one `git help --config` names.
func TestRealGitConfigCode(t *testing.T) {
	git := needTool(t, "git")
	for _, tt := range []struct {
		name string
		// cmd is the shell command line run in a repository with one
		// commit and a changed file; ran is whether git runs the code.
		cmd string
		ran bool
	}{
		{"alias", `git -c alias.x='!touch MARK' x`, true},
		{"alias upper", `git -c ALIAS.x='!touch MARK' x`, true},
		{"fsmonitor", `git -c core.fsmonitor='touch MARK; false' status`, true},
		{"sshCommand", `git -c core.sshCommand='touch MARK; false' ls-remote ssh://h/r`, true},
		{"GIT_SSH_COMMAND", `GIT_SSH_COMMAND='touch MARK; false' git ls-remote ssh://h/r`, true},
		{"diff.external", `git -c diff.external='touch MARK; true' diff`, true},
		{"GIT_EXTERNAL_DIFF", `GIT_EXTERNAL_DIFF='touch MARK; true' git diff`, true},
		{"core.editor", `git -c core.editor='touch MARK; false' commit --allow-empty`, true},
		{"GIT_EDITOR", `GIT_EDITOR='touch MARK; false' git commit --allow-empty`, true},
		{"credential.helper", `printf 'protocol=https\nhost=h\n\n' | git -c credential.helper='!touch MARK' credential fill`, true},
		{"GIT_CONFIG_PARAMETERS", `GIT_CONFIG_PARAMETERS="'alias.x'='!touch MARK'" git x`, true},
		{"GIT_CONFIG_COUNT", `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!touch MARK' git x`, true},
		{"env", `env GIT_CONFIG_PARAMETERS="'core.fsmonitor'='touch MARK'" git status`, true},
		{"config-env", `V='!touch MARK' git --config-env=alias.x=V x`, true},
		{"git alias", `git -c alias.y='!touch MARK' -c alias.x=y x`, true},
		{"config set", `git config alias.x '!touch MARK' && git x`, true},
		{"config set fsmonitor", `git config core.fsmonitor 'touch MARK' && git status`, true},
		// Text only: git runs nothing.
		{"color", `git -c color.ui='touch MARK' status`, false},
		{"user.name", `git -c user.name='touch MARK' log -1`, false},
		{"alias without !", `git -c alias.x='touch MARK' x`, false},
		{"fsmonitor bool", `git -c core.fsmonitor=false status`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			home := t.TempDir()
			env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1",
				"GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@a", "GIT_COMMITTER_NAME=a",
				"GIT_COMMITTER_EMAIL=a@a"}
			for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "a"}} {
				c := exec.Command(git, args...)
				c.Dir, c.Env = dir, env
				if out, err := c.CombinedOutput(); err != nil {
					t.Fatalf("git %s: %v %s", args, err, out)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			c := exec.Command(git, "add", "f")
			c.Dir, c.Env = dir, env
			if err := c.Run(); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "f"), []byte("y\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			sh := exec.Command("sh", "-c", tt.cmd)
			sh.Dir, sh.Env = dir, env
			_ = sh.Run() // the planted commands fail on purpose
			_, err := os.Stat(filepath.Join(dir, "MARK"))
			ran := err == nil
			if ran != tt.ran {
				t.Fatalf("real git: ran the value %v, the case says %v", ran, tt.ran)
			}
			found, _ := foundCode(t, tt.cmd, Options{})
			if found != ran {
				t.Errorf("%s: gatekeep reads the value as code: %v; git ran it: %v", tt.cmd, found, ran)
			}
		})
	}

	// The keys are git's own: `git help --config` lists every variable
	// git knows (with <placeholders> for subsections and names).
	out, err := exec.Command(git, "help", "--config").Output()
	if err != nil {
		t.Fatalf("git help --config: %v", err)
	}
	known := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		known[strings.ToLower(strings.TrimSpace(line))] = true
	}
	for _, key := range gitCodeKeysDocumented {
		if !known[strings.ToLower(key)] && !slices.Contains(gitCodeKeysElsewhere, key) {
			t.Errorf("%s: not a variable `git help --config` lists", key)
		}
		probe := strings.NewReplacer("<url>.*", "https://h.helper", "<driver>", "d", "<name>", "n", "<tool>", "t", "<cmd>", "log",
			"<token>", "t", "<url>", "https://h", "<format>", "ssh", "<condition>", "gitdir:/x",
			"*", "x").Replace(key)
		if gitCodeKey(probe) == "" {
			t.Errorf("%s (as %s): gitCodeKey does not read it as code", key, probe)
		}
	}
}

// gitCodeKeysDocumented are the configuration variables gatekeep reads
// as code, spelled as `git help --config` (git 2.39) lists them.
var gitCodeKeysDocumented = []string{
	"alias.*", "core.editor", "sequence.editor", "core.pager", "pager.<cmd>", "core.sshCommand", "core.fsmonitor",
	"core.askPass", "core.gitProxy", "core.alternateRefsCommand", "diff.external", "gpg.program",
	"gpg.<format>.program", "interactive.diffFilter", "sendemail.sendmailCmd", "sendemail.tocmd",
	"sendemail.ccCmd", "sendemail.smtpServer", "uploadpack.packObjectsHook", "web.browser", "man.viewer",
	"credential.helper", "credential.<url>.*", "core.hooksPath", "include.path", "diff.<driver>.command",
	"diff.<driver>.textconv", "merge.<driver>.driver", "filter.<driver>.clean", "filter.<driver>.smudge",
	"filter.<driver>.process", "difftool.<tool>.cmd", "mergetool.<tool>.cmd", "man.<tool>.cmd",
	"browser.<tool>.cmd", "trailer.<token>.command", "trailer.<token>.cmd", "remote.<name>.uploadpack",
	"remote.<name>.receivepack", "submodule.<name>.update", "includeIf.<condition>.path", "protocol.<name>.allow",
	"gpg.ssh.defaultKeyCommand",
}

// gitCodeKeysElsewhere are documented in other pages than git-config(1),
// which `git help --config` does not list: gitattributes(5) "Long
// Running Filter Process", git-interpret-trailers(1), git-send-email(1).
var gitCodeKeysElsewhere = []string{
	"filter.<driver>.process", "trailer.<token>.command", "trailer.<token>.cmd", "sendemail.sendmailCmd",
}

// TestCodeInStrings lists the places other programs run code from a
// string, and what gatekeep finds there.
func TestCodeInStrings(t *testing.T) {
	for _, tt := range []struct {
		src     string
		found   bool // `touch MARK` is among the commands
		unknown bool // some command is Unknown
	}{
		{`env -S 'touch MARK'`, true, false},
		{`env -iS'touch MARK'`, true, false},
		{`env --split-string='A=1 touch MARK'`, true, false},
		{`env -S "$X"`, false, true},
		{`env -S 'touch $MARK'`, false, true}, // env refuses $NAME: nothing runs, but it is not judged harmless
		{`make -f /dev/stdin <<< 'all:; touch MARK'`, true, false},
		{"make -f - <<'EOF'\nall:\n\t@touch MARK\nEOF", true, false},
		{`printf 'all:\n\ttouch MARK\n' | make -f -`, true, false},
		{`make --eval='x := $(shell touch MARK)'`, true, false},
		{`make -f - <<< 'include other.mk'`, false, true},
		{`make -f - < "$F"`, false, true},
		{`echo 'touch MARK' | at now`, true, false},
		{`at now <<< 'touch MARK'`, true, false},
		{`batch <<< 'touch MARK'`, true, false},
		{`at -f job.sh now`, false, true},
		{`atq`, false, false},
		{`echo '*/5 * * * * touch MARK' | crontab -`, true, false},
		{`crontab - <<< '@reboot touch MARK%input'`, true, false},
		{`crontab jobs.txt`, false, true},
		{`crontab -l`, false, false},
		{`export GIT_PAGER='touch MARK'; git log`, true, false},
		{`LESSOPEN='|touch MARK %s' less f`, true, false},
		{`git -c core.hooksPath=/tmp/h commit`, false, true},
		{`git -c include.path=/tmp/c status`, false, true},
		{`GIT_CONFIG_GLOBAL=/tmp/c git status`, false, true},
		{`git -c core.pager="$P" log`, false, true},
		// Found by the red team: options after env -S's string, a
		// subcommand's own code options, ext:: URLs, at's queue letter,
		// crontab input after %, make's command-line variables.
		{`env -S "touch" MARK -f`, true, false},
		{`git ls-remote --upload-pack='touch MARK' x`, true, false},
		{`git clone -u 'touch MARK' x y`, true, false},
		{`git push --receive-pack='touch MARK'`, true, false},
		{`git rebase -x 'touch MARK' HEAD~1`, true, false},
		{`git bisect run touch MARK`, true, false},
		{`git submodule foreach --recursive 'touch MARK'`, true, false},
		{`git filter-branch --tree-filter 'touch MARK'`, true, false},
		{`git grep -O'touch MARK' x`, true, false},
		{`git -c tar.tgz.command='touch MARK' archive --format=tgz HEAD`, true, false},
		{`git ls-remote 'ext::sh -c touch% MARK'`, true, true},
		{`at -qd now <<< 'touch MARK'`, true, false},
		{`echo '* * * * * sh%touch MARK%' | crontab -`, true, true}, // sh itself reads its input: not known alone
		{`make -f - .RECIPEPREFIX='>' <<< 'x'`, false, true},
		// A value stored for the next git run.
		{`git config core.pager 'touch MARK'`, true, false},
		{`git config --local core.fsmonitor 'touch MARK'`, true, false},
		{`git config set alias.x '!touch MARK'`, true, false},
		{`git config -f .git/config diff.external 'touch MARK'`, true, false},
		{`git config user.name 'touch MARK'`, false, false},
		{`git config --get core.pager`, false, false},
	} {
		found, unknown := foundCode(t, tt.src, Options{})
		if found != tt.found || unknown != tt.unknown {
			t.Errorf("%s: found code %v, unknown %v; want %v, %v", tt.src, found, unknown, tt.found, tt.unknown)
		}
	}
	if !slices.Contains(gitEnvCode, "GIT_SSH_COMMAND") {
		t.Fatal("GIT_SSH_COMMAND is not among the variables read as code")
	}
}

// TestRealMakeCode runs the real GNU make on makefile text given on the
// command line and checks that gatekeep finds `touch MARK` exactly when
// make runs it.
func TestRealMakeCode(t *testing.T) {
	mk := needTool(t, "make")
	for _, tt := range []struct {
		src string
		ran bool
	}{
		{`make -f /dev/stdin <<< 'all:; touch MARK'`, true},
		{"make -f - <<'EOF'\nall:\n\t@touch MARK\nEOF", true},
		{"make -f - <<'EOF'\nall:\n\t-touch MARK\nEOF", true},
		{`printf 'all:\n\ttouch MARK\n' | make -f -`, true},
		{`make -f - <<< 'x := $(shell touch MARK)'`, true},
		{`make -f - <<< 'x != touch MARK'`, true},
		{`make --eval='x := $(shell touch MARK)' -f /dev/null`, true},
		{`make -f - <<< 'x = touch MARK'`, false},
		{`make -f - <<< '# all:; touch MARK'`, false},
	} {
		dir := t.TempDir()
		sh := exec.Command("bash", "-c", strings.ReplaceAll(tt.src, "make ", mk+" "))
		sh.Dir = dir
		_ = sh.Run()
		_, err := os.Stat(filepath.Join(dir, "MARK"))
		if ran := err == nil; ran != tt.ran {
			t.Fatalf("%s: real make ran the code: %v, the case says %v", tt.src, ran, tt.ran)
		}
		if found, _ := foundCode(t, tt.src, Options{}); found != tt.ran {
			t.Errorf("%s: gatekeep reads `touch MARK` as code: %v; make ran it: %v", tt.src, found, tt.ran)
		}
	}
}
