//go:build !windows

package cmd

import (
	"errors"
	"syscall"
)

// execShell replaces gatekeep with `shell -c script [args...]`.
func execShell(shell, script string, args []string) error {
	return execve(shell, append([]string{shell, "-c", script}, args...), shellEnv())
}

func execve(path string, argv, env []string) error {
	err := syscall.Exec(path, argv, env)
	// Exec only returns on failure.
	if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.ENOEXEC) {
		return withCode(ExitNotExec, errors.New(argv[0]+": "+err.Error()))
	}
	if errors.Is(err, syscall.ENOENT) {
		return withCode(ExitNotFound, errors.New(argv[0]+": "+err.Error()))
	}
	return withCode(ExitNotExec, errors.New(argv[0]+": "+err.Error()))
}

// execPath replaces gatekeep with path (already looked up) and argv: the
// same process, so stdin, stdout, stderr, signals and the exit status are
// the command's own.
func execPath(path string, argv []string) error { return execve(path, argv, shellEnv()) }
