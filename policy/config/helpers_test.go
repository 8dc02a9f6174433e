package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
)

// cfgEnv is a throwaway machine for config tests: a home, XDG dirs, a
// managed file location and a project root (with .git), all under
// t.TempDir().
type cfgEnv struct {
	t       testing.TB
	root    string
	home    string
	paths   Paths
	foreign map[string]bool // local files not written by gatekeep
}

func newCfgEnv(t testing.TB) *cfgEnv {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	v := &cfgEnv{t: t, root: filepath.Join(tmp, "proj"), home: filepath.Join(tmp, "home"), foreign: map[string]bool{}}
	for _, d := range []string{filepath.Join(v.root, ".git"), v.home, filepath.Join(tmp, "etc")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{
		ManagedConfigEnv:  filepath.Join(tmp, "etc", "gatekeep.toml"),
		"XDG_CONFIG_HOME": filepath.Join(tmp, "xdg-config"),
		"XDG_STATE_HOME":  filepath.Join(tmp, "xdg-state"),
	}
	v.paths = DefaultPaths(func(k string) string { return env[k] }, v.home)
	return v
}

func (v *cfgEnv) projectFile() string { return filepath.Join(v.root, ".gatekeep", "config.toml") }
func (v *cfgEnv) localFile() string   { return filepath.Join(v.root, ".gatekeep", "config.local.toml") }

// file returns the path of a layer's file.
func (v *cfgEnv) file(source string) string {
	switch source {
	case policy.SourceManaged:
		return v.paths.Managed
	case policy.SourceUser:
		return v.paths.User
	case policy.SourceProject:
		return v.projectFile()
	case policy.SourceLocal:
		return v.localFile()
	}
	v.t.Fatalf("no file for %s", source)
	return ""
}

func (v *cfgEnv) write(path, content string) {
	v.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		v.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		v.t.Fatal(err)
	}
	// A local file is the person's own when gatekeep wrote it, which
	// records its hash; v.foreign marks one that came with the project.
	if path == v.localFile() && !v.foreign[path] {
		if _, err := (TrustStore{Path: v.paths.Trust}).Trust(path); err != nil {
			v.t.Fatal(err)
		}
	}
}

func (v *cfgEnv) opts() LoadOptions {
	return LoadOptions{Root: v.root, Home: v.home, Paths: v.paths}
}

func (v *cfgEnv) load() *Loaded {
	v.t.Helper()
	l, err := Load(v.opts())
	if err != nil {
		v.t.Fatalf("load: %v", err)
	}
	return l
}

// config builds the Config cmd would: a real guard over the project root,
// the mode given (or the loaded one).
func (v *cfgEnv) config(l *Loaded, mode policy.Mode) *policy.Config {
	v.t.Helper()
	g, _ := pathguard.New([]string{v.root}, pathguard.Options{Home: v.home, ConfigDirs: []string{}})
	if mode == "" {
		mode = l.Mode
	}
	cfg := &policy.Config{Mode: mode, Guard: g, Home: v.home, Disk: Disk{}}
	l.Apply(cfg)
	return cfg
}

func (v *cfgEnv) bash(cfg *policy.Config, cmd string) policy.Decision {
	return policy.Evaluate(cfg, policy.Request{Tool: policy.ToolBash, Command: cmd, Cwd: v.root})
}
