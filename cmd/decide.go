package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
)

// config builds the effective policy configuration for this run.
func (a *app) config() (*policy.Config, string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, "", withCode(ExitInternal, fmt.Errorf("reading the working directory: %w", err))
	}
	home, _ := os.UserHomeDir()
	mode, err := policy.ParseMode(a.mode)
	if err != nil {
		return nil, "", withCode(ExitUsage, err)
	}
	root := a.root
	if root == "" {
		root = findRoot(cwd)
	}
	root, _ = filepath.Abs(root)
	roots := append(defaultRootsTmp(root), a.allowDirs...)
	guard, errs := pathguard.New(roots, pathguard.Options{Home: home})
	for _, e := range errs {
		fmt.Fprintf(a.stderr, "gatekeep: %v\n", e)
	}
	cfg := &policy.Config{
		Mode:     mode,
		Guard:    guard,
		Home:     home,
		LookPath: exec.LookPath,
	}
	if a.planFile != "" {
		if r := guard.Check(cwd, a.planFile); r.Real != "" {
			cfg.PlanFile = r.Real
		}
	}
	return cfg, cwd, nil
}

// findRoot is the nearest ancestor of dir holding .gatekeep/ or .git, else
// dir itself.
func findRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, marker := range []string{".gatekeep", ".git"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// handle decides req. Under check it reports the decision; otherwise it
// resolves an ask and either runs the call or prints the deny line.
func (a *app) handle(check bool, req policy.Request, posix bool, run func(policy.Decision) error) error {
	cfg, cwd, err := a.config()
	if err != nil {
		return err
	}
	cfg.POSIX = posix
	req.Cwd = cwd
	d := policy.Evaluate(cfg, req)
	if check {
		return a.report(d)
	}
	d = a.resolveAsk(cfg, d)
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

// defaultRootsTmp is replaced by pathguard.DefaultRoots.
func defaultRootsTmp(project string) []string {
	return []string{project, os.TempDir(), "/tmp", "/var/tmp"}
}
