package pathguard

import (
	"path/filepath"
	"testing"
)

// The tools' code-running configs are protected shapes at any depth, by
// the text layer and the sweep alike; look-alikes are not.
func TestToolConfigs(t *testing.T) {
	root := t.TempDir()
	g, err := New([]string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{".yarnrc", "a/mise.local.toml", "a/.mise.dev.toml", "a/.mise/config.toml",
		"mise/config.toml", ".config/mise/conf.d/x.toml", "b/.pnpmfile.cjs", "bunfig.toml", "c/.cargo/config.toml",
		"c/.cargo/config", ".hg/hgrc", "d/.jj/repo/config.toml", "D/.CARGO/Config.toml"} {
		p := filepath.Join(root, rel)
		if g.Protected(p) == "" {
			t.Errorf("%s: not protected", rel)
		}
		if s := ShapeOf(p, false, false); s != ShapeToolConfig && s != ShapeAgent {
			t.Errorf("%s: shape %q", rel, s)
		}
	}
	for _, rel := range []string{"yarnrc", "a/mise.json", "a/mise/other.toml", "c/.cargo/registry/x.toml", ".hg/store/data",
		"d/.jj/repo/store/config.toml", "config.toml", "cargo/config.toml"} {
		p := filepath.Join(root, rel)
		if ShapeOf(p, false, false) != "" {
			t.Errorf("%s: a shape", rel)
		}
	}
	// A link (or file) standing for one of their dirs is a shape by its
	// name; the directory itself is not.
	if ShapeOf(filepath.Join(root, ".cargo"), false, false) != ShapeToolConfig || ShapeOf(filepath.Join(root, ".cargo"), true, false) != "" {
		t.Error(".cargo: a link is a shape, a directory is not")
	}
}
