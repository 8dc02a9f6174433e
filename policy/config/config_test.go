package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatekeep/gatekeep/policy"
)

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		toml string
		want []ConfigError // File is filled in; Msg is a substring
	}{
		{
			name: "unknown key names rule index and header line",
			toml: `[[rule]]
allow = "Bash(make *)"

[[rule]]
deny = "Bash(rm *)"

[[rule]]
ask = "Bash(git push *)"

# the fourth
[[rule]]
deny = "Read(secrets/**)"
reasn = "typo"
`,
			want: []ConfigError{{Line: 11, Key: "rule[3]", Msg: `unknown key "reasn" (did you mean "reason"?)`}},
		},
		{
			name: "two effects",
			toml: "[[rule]]\nallow = \"Bash(make)\"\ndeny = \"Bash(make)\"\n",
			want: []ConfigError{{Line: 1, Key: "rule[0]", Msg: "sets allow and deny"}},
		},
		{
			name: "no effect",
			toml: "[[rule]]\nreason = \"x\"\n",
			want: []ConfigError{{Line: 1, Key: "rule[0]", Msg: "no effect"}},
		},
		{
			name: "bad patterns",
			toml: `[[rule]]
deny = ["Bash(git push", "Read([)", "Bash(a; b)", "Bash()", "Bsh(x)", "bash(x)", "WebFetch(example.com)", "Read(~root/x)"]
`,
			want: []ConfigError{
				{Line: 1, Key: "rule[0].deny[0]", Msg: `missing ")"`},
				{Line: 1, Key: "rule[0].deny[1]", Msg: "not a valid glob"},
				{Line: 1, Key: "rule[0].deny[2]", Msg: "one simple command"},
				{Line: 1, Key: "rule[0].deny[3]", Msg: "empty"},
				{Line: 1, Key: "rule[0].deny[4]", Msg: `unknown tool "Bsh"`},
				{Line: 1, Key: "rule[0].deny[5]", Msg: `did you mean "Bash"`},
				{Line: 1, Key: "rule[0].deny[6]", Msg: "domain:HOST"},
				{Line: 1, Key: "rule[0].deny[7]", Msg: "~user"},
			},
		},
		{
			name: "bad mode",
			toml: "# c\nmode = \"yolo\"\n",
			want: []ConfigError{{Line: 2, Key: "mode", Msg: `unknown mode "yolo"`}},
		},
		{
			name: "syntax error line",
			toml: "mode = \"default\"\nallow = = \"Bash\"\n",
			want: []ConfigError{{Line: 2, Key: "allow", Msg: "expected value"}},
		},
		{
			name: "wrong types",
			toml: "mode = 3\n[[rule]]\ndeny = 3\n[[rule]]\nallow = [\"Bash(x)\", 4]\n[prompt]\ntimeout = \"soon\"\n",
			want: []ConfigError{
				{Line: 1, Key: "mode", Msg: "want a string, got an integer"},
				{Line: 2, Key: "rule[0].deny", Msg: "want a string or a list of strings"},
				{Line: 4, Key: "rule[1].allow", Msg: "item 1"},
				{Line: 7, Key: "prompt.timeout", Msg: "does not parse"},
			},
		},
		{
			name: "several problems at once",
			toml: `mod = "plan"
mode = "yolo"

[sandbox]
allowdirs = ["/x"]

[[rule]]
allow = "Bash(x)"
ask = "Bash(y)"

[[danger]]
pattern = "rm (-rf"

[[test]]
tool = "Bash"
input = "ls"
expect = "maybe"
`,
			want: []ConfigError{
				{Line: 1, Msg: `unknown key "mod" (did you mean "mode"?)`},
				{Line: 2, Key: "mode", Msg: "unknown mode"},
				{Line: 5, Key: "sandbox", Msg: `unknown key "allowdirs" (did you mean "allow_dirs"?)`},
				{Line: 7, Key: "rule[0]", Msg: "sets allow and ask"},
				{Line: 11, Key: "danger[0].pattern", Msg: "missing closing )"},
				{Line: 14, Key: "test[0].expect", Msg: `unknown effect "maybe"`},
			},
		},
		{
			name: "disable_bypass outside the managed file",
			toml: "disable_bypass = true\n",
			want: []ConfigError{{Line: 1, Key: "disable_bypass", Msg: "only the managed config"}},
		},
		{
			name: "unknown table",
			toml: "[sandbx]\nallow_dirs = []\n",
			want: []ConfigError{{Line: 1, Msg: `unknown key "sandbx" (did you mean "sandbox"?)`}},
		},
		{
			name: "test entries",
			toml: "[[test]]\ntool = \"Bash\"\n[[test]]\ntool = \"Nope\"\ninput = \"x\"\nexpect = \"allow\"\nmode = \"plan\"\n",
			want: []ConfigError{
				{Line: 1, Key: "test[0]", Msg: "input is missing"},
				{Line: 1, Key: "test[0]", Msg: "expect is missing"},
				{Line: 3, Key: "test[1].tool", Msg: `unknown tool "Nope"`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newCfgEnv(t)
			v.write(v.paths.User, tt.toml)
			l, err := Load(v.opts())
			if err == nil {
				t.Fatalf("Load: no error, want %d", len(tt.want))
			}
			if l != nil {
				t.Errorf("Load returned a config along with errors")
			}
			if !IsConfigError(err) {
				t.Errorf("IsConfigError(%v) = false", err)
			}
			got := ConfigErrors(err)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(got), len(tt.want), err)
			}
			for i, w := range tt.want {
				g := got[i]
				if g.File != v.paths.User || g.Line != w.Line || g.Key != w.Key || !strings.Contains(g.Msg, w.Msg) {
					t.Errorf("error %d = %+v, want line %d key %q msg containing %q", i, *g, w.Line, w.Key, w.Msg)
				}
			}
		})
	}
}

func TestLoadConfigErrorText(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.projectFile(), "[[rule]]\ndeny = \"Bash(x)\"\n[[rule]]\ndeny = \"Bash(y)\"\n[[rule]]\ndeny = \"Bash(z)\"\n[[rule]]\ndeny = \"Bash(w)\"\nreasn = \"typo\"\n")
	_, err := Load(v.opts())
	want := v.projectFile() + `:7: rule[3]: unknown key "reasn" (did you mean "reason"?)`
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v\nwant    %s", err, want)
	}
}

func TestLoadConfigErrorsEveryFile(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.Managed, "mode = \"nope\"\n")
	v.write(v.localFile(), "[[rule]]\n")
	_, err := Load(v.opts())
	got := ConfigErrors(err)
	if len(got) != 2 || got[0].File != v.paths.Managed || got[1].File != v.localFile() {
		t.Fatalf("errors = %v", err)
	}
}

func TestLoadDefaultPolicy(t *testing.T) {
	v := newCfgEnv(t)
	l := v.load()
	if l.Mode != policy.ModeDefault || l.ModeSource != "" {
		t.Errorf("mode = %q from %q", l.Mode, l.ModeSource)
	}
	var n int
	for _, r := range l.Rules.Rules() {
		if r.Ref.Source != policy.SourceDefault || r.Ref.File != DefaultConfigFile || r.Ref.Line == 0 || r.Ref.Reason == "" {
			t.Errorf("default rule %+v", r.Ref)
		}
		n++
	}
	if n == 0 {
		t.Fatal("the default policy has no rules")
	}
	if lints := policy.LintRules(l.Rules); len(lints) != 0 {
		t.Errorf("lints on an empty config: %v", lints)
	}
	if len(l.Warnings) != 0 {
		t.Errorf("warnings: %v", l.Warnings)
	}
	if len(l.Files) != len(policy.Sources) || !l.Files[4].Exists || l.Files[0].Exists {
		t.Errorf("files = %+v", l.Files)
	}
}

func TestLoadSettings(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.Managed, "[audit]\nfile = \"/var/log/gatekeep.jsonl\"\n")
	v.write(v.paths.User, `mode = "acceptEdits"
[sandbox]
allow_dirs = ["~/go/pkg/mod"]
[plan]
file = "notes/PLAN.md"
tools = ["TodoWrite"]
[audit]
file = "~/audit.jsonl"
[prompt]
timeout = "45s"
`)
	v.write(v.localFile(), "mode = \"plan\"\n[sandbox]\nallow_dirs = [\"../shared\"]\n[prompt]\ntimeout = 10\n")
	l := v.load()
	if l.Mode != policy.ModeAcceptEdits || l.ModeSource != policy.SourceUser {
		t.Errorf("mode = %q from %q", l.Mode, l.ModeSource)
	}
	wantDirs := []string{filepath.Join(v.home, "go/pkg/mod"), filepath.Join(filepath.Dir(v.root), "shared")}
	if strings.Join(l.AllowDirs, ",") != strings.Join(wantDirs, ",") {
		t.Errorf("allow dirs = %v, want %v", l.AllowDirs, wantDirs)
	}
	if want := filepath.Join(v.root, "notes/PLAN.md"); l.PlanFile != want {
		t.Errorf("plan file = %q, want %q", l.PlanFile, want)
	}
	if len(l.PlanTools) != 1 || l.PlanTools[0] != "TodoWrite" {
		t.Errorf("plan tools = %v", l.PlanTools)
	}
	if l.AuditFile != "/var/log/gatekeep.jsonl" {
		t.Errorf("audit file = %q (the managed one wins)", l.AuditFile)
	}
	if l.PromptTimeout != 45*time.Second {
		t.Errorf("prompt timeout = %v", l.PromptTimeout)
	}
}

func TestLoadTrustChangesSettings(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.projectFile(), `mode = "acceptEdits"
[sandbox]
allow_dirs = ["/opt/data"]
[plan]
file = "PLAN.md"
[[rule]]
allow = "Bash(*)"
[[rule]]
deny = "Bash(git push *)"
[[danger]]
pattern = "^terraform destroy"
reason = "destroys the environment"
`)
	l := v.load()
	if l.Mode != policy.ModeDefault || len(l.AllowDirs) != 0 || l.PlanFile != "" {
		t.Errorf("untrusted settings applied: mode %q dirs %v plan %q", l.Mode, l.AllowDirs, l.PlanFile)
	}
	if w := noticeTexts(l); len(w) != 1 || len(l.Warnings) != 0 || !strings.Contains(w[0], "is not trusted") || !strings.Contains(w[0], "1 allow rule") ||
		!strings.Contains(w[0], "mode") || !strings.Contains(w[0], "sandbox.allow_dirs") || l.Untrusted[0].SHA256 != l.Files[2].SHA256 {
		t.Errorf("notices = %q, warnings = %q", w, l.Warnings)
	}
	if fi := l.Files[2]; !fi.Exists || !fi.NeedsTrust || fi.Trusted || fi.Changed {
		t.Errorf("project file info = %+v", fi)
	}
	cfg := v.config(l, "")
	if d := v.bash(cfg, "python3 x.py"); d.Effect == policy.Allow {
		t.Errorf("untrusted allow Bash(*) allowed python3: %v", d)
	}
	if d := v.bash(cfg, "git push"); d.Effect != policy.Deny || d.Rule == nil || d.Rule.Source != policy.SourceProject {
		t.Errorf("untrusted deny did not apply: %v", d)
	}
	if d := v.bash(cfg, "terraform destroy -auto-approve"); d.Effect != policy.Deny || d.Code != "danger.config" || d.Layer != policy.LayerDanger {
		t.Errorf("untrusted danger did not apply: %+v", d)
	}

	store := TrustStore{Path: v.paths.Trust}
	if _, err := store.Trust(v.projectFile()); err != nil {
		t.Fatal(err)
	}
	l = v.load()
	if l.Mode != policy.ModeAcceptEdits || len(l.AllowDirs) != 1 || l.PlanFile == "" || len(l.Warnings) != 0 || len(l.Untrusted) != 0 {
		t.Errorf("trusted settings: mode %q dirs %v plan %q warnings %q", l.Mode, l.AllowDirs, l.PlanFile, l.Warnings)
	}
	cfg = v.config(l, policy.ModeDefault)
	if d := v.bash(cfg, "python3 x.py"); d.Effect != policy.Allow || d.Code != "rule.allow" {
		t.Errorf("trusted allow Bash(*) did not allow python3: %v", d)
	}
	if d := v.bash(cfg, "git push origin"); d.Effect != policy.Deny {
		t.Errorf("git push = %v (last rule wins)", d)
	}

	// Editing the file revokes trust.
	v.write(v.projectFile(), "[[rule]]\nallow = \"Bash(*)\"\n# edited\n")
	l = v.load()
	cfg = v.config(l, policy.ModeDefault)
	if d := v.bash(cfg, "python3 x.py"); d.Effect == policy.Allow {
		t.Errorf("edited file still trusted: %v", d)
	}
	if fi := l.Files[2]; fi.Trusted || !fi.Changed {
		t.Errorf("edited project file info = %+v", fi)
	}
	if w := noticeTexts(l); len(w) != 1 || !strings.Contains(w[0], "changed since it was trusted") {
		t.Errorf("notices = %q", w)
	}
}

func noticeTexts(l *Loaded) []string {
	var out []string
	for _, n := range l.Untrusted {
		out = append(out, n.Text)
	}
	return out
}

// TestLoadLocalFileTrust: the local file is the person's own only by a
// recorded fact (gatekeep wrote it, or `gatekeep trust`), never inferred;
// either version is trusted while gatekeep replaces it (Begin, Commit); and
// like the project file it can never set bypassPermissions.
func TestLoadLocalFileTrust(t *testing.T) {
	v := newCfgEnv(t)
	v.foreign[v.localFile()] = true
	v.write(v.localFile(), "mode = \"acceptEdits\"\n[[rule]]\nallow = \"Bash(make *)\"\n")
	l := v.load()
	if l.Mode != policy.ModeDefault || len(l.Untrusted) != 1 || !strings.Contains(l.Untrusted[0].Text, "gatekeep trust "+v.localFile()) {
		t.Errorf("foreign local file: mode %q notices %q", l.Mode, l.Untrusted)
	}
	if d := v.bash(v.config(l, policy.ModeDefault), "make all"); d.Effect == policy.Allow {
		t.Errorf("foreign local allow = %v", d)
	}
	store := TrustStore{Path: v.paths.Trust}
	if _, err := store.Trust(v.localFile()); err != nil {
		t.Fatal(err)
	}
	l = v.load()
	if d := v.bash(v.config(l, policy.ModeDefault), "make all"); d.Effect != policy.Allow || l.Mode != policy.ModeAcceptEdits || len(l.Untrusted) != 0 {
		t.Errorf("trusted local file: allow = %v, mode %q, notices %q", d, l.Mode, l.Untrusted)
	}

	// Replacing it: both versions are trusted between Begin and Commit,
	// only the new one after.
	old, _ := os.ReadFile(v.localFile())
	next := append(append([]byte{}, old...), "[[rule]]\nallow = \"Bash(go test)\"\n"...)
	if err := store.Begin(v.localFile(), old, next); err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{old, next} {
		if ok, _ := store.Check(v.localFile(), data); !ok {
			t.Errorf("between Begin and Commit, %q is not trusted", data)
		}
	}
	if _, err := store.Commit(v.localFile(), next); err != nil {
		t.Fatal(err)
	}
	if ok, changed := store.Check(v.localFile(), old); ok || !changed {
		t.Errorf("after Commit the old version is trusted (%v) or not changed (%v)", ok, changed)
	}

	v.foreign[v.localFile()] = false
	v.write(v.localFile(), "mode = \"bypassPermissions\"\n[[rule]]\nallow = \"Bash(make *)\"\n")
	l = v.load()
	if l.Mode != policy.ModeDefault || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "bypassPermissions") {
		t.Errorf("trusted local file set bypass: mode %q warnings %q", l.Mode, l.Warnings)
	}
}

func TestLoadProjectCannotSetBypass(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.projectFile(), "mode = \"bypassPermissions\"\n")
	v.write(v.localFile(), "mode = \"acceptEdits\"\n")
	if _, err := (TrustStore{Path: v.paths.Trust}).Trust(v.projectFile()); err != nil {
		t.Fatal(err)
	}
	l := v.load()
	if l.Mode != policy.ModeAcceptEdits || l.ModeSource != policy.SourceLocal {
		t.Errorf("mode = %q from %q, want acceptEdits from local", l.Mode, l.ModeSource)
	}
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "cannot set bypassPermissions") {
		t.Errorf("warnings = %q", l.Warnings)
	}
}

func TestResolveMode(t *testing.T) {
	user := &Loaded{Mode: policy.ModeAcceptEdits, ModeSource: policy.SourceUser}
	noBypass := &Loaded{Mode: policy.ModeBypass, ModeSource: policy.SourceUser, DisableBypass: true}
	tests := []struct {
		flag, env string
		l         *Loaded
		want      policy.Mode
		warn      bool
		err       bool
	}{
		{"", "", nil, policy.ModeDefault, false, false},
		{"", "", &Loaded{Mode: policy.ModeDefault}, policy.ModeDefault, false, false},
		{"", "", user, policy.ModeAcceptEdits, false, false},
		{"", "plan", user, policy.ModePlan, false, false},
		{"custom", "plan", user, policy.ModeCustom, false, false},
		{"bypassPermissions", "", user, policy.ModeBypass, false, false},
		{"bypassPermissions", "", noBypass, policy.ModeDefault, true, false},
		{"", "", noBypass, policy.ModeDefault, true, false},
		{"", "bypassPermissions", noBypass, policy.ModeDefault, true, false},
		{"yolo", "", user, policy.ModeDefault, false, true},
		{"", "yolo", user, policy.ModeDefault, false, true},
	}
	for _, tt := range tests {
		m, warns, err := ResolveMode(tt.flag, tt.env, tt.l)
		if m != tt.want || (len(warns) > 0) != tt.warn || (err != nil) != tt.err {
			t.Errorf("ResolveMode(%q, %q) = %q, %q, %v", tt.flag, tt.env, m, warns, err)
		}
	}
}

func TestDisableBypassManaged(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.Managed, "disable_bypass = true\n")
	v.write(v.paths.User, "mode = \"bypassPermissions\"\n")
	l := v.load()
	if !l.DisableBypass {
		t.Fatal("disable_bypass not read")
	}
	m, warns, err := ResolveMode("", "", l)
	if m != policy.ModeDefault || len(warns) != 1 || err != nil {
		t.Errorf("mode = %q, %q, %v", m, warns, err)
	}
}

func TestFindRoot(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	mk := func(p string) string {
		if err := os.MkdirAll(filepath.Join(tmp, p), 0o755); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(tmp, p)
	}
	gitRoot := mk("a/.git")
	deep := mk("a/b/c")
	gk := mk("a/b/.gatekeep")
	none := mk("z")
	_ = gitRoot
	tests := []struct {
		cwd, override, want string
		err                 bool
	}{
		{deep, "", filepath.Dir(gk), false},
		{filepath.Join(tmp, "a"), "", filepath.Join(tmp, "a"), false},
		{none, "", none, false},
		{deep, "..", filepath.Join(tmp, "a/b"), false},
		{deep, "/nonexistent/dir", "", true},
		{"rel", "", "", true},
	}
	for _, tt := range tests {
		got, err := FindRoot(tt.cwd, tt.override)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("FindRoot(%q, %q) = %q, %v; want %q", tt.cwd, tt.override, got, err, tt.want)
		}
	}
}

func TestDefaultPaths(t *testing.T) {
	env := map[string]string{}
	get := func(k string) string { return env[k] }
	p := DefaultPaths(get, "/home/u")
	if p.Managed != ManagedConfigFile || p.User != "/home/u/.config/gatekeep/config.toml" || p.Trust != "/home/u/.local/state/gatekeep/trust.json" {
		t.Errorf("defaults = %+v", p)
	}
	env = map[string]string{ManagedConfigEnv: "/m.toml", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "relative"}
	p = DefaultPaths(get, "/home/u")
	if p.Managed != "/m.toml" || p.User != "/c/gatekeep/config.toml" || p.Trust != "/home/u/.local/state/gatekeep/trust.json" {
		t.Errorf("from env = %+v", p)
	}
}

func TestConfigFiles(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.projectFile(), "[[rule]]\nbroken =\n")
	files := ConfigFiles(v.opts())
	if len(files) != 5 {
		t.Fatalf("files = %+v", files)
	}
	if f := files[2]; f.Path != v.projectFile() || !f.Exists || !f.NeedsTrust || f.Trusted || f.SHA256 == "" {
		t.Errorf("project = %+v", f)
	}
	if f := files[1]; f.Path != v.paths.User || f.Exists {
		t.Errorf("user = %+v", f)
	}
}

func TestConfigErrorsUnwrap(t *testing.T) {
	a, b := &ConfigError{File: "a", Msg: "x"}, &ConfigError{File: "b", Line: 2, Key: "k", Msg: "y"}
	err := errors.Join(a, errors.Join(b))
	got := ConfigErrors(err)
	if len(got) != 2 || got[0] != a || got[1] != b {
		t.Errorf("ConfigErrors = %v", got)
	}
	if b.Error() != "b:2: k: y" || a.Error() != "a: x" {
		t.Errorf("texts %q %q", a.Error(), b.Error())
	}
}

// TestLoadTestdataErrors loads each testdata/config/*.toml as the user file
// and compares the errors with its `# error: LINE KEY: MESSAGE` comments
// (KEY "-" for none; MESSAGE is a prefix).
func TestLoadTestdataErrors(t *testing.T) {
	files, err := filepath.Glob("../../testdata/config/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, l := range strings.Split(string(data), "\n") {
				if w, ok := strings.CutPrefix(l, "# error: "); ok {
					want = append(want, w)
				}
			}
			v := newCfgEnv(t)
			v.write(v.paths.User, string(data))
			_, err = Load(v.opts())
			got := ConfigErrors(err)
			if len(got) != len(want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(got), len(want), err)
			}
			for i, w := range want {
				lineKey, msg, _ := strings.Cut(w, ": ")
				line, key, _ := strings.Cut(lineKey, " ")
				if key == "-" {
					key = ""
				}
				g := got[i]
				if strconv.Itoa(g.Line) != line || g.Key != key || !strings.HasPrefix(g.Msg, msg) {
					t.Errorf("error %d = %d %q: %q\nwant    %s %q: %q", i, g.Line, g.Key, g.Msg, line, key, msg)
				}
			}
		})
	}
}

// TestRunTestsSamplePolicy runs the [[test]] entries of the sample policy
// in testdata/policy: all pass in config.toml, one fails in failing.toml.
func TestRunTestsSamplePolicy(t *testing.T) {
	for _, tt := range []struct {
		file  string
		fails []int
	}{
		{"config.toml", nil},
		{"failing.toml", []int{2}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../../testdata/policy", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			v := newCfgEnv(t)
			v.write(v.projectFile(), string(data))
			if _, err := (TrustStore{Path: v.paths.Trust}).Trust(v.projectFile()); err != nil {
				t.Fatal(err)
			}
			l := v.load()
			if len(l.Tests) == 0 {
				t.Fatal("no tests loaded")
			}
			results := RunTests(v.config(l, ""), v.root, l.Tests)
			var fails []int
			for _, r := range results {
				if !r.Pass {
					fails = append(fails, r.Case.Index)
					t.Log(r)
				}
			}
			if fmt.Sprint(fails) != fmt.Sprint(tt.fails) {
				for _, r := range results {
					t.Log(r)
				}
				t.Fatalf("failing cases %v, want %v", fails, tt.fails)
			}
			if len(fails) > 0 {
				s := results[fails[0]].String()
				if !strings.Contains(s, `"pushes ask"`) || !strings.Contains(s, "want allow, got ask") || !strings.Contains(s, "rules") ||
					!strings.Contains(s, v.projectFile()+":") {
					t.Errorf("failure text %q", s)
				}
			}
		})
	}
}

// TestLoadBoundsNesting: deep arrays and inline tables are refused by a
// linear scan before the TOML decoder (super-linear in inline-table depth,
// recursive in arrays) sees them, in every layer, naming the line; brackets
// in strings and comments do not count.
func TestLoadBoundsNesting(t *testing.T) {
	arrays := "x = " + strings.Repeat("[", 2<<20) + strings.Repeat("]", 2<<20-4) // 4 MiB
	tables := "x = " + strings.Repeat("{a=", 40000) + "1" + strings.Repeat("}", 40000)
	for _, src := range []string{policy.SourceManaged, policy.SourceUser, policy.SourceProject, policy.SourceLocal} {
		for name, text := range map[string]string{"arrays": arrays, "tables": "mode = \"default\"\n\n" + tables} {
			v := newCfgEnv(t)
			v.write(v.file(src), text)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Load(v.opts())
			runtime.ReadMemStats(&after)
			allocated := after.TotalAlloc - before.TotalAlloc
			got := ConfigErrors(err)
			if len(got) != 1 || !strings.Contains(got[0].Msg, "nest deeper than 32") {
				t.Fatalf("%s %s: err = %.300v", src, name, err)
			}
			if want := strings.Count(text[:strings.Index(text, "x =")], "\n") + 1; got[0].Line != want {
				t.Errorf("%s %s: line %d, want %d", src, name, got[0].Line, want)
			}
			// Refused before decoding: the file is read, scanned once and
			// dropped (a decoder that recursed would allocate a value a
			// level, many times the input).
			if limit := uint64(len(text)) + 256<<10; allocated > limit {
				t.Errorf("%s %s: %d bytes allocated for %d bytes of input, want at most %d", src, name, allocated, len(text), limit)
			}
		}
	}
	ok := "# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n" +
		"[[rule]]\ndeny = \"Bash(echo " + strings.Repeat("[", 40) + ")\"\n" +
		"reason = '''\n" + strings.Repeat("{", 40) + "\n'''\n" +
		"[[rule]]\nask = \"Bash(x)\"\nreason = \"a \\\" " + strings.Repeat("{", 40) + "\"\n" +
		"[[test]]\ntool = \"Bash\"\ninput = 'x'\nexpect = \"ask\"\nname = " + strings.Repeat("[", 31) + strings.Repeat("]", 31) + "\n"
	v := newCfgEnv(t)
	v.write(v.projectFile(), ok)
	_, err := Load(v.opts())
	if got := ConfigErrors(err); len(got) != 1 || got[0].Key != "test[0].name" || !strings.Contains(got[0].Msg, "want a string") {
		t.Fatalf("brackets in strings and comments count, or the real error is lost: %v", err)
	}
	for _, text := range []string{"a = [[[\n" + strings.Repeat("[", 30) + "\"x\"", "a = '''" + strings.Repeat("{", 40), "a = \"\\\"" + strings.Repeat("[", 40)} {
		if ce := checkTOMLShape("f", []byte(text)); ce == nil {
			if !strings.Contains(text, "'''") && !strings.HasPrefix(text, "a = \"") {
				t.Errorf("%.40q: not refused", text)
			}
		} else if strings.Contains(text, "'''") || strings.HasPrefix(text, "a = \"") {
			t.Errorf("%.40q: refused inside a string: %v", text, ce)
		} else if ce.Line != 2 {
			t.Errorf("%.40q: line %d, want 2", text, ce.Line)
		}
	}
}

// TestLoadSizeLimit: a config file over MaxConfigSize is refused with an
// error that names the limit (its rules are not half read), one of
// exactly MaxConfigSize loads.
func TestLoadSizeLimit(t *testing.T) {
	rule := "[[rule]]\ndeny = \"Bash(rm *)\"\n"
	for _, size := range []int{MaxConfigSize, MaxConfigSize + 1} {
		v := newCfgEnv(t)
		pad := size - len(rule) - 2
		v.write(v.file(policy.SourceUser), rule+"#"+strings.Repeat("x", pad)+"\n")
		_, err := Load(v.opts())
		if size <= MaxConfigSize && err != nil {
			t.Errorf("%d bytes: %v", size, err)
		}
		if size > MaxConfigSize {
			got := ConfigErrors(err)
			if len(got) != 1 || !strings.Contains(got[0].Msg, "byte limit") {
				t.Errorf("%d bytes: err = %.200v, want the size limit", size, err)
			}
		}
	}
}
