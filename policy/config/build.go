package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// Input is what Build needs besides the files: where the call runs, the
// flags and the environment. Nothing in it is read from the process (its
// working directory, its environment), so one process can build the
// configuration of a call made elsewhere (a hook's cwd).
type Input struct {
	// Cwd is the working directory of the call (absolute): the project
	// root is found from it, and relative flag values are against it.
	Cwd string
	// Home is the home directory ("" when unknown).
	Home string
	// Env reads the environment (os.LookupEnv in cmd):
	// GATEKEEP_MANAGED_CONFIG, XDG_CONFIG_HOME, XDG_STATE_HOME, PATH,
	// CDPATH. Nil is an empty environment.
	Env func(string) (string, bool)
	// Root is the project root named by --root or GATEKEEP_ROOT (or by
	// the agent that runs a hook); "" finds it from Cwd (FindRoot).
	Root string
	// Mode is the --mode flag and ModeEnv GATEKEEP_MODE, "" when unset
	// (ResolveMode).
	Mode, ModeEnv string
	// PlanFile is --plan-file ("" for none).
	PlanFile string
	// AllowDirs are more sandbox roots (--allow-dir); relative ones are
	// against Cwd.
	AllowDirs []string
	// Dialect is --dialect: shell text is judged in it too, never
	// instead.
	Dialect shellparse.Dialect
	// Version is gatekeep's version; "" caches no decoded config file
	// (LoadOptions.Version).
	Version string
	// POSIX parses shell text as POSIX sh (`bash -c` run by /bin/sh where
	// there is no bash).
	POSIX bool
	// Agent is set for a hook call: what the agent says of itself.
	Agent *AgentInput
}

// AgentInput is what an agent says of itself in a hook call.
//
// Its permission mode only tightens: it becomes Config.AgentMode
// (policy.AgentMode), and for each category the fallback is the stricter
// of gatekeep's own mode (--mode, GATEKEEP_MODE, a config file, else
// default) and the agent's. Only `[hooks] trust_agent_mode = true` in the
// managed or user file lets the agent's mode replace gatekeep's own
// (policy.TrustedAgentMode) when neither --mode nor GATEKEEP_MODE is given
// (a managed disable_bypass still holds).
//
// Its shell commands are judged in the shell the agent runs them in: the
// user's login shell as the agent passes it to its hook in SHELL (Claude
// Code runs commands in $SHELL: zsh on macOS), or --dialect (Input.Dialect).
// A shell gatekeep does not know is bash. Unless the dialect is bash, the
// commands are judged as bash too (the agent may fall back to bash), and
// the strictest answer holds.
type AgentInput struct {
	// PermissionMode is the payload's permission_mode ("" for none).
	PermissionMode string
}

// Built is the configuration of one call.
type Built struct {
	// Config is what policy.Decide decides with.
	Config *policy.Config
	// Loaded are the config layers, merged.
	Loaded *Loaded
	// Options say where the files are, for the commands that write them.
	Options LoadOptions
	// Messages are lowercase lines for stderr, in the order they arose:
	// ignored settings, an untrusted file (once per version of it), a
	// mode that is disabled, a refused root, a root that cannot be used.
	Messages []string
	// AgentDialect is, for a hook call (Input.Agent), the dialect of the
	// agent's shell commands (AgentInput).
	AgentDialect shellparse.Dialect
	// TrustedAgentMode is set when the agent's permission mode replaced
	// gatekeep's own (`[hooks] trust_agent_mode`).
	TrustedAgentMode bool
	// LookCommand is the file a bare command name runs, from the same
	// search (and the same memo) as Config.LookPath: the path to exec, so
	// that what runs is what was judged (pathguard.Guard.LookPathFile).
	// Its errors are Config.LookPath's.
	LookCommand func(name string) (string, error)
}

// InputError is a bad flag or environment value (an unknown mode, a
// --root that is not a directory): a usage error, not a config file's.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Locate finds the project root for in (FindRoot) and where each config
// file is (DefaultPaths). A bad --root is an *InputError.
func Locate(in Input) (LoadOptions, error) {
	opts, _, err := locate(in)
	return opts, err
}

// locate is Locate, and whether a project marker was found at the root
// (findRoot).
func locate(in Input) (LoadOptions, bool, error) {
	root, marked, err := findRoot(in.Cwd, in.Root)
	if err != nil {
		return LoadOptions{}, false, &InputError{err}
	}
	return LoadOptions{Root: root, Home: in.Home, Paths: DefaultPaths(in.getenv, in.Home), Version: in.Version}, marked, nil
}

func (in Input) getenv(k string) string {
	if in.Env == nil {
		return ""
	}
	v, _ := in.Env(k)
	return v
}

// Build reads the config layers and returns the policy.Config for a call
// made under in: the rules, the mode (ResolveMode), the plan file, the
// sandbox roots (the project root, the temp dirs, `[sandbox] allow_dirs`
// and in.AllowDirs), PATH lookups, the dialects. A broken config file is
// an error for which IsConfigError holds (exit 78: nothing runs); a bad
// flag or environment value is an *InputError. When the mode cannot be
// resolved, the Built so far is returned with the error, for its
// Messages.
func Build(in Input) (*Built, error) {
	opts, marked, err := locate(in)
	if err != nil {
		return nil, err
	}
	loaded, err := Load(opts)
	if err != nil {
		return nil, err
	}
	b := &Built{Loaded: loaded, Options: opts}
	b.Messages = append(b.Messages, loaded.Warnings...)
	for _, n := range loaded.Untrusted {
		if firstNotice(opts.Paths.Trust, n) {
			b.Messages = append(b.Messages, n.Text)
		}
	}
	mode, warnings, err := ResolveMode(in.Mode, in.ModeEnv, loaded)
	if err != nil {
		return b, &InputError{err}
	}
	b.Messages = append(b.Messages, warnings...)
	root := opts.Root
	if in.Root == "" && !marked {
		// A root only guessed from the working directory (no project marks
		// it) is refused where a write would be a backdoor (~/.ssh).
		if why := pathguard.RefuseFallbackRoot(root, in.Home); why != "" {
			b.Messages = append(b.Messages, fmt.Sprintf("refuse sandbox root %s: %s, and no .git or .gatekeep marks a project there; pass --root to name one", root, why))
			root = ""
		}
	}
	roots := append(pathguard.DefaultRoots(root), loaded.AllowDirs...)
	for _, d := range in.AllowDirs {
		if d != "" && !filepath.IsAbs(d) && d[0] != '~' && d[0] != '$' {
			d = filepath.Join(in.Cwd, d)
		}
		roots = append(roots, d)
		// pathguard drops a root that does not exist (a default root may
		// be missing); one the person named is worth a word.
		if g, errs := pathguard.New([]string{d}, pathguard.Options{Home: in.Home, ConfigDirs: []string{}}); len(errs) == 0 && len(g.Roots()) == 0 {
			b.Messages = append(b.Messages, fmt.Sprintf("--allow-dir %s: no such directory, so it is not a sandbox root", d))
		}
	}
	guard, errs := pathguard.New(roots, pathguard.Options{Home: in.Home})
	for _, e := range errs {
		b.Messages = append(b.Messages, e.Error())
	}
	look := memoLookPath(guard, in.Env)
	cfg := &policy.Config{
		Mode:     mode,
		Guard:    guard,
		Home:     in.Home,
		LookPath: func(name string) (string, error) { r := look(name); return r.real, r.err },
		Disk:     Disk{},
	}
	b.LookCommand = func(name string) (string, error) { r := look(name); return r.file, r.err }
	loaded.Apply(cfg)
	if in.Dialect != "" && !slices.Contains(cfg.Dialects, in.Dialect) {
		cfg.Dialects = append(cfg.Dialects, in.Dialect)
	}
	cfg.CDPATH = in.getenv("CDPATH") != ""
	cfg.POSIX = in.POSIX
	if in.Agent != nil {
		b.applyAgent(cfg, in)
	}
	if in.PlanFile != "" {
		cfg.PlanFile = ResolvePlanFile(in.Cwd, in.Home, in.PlanFile)
	}
	b.Config = cfg
	return b, nil
}

// applyAgent sets the agent's mode and shell in cfg (AgentInput).
func (b *Built) applyAgent(cfg *policy.Config, in Input) {
	if m := in.Agent.PermissionMode; m != "" {
		if in.Mode == "" && in.ModeEnv == "" && b.Loaded.TrustAgentMode {
			cfg.Mode, b.TrustedAgentMode = policy.TrustedAgentMode(m), true
			if cfg.Mode == policy.ModeBypass && b.Loaded.DisableBypass {
				cfg.Mode = policy.ModeDefault
			}
		} else {
			cfg.AgentMode = policy.AgentMode(m)
		}
	}
	b.AgentDialect = shellparse.Bash
	if in.Dialect != "" {
		b.AgentDialect = in.Dialect
	} else if sh, ok := shellparse.ParseDialect(in.getenv("SHELL")); ok {
		b.AgentDialect = sh
	}
	if b.AgentDialect != shellparse.Bash && !slices.Contains(cfg.Dialects, shellparse.Bash) {
		cfg.Dialects = append(cfg.Dialects, shellparse.Bash)
	}
}

// firstNotice reports whether n is shown for the first time for its file
// and version, and records that it was: a marker file named by the digest
// of both, created exclusively in the notices directory beside the trust
// store. When that cannot be recorded, it is shown.
func firstNotice(trustPath string, n Notice) bool {
	if trustPath == "" {
		return true
	}
	sum := sha256.Sum256([]byte(n.File + "\x00" + n.SHA256))
	dir := filepath.Join(filepath.Dir(trustPath), "notices")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return true
	}
	f, err := os.OpenFile(filepath.Join(dir, hex.EncodeToString(sum[:16])), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false
	}
	if err == nil {
		f.Close()
	}
	return true
}

// memoLookPath resolves command names through PATH to the file found
// and its real path, once each. On Unix the search is pathguard's: a
// relative or empty PATH entry, or one inside a sandbox root, reached
// before the name is found is pathguard.ErrUnsafePath (exec.LookPath
// would skip `.` with ErrDot, which reads as "not found" while bash runs
// the planted file).
func memoLookPath(guard *pathguard.Guard, env func(string) (string, bool)) func(string) lookup {
	memo := map[string]lookup{}
	return func(name string) lookup {
		if r, ok := memo[name]; ok {
			return r
		}
		var r lookup
		path, set := "", false
		if env != nil {
			path, set = env("PATH")
		}
		if set && runtime.GOOS != "windows" {
			entries := filepath.SplitList(path)
			if path == "" {
				entries = []string{""} // an empty PATH is the working directory
			}
			r.file, r.real, r.err = guard.LookPathFile(name, entries)
		} else {
			r.file, r.err = exec.LookPath(name)
			if errors.Is(r.err, exec.ErrDot) {
				r.err = fmt.Errorf("%w: %w", pathguard.ErrUnsafePath, r.err)
			}
			if r.err == nil {
				r.real, r.err = filepath.EvalSymlinks(r.file)
			}
		}
		if r.err != nil {
			r.file, r.real = "", ""
		}
		memo[name] = r
		return r
	}
}

// lookup is one name's PATH search: the file found (the path to exec),
// its real path (the one judged), or the error.
type lookup struct {
	file, real string
	err        error
}
