package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestTreeWrites: a recursive copy or a move of a directory writes every
// entry below it under its own name, judged like any write (judged as a
// write of the directory alone, `cp -r examples/. .` wrote
// .claude/settings.json and .envrc in acceptEdits); names only known at run time (an archive, a dynamic
// source, a tree over the bound) ask.
func TestTreeWrites(t *testing.T) {
	cfg, root, home := sandboxEnv(t, ModeAcceptEdits)
	cfg.Disk = DiskForTest
	for f, s := range map[string]string{
		"examples/.claude/settings.json": "{}",
		"examples/.envrc":                "x",
		"examples/src/main.go":           "package main",
		"plain/a.txt":                    "a",
		"plain/sub/b.txt":                "b",
		"hooked/.git/hooks/pre-commit":   "touch pwned",
		"deep/x/HEAD":                    "ref: refs/heads/x\n",
		"deep/x/objects/k":               "",
		"deep/x/refs/k":                  "",
		"big/placeholder":                "",
	} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A symlink in the source to a directory with a protected name below:
	// followed only with -L.
	if err := os.MkdirAll(filepath.Join(root, "linked"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "examples"), filepath.Join(root, "linked", "ex")); err != nil {
		t.Fatal(err)
	}
	// The outside: build/docs links to ~/Documents.
	if err := os.MkdirAll(filepath.Join(root, "mk", "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "mk", "docs", "x.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_ = home
	old := maxCopyEntries
	maxCopyEntries = 5
	defer func() { maxCopyEntries = old }()
	for i := 0; i < 6; i++ {
		if err := os.WriteFile(filepath.Join(root, "big", fmt.Sprintf("f%d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		cmd  string
		want Effect
		code string
	}{
		{"cp -r examples/. .", Ask, CodeSandboxProtected},
		{"cp -rT examples .", Ask, CodeSandboxProtected},
		{"cp -a examples out", Ask, CodeSandboxProtected}, // out/.envrc or out/examples/.envrc
		{"cp -R hooked/. .", Ask, CodeSandboxProtected},
		{"mv examples build/x", Ask, CodeSandboxProtected},
		{"mv -t build examples", Ask, CodeSandboxProtected},
		{"cp -r deep out2", Ask, CodeSandboxProtected}, // out2/x would be a git directory
		{"cp -r plain/. out3", Allow, CodeModeAllow},
		{"cp -r plain out4", Allow, CodeModeAllow},
		{"mv plain/a.txt plain/c.txt", Allow, CodeModeAllow},
		{"sed s/a/b/ f > f.tmp && mv f.tmp f", Allow, CodeModeAllow},
		{"mkdir -p t/a && echo x > t/a/b.txt && cp -r t/. out5", Allow, CodeModeAllow},
		{"cp -r linked/. out6", Allow, CodeModeAllow}, // the link is copied as a link
		{"cp -rL linked/. out7", Ask, CodeSandboxProtected},
		{"cp -r mk/. build/", Deny, "sandbox.outside_root"}, // build/docs/x.txt lands in ~/Documents
		{"cp -r big/. out8", Ask, CodeSandboxProtected},     // over the bound
		{`cp -r "$D"/. .`, Ask, CodeSandboxProtected},
		{"ln -s plain src && cp -r src/. .", Ask, CodeSandboxProtected}, // the source made a link in the script
		{"ln -s plain d && cp -r d/sub/. .", Ask, CodeSandboxProtected},
		{"ln -s /tmp/t d && cp -r d/sub/. .", Ask, CodeSandboxLinkOutside}, // the link itself asks first
		{"tar xzf dist.tgz -C build/", Ask, CodeSandboxProtected},
		{"unzip a.zip -d build", Ask, CodeSandboxProtected},
		{"rsync -a examples/ .", Ask, CodeSandboxProtected},
		// chown/chgrp -R -L (and BSD chmod -R -L) follow every link below
		// the operand: build/docs leads to ~/Documents.
		{"chown -RL nobody build", Deny, "sandbox.outside_root"},
		{"chgrp -R -L nobody .", Ask, CodeSandboxProtected}, // over the bound
		{"chmod -RL 777 build", Deny, "sandbox.outside_root"},
		{"chown -RLP nobody build", Allow, CodeModeAllow}, // the last of -H, -L, -P wins
		{"chmod -R 777 build", Allow, CodeModeAllow},
		{"chown -RL nobody plain", Allow, CodeModeAllow},
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: tc.cmd, Cwd: root})
		if d.Effect != tc.want || d.Code != tc.code {
			t.Errorf("%q: %v %s (%s), want %v %s", tc.cmd, d.Effect, d.Code, d.Message, tc.want, tc.code)
		}
	}
}

// TestTreeWritesNoDisk: with no disk to read, a tree copy's names are
// unknown and ask.
func TestTreeWritesNoDisk(t *testing.T) {
	cfg, root, _ := sandboxEnv(t, ModeAcceptEdits)
	cfg.Disk = nil
	if err := os.MkdirAll(filepath.Join(root, "plain"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := Evaluate(cfg, Request{Tool: ToolBash, Command: "cp -r plain/. out", Cwd: root})
	if d.Effect != Ask || d.Code != CodeSandboxProtected {
		t.Errorf("no disk: %v %s (%s), want ask %s", d.Effect, d.Code, d.Message, CodeSandboxProtected)
	}
}
