package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gatekeep/gatekeep/pathguard"
)

func TestSuggestOtherTools(t *testing.T) {
	cfg := &Config{Mode: ModeDefault}
	for _, tt := range []struct {
		req  Request
		want string
	}{
		{Request{Tool: "mcp__github__create_issue", Cwd: "/"}, "mcp__github__create_issue"},
		{Request{Tool: "WebFetch", URL: "https://Docs.Example.com/x?y", Cwd: "/"}, "WebFetch(domain:docs.example.com)"},
	} {
		got := Suggest(cfg, tt.req, "/", "/", "/x.toml")
		if len(got.Rules) != 1 || got.Rules[0] != tt.want {
			t.Errorf("Suggest(%s) = %+v, want %s", tt.req.Tool, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{home, filepath.Join(proj, ".gatekeep"), filepath.Join(proj, ".git", "hooks")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	realProj, _ := filepath.EvalSymlinks(proj)
	g, _ := pathguard.New([]string{proj}, pathguard.Options{Home: home})
	loaded, err := testLoad(proj, home, TestPaths{Managed: filepath.Join(dir, "none"), User: filepath.Join(dir, "none2"), Trust: filepath.Join(dir, "trust.json")})
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(proj, ".gatekeep", "config.local.toml")
	tests := []struct {
		cmd         string
		rules       []string
		unavailable bool
	}{
		{"npm run test -- --watch", []string{"Bash(npm run test *)"}, false},
		{"git push origin main", []string{"Bash(git push *)"}, false},
		{"git status && npm publish", []string{"Bash(npm publish *)"}, false},
		{"python3 -c 'print(1)'", []string{`Bash(python3 -c 'print(1)')`}, false},
		{"bash -c 'make x'", []string{"Bash(make x *)"}, false},
		{"pytest tests/test_a.py -k '*x*'", []string{"Bash(pytest *)"}, false},
		{"sudo npm publish", []string{"Bash(sudo npm publish)", "Bash(npm publish *)"}, false},
		{"echo hi > notes.md", []string{"Write(" + realProj + "/notes.md)"}, false},
		{"echo hi > '[x]*.md'", []string{`Write(` + realProj + `/\[x\]\*.md)`}, false},
		{"echo hi > .git/hooks/pre-commit", nil, true},
		{"echo hi > $OUT", nil, true},
		{"$CMD run", nil, true},
		{"PATH=/tmp make", nil, true},
		{"rm -rf /", nil, true},
		{"ls", nil, true},
	}
	for _, tt := range tests {
		cfg := &Config{Mode: ModeDefault, Guard: g, Home: home}
		loaded.Apply(cfg)
		got := Suggest(cfg, Request{Tool: ToolBash, Command: tt.cmd, Cwd: proj}, proj, home, local)
		if diff := cmp.Diff(tt.rules, got.Rules); diff != "" || (got.Unavailable != "") != tt.unavailable {
			t.Errorf("Suggest(%q) = %+v (-want +got rules):\n%s", tt.cmd, got, diff)
		}
	}
}

// TestExplicit: an allow is explicit only when every part was allowed by
// gatekeep's own judgement; the files a safe command reads go with it.
func TestExplicit(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	g, _ := pathguard.New([]string{dir}, pathguard.Options{Home: home})
	loaded, err := testLoad(dir, home, TestPaths{Managed: dir + "/m", User: dir + "/u", Trust: dir + "/t"})
	if err != nil {
		t.Fatal(err)
	}
	rules, err := loaded.Rules.withLocal([]string{"Bash(make lint)"}, dir, home, "local")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		mode     Mode
		cmd      string
		explicit bool
	}{
		{ModeDefault, "cat README.md | head -5", true},
		{ModeDefault, "git status && ls -la", true},
		{ModeDefault, "ls 2>/dev/null", true},
		{ModeDefault, "make lint", true},
		{ModeBypass, "python3 x.py", false},
		{ModeBypass, "ls && python3 x.py", false},
		{ModeAcceptEdits, "echo hi > notes.md", false},
		{ModeAcceptEdits, "mkdir -p a/b", false},
	} {
		cfg := &Config{Mode: tt.mode, Guard: g, Home: home, Rules: rules}
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tt.cmd, Cwd: dir})
		if d.Effect != Allow || d.Explicit != tt.explicit {
			t.Errorf("%s %q: %v explicit %v, want allow explicit %v", tt.mode, tt.cmd, d.Effect, d.Explicit, tt.explicit)
		}
	}
}

// TestSuggestCodeOptions: the rule "always allow" saves for
// `go test ./x`, `make test` and `ssh host uptime`, loaded back, allows the
// identical call and none of the variants whose options run other code;
// a call that holds such an option is saved as its exact form.
func TestSuggestCodeOptions(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	g, _ := pathguard.New([]string{dir}, pathguard.Options{Home: home})
	loaded, err := testLoad(dir, home, TestPaths{Managed: dir + "/m", User: dir + "/u", Trust: dir + "/t"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cmd      string
		rule     string
		allowed  []string
		notAllow []string
	}{
		{"go test ./x", "Bash(go test *)", []string{"go test ./x", "go test -run TestA -v ./...", "CI=true go test ./x"},
			[]string{`go test -exec "sh -c id" ./...`, "go test -toolexec=/tmp/x ./...", "go test --exec=x ./...",
				"go test -ldflags=-extld=/tmp/x ./...", "GOFLAGS=-exec=x go test ./x", "go test $FLAGS ./x"}},
		{"make test", "Bash(make test *)", []string{"make test", "make test -j4", "CI=true make test"},
			[]string{"make test --eval='x:;id' x", "make test --ev='x:;id' x", "make test -f /tmp/x.mk",
				"make test -C /tmp", "make -Ctmp test", "make test SHELL=/tmp/x", "MAKEFLAGS=--eval=x make test"}},
		{"ssh host uptime", "Bash(ssh host *)", []string{"ssh host uptime", "ssh host -o ConnectTimeout=5 uptime"},
			[]string{"ssh host -oProxyCommand=id", "ssh host -o ProxyCommand=id uptime", "ssh host -o 'LocalCommand id' x",
				"ssh host -F /tmp/cfg uptime"}},
		{`go test -exec "sh -c id" ./x`, `Bash(go test -exec 'sh -c id' ./x)`, []string{`go test -exec "sh -c id" ./x`},
			[]string{`go test -exec "sh -c id" ./y`, `go test -exec "sh -c pwd" ./x`}},
		// Options that write outside the project are writes the sandbox
		// judges; those that read files are reads the Read rules judge;
		// those that run what they name, or that a complete model does
		// not list, are not covered by `*`.
		{"go test ./y", "Bash(go test *)", []string{"go test -cover ./y", "go test -count=1 -race ./y"},
			[]string{"go test -coverprofile=" + home + "/.bashrc ./y", "go test -c -o " + home + "/.local/bin/ls ./y",
				"go test -cpuprofile X -outputdir " + home + " ./y", "go test ./y -args -test.coverprofile=/etc/x",
				"go test -C /tmp ./y"}},
		{"git commit -m x", "Bash(git commit *)", []string{"git commit -m x", "git commit -am x", "git commit --amend --no-edit"},
			[]string{"git commit --allow-empty -F ~/.ssh/id_rsa", "git commit -t ~/.ssh/id_ed25519", "git commit --fil=" + home + "/.ssh/id_rsa",
				"git commit --frobnicate", "git commit --help"}},
		{"git fetch origin", "Bash(git fetch *)", []string{"git fetch origin", "git fetch --prune --tags origin main"},
			[]string{"git fetch --upload-pack='touch x; git-upload-pack' origin", "git fetch --upl=x origin",
				"git -c core.sshCommand=x fetch origin"}},
		{"git push origin main", "Bash(git push *)", []string{"git push origin main", "git push -u origin feat"},
			[]string{"git push --receive-pack='touch x' origin", "git push --exec=x origin", "git push --rece=x origin"}},
		{"cargo test", "Bash(cargo test *)", []string{"cargo test", "cargo test --release -p foo -- --nocapture", "cargo test -q --all-features"},
			[]string{`cargo test --config 'target.x.runner=["sh","-c","id"]'`, "cargo test -Z unstable-options",
				"cargo test --manifest-path /tmp/x/Cargo.toml", "cargo test --target-dir /tmp/t", "cargo test -- --logfile /tmp/x",
				"RUSTC_WRAPPER=/tmp/x cargo test", "CARGO_BUILD_RUSTC_WRAPPER=/tmp/x cargo test"}},
		{"npm test", "Bash(npm test *)", []string{"npm test", "npm test -- --grep x", "npm test --silent"},
			[]string{"npm test --node-options=--import=data:x", "npm test --script-shell=/tmp/x", "npm test --userconfig=/tmp/x",
				"npm test --globalconfig /tmp/x", "npm test --prefix /tmp", "npm_config_script_shell=/tmp/x npm test"}},
		{"pytest", "Bash(pytest *)", []string{"pytest", "pytest -q -x tests/test_a.py::test_b", "pytest -p no:cacheprovider", "pytest -k 'not slow' -v"},
			[]string{"pytest --basetemp=" + home, "pytest --junitxml=/tmp/x.xml", "pytest --report-log=/tmp/x", "pytest -p evil",
				"pytest -c /tmp/x.ini", "pytest --rootdir=/tmp", "pytest --confcutdir=/", "pytest /tmp/evil_test.py",
				"pytest ../other/test_x.py", "pytest -o addopts=-pevil", "PYTEST_ADDOPTS=-pevil pytest"}},
	} {
		cfg := &Config{Mode: ModeDefault, Guard: g, Home: home}
		loaded.Apply(cfg)
		got := Suggest(cfg, Request{Tool: ToolBash, Command: tt.cmd, Cwd: dir}, dir, home, dir+"/local.toml")
		if len(got.Rules) != 1 || got.Rules[0] != tt.rule {
			t.Errorf("Suggest(%q) = %+v, want %s", tt.cmd, got, tt.rule)
			continue
		}
		rules, err := loaded.Rules.withLocal([]string{got.Rules[0]}, dir, home, "local")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Rules = rules
		for _, c := range tt.allowed {
			if d := Evaluate(cfg, Request{Tool: ToolBash, Command: c, Cwd: dir}); d.Effect != Allow {
				t.Errorf("%s: %q is %v (%s), want allow", tt.rule, c, d.Effect, d.Code)
			}
		}
		for _, c := range tt.notAllow {
			if d := Evaluate(cfg, Request{Tool: ToolBash, Command: c, Cwd: dir}); d.Effect == Allow {
				t.Errorf("%s: %q is allowed (%s), want not", tt.rule, c, d.Code)
			}
		}
	}
}

// TestForcePushSpellings: README's deny rules for force-push,
// next to `allow Bash(git push *)`, hold for every spelling git accepts:
// the option after the operands, in a cluster, abbreviated, and a
// +refspec; --force-with-lease, which README recommends, is not denied.
func TestForcePushSpellings(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	g, _ := pathguard.New([]string{dir}, pathguard.Options{Home: home})
	user := filepath.Join(dir, "user.toml")
	conf := "[[rule]]\nallow = [\"Bash(git push *)\"]\n\n[[rule]]\n" +
		"deny = [\"Bash(git push --force *)\", \"Bash(git push -f *)\"]\nreason = \"force-push rewrites shared history\"\n"
	if err := os.WriteFile(user, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := testLoad(dir, home, TestPaths{Managed: dir + "/m", User: user, Trust: dir + "/t"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Mode: ModeDefault, Guard: g, Home: home}
	loaded.Apply(cfg)
	for _, tt := range []struct {
		cmd  string
		want Effect
	}{
		{"git push origin main", Allow},
		{"git push --force-with-lease origin main", Allow},
		{"git push --force origin main", Deny},
		{"git push origin main --force", Deny},
		{"git push origin +main", Deny},
		{"git push -uf origin main", Deny},
		{"git push --forc origin main", Allow}, // ambiguous: git refuses it, nothing is pushed
		{"git push --for origin main", Allow},  // ambiguous too
		{"git -C . push -f origin main", Deny},
		{"git push -f", Deny},
		{"git push origin main -f", Deny},
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tt.cmd, Cwd: dir})
		if d.Effect != tt.want {
			t.Errorf("%q: %v (%s), want %v", tt.cmd, d.Effect, d.Code, tt.want)
		}
	}
}
