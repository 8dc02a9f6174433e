package confine

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/config"
)

// TestPlanHidesEveryDefaultSecret: the files kernel enforcement keeps
// from a confined command are the default Read deny rules' (one list):
// for each of their globs a file is made where it points (in the home
// directory, in the project and below it for a bare name), and each file
// the rules deny reading is hidden by the plan or lies in the home
// directory outside every readable dir. A secret added to default.toml
// that the plan neither finds nor keeps unreadable fails here.
func TestPlanHidesEveryDefaultSecret(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, proj := filepath.Join(base, "home"), filepath.Join(base, "proj")
	for k, v := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state",
		"XDG_CACHE_HOME": "", "GATEKEEP_MODE": "", "GATEKEEP_ROOT": "", "GATEKEEP_ENFORCE": "", "GATEKEEP_MANAGED_CONFIG": base + "/managed.toml"} {
		t.Setenv(k, v)
	}
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(proj)
	b, err := config.Build(config.Input{Cwd: proj, Home: home, Env: os.LookupEnv, Root: proj})
	if err != nil {
		t.Fatal(err)
	}
	cfg := b.Config
	// A concrete file for a glob: `*` and `?` a letter, `**` two dirs.
	concrete := func(g string) string {
		g = strings.ReplaceAll(g, "**", "d/e")
		return strings.NewReplacer("*", "x", "?", "x").Replace(g)
	}
	var files []string
	for _, g := range cfg.Rules.SecretGlobs() {
		switch {
		case strings.HasPrefix(g, "**/"):
			name := concrete(strings.TrimPrefix(g, "**/"))
			files = append(files, filepath.Join(proj, name), filepath.Join(proj, "sub", name), filepath.Join(home, name))
		case strings.HasPrefix(g, home+"/"):
			files = append(files, concrete(g))
		}
	}
	var denied []string
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("secret\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if policy.ReadDenied(cfg, f) {
			denied = append(denied, f)
		}
	}
	if len(denied) < 40 {
		t.Fatalf("only %d of %d files made for the default secrets are denied: %q", len(denied), len(files), denied)
	}
	p, _ := Build(Input{Config: cfg, Settings: b.Loaded.Enforce, Root: b.Loaded.Root, Tier: TierFull, Getenv: os.Getenv, LookPath: exec.LookPath})
	for _, f := range denied {
		hidden := slices.ContainsFunc(p.Hidden, func(h string) bool { return Within(h, f) })
		readable := slices.ContainsFunc(p.Readable, func(r string) bool { return Within(r, f) }) || !Within(home, f)
		if !hidden && readable {
			t.Errorf("%s is denied by the Read rules but neither hidden nor unreadable when confined", f)
		}
	}
	// The Hugging Face hub keeps more than the one token file in its
	// cache dir: none of it is readable confined.
	hf := filepath.Join(home, ".cache", "huggingface")
	if slices.ContainsFunc(p.Readable, func(r string) bool { return Within(r, hf) }) {
		t.Errorf("%s is readable confined", hf)
	}
}
