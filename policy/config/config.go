package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// Where the config files of the managed, project and local layers live
// (the user's file is in Paths.User), and how the embedded default is
// named.
const (
	// ManagedConfigFile is the administrator's file. The environment
	// variable ManagedConfigEnv overrides it (for tests and packaging).
	ManagedConfigFile = "/etc/gatekeep/config.toml"
	ManagedConfigEnv  = "GATEKEEP_MANAGED_CONFIG"
	// ProjectConfigDir is the directory under the project root that holds
	// ProjectConfigName and LocalConfigName; its presence also marks a root.
	ProjectConfigDir  = ".gatekeep"
	ProjectConfigName = "config.toml"
	LocalConfigName   = "config.local.toml"
	// DefaultConfigFile is how the embedded default policy is named in
	// RuleRef.File and in errors.
	DefaultConfigFile = "embedded:default.toml"
)

// Paths are the files outside the project that the loader reads.
type Paths struct {
	// Managed is the managed config file (ManagedConfigFile unless
	// overridden).
	Managed string
	// User is the person's config file.
	User string
	// Trust is the trust store of project files (trust.json).
	Trust string
	// Cache is the directory of compiled config files (see LoadOptions.
	// Version); "" caches nothing.
	Cache string
}

// DefaultPaths computes Paths from the environment, read through getenv
// (os.Getenv in cmd): GATEKEEP_MANAGED_CONFIG, XDG_CONFIG_HOME (default
// home/.config), XDG_STATE_HOME (default home/.local/state) and
// XDG_CACHE_HOME (default home/.cache). XDG values
// that are not absolute are ignored, as the XDG Base Directory
// Specification requires.
func DefaultPaths(getenv func(string) string, home string) Paths {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	p := Paths{Managed: ManagedConfigFile}
	if v := getenv(ManagedConfigEnv); v != "" {
		p.Managed = v
	}
	cfgHome := getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(cfgHome) {
		cfgHome = filepath.Join(home, ".config")
	}
	stateHome := getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(stateHome) {
		stateHome = filepath.Join(home, ".local", "state")
	}
	p.User = filepath.Join(cfgHome, "gatekeep", "config.toml")
	p.Trust = filepath.Join(stateHome, "gatekeep", "trust.json")
	cacheHome := getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(cacheHome) {
		cacheHome = filepath.Join(home, ".cache")
	}
	p.Cache = filepath.Join(cacheHome, "gatekeep", "config")
	return p
}

// FindRoot returns the project root for the working directory cwd
// (absolute): override when it is set (the --root flag, else
// GATEKEEP_ROOT; relative to cwd), else the nearest ancestor of cwd, cwd
// included, that holds a `.gatekeep` directory or a `.git` entry (a
// directory, or the file of a worktree or submodule), else cwd itself. The
// result is absolute and clean, symlinks not resolved. An override that is
// not a directory is an error.
func FindRoot(cwd, override string) (string, error) {
	root, _, err := findRoot(cwd, override)
	return root, err
}

// findRoot is FindRoot, and whether the root it found holds a project
// marker (HasProjectMarker; false for an override, which is not looked
// at), so that Build need not ask the file system again.
func findRoot(cwd, override string) (root string, marked bool, err error) {
	if !filepath.IsAbs(cwd) {
		return "", false, fmt.Errorf("find project root: working directory %q is not absolute", cwd)
	}
	cwd = filepath.Clean(cwd)
	if override != "" {
		r := override
		if !filepath.IsAbs(r) {
			r = filepath.Join(cwd, r)
		}
		r = filepath.Clean(r)
		fi, err := os.Stat(r)
		if err != nil {
			return "", false, fmt.Errorf("find project root: %w", err)
		}
		if !fi.IsDir() {
			return "", false, fmt.Errorf("find project root: %s is not a directory", r)
		}
		return r, false, nil
	}
	for dir := cwd; ; {
		if HasProjectMarker(dir) {
			return dir, true, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return cwd, false, nil
		}
		dir = up
	}
}

// HasProjectMarker reports whether dir holds what marks a project root
// for FindRoot: a `.gatekeep` directory or a `.git` entry.
func HasProjectMarker(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, ProjectConfigDir)); err == nil && fi.IsDir() {
		return true
	}
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// ConfigError is one problem in a config file: a syntax error, an unknown
// key, a malformed rule or value. Load returns every problem it finds,
// joined with errors.Join; ConfigErrors takes them apart again.
type ConfigError struct {
	// File is the path of the file as read (DefaultConfigFile for the
	// embedded one).
	File string `json:"file"`
	// Line is the 1-based line of the problem: the TOML library's line for
	// syntax and type errors, the line of the `[[rule]]` (`[[danger]]`,
	// `[[test]]`) header for a problem inside one, the key's line where it
	// can be found otherwise; 0 when unknown.
	Line int `json:"line,omitempty"`
	// Key is the key path: "mode", "sandbox.allow_dirs", "rule[3]",
	// "rule[3].deny[1]" (indices 0-based, like RuleRef.Index); "" for the
	// file as a whole.
	Key string `json:"key,omitempty"`
	// Msg is a lowercase description.
	Msg string `json:"message"`
}

// Error renders "FILE:LINE: KEY: MSG", leaving out what is unknown.
func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Key != "" {
		b.WriteString(": ")
		b.WriteString(e.Key)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// ConfigErrors returns every *ConfigError in err, in order, looking
// through errors.Join and %w wrapping. It returns nil when err holds none.
func ConfigErrors(err error) []*ConfigError {
	var out []*ConfigError
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if ce, ok := err.(*ConfigError); ok {
			out = append(out, ce)
			return
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return out
}

// IsConfigError reports whether err holds at least one *ConfigError; cmd
// maps such errors to exit 78.
func IsConfigError(err error) bool {
	var ce *ConfigError
	return errors.As(err, &ce)
}

// FileInfo describes one config layer's file, for `gatekeep config path`
// and `gatekeep rules`.
type FileInfo struct {
	Source string `json:"source"` // managed, user, project, local, default
	// Path is where the file is or would be (DefaultConfigFile for the
	// embedded default).
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	// NeedsTrust is true for the project file, and for the local file when
	// git tracks it: such a file only tightens until it is trusted.
	NeedsTrust bool `json:"needs_trust,omitempty"`
	// Trusted is true for a file that exists and needs no trust, or whose
	// SHA-256 is recorded in the trust store; false for an absent file.
	Trusted bool `json:"trusted"`
	// Changed is true when the trust store holds a different hash: the
	// file was edited after it was trusted.
	Changed bool `json:"changed,omitempty"`
	// SHA256 is the hex digest of the file's bytes, "" when it does not
	// exist.
	SHA256 string `json:"sha256,omitempty"`
}

// TestCase is one `[[test]]` entry: a call and the effect it must get.
type TestCase struct {
	Name  string `json:"name,omitempty"`
	Tool  string `json:"tool"`
	Input string `json:"input"`
	// Mode, when set, replaces the effective mode for this case.
	Mode   policy.Mode   `json:"mode,omitempty"`
	Expect policy.Effect `json:"expect"`
	// Where the entry is written.
	Source string `json:"source"`
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Index  int    `json:"index"`
}

// Loaded is the effective configuration of every layer, merged. Settings
// from a file that needs trust and lacks it are left out (Warnings says
// so); its deny and ask rules and [[danger]] entries are in Rules anyway.
type Loaded struct {
	// Root is the project root the files were looked up under.
	Root string
	// Rules are all rules and [[danger]] entries of all layers.
	Rules *policy.RuleSet
	// Mode is the mode of the highest layer that sets one, ModeDefault when
	// none does; ModeSource names that layer ("" when none). The flag and
	// the environment come first: see ResolveMode.
	Mode       policy.Mode
	ModeSource string
	// DisableBypass is set by `disable_bypass = true` in the managed file.
	DisableBypass bool
	// TrustAgentMode is `[hooks] trust_agent_mode` of the highest of the
	// managed and user files that sets it: the permission mode an agent
	// reports in a hook call may then loosen gatekeep's own. A project or
	// local file cannot set it (the setting is ignored with a warning).
	TrustAgentMode bool
	trustAgentSet  bool
	// AllowDirs are the `[sandbox] allow_dirs` of every layer, in layer
	// order, made absolute (`~` expanded, relative ones against Root),
	// symlinks not resolved. The project root and the temp dirs are not
	// included.
	AllowDirs []string
	// PlanFile is the `[plan] file` of the highest layer that sets one,
	// as its real path (symlinks resolved, a missing tail re-joined), ""
	// when none does.
	PlanFile string
	// PlanTools are the `[plan] tools` of the highest layer that sets them.
	PlanTools []string
	// AuditFile is the `[audit] file` of the highest layer that sets one,
	// absolute; "" for none.
	AuditFile string
	// PromptTimeout is the `[prompt] timeout` of the highest layer that
	// sets one; 0 when none does (the prompt package's default applies).
	PromptTimeout time.Duration
	// Dialects are the `[shell] dialect` values of every layer that may
	// set one (a project file only once trusted), in layer order.
	Dialects []shellparse.Dialect
	// Tests are the [[test]] entries of every layer, in layer order.
	Tests []TestCase
	// Warnings are lowercase sentences about settings that were ignored
	// (bypassPermissions from a project file, an unreadable trust store),
	// for cmd to print on stderr.
	Warnings []string
	// Untrusted says, per file that needs trust and lacks it, what was
	// ignored and the command that trusts it; cmd prints each once per
	// version of the file (Notice.SHA256), not on every call.
	Untrusted []Notice
	// Files describes each layer's file, in Sources order.
	Files []FileInfo
	// Enforce are the kernel enforcement settings of `[sandbox]`.
	Enforce policy.EnforceSettings
	// a file set network or auto_allow to false: no file can turn it on
	networkOff, autoAllowOff bool
	// a file set bypass = "confine": no file can turn confinement off
	bypassConfine bool
}

// Notice is a message about one version of one config file.
type Notice struct {
	File   string // the file's path
	SHA256 string // the digest of the version it is about
	Text   string // a lowercase sentence
}

// Apply copies what the chain reads from the configuration into cfg: the
// rules, the plan file and the plan tools. Mode, Guard, Home and LookPath
// are cmd's to fill (see ResolveMode); a --plan-file flag replaces
// PlanFile afterwards (see ResolvePlanFile).
func (l *Loaded) Apply(cfg *policy.Config) {
	cfg.Rules = l.Rules
	cfg.Root = l.Root
	cfg.PlanFile = l.PlanFile
	cfg.PlanTools = append([]string(nil), l.PlanTools...)
	cfg.Dialects = append([]shellparse.Dialect(nil), l.Dialects...)
}

// ResolveMode picks the mode: flag (--mode) over env (GATEKEEP_MODE) over
// the highest config layer that sets one (l.Mode) over ModeDefault. Empty
// flag and env values are unset. When the managed file sets
// disable_bypass, a request for bypassPermissions from any source falls
// back to ModeDefault and a warning says so. An unknown mode name in flag
// or env is an error (a usage error for cmd); l may be nil.
func ResolveMode(flag, env string, l *Loaded) (policy.Mode, []string, error) {
	var m policy.Mode
	from := ""
	switch {
	case flag != "":
		v, err := policy.ParseMode(flag)
		if err != nil {
			return policy.ModeDefault, nil, fmt.Errorf("--mode: %w", err)
		}
		m, from = v, "the --mode flag"
	case env != "":
		v, err := policy.ParseMode(env)
		if err != nil {
			return policy.ModeDefault, nil, fmt.Errorf("GATEKEEP_MODE: %w", err)
		}
		m, from = v, "GATEKEEP_MODE"
	case l != nil && l.ModeSource != "":
		m, from = l.Mode, "the "+l.ModeSource+" config"
	default:
		m = policy.ModeDefault
	}
	if m == policy.ModeBypass && l != nil && l.DisableBypass {
		return policy.ModeDefault, []string{fmt.Sprintf("bypassPermissions (from %s) is disabled by the managed config; using default mode", from)}, nil
	}
	return m, nil, nil
}

// ResolvePlanFile turns a plan file as written (a --plan-file flag or a
// `[plan] file` value: `~/x`, absolute, or relative to root) into the real
// path planLayer compares with: symlinks resolved, a missing tail
// re-joined. It returns the cleaned absolute path when it cannot be
// resolved, and "" for "".
func ResolvePlanFile(root, home, file string) string {
	if file == "" {
		return ""
	}
	abs, err := expandPath(file, root, home)
	if err != nil {
		return ""
	}
	return realOrAbs(abs)
}

// realOrAbs returns the real location of an absolute path (symlinks
// resolved, a missing tail re-joined), or the path itself when it cannot be
// resolved.
func realOrAbs(abs string) string {
	var g *pathguard.Guard
	if r := g.Check(abs, abs); r.Real != "" {
		return r.Real
	}
	return filepath.Clean(abs)
}
