package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gatekeep/gatekeep/pathguard"
)

// Loading config files is package config's job, and config imports this
// package, so these internal tests cannot import it. load_test.go
// (package policy_test, in the same test binary) sets LoadForTest and
// TrustForTest before any test runs.
var (
	// LoadForTest is config.Load over the files paths names.
	LoadForTest func(root, home string, paths TestPaths) (*TestLoaded, error)
	// TrustForTest is config.TrustStore{Path: store}.Trust(file).
	TrustForTest func(store, file string) error
	// DiskForTest is config.Disk, the real disk.
	DiskForTest Disk
)

// TestPaths are config.Paths: the managed and user files and the trust
// store, and the config cache ("" for none; with one, files are loaded
// as a gatekeep with a version loads them).
type TestPaths struct{ Managed, User, Trust, Cache string }

// TestLoaded is what these tests read of a config.Loaded.
type TestLoaded struct {
	Rules   *RuleSet
	Mode    Mode
	Enforce EnforceSettings
	// Apply is config.Loaded.Apply.
	Apply func(*Config)
}

// testLoad loads the config files under root as cmd would.
func testLoad(root, home string, paths TestPaths) (*TestLoaded, error) {
	if LoadForTest == nil {
		panic("LoadForTest is not set: load_test.go must be in the test binary")
	}
	return LoadForTest(root, home, paths)
}

// cfgEnv is a throwaway machine for config tests: a home, XDG dirs, a
// managed file location and a project root (with .git), all under
// t.TempDir().
type cfgEnv struct {
	t       testing.TB
	root    string
	home    string
	paths   TestPaths
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
	// As config.DefaultPaths gives them for GATEKEEP_MANAGED_CONFIG,
	// XDG_CONFIG_HOME and XDG_STATE_HOME under tmp.
	v.paths = TestPaths{
		Managed: filepath.Join(tmp, "etc", "gatekeep.toml"),
		User:    filepath.Join(tmp, "xdg-config", "gatekeep", "config.toml"),
		Trust:   filepath.Join(tmp, "xdg-state", "gatekeep", "trust.json"),
	}
	return v
}

func (v *cfgEnv) projectFile() string { return filepath.Join(v.root, ".gatekeep", "config.toml") }
func (v *cfgEnv) localFile() string   { return filepath.Join(v.root, ".gatekeep", "config.local.toml") }

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
		if err := TrustForTest(v.paths.Trust, path); err != nil {
			v.t.Fatal(err)
		}
	}
}

// loadErr loads the files, returning the error.
func (v *cfgEnv) loadErr() (*TestLoaded, error) {
	return testLoad(v.root, v.home, v.paths)
}

func (v *cfgEnv) load() *TestLoaded {
	v.t.Helper()
	l, err := v.loadErr()
	if err != nil {
		v.t.Fatalf("load: %v", err)
	}
	return l
}

// config builds the Config cmd would: a real guard over the project root,
// the mode given (or the loaded one).
func (v *cfgEnv) config(l *TestLoaded, mode Mode) *Config {
	v.t.Helper()
	g, _ := pathguard.New([]string{v.root}, pathguard.Options{Home: v.home, ConfigDirs: []string{}})
	if mode == "" {
		mode = l.Mode
	}
	cfg := &Config{Mode: mode, Guard: g, Home: v.home, Disk: DiskForTest}
	l.Apply(cfg)
	return cfg
}

func (v *cfgEnv) bash(cfg *Config, cmd string) Decision {
	return Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: v.root})
}

// file returns the path of a layer's file.
func (v *cfgEnv) file(source string) string {
	switch source {
	case SourceManaged:
		return v.paths.Managed
	case SourceUser:
		return v.paths.User
	case SourceProject:
		return v.projectFile()
	case SourceLocal:
		return v.localFile()
	}
	v.t.Fatalf("no file for %s", source)
	return ""
}
