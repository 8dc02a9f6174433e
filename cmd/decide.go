package cmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
)

// config builds the effective policy configuration for this run: the
// config layers (policy.Load), the mode, the sandbox roots. A config error
// is returned as a *configFailure (exit 78).
func (a *app) config() (*policy.Config, string, error) {
	cwd, opts, err := a.loadOptions()
	if err != nil {
		return nil, "", err
	}
	home, root := opts.Home, opts.Root
	loaded, err := policy.Load(opts)
	if err != nil {
		return nil, "", &configFailure{err: err}
	}
	a.loaded = loaded
	for _, w := range loaded.Warnings {
		fmt.Fprintf(a.stderr, "gatekeep: %s\n", w)
	}
	mode, warnings, err := policy.ResolveMode(a.mode, "", loaded)
	if err != nil {
		return nil, "", withCode(ExitUsage, err)
	}
	for _, w := range warnings {
		fmt.Fprintf(a.stderr, "gatekeep: %s\n", w)
	}
	roots := append(pathguard.DefaultRoots(root), loaded.AllowDirs...)
	roots = append(roots, a.allowDirs...)
	guard, errs := pathguard.New(roots, pathguard.Options{Home: home})
	for _, e := range errs {
		fmt.Fprintf(a.stderr, "gatekeep: %v\n", e)
	}
	cfg := &policy.Config{
		Mode:     mode,
		Guard:    guard,
		Home:     home,
		LookPath: memoLookPath(),
	}
	loaded.Apply(cfg)
	if a.planFile != "" {
		cfg.PlanFile = policy.ResolvePlanFile(cwd, home, a.planFile)
	}
	if a.auditFile == "" {
		a.auditFile = loaded.AuditFile
	}
	if !a.promptTimeoutSet && loaded.PromptTimeout > 0 {
		a.promptTimeout = loaded.PromptTimeout
	}
	return cfg, cwd, nil
}

// loadOptions finds the working directory, the home directory, the project
// root and the config files' paths.
func (a *app) loadOptions() (string, policy.LoadOptions, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", policy.LoadOptions{}, withCode(ExitInternal, fmt.Errorf("reading the working directory: %w", err))
	}
	home, _ := os.UserHomeDir()
	root, err := policy.FindRoot(cwd, a.root)
	if err != nil {
		return "", policy.LoadOptions{}, withCode(ExitUsage, err)
	}
	paths := policy.DefaultPaths(os.Getenv, home)
	return cwd, policy.LoadOptions{Root: root, Home: home, Paths: paths, Tracked: gitTracked(root)}, nil
}

// configFailure is a config file that cannot be used: exit 78, nothing runs.
type configFailure struct{ err error }

func (e *configFailure) Error() string { return e.err.Error() }
func (e *configFailure) Unwrap() error { return e.err }

// configFailLine is the JSON line on stderr for a config error.
type configFailLine struct {
	Source  string                `json:"source"`
	Version int                   `json:"version"`
	Effect  string                `json:"effect"`
	Layer   string                `json:"layer"`
	Code    string                `json:"code"`
	Message string                `json:"message"`
	Errors  []*policy.ConfigError `json:"errors"`
}

// reportConfigFailure prints the config error line and returns exit 78.
func (a *app) reportConfigFailure(err error) error {
	errs := policy.ConfigErrors(err)
	msg := err.Error()
	if len(errs) > 0 {
		msg = fmt.Sprintf("the configuration is invalid (%d problem(s)), so nothing runs: %s", len(errs), errs[0].Error())
	}
	writeJSONLine(a.stderr, configFailLine{Source: "gatekeep", Version: SchemaVersion, Effect: "deny", Layer: "config",
		Code: "config.invalid", Message: msg, Errors: errs})
	return silentExit(ExitConfig)
}

// configError reports an error of a.config: a config failure as its JSON
// line with exit 78, anything else as it is.
func (a *app) configError(err error) error {
	var cf *configFailure
	if errors.As(err, &cf) {
		return a.reportConfigFailure(cf.err)
	}
	return err
}

// gitTracked reports whether git tracks a file of the work tree at root.
// The loader asks only about a local config file that exists.
func gitTracked(root string) func(string) bool {
	return func(path string) bool {
		if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
			return false
		}
		return exec.Command("git", "-C", root, "ls-files", "--error-unmatch", "--", path).Run() == nil
	}
}

// memoLookPath resolves command names through PATH once each.
func memoLookPath() func(string) (string, error) {
	type result struct {
		path string
		err  error
	}
	memo := map[string]result{}
	return func(name string) (string, error) {
		if r, ok := memo[name]; ok {
			return r.path, r.err
		}
		p, err := exec.LookPath(name)
		memo[name] = result{p, err}
		return p, err
	}
}

// handle decides req. Under check it reports the decision; otherwise it
// resolves an ask and either runs the call or prints the deny line.
func (a *app) handle(check bool, req policy.Request, posix bool, run func(policy.Decision) error) error {
	cfg, cwd, err := a.config()
	if err != nil {
		return a.configError(err)
	}
	cfg.POSIX = posix
	req.Cwd = cwd
	d := policy.Evaluate(cfg, req)
	if check {
		return a.report(d)
	}
	d = a.resolveAsk(cfg, d)
	if err := a.audit(d, req, "cli", ""); err != nil && d.Effect == policy.Allow {
		return withCode(ExitInternal, fmt.Errorf("cannot write the audit log, so nothing ran: %w", err))
	}
	if d.Effect != policy.Allow {
		a.printDeny(d)
		return silentExit(a.denyExitCode)
	}
	return run(d)
}

// resolveAsk turns an ask into allow or deny: bypassPermissions lets it
// through (unless it is Final), otherwise without a terminal it is a deny
// with code ask.no_tty that keeps the reason of the layer that asked.
func (a *app) resolveAsk(cfg *policy.Config, d policy.Decision) policy.Decision {
	if d.Effect != policy.Ask {
		return d
	}
	if cfg.Mode == policy.ModeBypass && !d.Final {
		d.Effect = policy.Allow
		return d
	}
	asked := d
	d.Effect = policy.Deny
	d.Layer = policy.LayerHuman
	d.Code = "ask.no_tty"
	d.Message = "needs approval, and there is no terminal to ask on: " + asked.Message
	d.Cause = &policy.Cause{Layer: asked.Layer, Code: asked.Code, Message: asked.Message}
	return d
}
