package policy

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

func TestMatchBashDeny(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, "[[rule]]\ndeny = \"Bash(git push *)\"\nreason = \"pushes go through CI.\"\n")
	cfg := v.config(v.load(), ModeDefault)
	denied := []string{
		"git push",
		"git push origin main",
		"FOO=1 git push",
		"env git push",
		"env -i PATH=/usr/bin git push --force",
		"sudo git push",
		"/usr/bin/git push",
		`\git push`,
		`'git' push`,
		`g"i"t push`,
		"git -C . push",
		"git -c user.name=x --no-pager push origin",
		"git --git-dir=.git --work-tree . push",
		"(git push)",
		"{ git push; }",
		"bash -c 'git push'",
		"sh -c \"cd x && git push\"",
		`eval "git push"`,
		"echo $(git push)",
		"true && git push || false",
		"nohup git push > /dev/null &", // stdout redirected: nohup writes no nohup.out
		"timeout 10 git push",
		"xargs git push < remotes",
		"git push $REMOTE",
		"git $SUB origin",
		"echo push origin | xargs git", // xargs of a literal input: `git push origin`
		"cat remotes | xargs git",
	}
	for _, cmd := range denied {
		d := v.bash(cfg, cmd)
		if d.Effect != Deny || d.Code != "rule.deny" || d.Rule == nil || d.Rule.Rule != "Bash(git push *)" {
			t.Errorf("%s: %v, want rule.deny", cmd, d)
			continue
		}
		if d.Rule.Source != SourceUser || d.Rule.File != v.paths.User || d.Rule.Line != 1 || d.Rule.Index != 0 {
			t.Errorf("%s: rule ref %+v", cmd, *d.Rule)
		}
		if !strings.HasSuffix(d.Message, "pushes go through CI") {
			t.Errorf("%s: message %q", cmd, d.Message)
		}
	}
	for _, cmd := range []string{"git pushx", "git pull", "git status --push", "echo git push", "gitpush", "echo origin | xargs git"} {
		if d := v.bash(cfg, cmd); d.Code == "rule.deny" {
			t.Errorf("%s: %v, want no rule to match", cmd, d)
		}
	}
}

func TestMatchBashPatterns(t *testing.T) {
	tests := []struct {
		pattern string
		match   []string
		nomatch []string
	}{
		{"git push *", []string{"git push", "git push origin main", "git push --force"}, []string{"git pushx", "git", "git pul"}},
		{"npm run test:*", []string{"npm run test", "npm run test -- --watch"}, []string{"npm run testx", "npm run tes"}},
		{"git push*", []string{"git push", "git pushx", "git push origin"}, []string{"git pul"}},
		{"make", []string{"make"}, []string{"make all", "cmake"}},
		{"go test ./...", []string{"go test ./..."}, []string{"go test ./... -v", "go test"}},
		{"rm -rf *", []string{"rm -rf x", "rm -rf"}, []string{"rm -r x"}},
		// git push's -f is its --force: rules match every spelling.
		{"* --force *", []string{"git push --force", "git push --force origin", "git push -f"},
			[]string{"git push --force-with-lease", "git pull --force-x"}},
		{"echo 'a b'", []string{"echo 'a b'", `echo "a b"`}, []string{"echo a b"}},
		{"docker * --privileged *", []string{"docker run --privileged img", "docker run -it --privileged img sh"}, []string{"docker run img"}},
		{"*", []string{"anything at all", "ls"}, nil},
	}
	for _, tt := range tests {
		v := newCfgEnv(t)
		v.write(v.paths.User, "[[rule]]\nask = "+quoteTOML("Bash("+tt.pattern+")")+"\n")
		cfg := v.config(v.load(), ModeAcceptEdits)
		for _, cmd := range tt.match {
			if d := v.bash(cfg, cmd); d.Code != "rule.ask" {
				t.Errorf("Bash(%s) should match %q: %v", tt.pattern, cmd, d)
			}
		}
		for _, cmd := range tt.nomatch {
			if d := v.bash(cfg, cmd); d.Code == "rule.ask" {
				t.Errorf("Bash(%s) should not match %q: %v", tt.pattern, cmd, d)
			}
		}
	}
}

func quoteTOML(s string) string { return strconv.Quote(s) }

func TestMatchBareBash(t *testing.T) {
	for _, rule := range []string{"Bash", "Bash(*)"} {
		v := newCfgEnv(t)
		v.write(v.paths.User, "[[rule]]\ndeny = \""+rule+"\"\n")
		cfg := v.config(v.load(), ModeBypass)
		for _, cmd := range []string{"ls", "echo hi", "X=1", "$CMD arg", "/bin/true"} {
			if d := v.bash(cfg, cmd); d.Effect != Deny {
				t.Errorf("%s: %s = %v", rule, cmd, d)
			}
		}
	}
}

func TestMatchBashAllow(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, `[[rule]]
allow = ["Bash(git commit *)", "Bash(git status *)", "Bash(make *)", "Bash(go test *)"]
`)
	cfg := v.config(v.load(), ModeDefault)
	allowed := []string{"git commit -m wip", "git commit", "FOO=1 git commit", "make all", "make", "go test ./...", "LANG=C make", "xargs make"}
	for _, cmd := range allowed {
		if d := v.bash(cfg, cmd); d.Effect != Allow {
			t.Errorf("%s: %v, want allow", cmd, d)
		}
	}
	notAllowed := []string{
		"git status; rm x",
		"make && curl x",
		"/usr/bin/git commit",
		"./make",
		"bin/make",
		"git -C /tmp commit",
		"git commit -m \"$MSG\"",
		"git commit $(echo -a)",
		"PATH=/tmp/x make",
		"LD_PRELOAD=/tmp/x.so make",
		"GIT_DIR=/tmp git commit",
		"export PATH=/tmp:$PATH; make",
		"cd $X && make",
		"sudo make install",
		"make > /etc/x",
		"$MAKE all",
		"git commitx",
	}
	for _, cmd := range notAllowed {
		if d := v.bash(cfg, cmd); d.Effect == Allow {
			t.Errorf("%s: %v, want not allowed", cmd, d)
		}
	}
	// xargs with a pattern that accepts more words is fine.
	if d := v.bash(cfg, "find . -name x | xargs go test"); d.Effect != Allow {
		t.Errorf("xargs go test: %v", d)
	}
}

func TestMatchAllowResolvesInsideRoot(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, "[[rule]]\nallow = \"Bash(tool *)\"\n")
	cfg := v.config(v.load(), ModeDefault)
	cfg.LookPath = func(name string) (string, error) { return filepath.Join(v.root, "bin", name), nil }
	if d := v.bash(cfg, "tool run"); d.Effect == Allow {
		t.Errorf("a command that resolves into the project was allowed: %v", d)
	}
	cfg.LookPath = func(name string) (string, error) { return "/usr/bin/" + name, nil }
	if d := v.bash(cfg, "tool run"); d.Effect != Allow {
		t.Errorf("tool run: %v", d)
	}
}

func TestPrecedence(t *testing.T) {
	layers := []string{SourceManaged, SourceUser, SourceProject, SourceLocal}
	for hi := range layers {
		for lo := hi + 1; lo < len(layers); lo++ {
			for _, effs := range [][2]string{{"allow", "deny"}, {"deny", "allow"}, {"ask", "allow"}, {"deny", "ask"}} {
				v := newCfgEnv(t)
				v.write(v.file(layers[hi]), "[[rule]]\n"+effs[0]+" = \"Bash(make *)\"\n")
				v.write(v.file(layers[lo]), "[[rule]]\n"+effs[1]+" = \"Bash(make *)\"\n")
				for _, f := range []string{v.projectFile()} {
					if _, err := os.Stat(f); err == nil {
						if err := TrustForTest(v.paths.Trust, f); err != nil {
							t.Fatal(err)
						}
					}
				}
				d := v.bash(v.config(v.load(), ModeDefault), "make all")
				if d.Effect.String() != effs[0] || d.Rule == nil || d.Rule.Source != layers[hi] {
					t.Errorf("%s %s over %s %s: %v (rule %v)", layers[hi], effs[0], layers[lo], effs[1], d, d.Rule)
				}
			}
		}
	}
}

func TestLastMatchWins(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, `[[rule]]
allow = "Bash(git *)"
[[rule]]
deny = "Bash(git push *)"
`)
	cfg := v.config(v.load(), ModeDefault)
	if d := v.bash(cfg, "git push"); d.Effect != Deny || d.Rule.Index != 1 {
		t.Errorf("git push: %v", d)
	}
	if d := v.bash(cfg, "git commit"); d.Effect != Allow || d.Rule.Index != 0 {
		t.Errorf("git commit: %v", d)
	}

	v = newCfgEnv(t)
	v.write(v.paths.User, `[[rule]]
deny = "Bash(git *)"
[[rule]]
allow = "Bash(git commit *)"
`)
	cfg = v.config(v.load(), ModeDefault)
	if d := v.bash(cfg, "git commit -m x"); d.Effect != Allow || d.Rule.Index != 1 {
		t.Errorf("git commit: %v", d)
	}
	if d := v.bash(cfg, "git push"); d.Effect != Deny || d.Rule.Index != 0 {
		t.Errorf("git push: %v", d)
	}
	// A deny written as git's absolute path is not opened by the allow,
	// which only matches bare names.
	if d := v.bash(cfg, "/usr/bin/git commit"); d.Effect != Deny {
		t.Errorf("/usr/bin/git commit: %v", d)
	}
}

func TestSafeLayerHonoursRules(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, "[[rule]]\nask = \"Bash(ls *)\"\n")
	cfg := v.config(v.load(), ModeDefault)
	if d := v.bash(cfg, "ls -la"); d.Effect != Ask || d.Code != "rule.ask" || d.Layer != LayerRules {
		t.Errorf("ls -la: %v, want rule.ask from the rules layer", d)
	}
	v.write(v.paths.User, "[[rule]]\ndeny = \"Bash(ls *)\"\n")
	cfg = v.config(v.load(), ModeDefault)
	// The safe layer looks the rules up before it allows, but the rule
	// decided: the rules layer is the one reported.
	if d := v.bash(cfg, "ls"); d.Effect != Deny || d.Code != "rule.deny" || d.Layer != LayerRules {
		t.Errorf("ls: %v, want rule.deny from the rules layer", d)
	}
}

// hasReadEffect reports whether shellparse reports cat's operand as a
// read (the effects table is being extended alongside).
func hasReadEffect(t *testing.T, cmd string) bool {
	s, err := shellparse.Parse(cmd, shellparse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Commands {
		eff, _ := shellparse.Effects(&s.Commands[i])
		for _, e := range eff {
			if e.Access == cmdmodel.Read {
				return true
			}
		}
	}
	return false
}

func TestMatchFileRules(t *testing.T) {
	v := newCfgEnv(t)
	for _, f := range []string{".env", "sub/dir/.env", ".env.local", ".env.example", "certs/dev.pem", "src/main.go"} {
		v.write(filepath.Join(v.root, f), "x")
	}
	for _, f := range []string{".ssh/id_rsa", ".ssh/id_rsa.pub", ".ssh/config", "certs/prod.key", ".aws/credentials", ".config/gh/hosts.yml"} {
		v.write(filepath.Join(v.home, f), "x")
	}
	if err := os.Symlink(filepath.Join(v.root, ".env"), filepath.Join(v.root, "innocent.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(v.root, "sub"), filepath.Join(v.root, "link")); err != nil {
		t.Fatal(err)
	}
	cfg := v.config(v.load(), ModeDefault)
	read := func(p string) Decision {
		return Evaluate(cfg, Request{Tool: ToolRead, Path: p, Cwd: v.root})
	}
	write := func(p string) Decision {
		return Evaluate(cfg, Request{Tool: ToolWrite, Path: p, Cwd: v.root})
	}
	tests := []struct {
		name string
		d    Decision
		want Effect
		code string
	}{
		{"read .env", read(".env"), Deny, "rule.deny"},
		{"read sub/dir/.env", read("sub/dir/.env"), Deny, "rule.deny"},
		{"read .env.local", read(".env.local"), Deny, "rule.deny"},
		{"read ./sub/../.env", read("./sub/../.env"), Deny, "rule.deny"},
		{"read symlink to .env", read("innocent.txt"), Deny, "rule.deny"},
		{"read link/dir/.env", read("link/dir/.env"), Deny, "rule.deny"},
		{"read absolute .env", read(filepath.Join(v.root, ".env")), Deny, "rule.deny"},
		{"read .env.example", read(".env.example"), Allow, "mode.allow"},
		{"read src/main.go", read("src/main.go"), Allow, "mode.allow"},
		{"read ~/.ssh/id_rsa", read("~/.ssh/id_rsa"), Deny, "rule.deny"},
		{"read ~/.ssh/id_rsa.pub", read("~/.ssh/id_rsa.pub"), Allow, "mode.allow"},
		{"read ~/.ssh/config", read("~/.ssh/config"), Allow, "mode.allow"},
		{"read ~/.aws/credentials", read(filepath.Join(v.home, ".aws/credentials")), Deny, "rule.deny"},
		{"read ~/.config/gh/hosts.yml", read("~/.config/gh/hosts.yml"), Deny, "rule.deny"},
		{"read ~/.netrc", read("~/.netrc"), Deny, "rule.deny"},
		{"read key outside project", read("~/certs/prod.key"), Deny, "rule.deny"},
		{"read pem inside project", read("certs/dev.pem"), Allow, "mode.allow"},
		{"write .env", write(".env"), Deny, "rule.deny"},
		{"write new sub/.env.prod", write("sub/.env.prod"), Deny, "rule.deny"},
		{"write .env.example", write(".env.example"), Ask, "mode.ask"},
		{"edit ~/.ssh/id_rsa", Evaluate(cfg, Request{Tool: ToolEdit, Path: "~/.ssh/id_rsa", Cwd: v.root}), Deny, ""},
	}
	for _, tt := range tests {
		if tt.d.Effect != tt.want || tt.code != "" && tt.d.Code != tt.code {
			t.Errorf("%s: %v, want %s %s", tt.name, tt.d, tt.want, tt.code)
		}
	}
	if d := read(".env"); d.Rule == nil || d.Rule.Source != SourceDefault || d.Rule.Reason == "" || d.Rule.File != "embedded:default.toml" {
		t.Errorf("read .env rule = %+v", d.Rule)
	}

	// Carve-outs of the default policy never open more than the mode.
	custom := *cfg
	custom.Mode = ModeCustom
	if d := Evaluate(&custom, Request{Tool: ToolRead, Path: ".env.example", Cwd: v.root}); d.Effect != Ask {
		t.Errorf("custom mode read .env.example: %v", d)
	}

	// Shell reads and writes.
	shell := []struct {
		cmd  string
		want Effect
	}{
		{"cat < .env", Deny},
		{"echo x > .env", Deny},
		{"echo x >> sub/dir/.env", Deny},
		{"cat < .en?", Deny},
		{"wc -l < ~/.ssh/id_rsa", Deny},
		{"cat < .env.example", Allow},
		{"ls -la ~/.ssh", Allow},
	}
	for _, tt := range shell {
		if d := v.bash(cfg, tt.cmd); d.Effect != tt.want {
			t.Errorf("%s: %v, want %s", tt.cmd, d, tt.want)
		}
	}
	if !hasReadEffect(t, "cat .env") {
		t.Log("shellparse.Effects does not report cat's operands yet; skipping cat FILE cases")
		return
	}
	for _, cmd := range []string{"cat .env", "cat ./sub/../.env", "cat innocent.txt", "cat README.md && cat .env", "bash -c \"cat .env\"", "cat .env.local", "sed -n '1,20p' ~/.ssh/id_rsa"} {
		if d := v.bash(cfg, cmd); d.Effect != Deny {
			t.Errorf("%s: %v, want deny", cmd, d)
		}
	}
}

func TestMatchFilePatterns(t *testing.T) {
	v := newCfgEnv(t)
	v.write(filepath.Join(v.root, "secrets/a/b.txt"), "x")
	v.write(v.paths.User, `[[rule]]
deny = ["Read(secrets)", "Read(/etc/shadow)", "Read(build/*.log)", "Read(~/private/**)", "Read(*.sqlite)"]
[[rule]]
allow = ["Read(docs/**)", "Write(out/**)"]
`)
	cfg := v.config(v.load(), ModeCustom)
	read := func(p string) Effect { return Evaluate(cfg, Request{Tool: ToolRead, Path: p, Cwd: v.root}).Effect }
	writeE := func(p string) Effect { return Evaluate(cfg, Request{Tool: ToolWrite, Path: p, Cwd: v.root}).Effect }
	tests := []struct {
		name string
		got  Effect
		want Effect
	}{
		{"directory name matches below it", read("secrets/a/b.txt"), Deny},
		{"absolute", read("/etc/shadow"), Deny},
		{"root-relative glob", read("build/x.log"), Deny},
		{"root-relative glob stays in one segment", read("build/sub/x.log"), Ask},
		{"root-relative glob is not at any depth", read("other/build/x.log"), Ask},
		{"home", read("~/private/notes/a"), Deny},
		{"bare glob at any depth", read("data/x/db.sqlite"), Deny},
		{"allow read", read("docs/a/b.md"), Allow},
		{"allow read does not cover write", writeE("docs/a.md"), Ask},
		{"allow write", writeE("out/x/y.bin"), Allow},
		{"Write covers Edit", Evaluate(cfg, Request{Tool: ToolEdit, Path: "out/z", Cwd: v.root}).Effect, Allow},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, tt.got, tt.want)
		}
	}
}

func TestMatchAllowFileNeedsBothPaths(t *testing.T) {
	v := newCfgEnv(t)
	v.write(filepath.Join(v.root, "private/key.txt"), "x")
	if err := os.MkdirAll(filepath.Join(v.root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(v.root, "private/key.txt"), filepath.Join(v.root, "docs/key.txt")); err != nil {
		t.Fatal(err)
	}
	v.write(v.paths.User, "[[rule]]\nallow = \"Read(docs/**)\"\n")
	cfg := v.config(v.load(), ModeCustom)
	if d := Evaluate(cfg, Request{Tool: ToolRead, Path: "docs/key.txt", Cwd: v.root}); d.Effect == Allow {
		t.Errorf("allow through a symlink out of docs: %v", d)
	}
}

func TestMatchOtherTools(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, `[[rule]]
allow = ["WebFetch(domain:docs.rs)", "WebFetch(domain:*.golang.org)", "mcp__fs__read"]
[[rule]]
deny = ["WebFetch(domain:evil.example)", "mcp__shell__run(*)"]
`)
	cfg := v.config(v.load(), ModeDefault)
	tests := []struct {
		req  Request
		want Effect
	}{
		{Request{Tool: "WebFetch", URL: "https://docs.rs/toml"}, Allow},
		{Request{Tool: "WebFetch", URL: "https://DOCS.rs/toml"}, Allow},
		{Request{Tool: "WebFetch", URL: "https://pkg.golang.org/x"}, Allow},
		{Request{Tool: "WebFetch", URL: "https://evil.example/x"}, Deny},
		{Request{Tool: "WebFetch", URL: "https://docs.rs.evil.example/"}, Ask},
		{Request{Tool: "WebFetch", URL: "https://other.org/"}, Ask},
		{Request{Tool: "WebFetch", URL: "::not a url"}, Deny},
		{Request{Tool: "mcp__fs__read", Path: "/x"}, Allow},
		{Request{Tool: "mcp__shell__run"}, Deny},
		{Request{Tool: "mcp__other__x"}, Ask},
	}
	for _, tt := range tests {
		tt.req.Cwd = v.root
		if d := Evaluate(cfg, tt.req); d.Effect != tt.want {
			t.Errorf("%s %s: %v, want %s", tt.req.Tool, tt.req.URL, d, tt.want)
		}
	}
}

func TestPlanModeRules(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, `[plan]
file = "PLAN.md"
tools = ["TodoWrite"]
[[rule]]
allow = ["Bash(*)", "Write(*)"]
`)
	l := v.load()
	cfg := v.config(l, ModePlan)
	if cfg.PlanFile != filepath.Join(v.root, "PLAN.md") {
		t.Fatalf("plan file = %q", cfg.PlanFile)
	}
	tests := []struct {
		req  Request
		want Effect
		code string
	}{
		{Request{Tool: ToolWrite, Path: "PLAN.md"}, Allow, "plan.file"},
		{Request{Tool: ToolWrite, Path: "main.go"}, Deny, "mode.deny"},
		{Request{Tool: ToolBash, Command: "make"}, Deny, "mode.deny"},
		{Request{Tool: ToolBash, Command: "echo plan > PLAN.md"}, Allow, ""},
		{Request{Tool: "TodoWrite"}, Allow, "plan.tool"},
		{Request{Tool: ToolRead, Path: "main.go"}, Allow, "mode.allow"},
	}
	for _, tt := range tests {
		tt.req.Cwd = v.root
		d := Evaluate(cfg, tt.req)
		if d.Effect != tt.want || tt.code != "" && d.Code != tt.code {
			t.Errorf("%+v: %v, want %s %s", tt.req, d, tt.want, tt.code)
		}
	}
}

func TestConfigDanger(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, `[[danger]]
pattern = '^terraform (destroy|apply -auto-approve)'
reason = "changes live infrastructure."
[[rule]]
allow = "Bash(*)"
`)
	cfg := v.config(v.load(), ModeBypass)
	for _, cmd := range []string{"terraform destroy", "sudo terraform destroy", "/usr/local/bin/terraform apply -auto-approve", "bash -c 'terraform destroy'"} {
		d := v.bash(cfg, cmd)
		if d.Effect != Deny || d.Code != "danger.config" || d.Layer != LayerDanger || d.Rule == nil || d.Rule.Line != 1 {
			t.Errorf("%s: %+v", cmd, d)
		}
		if !strings.HasSuffix(d.Message, "changes live infrastructure") {
			t.Errorf("%s: message %q", cmd, d.Message)
		}
	}
	if d := v.bash(cfg, "terraform plan"); d.Effect != Allow {
		t.Errorf("terraform plan: %v", d)
	}
	ref, ok := cfg.Rules.Danger("terraform destroy -target x")
	if !ok || ref.Source != SourceUser {
		t.Errorf("Danger = %v, %v", ref, ok)
	}
}

func TestOverlap(t *testing.T) {
	tok := func(s string) []int32 {
		var out []int32
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '*':
				out = append(out, tokStar)
			case ' ':
				out = append(out, tokSep)
			default:
				out = append(out, int32(s[i]))
			}
		}
		return out
	}
	tests := []struct {
		a, b string
		want bool
	}{
		{"git push", "git push", true},
		{"git push *", "git *", true},
		{"git push", "git pull", false},
		{"git push", "*", true},
		{"a*c", "ab*", true},
		{"abc", "ab", false},
		{"ab", "a*b*", true},
		{"x", "", false},
		{"", "*", true},
		{"*", "", true},
		{"a*b", "a*c", false},
		{"ab*", "ac*", false},
		{"*x*", "y*x*z", true},
		// Past the work bound a rule is taken to match, unless the
		// literal ends already disagree (what the rule index's quick
		// reject assumes).
		{"git push *", "git status * " + strings.Repeat("A ", 300000), false},
		{"git push * x", "git push * " + strings.Repeat("A ", 300000) + "y", false},
		{"git push * " + strings.Repeat("* B ", 3000) + "*", "git push * " + strings.Repeat("A ", 3000) + "*", true},
	}
	for _, tt := range tests {
		if got := overlap(tok(tt.a), tok(tt.b)); got != tt.want {
			t.Errorf("overlap(%q, %q) = %v", tt.a, tt.b, got)
		}
		if !strings.Contains(tt.b, "*") {
			if got := glob(tok(tt.a), tok(tt.b)); got != tt.want {
				t.Errorf("glob(%q, %q) = %v", tt.a, tt.b, got)
			}
		}
	}
}

// TestFileGlobPrecheck: the literal pre-check never rejects a path the glob
// itself matches.
func TestFileGlobPrecheck(t *testing.T) {
	for _, tt := range []struct{ glob, path string }{
		{"**/*.pem", "/a/b/key.pem"},
		{"**/.env.*", "/p/.env.local"},
		{"**/[abcdef]x", "/p/ax"},
		{"**/{secret,token}s.txt", "/p/tokens.txt"},
		{"**/x\\*y", "/p/x*y"},
		{"/home/u/.ssh/id_*", "/home/u/.ssh/id_rsa/sub"},
		{"**/a[0-9]b*c", "/p/a7bzzc"},
	} {
		g := newFileGlob(tt.glob)
		if !doublestar.MatchUnvalidated(tt.glob, tt.path) && !doublestar.MatchUnvalidated(g.below, tt.path) {
			t.Fatalf("bad case: %s does not match %s", tt.glob, tt.path)
		}
		m := &fileMatcher{globs: []fileGlob{g}}
		if !m.matchPath(tt.path, false) || !m.matchPath(tt.path, true) {
			t.Errorf("%s: the pre-check (prefix %q, contains %q) rejects %s", tt.glob, g.prefix, g.contains, tt.path)
		}
		if up := strings.ToUpper(tt.path); !m.matchPath(up, true) {
			t.Errorf("%s: the folded pre-check (prefix %q, contains %q) rejects %s", tt.glob, g.fold.prefix, g.fold.contains, up)
		}
	}
}

// FuzzFileGlobPrecheck: for any glob and path, the literal pre-check never
// rejects a path that doublestar matches (a rejected match would be a deny
// rule that silently fails to apply).
func FuzzFileGlobPrecheck(f *testing.F) {
	f.Add("**/*.pem", "/a/key.pem")
	f.Add("**/[ab]c{d,e}\\*", "/x/acd*")
	f.Add("/home/u/.ssh/id_*", "/home/u/.ssh/id_rsa")
	f.Fuzz(func(t *testing.T, glob, path string) {
		// Config files are UTF-8 (TOML), so a pattern is valid UTF-8; a
		// path on disk may not be. matchPath takes "" as no path.
		if !doublestar.ValidatePattern(glob) || !utf8.ValidString(glob) || strings.ContainsRune(glob, utf8.RuneError) || path == "" {
			return
		}
		g := newFileGlob(glob)
		if !doublestar.MatchUnvalidated(g.glob, path) && !doublestar.MatchUnvalidated(g.below, path) {
			return
		}
		m := &fileMatcher{globs: []fileGlob{g}}
		if !m.matchPath(path, false) {
			t.Errorf("%q matches %q but the pre-check (prefix %q, contains %q) rejects it", glob, path, g.prefix, g.contains)
		}
		// Folded, the glob still matches the path (a deny rule never
		// matches less for ignoring case).
		if !m.matchPath(path, true) {
			t.Errorf("%q matches %q but not regardless of case (prefix %q, contains %q)", glob, path, g.fold.prefix, g.fold.contains)
		}
	})
}

// TestRecursiveReads: a read of a whole tree (grep -r, rg, diff, git grep
// --no-index, cp -r) meets the Read rules of the files below it on disk,
// and the message says how to leave them out.
func TestRecursiveReads(t *testing.T) {
	v := newCfgEnv(t)
	for _, f := range []string{".env", "src/a.go", "clean/a.go", "clean/.env.example", "clean/certs/dev.pem", "sub/x.txt"} {
		v.write(filepath.Join(v.root, f), "x")
	}
	for _, f := range []string{".ssh/id_rsa", ".ssh/id_rsa.pub", "keys/deploy.key"} {
		v.write(filepath.Join(v.home, f), "x")
	}
	// A symlink below the tree counts by where it points; a symlinked
	// directory elsewhere is walked too.
	for _, l := range [][2]string{
		{filepath.Join(v.home, ".ssh", "id_rsa"), "links/file/innocent.txt"},
		{filepath.Join(v.home, "keys"), "links/dir/k"},
		{filepath.Join(v.root, "src"), "links/loop/src"},
		{filepath.Join(v.root, "links", "loop"), "links/loop/up"},
	} {
		if err := os.MkdirAll(filepath.Join(v.root, filepath.Dir(l[1])), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(l[0], filepath.Join(v.root, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	cfg := v.config(v.load(), ModeDefault)
	tests := []struct {
		cmd  string
		want Effect
		msg  string // a part of the message
	}{
		{"grep -r SECRET .", Deny, "grep reads everything under ., including .env; leave it out with grep -r --exclude=.env, or use rg"},
		{"grep -rn SECRET", Deny, "including .env"},
		{"grep -r --exclude=.env SECRET .", Deny, "including links/"},
		{"grep -r --exclude=.env --exclude-dir=links SECRET .", Allow, ""},
		{"grep -r --exclude='.env*' --exclude-dir=links SECRET .", Allow, ""},
		{"grep -r --include='*.go' SECRET .", Allow, ""},
		{"grep -r --include='*.go' --include=innocent.txt SECRET .", Deny, "links/file/innocent.txt"},
		{"grep -r --exclude-dir=links x .", Deny, ""},
		{"grep -rn foo src", Allow, ""},
		{"grep -rn foo clean", Allow, ""}, // .env.example and a pem inside the project are allowed
		{"grep -R . ~/.ssh", Deny, "including " + filepath.Join(v.home, ".ssh") + "/id_rsa"},
		{"grep -r x links/file", Deny, "links/file/innocent.txt"},
		{"grep -r x links/dir", Deny, "links/dir/k/deploy.key"},
		{"grep -r x links/loop", Allow, ""},
		{"grep x nothing.txt src/a.go", Allow, ""},
		{"diff -rN ~/.ssh sub", Deny, "compare the files by name"},
		{"diff -N ~/.ssh sub", Deny, ""},
		{"diff -u src/a.go clean/a.go", Allow, ""},
		{"rg foo", Deny, "links/"},
		{"rg -g '!links' foo", Allow, ""},
		{"rg foo src clean", Allow, ""},
		{"rg --hidden foo", Deny, "-g '!.env'"},
		{"rg -uu foo", Deny, ""},
		{"rg --no-ignore foo src", Allow, ""},
		{"rg -g '.e*' foo", Deny, ""},
		{"rg --hidden -g '!.env' -g '!links' foo", Allow, ""},
		{"rg foo ~/.ssh", Deny, "-g '!id_rsa'"},
		{"git grep --no-index foo", Deny, ""},
		{"git grep -n foo", Allow, ""},
		{"git diff --no-index src/a.go .env", Deny, ""},
		{"git blame --contents .env src/a.go", Deny, ""},
		{"git show HEAD:.env", Deny, ""},
		{"git show :.env", Deny, ""},
		{"git cat-file -p HEAD:.env", Deny, ""},
		{"git log -L1,5:.env", Deny, ""},
		{"git show HEAD:src/a.go", Allow, ""},
		{"tree --fromfile .env", Deny, ""},
		{"tree -a", Allow, ""},
		{"cp -r ~/.ssh keys", Deny, ""},
		{"fmt .env", Deny, ""},
		{"fold -w 80 .env", Deny, ""},
		{"expand .env", Deny, ""},
		{"shasum .env", Deny, ""},
		{"cat .ENV", Deny, ""},
		{"cat ~/.SSH/ID_RSA", Deny, ""},
		{"cat ~/.ssh/ID_RSA.pub", Deny, ""}, // the allow carve-out keeps its case
	}
	for _, tt := range tests {
		d := v.bash(cfg, tt.cmd)
		if d.Effect != tt.want || tt.msg != "" && !strings.Contains(d.Message, tt.msg) {
			t.Errorf("%s: %s %s: %s; want %s %q", tt.cmd, d.Effect, d.Code, d.Message, tt.want, tt.msg)
		}
	}
	if d := v.bash(cfg, "grep -rn foo src"); !d.Explicit || d.Layer != LayerSafe {
		t.Errorf("grep -rn foo src: %+v, want an explicit safe allow", d)
	}

	// An ignore file's `!` line brings hidden files back for rg, from the
	// directory searched or one above it.
	for _, tt := range []struct {
		file, text, cmd string
		want            Effect
	}{
		{"sub/.gitignore", "!.env.example\n", "rg -g '!links' foo", Allow},
		{".gitignore", "node_modules\n!.env\n", "rg -g '!links' foo", Deny},
		{".gitignore", "node_modules\n!.env\n", "rg foo src", Allow},
		{"sub/.env", "x", "rg foo sub", Deny}, // !.env above sub
		{".gitignore", "node_modules\n", "rg foo sub", Allow},
		{".ignore", "!other/.env\n", "rg foo sub", Allow},
		{".ignore", "!sub/.env\n", "rg foo sub", Deny},
		{".ignore", "!/sub/\n", "rg foo sub", Allow}, // sub is not hidden; its .env still is
		{".ignore", "", "rg foo sub", Allow},
		{".git/info/exclude", "!.e*\n", "rg foo sub", Deny},
	} {
		v.write(filepath.Join(v.root, tt.file), tt.text)
		if d := v.bash(cfg, tt.cmd); d.Effect != tt.want {
			t.Errorf("%s with %s %q: %v, want %s", tt.cmd, tt.file, tt.text, d, tt.want)
		}
	}

	// A glob names directories that are read whole too: expanded as bash
	// does, a directory with a secret below it is denied, one
	// without is a plain read.
	if d := v.bash(cfg, "grep -r x su*"); d.Effect != Deny || !strings.Contains(d.Message, "sub/.env") {
		t.Errorf("grep -r x su*: %v", d)
	}
	if d := v.bash(cfg, "grep -r x cle*"); d.Effect != Allow {
		t.Errorf("grep -r x cle*: %v", d)
	}
}

// TestRecursiveReadLayers: the files below a tree are each judged as a
// read of their own would be, and the strictest of them decides.
func TestRecursiveReadLayers(t *testing.T) {
	v := newCfgEnv(t)
	for _, f := range []string{"secrets/a.txt", "docs/.env", "docs/x.md", "pub/ok.txt"} {
		v.write(filepath.Join(v.root, f), "x")
	}
	v.write(v.paths.User, `[[rule]]
ask = "Read(secrets)"
[[rule]]
allow = "Read(docs/**)"
`)
	cfg := v.config(v.load(), ModeDefault)
	for _, tt := range []struct {
		cmd  string
		want Effect
	}{
		{"grep -r x secrets", Ask},
		{"grep -r x docs", Allow}, // the user's allow decides docs/.env before the default deny
		{"grep -r x pub", Allow},
		{"grep -r x .", Ask},
	} {
		if d := v.bash(cfg, tt.cmd); d.Effect != tt.want {
			t.Errorf("%s: %v, want %s", tt.cmd, d, tt.want)
		}
	}
	v.write(filepath.Join(v.root, ".env"), "x")
	if d := v.bash(cfg, "grep -r x ."); d.Effect != Deny || d.Rule == nil || d.Rule.Rule != "Read(.env)" {
		t.Errorf("grep -r x . with .env: %v", d)
	}
}

// TestRecursiveReadBound: a walk cut short, having found no denied file,
// leaves the read unknown: it asks, never allows.
func TestRecursiveReadBound(t *testing.T) {
	v := newCfgEnv(t)
	for i := 0; i < 30; i++ {
		v.write(filepath.Join(v.root, "big", strconv.Itoa(i)+".txt"), "x")
	}
	cfg := v.config(v.load(), ModeDefault)
	defer func(n int) { maxTreeEntries = n }(maxTreeEntries)
	maxTreeEntries = 10
	d := v.bash(cfg, "grep -r x big")
	if d.Effect != Ask || !strings.Contains(d.Message, "more than 10 entries") {
		t.Errorf("grep -r x big: %v", d)
	}
	maxTreeEntries = 100
	if d := v.bash(cfg, "grep -r x big"); d.Effect != Allow {
		t.Errorf("grep -r x big under the bound: %v", d)
	}
	if os.Getuid() == 0 {
		return // root lists any directory
	}
	locked := filepath.Join(v.root, "big", "locked")
	if err := os.Mkdir(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	if d := v.bash(cfg, "grep -r x big"); d.Effect != Ask || !strings.Contains(d.Message, "cannot be listed") {
		t.Errorf("grep -r x big with a locked dir: %v", d)
	}
}

// TestUntrustedOnlyTightens: a project file nobody trusted may only
// tighten. Its ask rules apply, but they never stand in front of a deny of
// a lower layer (the default secrets), whatever the mode.
func TestUntrustedOnlyTightens(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.projectFile(), "[[rule]]\nask = [\"Read(**)\", \"Read(/**)\", \"Bash(cat *)\"]\n")
	v.write(filepath.Join(v.root, ".env"), "AWS=1\n")
	for _, m := range []Mode{ModeDefault, ModeBypass} {
		cfg := v.config(v.load(), m)
		for _, cmd := range []string{"cat .env", "cat ~/.ssh/id_rsa"} {
			if d := v.bash(cfg, cmd); d.Effect != Deny || d.Code != "rule.deny" || d.Rule == nil || d.Rule.Source != SourceDefault {
				t.Errorf("%s: %s: %v (rule %+v), want the default layer's deny", m, cmd, d, d.Rule)
			}
		}
		// Where no lower layer denies, the untrusted ask holds.
		if d := v.bash(cfg, "cat README.md"); m == ModeDefault && (d.Effect != Ask || d.Code != "rule.ask") {
			t.Errorf("%s: cat README.md: %v, want the project's ask", m, d)
		}
	}
}
