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
	loaded, err := Load(LoadOptions{Root: proj, Home: home, Paths: Paths{Managed: filepath.Join(dir, "none"), User: filepath.Join(dir, "none2"), Trust: filepath.Join(dir, "trust.json")}})
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
	loaded, err := Load(LoadOptions{Root: dir, Home: home, Paths: Paths{Managed: dir + "/m", User: dir + "/u", Trust: dir + "/t"}})
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
