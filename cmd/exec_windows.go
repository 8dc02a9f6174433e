//go:build windows

package cmd

import (
	"errors"
	"os"
	"os/exec"
)

// execShell runs `shell -c script [args...]` as a child.
func execShell(shell, script string, args []string) error {
	return runChild(shell, append([]string{"-c", script}, args...), shellEnv())
}

func runChild(path string, args, env []string) error {
	c := exec.Command(path, args...)
	c.Env = env
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return silentExit(ee.ExitCode())
	}
	if err != nil {
		return withCode(ExitNotExec, err)
	}
	return silentExit(0)
}

// execPath runs path (already looked up) with argv as a child (Windows
// has no exec) and passes its exit status on.
func execPath(path string, argv []string) error { return runChild(path, argv[1:], shellEnv()) }
