package policy

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestSecretGlobs: the default policy's secrets, and ReadDenied honours
// the allow exceptions carved out of them.
func TestSecretGlobs(t *testing.T) {
	v := newCfgEnv(t)
	l := v.load()
	cfg := v.config(l, ModeDefault)
	globs := l.Rules.SecretGlobs()
	if !slices.Contains(globs, filepath.ToSlash(v.home)+"/.ssh/id_*") || !slices.Contains(globs, "**/.env") {
		t.Errorf("globs %q lack the ssh keys or .env", globs)
	}
	for path, want := range map[string]bool{
		filepath.Join(v.home, ".ssh", "id_rsa"):     true,
		filepath.Join(v.home, ".ssh", "id_rsa.pub"): false,
		filepath.Join(v.root, ".env"):               true,
		filepath.Join(v.root, ".env.example"):       false,
		filepath.Join(v.root, "main.go"):            false,
	} {
		if got := ReadDenied(cfg, path); got != want {
			t.Errorf("ReadDenied(%s) = %v, want %v", path, got, want)
		}
	}
}

// TestSandboxAutoAllow: only asks that come from the mode fallback become
// sandbox.auto_allow, in the full tier; every other ask and every deny
// stays.
func TestSandboxAutoAllow(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.file(SourceUser), `[sandbox]
unconfined = ["Bash(docker *)"]

[[rule]]
ask = "Bash(make deploy *)"
`)
	l := v.load()
	cfg := v.config(l, ModeDefault)
	cfg.LookPath = func(name string) (string, error) { return "/usr/bin/" + name, nil }
	tests := []struct {
		cmd, tier string
		network   bool
		want      string // the code after auto-allow
	}{
		{cmd: "python3 reproduce_issue.py", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "pytest -x tests/", tier: "full", want: "sandbox.auto_allow"},
		{cmd: `python3 -c 'open("/outside/x","w")'`, tier: "full", want: "sandbox.auto_allow"},
		{cmd: "python3 x.py", tier: "landlock", want: "mode.ask"},
		{cmd: "python3 x.py", tier: "none", want: "mode.ask"},
		{cmd: "ls", tier: "full", want: "safe.read_only"},
		{cmd: "make deploy now", tier: "full", want: "rule.ask"},
		{cmd: "echo x >> .git/hooks/pre-commit", tier: "full", want: "sandbox.protected"},
		{cmd: "rm -rf .git", tier: "full", want: "sandbox.root_delete"},
		{cmd: `echo x > "$OUT"`, tier: "full", want: "sandbox.runtime_target"},
		{cmd: "echo 'unterminated", tier: "full", want: "parse.error"},
		{cmd: "rm -rf /", tier: "full", want: "danger.rm_root"},
		{cmd: "cat .env", tier: "full", want: "rule.deny"},
		{cmd: "curl https://example.com", tier: "full", want: "sandbox.no_network"},
		{cmd: "python3 x.py && git push origin main", tier: "full", want: "sandbox.no_network"},
		{cmd: "pip install requests", tier: "full", want: "sandbox.no_network"},
		{cmd: "curl https://example.com", tier: "full", network: true, want: "sandbox.auto_allow"},
		{cmd: "docker run alpine", tier: "full", want: "mode.ask"},
		{cmd: "git reset --hard HEAD~1", tier: "full", want: "mode.ask"},
		{cmd: "git -C . reset --ha", tier: "full", want: "mode.ask"},
		{cmd: "make && git clean -fdx", tier: "full", want: "mode.ask"},
		{cmd: "git checkout -- src/main.go", tier: "full", want: "mode.ask"},
		{cmd: "find . -name '*.pyc' -delete", tier: "full", want: "mode.ask"},
		{cmd: "git checkout -b feature", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git reset HEAD file.txt", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git read-tree -u -m HEAD", tier: "full", want: "mode.ask"},
		{cmd: "git checkout-index -a -f", tier: "full", want: "mode.ask"},
		{cmd: "git update-ref refs/heads/main HEAD~3", tier: "full", want: "mode.ask"},
		{cmd: "git reflog expire --expire=now --all", tier: "full", want: "mode.ask"},
		{cmd: "git gc --prune=now", tier: "full", want: "mode.ask"},
		{cmd: "git checkout HEAD~1 src/main.go", tier: "full", want: "mode.ask"},
		{cmd: "git branch -f main HEAD~2", tier: "full", want: "mode.ask"},
		{cmd: "git branch --delete --force old", tier: "full", want: "mode.ask"},
		{cmd: "git stash pop", tier: "full", want: "mode.ask"},
		{cmd: "git rm -rf src", tier: "full", want: "mode.ask"},
		{cmd: "git gc", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git branch feature", tier: "full", want: "sandbox.auto_allow"},
		// Options read as git reads them: a value is no operand,
		// abbreviations and clusters count, negations undo.
		{cmd: "git checkout -b feat origin/main", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git checkout -bfeat origin/main", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git checkout --track -b feat origin/main", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git checkout --orphan gh-pages", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git checkout main", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git checkout -q --detach v1.2", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git checkout --no-force main", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git checkout --conflict merge main", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git checkout -B feat origin/main", tier: "full", want: "mode.ask"},
		{cmd: "git checkout -qf main", tier: "full", want: "mode.ask"},
		{cmd: "git checkout --for main", tier: "full", want: "mode.ask"},
		{cmd: "git checkout main --force", tier: "full", want: "mode.ask"},
		{cmd: "git checkout --theirs src/main.go", tier: "full", want: "mode.ask"},
		{cmd: "git checkout -b feat main src/main.go", tier: "full", want: "mode.ask"},
		{cmd: "git checkout README.md", tier: "full", want: "mode.ask"},
		{cmd: "cd sub && git checkout main.go", tier: "full", want: "mode.ask"},
		{cmd: "git checkout .", tier: "full", want: "mode.ask"},
		{cmd: "git checkout ':/src'", tier: "full", want: "mode.ask"},
		{cmd: `git checkout "$B"`, tier: "full", want: "mode.ask"},
		{cmd: "git checkout --frobnicate main", tier: "full", want: "mode.ask"},
		{cmd: "git checkout --o main", tier: "full", want: "mode.ask"},
		{cmd: "git switch -c feat origin/main", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git switch main", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git switch -C feat origin/main", tier: "full", want: "mode.ask"},
		{cmd: "git switch --discard main", tier: "full", want: "mode.ask"},
		{cmd: "git branch -d merged", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git branch -u origin/main", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git branch -dr origin/old", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git branch -M main", tier: "full", want: "mode.ask"},
		{cmd: "git branch -vD old", tier: "full", want: "mode.ask"},
		{cmd: "git reset --soft HEAD~1", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git reset --ke HEAD~1", tier: "full", want: "mode.ask"},
		{cmd: "git rm --cached -r build", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git rm old.txt", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git rm -f old.txt", tier: "full", want: "mode.ask"},
		{cmd: "git gc --no-prune", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git gc --pr", tier: "full", want: "mode.ask"},
		{cmd: "git stash push -m pop", tier: "full", want: "sandbox.auto_allow"},
		{cmd: "git stash drop", tier: "full", want: "mode.ask"},
		{cmd: "git read-tree -mu HEAD", tier: "full", want: "mode.ask"},
	}
	v.write(filepath.Join(v.root, "README.md"), "x")
	v.write(filepath.Join(v.root, "sub", "main.go"), "x")
	for _, tt := range tests {
		req := Request{Tool: ToolBash, Command: tt.cmd, Cwd: v.root}
		d := Evaluate(cfg, req)
		tier := tt.tier
		got := Decide(cfg, Query{Requests: []Request{req}, Enforce: EnforceQuery{
			Settings:   EnforceSettings{AutoAllow: true, Network: tt.network, Unconfined: l.Enforce.Unconfined},
			ProbedTier: func() string { return tier }}}).Decision
		if got.Code != tt.want {
			t.Errorf("%q (tier %s, network %v): %s %s, want %s (%s)", tt.cmd, tt.tier, tt.network, got.Effect, got.Code, tt.want, got.Message)
		}
		if d.Effect == Deny && got.Effect != Deny || got.Code == "sandbox.auto_allow" && got.Effect != Allow ||
			got.Code != "sandbox.auto_allow" && got.Effect == Allow && d.Effect != Allow {
			t.Errorf("%q: %s became %s", tt.cmd, d.Effect, got.Effect)
		}
	}
}
