//go:build linux

package cmd_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/cmd"
	"github.com/gatekeep/gatekeep/cmd/enforce"
	"github.com/gatekeep/gatekeep/pathguard"
)

// TestProtectedClassesCovered: every class of path the text layer protects
// (pathguard.Protected) is covered after a confined run too, by a kernel
// rule of the plan (read-only, hidden or watched) or by the post-run
// sweep's shapes (pathguard.ShapeOf of the path or a directory above it
// in the project). A class with neither fails here.
func TestProtectedClassesCovered(t *testing.T) {
	if enforce.Probe().Tier() != enforce.TierFull {
		if os.Getenv("CI") == "true" {
			t.Fatal("the full tier is not available; CI has it")
		}
		t.Skip("the full tier is not available")
	}
	proj := isolate(t)
	proj, _ = filepath.EvalSymlinks(proj)
	for _, d := range []string{".git/hooks", ".git/info", ".claude", "src"} {
		if err := os.MkdirAll(filepath.Join(proj, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/HEAD", ".git/config"} {
		if err := os.WriteFile(filepath.Join(proj, f), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if code := cmd.Run([]string{"sandbox", "status", "--json"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("sandbox status: %d %s", code, errb.String())
	}
	var plan struct {
		ReadOnly []string `json:"read_only"`
		Hidden   []string `json:"hidden"`
		Watched  []string `json:"watched"`
	}
	if err := json.Unmarshal(out.Bytes(), &plan); err != nil {
		t.Fatal(err)
	}
	kernel := append(append(append([]string(nil), plan.ReadOnly...), plan.Hidden...), plan.Watched...)
	covered := func(p string) string {
		for _, k := range kernel {
			if p == k || strings.HasPrefix(p, k+"/") {
				return "kernel " + k
			}
		}
		// The sweep quarantines a shape the run made: the path itself or
		// a directory above it that is not there yet (one that is, is
		// the person's and stays).
		for d := p; d != proj && strings.HasPrefix(d, proj+"/"); d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil && d != p {
				break
			}
			if s := pathguard.ShapeOf(d, d != p, false); s != "" {
				return "sweep " + string(s)
			}
		}
		return ""
	}
	g, _ := pathguard.New([]string{proj}, pathguard.Options{})
	for _, rel := range []string{
		".gatekeep/config.toml", ".git/hooks/pre-commit", ".git/config", ".git/info/attributes",
		".git/modules/lib/config", ".git/commondir", ".envrc", "src/.envrc", ".bashrc", ".zshrc", ".gitconfig",
		".claude/settings.json", ".claude/commands/x.md", ".codex/config.toml", ".gemini/settings.json",
		".vscode/tasks.json", ".cursor/mcp.json", ".mcp.json", "src/.mcp.json", "src/.vscode/tasks.json",
		"src/.claude/settings.json", "src/.git/config", ".pre-commit-config.yaml", "lefthook.yml",
		".yarnrc", "src/mise.local.toml", "src/.cargo/config.toml", ".cargo/config.toml", "src/.hg/hgrc", ".jj/repo/config.toml", "src/bunfig.toml",
	} {
		p := filepath.Join(proj, rel)
		if g.Protected(p) == "" {
			t.Errorf("%s: the text layer does not protect it; this list should hold only protected paths", rel)
			continue
		}
		if how := covered(p); how == "" {
			t.Errorf("%s is protected (%s) but a confined run could make it: no kernel rule and no sweep shape covers it", rel, g.Protected(p))
		}
	}
}
