package cmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// toolCmds builds the tool commands: bash, read, write, edit. Under check
// (chk set to check's flags) they decide and report; at the top level
// (chk nil) they decide and then run.
func (a *app) toolCmds(chk *checkOptions) []*cobra.Command {
	return []*cobra.Command{a.newCmdBash(chk, nil), a.newCmdRead(chk, nil), a.newCmdWrite(chk, nil), a.newCmdEdit(chk, nil)}
}

// bashOptions are bash's: the -c string or the argv.
type bashOptions struct {
	check     *checkOptions // check's flags; nil runs what was decided
	script    string        // -c STRING
	hasScript bool          // -c was given
	args      []string      // NAME ARG... after -c STRING, or ARGV
}

// newCmdBash is `bash`. runF, when set, gets the parsed options in place
// of bashRun (cli/cli's NewCmdX shape: tests see what the flags became).
func (a *app) newCmdBash(chk *checkOptions, runF func(*bashOptions) error) *cobra.Command {
	o := &bashOptions{check: chk}
	c := &cobra.Command{
		Use:   "bash (-c STRING [NAME ARG...] | -- ARGV...)",
		Short: "Check a shell command, then run it",
		Long: `Check a shell command, then run it.

  bash -- ARGV...     exec ARGV directly (after a PATH lookup), no shell
  bash -c STRING      exec bash -c STRING (no bash: /bin/sh -c, parsed as POSIX sh)

What runs is byte for byte what was checked.`,
		RunE: func(c *cobra.Command, args []string) error {
			o.hasScript, o.args = c.Flags().Changed("command"), args
			if !o.hasScript && len(args) == 0 {
				return usageErr("bash needs -c STRING or -- ARGV...")
			}
			if o.hasScript {
				// -c STRING: the string is the first operand, and every
				// word after it is the script's ($0, $1 ...), as bash
				// takes them, never one of gatekeep's flags.
				if len(args) == 0 {
					return usageErr("bash -c needs a STRING")
				}
				o.script, o.args = args[0], args[1:]
				a.warnFlagOperands(c, o.args)
			}
			if runF != nil {
				return runF(o)
			}
			return a.bashRun(o)
		},
	}
	// -c is a switch, as bash's own is: the string is the first operand,
	// where flag parsing stops (SetInterspersed(false)), so the words
	// after it stay the script's.
	c.Flags().BoolP("command", "c", false, "the first operand is the shell string to check and run")
	c.Flags().SetInterspersed(false)
	return c
}

// warnFlagOperands says on stderr which words after `bash -c STRING` are
// exactly one of gatekeep's long flags for this command (`--mode`,
// `--json=x`): they stay the script's $0, $1 ... as bash takes them, which
// a person who meant gatekeep's flag would not see otherwise.
func (a *app) warnFlagOperands(c *cobra.Command, words []string) {
	for i, w := range words {
		name, _, _ := strings.Cut(strings.TrimPrefix(w, "--"), "=")
		if !strings.HasPrefix(w, "--") || name == "" {
			continue
		}
		if c.Flags().Lookup(name) != nil || c.InheritedFlags().Lookup(name) != nil {
			fmt.Fprintf(a.stderr, "gatekeep: warning: %s after bash -c STRING is the script's $%d, as bash takes it, not gatekeep's flag: put gatekeep's flags before bash\n", w, i)
		}
	}
}

// bashRun decides the shell command, then runs it: the -c string with
// bash (/bin/sh, parsed as POSIX sh, where there is no bash), or the argv
// directly.
func (a *app) bashRun(o *bashOptions) error {
	cl := call{req: policy.Request{Tool: policy.ToolBash}}
	if !o.hasScript {
		cl.req.Argv = o.args
		cl.run = func(policy.Decision) error { return a.runArgv(o.args) }
		return a.decide(o.check, cl)
	}
	shell := findShell()
	cl.req.Command, cl.posix = o.script, shell == "/bin/sh"
	cl.req.ShellGlob = shellGlob(shell)
	cl.run = func(policy.Decision) error { return a.runShell(shell, o.script, o.args) }
	return a.decide(o.check, cl)
}

// shellPaths are where bash is installed by the systems gatekeep runs on.
// They are fixed rather than looked up in PATH, which the agent controls:
// a `bash` planted in the project would otherwise run the checked script.
var shellPaths = []string{"/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/opt/homebrew/bin/bash",
	"/run/current-system/sw/bin/bash"}

// shellGlob is what gatekeep knows of the glob options of the shell it
// runs: bash started with its own environment (BASHOPTS, SHELLOPTS,
// GLOBIGNORE; BASH_ENV is removed, see shellEnv) and no rc file. For
// another shell, nothing.
func shellGlob(shell string) shellparse.GlobState {
	if shell == "/bin/sh" {
		return shellparse.GlobState{}
	}
	return shellparse.GlobStateFromEnv(os.Getenv)
}

// findShell is the absolute path of bash, or /bin/sh where there is none.
func findShell() string {
	for _, p := range shellPaths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	if runtime.GOOS == "windows" {
		// No system path to trust there: Git for Windows' bash from PATH.
		if p, err := exec.LookPath("bash"); err == nil {
			return p
		}
	}
	return "/bin/sh"
}

// shellEnv is the environment of what gatekeep execs: without BASH_ENV,
// ENV and exported functions (BASH_FUNC_*), which would make a shell (the one `-c` starts, or one anywhere in an
// argv such as `bash -- bash -c ...`) run a file gatekeep never saw.
func shellEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		// BASH_FUNC_name%%=() {...}: a function bash imports at start,
		// which would run in place of the command of that name.
		if strings.HasPrefix(kv, "BASH_ENV=") || strings.HasPrefix(kv, "ENV=") || strings.HasPrefix(kv, "BASH_FUNC_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// commandPath is the file argv[0] names. For a bare name it is the file
// the decision's own PATH search found (a.lookCmd): the one judged, with
// no second search that could find another (one the policy's search
// skipped, or one placed in PATH meanwhile). A name with a separator,
// and a bare name that search did not find or found unsafe, go to
// lookCommand, whose answer and errors are the ones gatekeep always gave.
func (a *app) commandPath(name string) (string, error) {
	if a.lookCmd != nil && name != "" && !strings.ContainsRune(name, '/') && !strings.ContainsRune(name, filepath.Separator) {
		if p, err := a.lookCmd(name); err == nil {
			return p, nil
		}
	}
	return lookCommand(name)
}

// lookCommand resolves argv[0] as a shell would: a name with a slash is
// used as it is, anything else is searched in PATH.
func lookCommand(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil {
		return p, nil
	}
	var ee *exec.Error
	if errors.As(err, &ee) && errors.Is(ee.Err, exec.ErrNotFound) {
		return "", withCode(ExitNotFound, errors.New(name+": command not found"))
	}
	if errors.Is(err, os.ErrPermission) {
		return "", withCode(ExitNotExec, errors.New(name+": permission denied"))
	}
	if errors.Is(err, os.ErrNotExist) {
		return "", withCode(ExitNotFound, errors.New(name+": no such file or directory"))
	}
	return "", withCode(ExitNotExec, err)
}
