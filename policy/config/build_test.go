package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// TestBuild: the configuration is built for the Cwd it is given, never the
// process's: two projects side by side get their own root and rules, a
// relative --allow-dir is against Cwd; a bad mode is an *InputError, a
// broken file a config error.
func TestBuild(t *testing.T) {
	v := newCfgEnv(t)
	other := filepath.Join(filepath.Dir(v.root), "other")
	for _, d := range []string{filepath.Join(other, ".git"), filepath.Join(other, "src"), filepath.Join(filepath.Dir(v.root), "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	v.write(v.localFile(), "[[rule]]\ndeny = \"Bash(make *)\"\n")
	env := map[string]string{
		ManagedConfigEnv:  v.paths.Managed,
		"XDG_CONFIG_HOME": filepath.Dir(filepath.Dir(v.paths.User)),
		"XDG_STATE_HOME":  filepath.Dir(filepath.Dir(v.paths.Trust)),
	}
	in := func(cwd string) Input {
		return Input{Cwd: cwd, Home: v.home, Env: func(k string) (string, bool) { s, ok := env[k]; return s, ok }}
	}
	bash := func(b *Built, cwd, cmd string) policy.Decision {
		return policy.Evaluate(b.Config, policy.Request{Tool: policy.ToolBash, Command: cmd, Cwd: cwd})
	}
	b, err := Build(in(filepath.Join(v.root)))
	if err != nil {
		t.Fatal(err)
	}
	if b.Loaded.Root != v.root || b.Config.Root != v.root || b.Options.Paths.Trust != v.paths.Trust {
		t.Errorf("root %s (config %s), trust %s", b.Loaded.Root, b.Config.Root, b.Options.Paths.Trust)
	}
	if d := bash(b, v.root, "make all"); d.Effect != policy.Deny {
		t.Errorf("make all in the project = %v", d)
	}
	o := in(filepath.Join(other, "src"))
	outside := filepath.Join(filepath.Dir(v.root), "outside")
	o.AllowDirs = []string{"../../outside"}
	b, err = Build(o)
	if err != nil {
		t.Fatal(err)
	}
	if b.Loaded.Root != other {
		t.Errorf("root from %s = %s", o.Cwd, b.Loaded.Root)
	}
	if d := bash(b, o.Cwd, "make all"); d.Effect == policy.Deny {
		t.Errorf("the first project's rule holds in the other: %v", d)
	}
	if !slices.Contains(b.Config.Guard.Roots(), outside) {
		t.Errorf("--allow-dir ../../outside from %s: roots %q", o.Cwd, b.Config.Guard.Roots())
	}
	bad := in(v.root)
	bad.Mode = "loose"
	var ie *InputError
	if _, err := Build(bad); !errors.As(err, &ie) || IsConfigError(err) {
		t.Errorf("--mode loose: %v", err)
	}
	v.write(v.projectFile(), "mode = 3\n")
	if _, err := Build(in(v.root)); !IsConfigError(err) {
		t.Errorf("broken project file: %v", err)
	}
}

// TestBuildAgent: Build returns the finished configuration of a hook call
// and of a POSIX sh call: the agent's mode tightens (or, trusted by the
// user file, replaces) gatekeep's own, its shell is the dialect (judged as
// bash too), and nothing is left for the caller to patch.
func TestBuildAgent(t *testing.T) {
	v := newCfgEnv(t)
	env := map[string]string{
		ManagedConfigEnv:  v.paths.Managed,
		"XDG_CONFIG_HOME": filepath.Dir(filepath.Dir(v.paths.User)),
		"XDG_STATE_HOME":  filepath.Dir(filepath.Dir(v.paths.Trust)),
		"SHELL":           "/bin/zsh",
	}
	in := Input{Cwd: v.root, Home: v.home, Env: func(k string) (string, bool) { s, ok := env[k]; return s, ok }}
	build := func(in Input) *Built {
		t.Helper()
		b, err := Build(in)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := build(in)
	if b.Config.AgentMode != "" || b.Config.POSIX || slices.Contains(b.Config.Dialects, shellparse.Bash) || b.AgentDialect != "" {
		t.Errorf("a CLI call: agent mode %q, POSIX %v, dialects %q, agent dialect %q", b.Config.AgentMode, b.Config.POSIX, b.Config.Dialects, b.AgentDialect)
	}
	posix := in
	posix.POSIX = true
	if !build(posix).Config.POSIX {
		t.Error("POSIX not set")
	}
	hook := in
	hook.Agent = &AgentInput{PermissionMode: "plan"}
	b = build(hook)
	if b.Config.AgentMode != policy.ModePlan || b.Config.Mode != policy.ModeDefault || b.TrustedAgentMode ||
		b.AgentDialect != shellparse.Zsh || !slices.Contains(b.Config.Dialects, shellparse.Bash) {
		t.Errorf("a hook call: mode %s, agent mode %s, trusted %v, dialect %s, dialects %q",
			b.Config.Mode, b.Config.AgentMode, b.TrustedAgentMode, b.AgentDialect, b.Config.Dialects)
	}
	v.write(v.paths.User, "[hooks]\ntrust_agent_mode = true\n")
	b = build(hook)
	if b.Config.Mode != policy.ModePlan || b.Config.AgentMode != "" || !b.TrustedAgentMode {
		t.Errorf("trusted: mode %s, agent mode %s, trusted %v", b.Config.Mode, b.Config.AgentMode, b.TrustedAgentMode)
	}
	hook.Mode = "acceptEdits"
	if b = build(hook); b.Config.Mode != policy.ModeAcceptEdits || b.Config.AgentMode != policy.ModePlan {
		t.Errorf("--mode given: mode %s, agent mode %s", b.Config.Mode, b.Config.AgentMode)
	}
}
