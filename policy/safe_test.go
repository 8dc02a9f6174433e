package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy/testcases"
)

// safeConfig is a default-mode config whose only root is a fresh temp dir.
func safeConfig(t *testing.T) (*Config, string) {
	t.Helper()
	dir := t.TempDir()
	g, errs := pathguard.New([]string{dir}, pathguard.Options{})
	if len(errs) > 0 {
		t.Fatalf("pathguard.New: %v", errs)
	}
	return &Config{Mode: ModeDefault, Guard: g}, dir
}

// safeCases: safe true means the whole call is allowed by the safe layer;
// false means it must not come out Allow.
var safeCases = []struct {
	cmd  string
	safe bool
}{
	// ls, tree
	{"ls", true},
	{"ls -la src", true},
	{"ls -R", true},
	{"ls $DIR", false},
	{"ls *.go", false}, // no Config.Disk: what it matches is not known (glob_test.go expands it)
	{"tree -L 2 -I node_modules", true},
	{"tree -o out.txt", false},
	{"tree -ao out.txt", false},
	{"tree -R -H . ", false},
	{"tree --output=x", false},

	// file readers
	{"cat README.md", true},
	{"cat -n a b", true},
	{`cat "$F"`, false},
	{"cat `echo fi8uc3NoL2lkX3JzYQ== | base64 -d`", false},
	{"head -n 20 main.go", true},
	{"tail -f log.txt", true},
	{"wc -l main.go", true},
	{"wc -l $(git ls-files)", false},
	{"nl -ba main.go", true},
	{"tac x", true},
	{"rev x", true},
	{"cut -d: -f1 /etc/passwd", true},
	{"tr a-z A-Z", true},
	{`tr "$FROM" "$TO"`, true},
	{"paste a b", true},
	{"column -t -s, x.csv", true},
	{"comm -12 a b", true},
	{"join a b", true},
	{"fold -w 80 x", true},
	{"fmt x", true},
	{"expand x", true},
	{"unexpand x", true},
	{"od -c x", true},
	{"hexdump -C x", true},
	{"strings bin", true},
	{"diff -u a b", true},
	{"diff -l a b", false},
	{"diff --paginate a b", false},
	{"cmp a b", true},
	{"stat main.go", true},
	{"du -sh .", true},
	{"df -h", true},
	{"realpath x", true},
	{"readlink -f x", true},
	{"readlink $L", false},

	// grep family, rg
	{"grep -rn foo .", true},
	{`grep -R "Cargo.toml" -n`, true},
	{"egrep 'a|b' x", true},
	{"fgrep -x a x", true},
	{`grep "$PAT" x`, false},
	{"rg -n foo", true},
	{"rg --pre-glob '*.pdf' foo", true},
	{"rg -tgo foo", true},
	{"rg --pre pwned files", false},
	{"rg --pre=pwned files", false},
	{"rg --hostname-bin pwned files", false},
	{"rg --hostname-bin=pwned files", false},
	{"rg -z files", false},
	{"rg -iz files", false},
	{"rg --search-zip files", false},
	{"RIPGREP_CONFIG_PATH=/tmp/rc rg foo", false},

	// find
	{"find . -name '*.go' -type f", true},
	{"find . -maxdepth 2 -newer go.mod -print0", true},
	{"find . -exec rm {} ;", false},
	{"find . -execdir ls {} +", false},
	{"find . -ok rm {} ;", false},
	{"find . -okdir rm {} ;", false},
	{"find . -delete", false},
	{"find . -fprint out", false},
	{"find . -fprint0 out", false},
	{"find . -fprintf out %p", false},
	{"find . -fls out", false},
	{"find $D -name x", false},

	// sed
	{"sed -n 1,5p file.txt", true},
	{"sed -n '$p' f", true},
	{"sed -n '/start/,/end/p' f", true},
	{"sed -n '10,+5p;20p' f", true},
	{"sed -n '0~4p' f", true},
	{"sed -n '/a/I,~2{p;q}' f", true},
	{"sed -n '/x/!p' f", true},
	{"sed -n 's/foo/bar/gp' f", true},
	{"sed -n 's|a/b|c|p' f", true},
	{`sed -n '\,x,p' f`, true},
	{"sed -n '=' f", true},
	{"sed -ne 1p -e 3p f", true},
	{"sed --quiet -E '/^#/!p' f", true},
	{"sed -n -e '1p' f g", true},
	{"nl -ba x | sed -n '10,20p'", true},
	{"sed -n l f", true},
	{"sed -n '1p # comment' f", true},
	{"sed 1,5p f", false},
	{"sed -n xp file.txt", false},
	{"sed -n 1p f -i", false},
	{"sed -i -n 1p f", false},
	{"sed -ni 1p f", false},
	{"sed -n --in-place 1p f", false},
	{"sed -n -f script.sed f", false},
	{"sed -n '1w out' f", false},
	{"sed -n '1W out' f", false},
	{"sed -n '1r /etc/passwd' f", false},
	{"sed -n '1R /etc/passwd' f", false},
	{"sed -n '1e date' f", false},
	{"sed -n 's/a/b/w out' f", false},
	{"sed -n 's/a/b/e' f", false},
	{"sed -n 's/a/b/gw out' f", false},
	{"sed -n 's/[/]/x/w out' f", false},
	{"sed -n '/[/]/p' f", false},
	{"sed -n '1{p;w x\n}' f", false},
	{"sed -n '1a hi' f", false},
	{"sed -n 'y/a/b/' f", false},
	{"sed -n 'bx' f", false},
	{"sed -n -l 5 1p f", false},
	{`sed -n "$S" f`, false},
	{"sed -n '1p' $F", false},

	// sort, uniq
	{"sort -u x", true},
	{"sort -k2,2 -t, x", true},
	{"sort -o out x", false},
	{"sort -uo out x", false},
	{"sort --output=out x", false},
	{"sort --out=out x", false},
	{"sort --compress-program=sh x", false},
	{"uniq -c x", true},
	{"uniq -f 1 x", true},
	{"uniq --skip-fields 2 x", true},
	{"uniq in out", false},
	{"uniq -c in out", false},
	{"uniq -- in out", false},

	// file, base64, xxd, checksums
	{"file main.go", true},
	{"file -b --mime-type x", true},
	{"file -m magic x", false},
	{"file -f list", false},
	{"file -C -m magic", false},
	{"file --compile", false},
	{"file -z x.gz", false},
	{"file --uncompress x.gz", false},
	{"base64", true},
	{"base64 -d x", true},
	{"base64 -o out.bin", false},
	{"base64 --output out.bin", false},
	{"base64 --output=out.bin", false},
	{"base64 -ob64.txt", false},
	{"xxd x", true},
	{"xxd -l 64 x", true},
	{"xxd -s 0x10 -c 8 x", true},
	{"xxd -r -p hex", true},
	{"xxd in out", false},
	{"xxd -l 64 in out", false},
	{"xxd -r hex bin", false},
	{"xxd -c8 in out", false},
	{"md5sum x", true},
	{"sha256sum -c SUMS", true},
	{"sha1sum x", true},
	{"sha512sum x", true},
	{"shasum -a 256 x", true},
	{"cksum x", true},

	// printing and testing builtins: dynamic arguments are fine
	{"pwd", true},
	{"echo $PATH", true},
	{`echo "$(date)"`, true},
	{"printf '%s\\n' $X", true},
	{"printf -v PATH /tmp", false},
	{"printf $FMT", false},
	{"true", true},
	{"exit", true},
	{"exit 3", true},
	{"return 1", true},
	{"exit $x", false},
	{"exit 1 2", false},
	{"false", true},
	{":", true},
	{"test -f $F", true},
	{"[ -d x ]", true},
	{"[ -f $F ] && cat x", true},
	{"which $X", true},
	{"type -a ls", true},
	{"command -v git", true},
	{"command -V git reset --hard", false},
	{"cd $HOME", true},
	{"cd /tmp && ls", true},
	{`cd "$D" && ls`, false},
	{`cd "$D" && echo hi`, true},
	{"whoami", true},
	{"id -u", true},
	{"uname -a", true},
	{"basename $F .go", true},
	{"dirname $F", true},
	{"seq 1 $N", true},
	{"expr $A + 1", true},
	{"numfmt --to=iec 1000", true},
	{"nproc", true},
	{"sleep 1", true},
	{"printenv", true},
	{"printenv HOME", true},
	{"env", true},
	{"env -u FOO", true},
	{"env $X", false},

	// date, hostname
	{"date", true},
	{"date +%s", true},
	{"date -u +%Y-%m-%d", true},
	{`date -d "2020-01-01" +%s`, true},
	{"date -r main.go", true},
	{"date -s 2020-01-01", false},
	{"date --set=2020-01-01", false},
	{"date --se 2020-01-01", false},
	{"date 010100002020", false},
	{"date -f fmt 2020", false},
	{"date $X", false},
	{"hostname", true},
	{"hostname -f", true},
	{"hostname evil", false},
	{"hostname -F file", false},
	{"hostname -b x", false},

	// jq
	{"jq .name package.json", true},
	{"jq -r '.[] | .id' x.json", true},
	{`jq "$Q" x`, false},

	// git: read-only subcommands
	{"git status", true},
	{"git status --porcelain -b", true},
	{"git log --oneline -n 5", true},
	{"git log -p -1", true},
	{"git log --stat --format='%h %s'", true},
	{"git diff", true},
	{"git diff --stat HEAD~1", true},
	{"git diff -a --text --no-ext-diff --no-textconv", true},
	{"git diff --output-indicator-new=+ HEAD", true},
	{"git show HEAD:main.go", true},
	{"git show -p HEAD", true},
	{"git branch", true},
	{"git branch -a", true},
	{"git branch -vv", true},
	{"git branch --show-current", true},
	{"git -C . branch --show-current", true},
	{"git branch --list 'feat*'", true},
	{"git branch --contains HEAD", true},
	{"git branch --format '%(refname:short)'", true},
	{"git tag", true},
	{"git tag -l 'v1.*'", true},
	{"git tag --list", true},
	{"git tag --contains HEAD", true},
	{"git remote", true},
	{"git remote -v", true},
	{"git remote get-url origin", true},
	{"git rev-parse --show-toplevel", true},
	{"git rev-parse HEAD", true},
	{"git ls-files -m", true},
	{"git blame -L 1,10 main.go", true},
	{"git grep -n foo", true},
	{"git grep --text foo", true},
	{"git describe --tags", true},
	{"git --no-pager log -1", true},
	{"git -C ./ status", true},
	{"cd . && git status", true},
	{"ls && git status", true},
	{"git ls-tree HEAD", true},
	{"git cat-file -p HEAD", true},
	{"git stash list", true},
	{"git reflog", true},
	{"git worktree list", true},
	{"git --version", true},
	{"git status && ls | wc -l", true},
	// Read by git's command model: values, clusters,
	// abbreviations where git takes them, negations.
	{"git status -sb", true},
	{"git status -uall --porcelain=v1", true},
	{"git status --short --bra", true},
	{"git log -5 --format=%H", true},
	{"git log --no-walk=sorted HEAD", true},
	{"git log --since '2 weeks ago' --author x -- src", true},
	{"git diff --stat=200 --no-ext-diff HEAD~1", true},
	{"git grep -3 -e foo -- '*.go'", true},
	{"git branch --li 'feat*'", true},
	{"git branch --sort=-committerdate", true},
	{"git rev-parse --abbrev-ref HEAD", true},
	{"git stash show -p", true},
	{"git -P log -1", true},
	{"git cat-file blob HEAD:README.md", true},
	{"git reflog show --oneline", true},

	// git: writes, global options, and options that run programs
	{"git", false},
	{"git checkout main", false},
	{"git checkout status", false},
	{"git commit -m x", false},
	{"git push", false},
	{"git fetch", false},
	{"git pull", false},
	{"git stash", false},
	{"git stash pop", false},
	{"git st", false},
	{"git -c core.pager=cat log -n 1", false},
	{"git -ccore.pager=cat status", false},
	{"git --config-env=core.pager=X log", false},
	{"git -p log", false},
	{"git --paginate log", false},
	{"git --exec-path=/tmp log", false},
	{"git --exec-path log", false},
	{"git log --output=/tmp/x -n 1", false},
	{"git diff --output /tmp/x", false},
	{"git show --output=/tmp/x HEAD", false},
	{"git log --outp=/tmp/x", false},
	{"git diff --ext-diff", false},
	{"git log -p --ext-diff", false},
	{"git show --textconv HEAD:x", false},
	{"git diff --textc", false},
	{"git blame --textconv x", false},
	{"git blame --text x", false},
	{"git log --help", false},
	{"git grep -O foo", false},
	{"git grep -Ovim foo", false},
	{"git grep --open-files-in-pager=vim foo", false},
	{"git grep --open foo", false},
	{"git branch -d feature", false},
	{"git log --bogus", false},
	{"git log --out=/tmp/x", false},
	{"git status --sh", false},
	{"git status --hel", false},
	{"git branch --del feature", false},
	{"git branch --li --del feature", false},
	{"git blame -S revs.txt main.go", false},
	{"git blame --ignore-revs-file ~/.ssh/id_rsa main.go", false},
	{"git ls-files -X ~/.ssh/id_rsa", false},
	{"git ls-files --exclude-from=/etc/shadow", false},
	{"git ls-files -o -i --exclude-per-directory=../../home/.vault-token", false},
	{"git ls-files -o --exclude-per-directory=.env", false},
	{"git ls-files -o --exclude-standard", true},
	{"git diff -O ~/.ssh/id_rsa", false},
	{"git cat-file blob 1234abcd", false},
	{"git cat-file --batch", false},
	{"git log --show-signature -1", false},
	{"git reflog expire --all", false},
	{"git remote show origin", false},
	{"git --bogus status", false},
	{"git -C /tmp status", false},
	{"git branch -D feature", false},
	{"git branch -d -f feature", false},
	{"git -C . branch -d feature", false},
	{"git branch -m a b", false},
	{"git branch -M a b", false},
	{"git branch -c a b", false},
	{"git branch -C a b", false},
	{"git branch --set-upstream-to=origin/main", false},
	{"git branch -u origin/main", false},
	{"git branch --unset-upstream", false},
	{"git branch --edit-description", false},
	{"git branch new-branch", false},
	{"git branch -v new-branch", false},
	{"git branch -f main HEAD~1", false},
	{"git branch --del x", false},
	{"git tag v1", false},
	{"git tag -d v1", false},
	{"git tag -a v1 -m x", false},
	{"git tag -v v1", false},
	{"git remote show origin", false},
	{"git remote add x y", false},
	{"git remote remove x", false},
	{"git remote set-url origin x", false},
	{"git remote update", false},
	{"git remote prune origin", false},
	{"git reflog expire --all", false},
	{"git reflog delete HEAD@{1}", false},
	{"git cat-file --textconv HEAD:x", false},
	{"git cat-file --filters HEAD:x", false},
	{"git log --show-signature", false},
	{"git log --format=%G?", false},
	// ref-filter's %(signature...) atom (git-for-each-ref(1), newer git)
	// verifies a commit's signature with gpg or ssh-keygen, as %G does.
	{"git branch --format='%(signature)'", false},
	{"git branch --list --format='%(signature:grade) %(refname)'", false},
	{"git tag -l --format='%(*signature:key)'", false},
	// git config reads; never a write, an editor, another file.
	{"git config --get user.name", true},
	{"git config user.name", true},
	{"git config -l", true},
	{"git config --list --show-origin", true},
	{"git config --get-regexp '^user\\.'", true},
	{"git config --global --get user.email", true},
	{"git config user.name x", false},
	{"git config --add a.b c", false},
	{"git config --unset a.b", false},
	{"git config --replace-all a.b c", false},
	{"git config --unset-all a.b", false},
	{"git config --rename-section a b", false},
	{"git config --remove-section a", false},
	{"git config -e", false},
	{"git config --edit", false},
	{"git config -l --no-list a.b c", false},
	{"git config -f ~/.ssh/id_rsa -l", false},
	{"git config --blob HEAD:x -l", false},
	{"git config", false},
	{"git for-each-ref --format='%(refname:short)'", true},
	{"git for-each-ref --sort=-committerdate refs/heads", true},
	{"git for-each-ref --format='%(signature:grade)'", false},
	{"git for-each-ref --sort=signature", false},
	{"git for-each-ref --shell --format='x=%(refname)'", false},
	{"git check-attr -a f", true},
	{"git check-attr --cached diff -- a b", true},
	// --version of tools whose --version runs no project code
	{"python3 --version", true},
	{"python3 -V", true},
	{"node --version", true},
	{"node -v", true},
	{"perl -v", true},
	{"make --version", true},
	{"gcc --version", true},
	{"npm --version", true},
	{"python3 --version -c 'import os'", false},
	{"python3 -V x.py", false},
	{"node --version app.js", false},
	{"make -v all", false},
	{"ruby -v", false},
	{"cargo --version", false},
	// process substitutions whose commands only read
	{"diff <(sort a) <(sort b)", true},
	{"comm -12 <(sort a) <(sort -u b)", true},
	{"diff <(sort a) <(rm -rf x)", false},
	{"diff <(sort a) <(curl https://x)", false},
	{"sort -o <(sort a) b", false},
	{"diff <(sort a)x b", false},
	{"diff $(sort a) b", false},
	// npm ls
	// No Config.Disk: whether a project .npmrc steers npm is not known
	// (TestNpmLsNpmrc decides these with the disk).
	{"npm ls", false},
	{"npm ls --all --depth=2", false},
	{"npm list -g --depth 0", false},
	{"npm ls --foo", false},
	{"npm install", false},
	{"npm ls ../x", false},
	{"git branch --sort=signature:signer", false},
	{"git tag --sort signature", false},
	{"git branch --form='%(signature)'", false},
	{"git branch --format='%(refname:short)'", true},
	{"git log $REF", false},
	{"git diff -- $F", false},
	{"GIT_PAGER=x git log", false},
	{"XDG_CONFIG_HOME=/tmp/x git log", false},
	{"export GIT_DIR=/tmp/x; git log", false},
	{"ls | xargs git log", false},

	// git: another repository (a directory shaped like a git directory
	// runs its own config)
	{"git --git-dir=.git --work-tree=. status", false},
	{"git --git-dir .git status", false},
	{"git --work-tree=. status", false},
	{"git -C sub status", false},
	{"git -C .. log", false},
	{"git -C / status", false},
	{"git -C=. status", false},
	{"git -C", false},
	{"git -C . -C sub status", false},
	{"git --bare log", false},
	{"cd sub && git status", false},
	{"cd sub; git log", false},
	{"cd .. && git status", false},
	{"cd /tmp/x && git diff", false},
	{"cd && git log", false},
	{`cd "$D" && git log`, false},
	{"(cd sub && git status)", false},
	{"GIT_DIR=evil git log", false},
	{"GIT_WORK_TREE=x git status", false},
	{"GIT_CONFIG_GLOBAL=x git status", false},
	{"env GIT_DIR=evil git log", false},
	{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=sh git log", false},

	// wrappers, pipelines, lists, redirects
	{"ls && pwd", true},
	{"echo 'hi' ; ls", true},
	{"ls | wc -l", true},
	{"(ls)", true},
	{"ls || (pwd && echo hi)", true},
	{`bash -c "ls"`, true},
	{"timeout 5 cat x", true},
	{"ls > /dev/null 2>&1", true},
	{"ls > out.txt", false},
	{"cat x > out", false},
	{"find . -name '*.go' | xargs wc -l", false}, // no Config.Disk (feed_test.go lists the paths)
	{"find . -name '*.go' | xargs -I{} wc -l {}", false},
	{"ls | xargs echo", true},
	{"xargs printf", false},
	{"sudo cat x", false},
	{"./cat x", false},
	{"/tmp/x/cat x", false},
	{"bin/cat x", false},
	{"PATH=/tmp cat x", false},
	{"LD_PRELOAD=x.so cat x", false},

	// go, ps, pip: only what prints
	{"go version", true},
	{"go version -m", true},
	{"go env", true},
	{"go env GOPATH GOFLAGS", true},
	{"go env -json", true},
	{"go env -w GOFLAGS=-mod=mod", false},
	{"go env -u GOFLAGS", false},
	{"go version ./bin/x", false},
	{"go build", false},
	{"go run .", false},
	{"GOFLAGS=-toolexec=x go version", false},
	{"ps aux", true},
	{"ps -ef", true},
	{"ps -eo pid,cmd --sort=-rss", true},
	{"ps -p 1 -o comm=", true},
	{"ps axjf", true},
	{"ps auxe", false},
	{"ps eww", false},
	{"ps -E", false},
	{"ps -o environ", false},
	{"ps -eo pid,env", false},
	{"pip list", true},
	{"pip3 list --format=json", true},
	{"pip freeze", true},
	{"pip show requests", true},
	{"pip list --outdated", false},
	{"pip list -o", false},
	{"pip list --index-url http://x", false},
	{"pip install x", false},
	{"pip show ../x", false},

	{"awk '{print}' x", true},
	{"awk -F: '{print $1}' /etc/passwd", true},
	{"awk 'NR==1' f", true},
	{"gawk -v n=2 'NR<=n {print $2 > \"/dev/stderr\"}' f", true},
	{"mawk 'length($0) > 80' f", true},
	{"awk '{print > \"out\"}' f", false},
	// the shell code awk runs is judged on its own (as `sh -c 'ls'` is)
	{"awk '{print $1 | \"sort\"}' f", true},
	{"awk 'BEGIN{system(\"ls\")}'", true},
	{"awk 'BEGIN{\"date\" | getline d; print d}'", true},
	{"awk 'BEGIN{system(\"rm x\")}'", false},
	{"awk '{print | \"sh\"}' f", false},
	{"awk -f prog.awk f", false},
	{"gawk -i inplace '{print}' f", false},
	{"gawk '@load \"filefuncs\"; BEGIN{chdir(\"/\")}'", false},
	{"gawk 'BEGIN{f=\"system\"; @f(\"ls\")}'", false},
	{"awk 'BEGIN{ARGV[1]=\".env\"} {print}' f", false},
	{"awk \"{print $X}\" f", false},

	// not in the table
	{"less x", false},
	{"more x", false},
	{"python3 x.py", false},
	{"tee out", false},
	{"cargo check", false},
	{"foo", false},
	{"hash -p /tmp/x ls", false},
	{"CAT x", false},
}

func TestSafeTable(t *testing.T) {
	cfg, dir := safeConfig(t)
	for _, tc := range safeCases {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tc.cmd, Cwd: dir})
		if got := d.Effect == Allow; got != tc.safe {
			t.Errorf("%q: effect %v (%s: %s), want safe=%v", tc.cmd, d.Effect, d.Code, d.Message, tc.safe)
		}
	}
}

// TestSafeArgv checks the argv form, where every word is literal.
func TestSafeArgv(t *testing.T) {
	cfg, dir := safeConfig(t)
	for _, tc := range []struct {
		argv []string
		safe bool
	}{
		{[]string{"git", "status"}, true},
		{[]string{"sed", "-n", "1,5p", "f"}, true},
		{[]string{"cat", "$F"}, true}, // literal, not a variable
		{[]string{"sed", "-n", "1w out", "f"}, false},
		{[]string{"git", "-c", "core.pager=sh", "log"}, false},
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Argv: tc.argv, Cwd: dir})
		if got := d.Effect == Allow; got != tc.safe {
			t.Errorf("%q: effect %v (%s), want safe=%v", tc.argv, d.Effect, d.Code, tc.safe)
		}
	}
}

// TestSafeConformance runs the shared peer cases: every "allow" case must
// be allowed and every "notallow" case must not be (cases that need the
// rules layer are skipped).
func TestSafeConformance(t *testing.T) {
	cfg, dir := safeConfig(t)
	n := 0
	for _, c := range testcases.Conformance(t) {
		if c.Needs != "" || c.Expect == "notdeny" {
			continue
		}
		n++
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: c.Cmd, Cwd: dir})
		if (d.Effect == Allow) != (c.Expect == "allow") {
			t.Errorf("%s:%d: %q: effect %v (%s: %s), want %s", c.File, c.Line, c.Cmd, d.Effect, d.Code, d.Message, c.Expect)
		}
	}
	if n == 0 {
		t.Fatal("no conformance cases read")
	}
}

// TestSafeReadersMeetReadRules: each safe command that prints a file
// named on its command line is denied `.env` by the default policy.
func TestSafeReadersMeetReadRules(t *testing.T) {
	v := newCfgEnv(t)
	v.write(filepath.Join(v.root, ".env"), "SECRET=1\n")
	cfg := v.config(v.load(), ModeDefault)
	for _, cmd := range []string{
		"cat .env", "head .env", "tail .env", "wc .env", "nl .env", "tac .env", "rev .env",
		"cut -c1- .env", "paste .env", "column .env", "comm .env x", "join .env x", "fold .env",
		"fmt .env", "expand .env", "unexpand .env", "diff .env x", "cmp .env x", "file .env",
		"od .env", "hexdump .env", "strings .env", "xxd .env", "md5sum .env", "sha1sum .env",
		"sha224sum .env", "sha256sum .env", "sha384sum .env", "sha512sum .env", "b2sum .env",
		"cksum .env", "sum .env", "shasum .env", "md5 .env", "base64 .env", "jq . .env",
		"sort .env", "uniq .env", "sed -n p .env", "grep x .env", "egrep x .env", "fgrep x .env",
		"rg x .env", "tree --fromfile .env", "git show HEAD:.env", "git grep --no-index x",
		"git diff --no-index x .env", "git blame --contents .env x", "grep -r x .",
	} {
		if d := v.bash(cfg, cmd); d.Effect != Deny {
			t.Errorf("%s: %v, want deny", cmd, d)
		}
	}
}

// TestGitObjectIDs: `git cat-file -p` of an object named by its id may
// print any file's content, which Read rules cannot see (red team: the
// id from `git ls-files -s` printed a committed .env).
func TestGitObjectIDs(t *testing.T) {
	cfg, dir := safeConfig(t)
	for _, tc := range []struct {
		cmd  string
		safe bool
	}{
		{"git cat-file -p b72a231", false},
		{"git cat-file -p b72a231^{blob}", false},
		{"git cat-file -t b72a231", true},
		{"git cat-file -s b72a231", true},
		{"git cat-file -p HEAD:README.md", true},
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tc.cmd, Cwd: dir})
		if got := d.Effect == Allow; got != tc.safe {
			t.Errorf("%q: %v (%s), want safe=%v", tc.cmd, d.Effect, d.Code, tc.safe)
		}
	}
}

// TestGitInHostileGitDir: a directory inside the project shaped like a git
// directory, with a config that runs code (core.fsmonitor), is a
// repository of its own: git run there (cwd, cd, or a hook's cwd) is not
// safe; git in the project's own repository still is.
func TestGitInHostileGitDir(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "clone")
	for _, d := range []string{filepath.Join(root, ".git", "objects"), filepath.Join(root, ".git", "refs"), filepath.Join(root, "d", "objects"), filepath.Join(root, "d", "refs"), filepath.Join(root, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for f, s := range map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"d/HEAD":    "ref: refs/heads/main\n",
		"d/config":  "[core]\n\tworktree = .\n\tfsmonitor = \"touch pwned\"\n",
	} {
		if err := os.WriteFile(filepath.Join(root, f), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := rootConfig(t, root, filepath.Join(base, "home"))
	for _, tc := range []struct {
		cwd, cmd string
		safe     bool
	}{
		{root, "git status", true},
		{filepath.Join(root, "src"), "git status", true},
		{filepath.Join(root, "d"), "git status", false},
		{root, "cd d && git status", false},
		{root, "cd d; git log", false},
		{filepath.Join(root, "d"), "git diff", false},
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tc.cmd, Cwd: tc.cwd})
		if (d.Effect == Allow && d.Layer == LayerSafe) != tc.safe {
			t.Errorf("%q in %s: %v %s %s, want safe %v", tc.cmd, tc.cwd, d.Effect, d.Layer, d.Code, tc.safe)
		}
	}
}

// TestGitInWideGitDir: git takes more for a git directory than HEAD,
// objects/ and refs/ as a file and two directories (setup.c
// is_git_directory): a HEAD symlink into refs/ (dangling), objects and
// refs as executable files, objects and refs in the directory a
// commondir file names. Git run in any of them reads that directory's
// config (diff.external, core.fsmonitor, core.pager), so it is not safe.
func TestGitInWideGitDir(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "clone")
	for _, d := range []string{".git/objects", ".git/refs", "evil/objects", "evil/refs", "wt/sub", "ln/objects",
		"ln/refs/heads", "ex", "src"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for f, s := range map[string]string{
		".git/HEAD":    "ref: refs/heads/main\n",
		"evil/config":  "[diff]\n\texternal = \"touch pwned; true\"\n",
		"wt/HEAD":      "ref: refs/heads/x\n",
		"wt/commondir": "../evil\n",
		"ln/config":    "[diff]\n\texternal = \"touch pwned; true\"\n",
		"ex/HEAD":      "ref: refs/heads/x\n",
		"ex/config":    "[diff]\n\texternal = \"touch pwned; true\"\n",
		"ex/objects":   "",
		"ex/refs":      "",
	} {
		if err := os.WriteFile(filepath.Join(root, f), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"ex/objects", "ex/refs"} {
		if err := os.Chmod(filepath.Join(root, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("refs/heads/x", filepath.Join(root, "ln", "HEAD")); err != nil {
		t.Fatal(err)
	}
	cfg := rootConfig(t, root, filepath.Join(base, "home"))
	for _, tc := range []struct {
		cwd, cmd string
		safe     bool
	}{
		{root, "git diff --no-index a.txt b.txt", true},
		{filepath.Join(root, "src"), "git status", true},
		{filepath.Join(root, "wt"), "git diff --no-index ../a.txt ../b.txt", false},
		{filepath.Join(root, "wt", "sub"), "git status", false},
		{root, "cd wt && git diff --no-index ../a.txt ../b.txt", false},
		{root, "git -C ln diff --no-index ../a.txt ../b.txt", false},
		{root, "git -C ex diff --no-index ../a.txt ../b.txt", false},
		{filepath.Join(root, "evil"), "git status", true}, // no HEAD: not a git directory; the project's
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tc.cmd, Cwd: tc.cwd})
		if (d.Effect == Allow && d.Layer == LayerSafe) != tc.safe {
			t.Errorf("%q in %s: %v %s %s, want safe %v", tc.cmd, tc.cwd, d.Effect, d.Layer, d.Code, tc.safe)
		}
	}
}

// rootConfig is a default-mode Config whose only sandbox root is root.
func rootConfig(t *testing.T, root, home string) *Config {
	t.Helper()
	g, errs := pathguard.New([]string{root}, pathguard.Options{Home: home, ConfigDirs: []string{}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return &Config{Mode: ModeDefault, Guard: g, Root: root}
}

// TestNpmLsNpmrc: npm ls only reads unless a .npmrc in its directory or
// above steers it (npm-config(7): a registry URL that expands ${VAR} from
// the environment, cache and logs dirs anywhere): then it asks.
func TestNpmLsNpmrc(t *testing.T) {
	cfg, dir := safeConfig(t)
	cfg.Disk = DiskForTest
	for _, cmd := range []string{"npm ls", "npm ls --all --depth=2", "npm ls react --json", "npm list -g --depth 0"} {
		if d := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: dir}); d.Effect != Allow {
			t.Errorf("%s with no .npmrc: %s %s", cmd, d.Effect, d.Code)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".npmrc"), []byte("registry=http://127.0.0.1:1/${TOKEN}/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := Evaluate(cfg, Request{Tool: ToolBash, Command: "npm ls", Cwd: dir}); d.Effect == Allow {
		t.Errorf("npm ls beside a .npmrc is allowed (%s)", d.Code)
	}
	if d := Evaluate(cfg, Request{Tool: ToolBash, Command: "npm --version", Cwd: dir}); d.Effect != Allow {
		t.Errorf("npm --version beside a .npmrc: %s %s", d.Effect, d.Code)
	}
}
