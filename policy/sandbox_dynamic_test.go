package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gatekeep/gatekeep/pathguard"
)

// sandboxEnv is a project root inside a temp dir, a home beside it with a
// Documents directory, and a guard over the project alone.
func sandboxEnv(t *testing.T, m Mode) (*Config, string, string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, home := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home")
	for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(root, "build"), filepath.Join(home, "Documents")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(home, "Documents"), filepath.Join(root, "build", "docs")); err != nil {
		t.Fatal(err)
	}
	g, errs := pathguard.New([]string{root}, pathguard.Options{Home: home, ConfigDirs: []string{}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return &Config{Mode: m, Guard: g, Home: home}, root, home
}

// TestDynamicWriteTargets: a write target with a glob or a variable is
// judged by its static part in every mode, bypassPermissions included;
// one with no static directory asks (sandbox.runtime_target); a word only
// guessed to be a target is left to the mode.
func TestDynamicWriteTargets(t *testing.T) {
	for _, m := range Modes {
		cfg, root, _ := sandboxEnv(t, m)
		for _, tc := range []struct {
			cmd  string
			want Effect
			code string // "" means any code but the sandbox's
		}{
			{"rm -rf ~/Documents/*", Deny, "sandbox.outside_root"},
			{"rm -f /etc/*.conf", Deny, "sandbox.outside_root"},
			{"mv ~/Documents/* /tmp/x/", Deny, "sandbox.outside_root"},
			{"sed -i d /outside/*.txt", Deny, "sandbox.outside_root"},
			{"rm -rf build/../../x/$N", Deny, "sandbox.outside_root"},
			{"rm -rf build/*/../../../x", Deny, "sandbox.outside_root"},
			{"rm -rf build/d*/x", Deny, "sandbox.outside_root"}, // build/docs links out
			{"X=/etc/x; echo hi > \"$X\"", Deny, "sandbox.outside_root"},
			{"echo hi > ~/Documents/$NAME.txt", Deny, "sandbox.outside_root"},
			{"rm -rf {build,/etc}/x", Deny, "sandbox.outside_root"},
			{"rm -rf \"$T\"", Ask, "sandbox.runtime_delete"},
			{"rm -f \"$T\"", Ask, "sandbox.runtime_target"},
			{"echo x > \"$OUT\"", Ask, "sandbox.runtime_target"},
			{"touch $(mktemp)", Ask, "sandbox.runtime_target"},
			{"cd \"$D\" && touch x", Ask, "sandbox.runtime_target"},
			{"ls | xargs rm", Ask, "sandbox.runtime_target"},
		} {
			d := Evaluate(cfg, Request{Tool: ToolBash, Command: tc.cmd, Cwd: root})
			if m == ModePlan && tc.want == Ask {
				if d.Effect != Deny {
					t.Errorf("plan: %q: %v %s, want deny: plan mode denies every write", tc.cmd, d.Effect, d.Code)
				}
				continue
			}
			if d.Effect != tc.want || d.Code != tc.code || d.Layer != LayerSandbox {
				t.Errorf("%s: %q: %v %s %s (%s), want %v %s", m, tc.cmd, d.Effect, d.Layer, d.Code, d.Message, tc.want, tc.code)
			}
		}
		// Inside the roots, or only guessed to be a path: the sandbox has
		// no answer (the mode asks about what is only known at run time).
		for _, cmd := range []string{"rm -rf build/*.o", "rm -f *.pyc", "cp /usr/lib/*.so build/", `sed -n "/$a/,/$b/p" f`,
			"find ~/Documents/* -name x", "X=build; rm -rf \"$X\"/x", "echo hi > \"build/$N.log\""} {
			d := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: root})
			if d.Layer == LayerSandbox {
				t.Errorf("%s: %q: %v %s (%s), want no answer from the sandbox", m, cmd, d.Effect, d.Code, d.Message)
			}
		}
	}
}

// TestRuntimeDelete: a recursive delete whose target is only known at run
// time is a final ask in every mode but plan (which denies it): nothing
// turns it into allow, not even bypassPermissions. A plain delete of such
// a target stays an ordinary ask; `~+` is the working directory.
func TestRuntimeDelete(t *testing.T) {
	for _, m := range Modes {
		cfg, root, _ := sandboxEnv(t, m)
		for _, cmd := range []string{`rm -rf "$(echo ~)"`, "rm -rf `echo ~`", "printf %s ~ | xargs -0 rm -rf",
			"xargs rm -rf <<< ~", "rm -rf ~-/x",
			`find "$X" -delete`, `rsync -a --delete a/ "$X"`, `rm -R "$X"`, `rm --recursive "$X"`, `rm $OPT "$X"`,
			`rmdir -p "$X"`, `echo hi > "$Y"; rm -rf "$X"`, `rm -rf "$X"; echo hi > "$Y"`} {
			d := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: root})
			if m == ModePlan {
				if d.Effect != Deny {
					t.Errorf("plan: %q: %v %s, want deny", cmd, d.Effect, d.Code)
				}
				continue
			}
			if d.Effect != Ask || !d.Final || d.Code != CodeSandboxRuntimeDelete {
				t.Errorf("%s: %q: %v final=%v %s (%s), want final ask %s", m, cmd, d.Effect, d.Final, d.Code, d.Message, CodeSandboxRuntimeDelete)
			}
		}
		// The value a for list or a here-string gives is known
		// (Script.Values): the delete of the home directory it names.
		for _, cmd := range []string{`read d <<< ~; rm -rf "$d"`, `for d in ~; do rm -rf "$d"; done`} {
			if d := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: root}); d.Effect != Deny || m != ModePlan && d.Code != CodeDangerRmHome {
				t.Errorf("%s: %q: %v %s (%s), want deny %s", m, cmd, d.Effect, d.Code, d.Message, CodeDangerRmHome)
			}
		}
		for _, cmd := range []string{`rm -f "$X"`, `echo x > "$X"`, `rmdir "$X"`, `find "$X" -name y`} {
			if d := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: root}); d.Final || d.Code == CodeSandboxRuntimeDelete {
				t.Errorf("%s: %q: %v final=%v %s, want no final ask", m, cmd, d.Effect, d.Final, d.Code)
			}
		}
		// ~+ is the working directory: ~+/../home is known, and outside.
		if d := Evaluate(cfg, Request{Tool: ToolBash, Command: "rm -rf ~+/../home", Cwd: root}); d.Effect != Deny || d.Code != CodeSandboxOutside {
			t.Errorf("%s: rm -rf ~+/../home: %v %s (%s), want deny %s", m, d.Effect, d.Code, d.Message, CodeSandboxOutside)
		}
		if d := Evaluate(cfg, Request{Tool: ToolBash, Command: "rm -rf ~+/build", Cwd: root}); d.Final || d.Layer == LayerSandbox {
			t.Errorf("%s: rm -rf ~+/build: %v %s %s, want no sandbox answer", m, d.Effect, d.Layer, d.Code)
		}
	}
}

// TestRootDelete: a recursive delete of a sandbox root, of a directory
// holding one, or of .git asks in every mode (bypassPermissions lets the
// ask through); other recursive deletes do not.
func TestRootDelete(t *testing.T) {
	for _, m := range Modes {
		cfg, root, _ := sandboxEnv(t, m)
		for _, cmd := range []string{"rm -rf .", `rm -rf "$PWD"`, "rm -rf ${PWD}/", "rm -r ../proj", "rm -fr " + root,
			"rm --recursive .git", "rm -rf ./.git", "cd build && rm -rf ..", "P=.; rm -rf $P"} {
			d := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: root})
			if m != ModePlan && (d.Effect != Ask || d.Code != CodeSandboxRootDelete) || m == ModePlan && d.Effect != Deny {
				t.Errorf("%s: %q: %v %s (%s), want ask %s", m, cmd, d.Effect, d.Code, d.Message, CodeSandboxRootDelete)
			}
		}
		for _, cmd := range []string{"rm -rf build", "rm -f .", "rm -rf build/*", "rm -rf .gitignore"} {
			if d := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: root}); d.Code == CodeSandboxRootDelete {
				t.Errorf("%s: %q: %s, want no root delete", m, cmd, d.Code)
			}
		}
	}
	// acceptEdits never allows deleting the root whole, and "always" is
	// never offered for it.
	cfg, root, home := sandboxEnv(t, ModeAcceptEdits)
	req := Request{Tool: ToolBash, Command: `rm -rf "$PWD"`, Cwd: root}
	if d := Evaluate(cfg, req); d.Effect == Allow {
		t.Errorf("acceptEdits: rm -rf \"$PWD\" allowed")
	}
	if s := Suggest(cfg, req, root, home, filepath.Join(root, ".gatekeep", "config.local.toml")); len(s.Rules) > 0 {
		t.Errorf("always offers %q for rm -rf \"$PWD\"", s.Rules)
	}
}

func TestStaticDir(t *testing.T) {
	for _, tc := range []struct {
		in, dir string
		ok      bool
	}{
		{"/home/u/Documents/*", "/home/u/Documents", true},
		{"/etc/*.conf", "/etc", true},
		{"*.txt", ".", true},
		{"build/$X", "build", true},
		{"a/b/*/../../..", "..", true},
		{"$T", "", false},
		{"$(mktemp)", "", false},
		{"~x/y", "", false},
		{"(operands from xargs)", "", false},
		{"foo$X", ".", true},
	} {
		dir, ok := staticDir(tc.in, false)
		if dir != tc.dir || ok != tc.ok {
			t.Errorf("staticDir(%q) = %q, %v; want %q, %v", tc.in, dir, ok, tc.dir, tc.ok)
		}
	}
}

// TestCompletesGitDir: writes that make a directory git-dir-shaped (HEAD,
// objects/, refs/) in one call are protected (ask), in acceptEdits too.
func TestCompletesGitDir(t *testing.T) {
	cfg, root, _ := sandboxEnv(t, ModeAcceptEdits)
	for _, tc := range []struct {
		cmd     string
		protect bool
	}{
		{"mkdir -p d/objects d/refs && printf '[core]\\n\\tfsmonitor = x\\n' > d/config && echo 'ref: refs/heads/main' > d/HEAD", true},
		{"mkdir -p d/objects d/refs; echo x > d/HEAD", true},
		{"mkdir -p d/objects d/src && echo x > d/HEAD", false},
		{"mkdir -p d/refs && echo x > d/config", false},
		// As wide as git's is_git_directory (git obeys the config of
		// whatever it takes for a repository): a
		// symlinked HEAD, objects and refs as executable files, a
		// commondir naming objects and refs elsewhere, mkdir -p making
		// refs on the way to refs/heads.
		{"mkdir -p d/objects d/refs/heads", true},
		{"mkdir d/objects; mkdir -p d/refs/heads; ln -s refs/heads/x d/HEAD", true},
		{"mkdir e && cp /bin/true e/objects && cp /bin/true e/refs && echo 'ref: refs/heads/x' > e/HEAD", true},
		{"mkdir -p evil/objects evil/refs wt && printf '[diff]\\n\\texternal = x\\n' > evil/config && echo 'ref: refs/heads/x' > wt/HEAD && echo ../evil > wt/commondir", true},
		{"mkdir wt && echo 'ref: refs/heads/x' > wt/HEAD && echo ../evil > wt/commondir", true},
		{"mkdir -p src/objects lib/refs", false},
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tc.cmd, Cwd: root})
		if got := d.Effect == Ask && d.Code == CodeSandboxProtected; got != tc.protect {
			t.Errorf("%q: %v %s (%s), want protected %v", tc.cmd, d.Effect, d.Code, d.Message, tc.protect)
		}
	}
}

// TestParamExpansionAssigns: `${NAME:=word}` and `${NAME=word}` assign
// NAME like `NAME=word` does (bash(1) Parameter Expansion), so CDPATH set
// that way makes a later relative cd land anywhere (red team: `:
// ${CDPATH:=~}; cd .ssh && echo key >> authorized_keys` was allowed in
// acceptEdits), and PATH set that way keeps later commands from the safe
// list.
func TestParamExpansionAssigns(t *testing.T) {
	cfg, root, home := sandboxEnv(t, ModeAcceptEdits)
	for _, tc := range []struct {
		cmd  string
		mode Mode
	}{
		{": ${CDPATH:=" + home + "}; cd Documents && echo x >> notes.txt", ModeAcceptEdits},
		{"echo ${CDPATH=" + home + "} >/dev/null; cd Documents; rm -f notes.txt", ModeAcceptEdits},
		{": ${PATH:=.}; ls", ModeDefault},
		{`echo "${GIT_DIR:=build}"; git status`, ModeDefault},
		// {NAME}>file and coproc NAME put descriptor numbers in NAME: PATH
		// becomes a directory relative to the project (`11/ls`).
		{": {PATH}<&0; ls", ModeDefault},
		{"coproc PATH { :; }; ls", ModeDefault},
		{`coproc "$n" { :; }; ls`, ModeDefault},
	} {
		cfg.Mode = tc.mode
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tc.cmd, Cwd: root})
		if d.Effect == Allow {
			t.Errorf("%q in %v: allowed (%s %s), want it not allowed", tc.cmd, tc.mode, d.Code, d.Message)
		}
	}
}

// TestTrapRunsLater: a trap's code runs when the shell exits, gets a
// signal or (ERR, DEBUG) around later commands, in the directory the
// shell is in then (red team: `trap "echo k >> authorized_keys" EXIT; cd
// ~/.ssh` was allowed in acceptEdits, `trap "cat id_rsa" EXIT; cd ~/.ssh`
// in default mode); so does a function the shell calls by itself.
func TestTrapRunsLater(t *testing.T) {
	cfg, root, home := sandboxEnv(t, ModeAcceptEdits)
	for _, tc := range []struct {
		cmd  string
		mode Mode
	}{
		{`trap "echo k >> notes.txt" EXIT; cd ` + home + `/Documents`, ModeAcceptEdits},
		{`trap "rm -f notes.txt" ERR; cd ` + home + `/Documents; false`, ModeAcceptEdits},
		{`trap "cat notes.txt" EXIT; cd ` + home + `/Documents`, ModeDefault},
		// Functions the shell calls by itself run the same way: bash's
		// command_not_found_handle (md5 is not on Linux), zsh's hooks.
		{`command_not_found_handle() { echo k >> notes.txt; }; cd ` + home + `/Documents; md5`, ModeAcceptEdits},
		{`command_not_found_handle() { cat notes.txt; }; cd ` + home + `/Documents; md5`, ModeDefault},
		{`zsh -c 'chpwd() { echo k >> notes.txt; }; cd ` + home + `/Documents'`, ModeAcceptEdits},
		{`zsh -c 'TRAPEXIT() { echo k >> notes.txt; }; cd ` + home + `/Documents'`, ModeAcceptEdits},
		{`zsh -c 'g() { echo k >> notes.txt; }; chpwd_functions=(g); cd ` + home + `/Documents'`, ModeAcceptEdits},
	} {
		cfg.Mode = tc.mode
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tc.cmd, Cwd: root})
		if d.Effect == Allow {
			t.Errorf("%q in %v: allowed (%s %s), want it not allowed", tc.cmd, tc.mode, d.Code, d.Message)
		}
	}
}
