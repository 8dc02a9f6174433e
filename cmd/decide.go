package cmd

import (
	"errors"
	"fmt"
	"github.com/gatekeep/gatekeep/cmd/enforce"
	"os"
	"strings"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/config"
	"github.com/gatekeep/gatekeep/prompt"
	"github.com/gatekeep/gatekeep/shellparse"
)

// config builds the effective policy configuration for a call made in
// the process's working directory (build).
func (a *app) config() (*policy.Config, string, error) { return a.configPOSIX(false) }

// configPOSIX is config, with shell text parsed as POSIX sh when posix is
// set (a `bash -c` that /bin/sh runs where there is no bash).
func (a *app) configPOSIX(posix bool) (*policy.Config, string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, "", withCode(ExitInternal, fmt.Errorf("reading the working directory: %w", err))
	}
	in := a.input(cwd, a.root)
	in.POSIX = posix
	b, err := a.build(in)
	if err != nil {
		return nil, "", err
	}
	return b.Config, cwd, nil
}

// build builds the effective policy configuration for in (config.Build)
// and prints Build's messages on stderr. A config error is returned as a
// *configFailure (exit 78), a bad flag or environment value as a usage
// error.
func (a *app) build(in config.Input) (*config.Built, error) {
	b, err := config.Build(in)
	if b != nil {
		for _, m := range b.Messages {
			fmt.Fprintf(a.stderr, "gatekeep: %s\n", m)
		}
	}
	if err != nil {
		if config.IsConfigError(err) {
			return nil, &configFailure{err: err}
		}
		return nil, withCode(ExitUsage, err)
	}
	a.loaded, a.lookCmd = b.Loaded, b.LookCommand
	if a.auditFile == "" {
		a.auditFile = b.Loaded.AuditFile
	}
	if !a.promptTimeoutSet && b.Loaded.PromptTimeout > 0 {
		a.promptTimeout = b.Loaded.PromptTimeout
	}
	return b, nil
}

// input is config.Build's input for a call made in cwd: the global flags
// and the process's environment.
func (a *app) input(cwd, root string) config.Input {
	home, _ := os.UserHomeDir()
	in := config.Input{Cwd: cwd, Home: home, Env: os.LookupEnv, Root: root, Mode: a.mode,
		PlanFile: a.planFile, AllowDirs: a.allowDirs, Dialect: shellparse.Dialect(a.dialect), Version: Version}
	if a.modeFromEnv {
		in.Mode, in.ModeEnv = "", a.mode
	}
	return in
}

// loadOptions finds the working directory, the project root and the
// config files' paths.
func (a *app) loadOptions() (string, config.LoadOptions, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", config.LoadOptions{}, withCode(ExitInternal, fmt.Errorf("reading the working directory: %w", err))
	}
	opts, err := config.Locate(a.input(cwd, a.root))
	if err != nil {
		return "", config.LoadOptions{}, withCode(ExitUsage, err)
	}
	return cwd, opts, nil
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
	Errors  []*config.ConfigError `json:"errors"`
}

// reportConfigFailure prints the config error line and returns exit 78.
func (a *app) reportConfigFailure(err error) error {
	errs := config.ConfigErrors(err)
	msg := err.Error()
	if len(errs) > 0 {
		msg = fmt.Sprintf("the configuration is invalid (%d problem(s)), so nothing runs: %s", len(errs), errs[0].Error())
	}
	writeJSONLine(a.stderr, configFailLine{Source: "gatekeep", Version: SchemaVersion, Effect: "deny", Layer: "config",
		Code: policy.CodeConfigInvalid, Message: msg, Errors: errs})
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

// call is one tool call of the command line to decide.
type call struct {
	req   policy.Request
	posix bool                        // shell text is parsed as POSIX sh (no bash to run it)
	run   func(policy.Decision) error // runs the call once it is allowed
}

// decide decides c. Under check (chk set) it reports the decision;
// otherwise it resolves an ask and either runs the call or prints the
// deny line.
func (a *app) decide(chk *checkOptions, c call) error {
	cfg, cwd, err := a.configPOSIX(c.posix)
	if err != nil {
		return a.configError(err)
	}
	req := c.req
	req.Cwd = cwd
	req.Trace = chk != nil && chk.explain
	q := policy.Query{Requests: []policy.Request{req}, Enforce: a.enforceQuery(cfg, chk != nil, true)}
	if chk == nil {
		q.Suggest = a.suggestTarget()
	}
	ans := policy.Decide(cfg, q)
	var early *enforce.Early
	if chk == nil {
		// The helper starts while the plan is made; it is ended
		// unless the call runs in it.
		early = a.startEarly(req, ans)
		defer early.Discard()
	}
	a.applyConfinement(cfg, ans.Confine, chk != nil)
	if a.enf != nil {
		a.enf.early = early
	}
	d := ans.Decision
	a.attachProxy(req)
	if chk != nil {
		return a.report(chk, d)
	}
	d = a.resolveAsk(req, ans)
	if err := a.audit(d, req, "cli", ""); err != nil && d.Effect == policy.Allow {
		return withCode(ExitInternal, fmt.Errorf("cannot write the audit log, so nothing ran: %w", err))
	}
	if d.Effect != policy.Allow {
		a.printDeny(d)
		return silentExit(a.denyExitCode)
	}
	return c.run(d)
}

// suggestTarget is where an "always allow" rule would be saved: the local
// config file of the project.
func (a *app) suggestTarget() *policy.SuggestTarget {
	home, _ := os.UserHomeDir()
	return &policy.SuggestTarget{Root: a.loaded.Root, Home: home, File: config.LocalConfigPath(a.loaded.Root),
		Untrusted: localForeign(a.loaded)}
}

// resolveAsk is the human layer (7): it turns an ask into allow or deny.
// An ask bypassPermissions lets through (ans.Bypass) is allowed;
// otherwise the question goes to the person on the controlling terminal,
// and without one (or with --non-interactive) it is a deny with code
// ask.no_tty. A deny keeps the layer and reason that asked in Cause.
func (a *app) resolveAsk(req policy.Request, ans policy.Answer) policy.Decision {
	d := ans.Decision
	if d.Effect != policy.Ask {
		return d
	}
	if ans.Bypass {
		d.Effect = policy.Allow
		return d
	}
	if a.nonInteractive {
		return noTTYDeny(ans, "needs approval, and gatekeep runs non-interactively")
	}
	q := a.question(req, d)
	sugg := ans.Suggestions[0]
	local := config.LocalConfigPath(a.loaded.Root)
	q.AlwaysRules, q.AlwaysFile, q.AlwaysUnavailable = sugg.Rules, local, sugg.Unavailable
	answer, err := prompt.Ask(q, prompt.Options{Timeout: a.promptTimeout})
	switch {
	case errors.Is(err, prompt.ErrNoTTY):
		return noTTYDeny(ans, "needs approval, and there is no terminal to ask on")
	case errors.Is(err, prompt.ErrTimeout):
		return humanDeny(d, policy.CodeAskTimeout, fmt.Sprintf("needs approval, and nobody answered within %s", a.promptTimeout))
	case err != nil:
		return humanDeny(d, policy.CodeAskInterrupted, "the question was interrupted ("+err.Error()+")")
	}
	switch answer {
	case prompt.AllowOnce:
		return humanAllow(d, policy.CodeAskAllowedOnce, "the person allowed this call once")
	case prompt.AlwaysAllow:
		_, opts, err := a.loadOptions()
		if err == nil {
			_, _, err = config.AppendLocalRules(opts, "allow", sugg.Rules, "")
		}
		if err != nil {
			fmt.Fprintf(a.stderr, "gatekeep: the rule was not saved (%v); allowing this call once\n", err)
			return humanAllow(d, policy.CodeAskAllowedOnce, "the person allowed this call; saving the rule failed")
		}
		fmt.Fprintf(a.stderr, "gatekeep: saved %s to %s\n", strings.Join(sugg.Rules, ", "), local)
		return humanAllow(d, policy.CodeAskAlways, "the person allowed this call and saved "+strings.Join(sugg.Rules, ", "))
	}
	return humanDeny(d, policy.CodeAskDenied, "the person declined this call; do not retry it, ask them what to do instead")
}

// localForeign: the local config file exists and is not trusted, so an
// allow rule appended to it would not apply.
func localForeign(l *config.Loaded) bool {
	for _, f := range l.Files {
		if f.Source == policy.SourceLocal {
			return f.Exists && f.NeedsTrust && !f.Trusted
		}
	}
	return false
}

// question builds what the person is shown for an ask.
func (a *app) question(req policy.Request, d policy.Decision) prompt.Question {
	q := prompt.Question{Tool: req.Tool, Cwd: req.Cwd, Layer: string(d.Layer), Reason: d.Message}
	switch {
	case req.Argv != nil:
		q.Subject = shellparse.JoinArgv(req.Argv)
	case req.Tool == policy.ToolBash:
		q.Subject = req.Command
	default:
		q.Subject = req.Path
	}
	if d.Rule != nil {
		q.Rule = d.Rule.String()
	}
	q.Parts = askedParts(d)
	return q
}

// askedParts lists the sub-commands and paths that asked, for a call of
// more than one part.
func askedParts(d policy.Decision) []string {
	if len(d.Parts) < 2 {
		return nil
	}
	var out []string
	for _, s := range d.Asking() {
		out = append(out, s.Subject+"  ("+s.Message+")")
	}
	return out
}

// noTTYDeny is the deny of an ask with nobody to ask (ask.no_tty): its
// message ends with the `gatekeep rules add` command that would allow the
// call next time, or why no rule can, as the hooks' reasons do.
func noTTYDeny(ans policy.Answer, msg string) policy.Decision {
	out := humanDeny(ans.Decision, policy.CodeAskNoTTY, msg)
	out.Message += "; " + ans.HowToAllow
	return out
}

func humanDeny(asked policy.Decision, code, msg string) policy.Decision {
	d := asked
	d.Effect, d.Layer, d.Code = policy.Deny, policy.LayerHuman, code
	d.Message = msg + ": " + asked.Message
	d.Cause = &policy.Cause{Layer: asked.Layer, Code: asked.Code, Message: asked.Message}
	return d
}

func humanAllow(asked policy.Decision, code, msg string) policy.Decision {
	d := asked
	d.Effect, d.Layer, d.Code, d.Message = policy.Allow, policy.LayerHuman, code, msg
	d.Cause = &policy.Cause{Layer: asked.Layer, Code: asked.Code, Message: asked.Message}
	return d
}
