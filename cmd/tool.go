package cmd

import (
	"errors"
	"os"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/policy"
)

// toolCmds builds the tool commands: bash, read, write, edit. Under check
// they decide and report; at the top level they decide and then run.
func (a *app) toolCmds(check bool) []*cobra.Command {
	return []*cobra.Command{a.bashCmd(check), a.readCmd(check), a.writeCmd(check), a.editCmd(check)}
}

func (a *app) bashCmd(check bool) *cobra.Command {
	var script string
	c := &cobra.Command{
		Use:   "bash (-c STRING [NAME ARG...] | -- ARGV...)",
		Short: "Check a shell command, then run it",
		Long: `Check a shell command, then run it.

  bash -- ARGV...     exec ARGV directly (after a PATH lookup), no shell
  bash -c STRING      exec bash -c STRING (no bash: /bin/sh -c, parsed as POSIX sh)

What runs is byte for byte what was checked.`,
		RunE: func(c *cobra.Command, args []string) error {
			hasC := c.Flags().Changed("command")
			if !hasC && len(args) == 0 {
				return usageErr("bash needs -c STRING or -- ARGV...")
			}
			req := policy.Request{Tool: policy.ToolBash}
			var shell string
			if hasC {
				req.Command = script
				shell = findShell()
			} else {
				req.Argv = args
			}
			run := func(policy.Decision) error {
				if hasC {
					return a.runShell(shell, script, args)
				}
				return a.runArgv(args)
			}
			return a.handle(check, req, shell == "/bin/sh", run)
		},
	}
	c.Flags().StringVarP(&script, "command", "c", "", "the shell string to check and run")
	c.Flags().SetInterspersed(false)
	return c
}

// shellPaths are where bash is installed by the systems gatekeep runs on.
// They are fixed rather than looked up in PATH, which the agent controls:
// a `bash` planted in the project would otherwise run the checked script.
var shellPaths = []string{"/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/opt/homebrew/bin/bash",
	"/run/current-system/sw/bin/bash"}

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
		if hasPrefix(kv, "BASH_ENV=") || hasPrefix(kv, "ENV=") || hasPrefix(kv, "BASH_FUNC_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

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
