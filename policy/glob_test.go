package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// TestGlobsAsBashExpands: globs over a project with a .env in it, with
// the shell's glob options known (gatekeep bash -c: bash's defaults) and
// unknown (an agent's shell): `*` does not reach .env unless dotglob is
// set, and what dotglob alone would reach asks rather than allows.
func TestGlobsAsBashExpands(t *testing.T) {
	v := newCfgEnv(t)
	for _, f := range []string{".env", "README.md", "notes.md", "src/a.go", "src/b.go", "docs/x.md"} {
		v.write(filepath.Join(v.root, f), "x\n")
	}
	cfg := v.config(v.load(), ModeDefault)
	known := shellparse.BashDefaults
	for _, tt := range []struct {
		cmd          string
		known, agent Effect
		agentCode    string
	}{
		{"ls *.md", Allow, Allow, CodeSafeReadOnly},
		{"wc -l src/*.go", Allow, Allow, CodeSafeReadOnly},
		{"cat *", Allow, Ask, CodeRuleDenyShellOption},
		{"wc -l *", Allow, Ask, CodeRuleDenyShellOption},
		{"du -sh */", Allow, Allow, CodeSafeReadOnly},
		{"grep -rn main --include=*.go .", Allow, Ask, CodeRuleDenyShellOption},
		{"cat ?env", Allow, Ask, CodeRuleDenyShellOption},
		{"cat nomatch*", Allow, Allow, CodeSafeReadOnly},
		// The secret named by the pattern itself: judged against it.
		{"cat .e*", Deny, Deny, CodeRuleDeny},
		{"cat .env*", Deny, Deny, CodeRuleDeny},
		{"ls .*", Ask, Ask, CodeModeAsk}, // `.*` may give . and .. (bash < 5.2)
		// Shell state: dotglob set earlier in the script.
		{"shopt -s dotglob; cat *", Deny, Deny, CodeRuleDeny},
		{"shopt -s nullglob; grep -rn main --include=*.go .", Deny, Deny, CodeRuleDeny},
		{"shopt -s dotglob; shopt -u dotglob; cat *", Ask, Ask, CodeRuleDenyShellOption},
		{"for i in 1 2; do cat *; shopt -s dotglob; done", Ask, Ask, CodeRuleDenyShellOption},
		{"bash -c 'cat *'", Ask, Ask, CodeRuleDenyShellOption},
		{"set -f; cat *", Ask, Ask, CodeRuleDenyShellOption}, // set itself asks
		// Order: sed's script is the first name, whichever it is.
		{"sed -n *.md", Ask, Ask, CodeModeAsk},
		// A command of the same call that creates files can change what
		// the glob matches when it runs (`touch -- -o.envrc; sort *`).
		{"touch -- -o.envrc; sort *", Ask, Deny, CodeRuleDeny}, // sort may write (-o): .env among the names
		{"python3 x.py; ls *.md", Ask, Ask, CodeModeAsk},
		{"ls *.md; cat README.md", Allow, Allow, CodeSafeReadOnly},
		{"echo *", Allow, Allow, CodeSafeReadOnly},
		// A for loop's variable takes each of its words, globs expanded.
		{`for f in src/*.go; do wc -l "$f"; done`, Allow, Allow, CodeSafeReadOnly},
		{`for f in README.md notes.md; do head -3 "${f}"; done`, Allow, Allow, CodeSafeReadOnly},
		{`for f in README.md notes.md; do head -3 $f; done`, Allow, Allow, CodeSafeReadOnly},
		{`for f in src/*.go; do echo "== $f"; cat "$f"; done`, Allow, Allow, CodeSafeReadOnly},
		{`for f in *; do cat "$f"; done`, Allow, Ask, CodeRuleDenyShellOption},
		{`for f in .env README.md; do cat "$f"; done`, Deny, Deny, CodeRuleDeny},
		{`for f in src/*.go; do wc -l $f; done`, Ask, Ask, CodeModeAsk}, // a name may hold a blank
		// A value the variable may hold that a deny rule names is a deny.
		{`for f in src/*.go; do f=.env; cat "$f"; done`, Deny, Deny, CodeRuleDeny},
		{`for f in src/*.go; do read -r f; cat "$f"; done`, Ask, Ask, CodeModeAsk},
		{`for f in src/*.go; do g; cat "$f"; done; g() { f=.env; }`, Deny, Deny, CodeRuleDeny},
		{`trap 'f=.env' DEBUG; for f in README.md; do cat "$f"; done`, Deny, Deny, CodeRuleDeny},
		{`declare -l f; for f in .ENV; do cat "$f"; done`, Deny, Deny, CodeRuleDeny},
		{`for f in src/*.go; do cd src; cat "$f"; done`, Ask, Ask, CodeModeAsk},
		{`for f in -o x; do sort "$f"; done`, Ask, Ask, CodeModeAsk},
		{`for f in src/*.go; do rm "$f"; done`, Ask, Ask, CodeModeAsk},
		{`for f in src/*.go; do bash -c 'cat "$f"'; done`, Ask, Ask, CodeModeAsk},
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tt.cmd, Cwd: v.root, ShellGlob: known})
		if d.Effect != tt.known {
			t.Errorf("%s (bash -c): %v %s: %s, want %v", tt.cmd, d.Effect, d.Code, d.Message, tt.known)
		}
		d = Evaluate(cfg, Request{Tool: ToolBash, Command: tt.cmd, Cwd: v.root})
		if d.Effect != tt.agent || d.Code != tt.agentCode {
			t.Errorf("%s (agent): %v %s: %s, want %v %s", tt.cmd, d.Effect, d.Code, d.Message, tt.agent, tt.agentCode)
		}
	}
}

// TestGlobHostileNames: a name a glob matches that starts with `-` is an
// option to the command; names bash sorts differently by locale are
// judged in every order.
func TestGlobHostileNames(t *testing.T) {
	v := newCfgEnv(t)
	for _, f := range []string{"a.md", "--include=x.go", "-n", "e.sed", "x.sed"} {
		v.write(filepath.Join(v.root, f), "x\n")
	}
	os.WriteFile(filepath.Join(v.root, "new\nline.go"), []byte("x"), 0o644)
	cfg := v.config(v.load(), ModeDefault)
	for _, tt := range []struct {
		cmd  string
		want Effect
	}{
		{"grep -rn main --include=*.go .", Ask}, // expands to --include=x.go
		{"cat -*", Ask},
		{"ls *.md", Allow},
		{"wc -l *.go", Ask},   // --include=x.go is one of the names
		{"wc -l new*", Allow}, // a name with a newline is one word
		{"sed -f *.sed", Ask},
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tt.cmd, Cwd: v.root, ShellGlob: shellparse.BashDefaults})
		if d.Effect != tt.want {
			t.Errorf("%s: %v %s: %s, want %v", tt.cmd, d.Effect, d.Code, d.Message, tt.want)
		}
	}
}

// TestGlobOrder: which of the names is first depends on the locale's
// collation, so a command whose first operand is special (sed's script)
// is judged with each name first.
func TestGlobOrder(t *testing.T) {
	alts := []globAlt{{
		cmd:   &shellparse.Command{Command: cmdmodel.Command{Args: []shellparse.Word{{Text: "sed"}, {Text: "-n"}, {Text: "a"}, {Text: "e"}}}},
		spans: [][2]int{{2, 4}}, words: []string{"*"},
	}}
	var firsts []string
	globSafe(alts, func(c *shellparse.Command) bool {
		firsts = append(firsts, c.Args[2].Text)
		return true
	})
	if len(firsts) != 2 || firsts[0] != "a" || firsts[1] != "e" {
		t.Fatalf("orders judged: %q", firsts)
	}
	if globSafe(alts, func(c *shellparse.Command) bool { return c.Args[2].Text != "e" }) {
		t.Fatal("an order that is not safe was missed")
	}
}
