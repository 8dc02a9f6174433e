//go:build unix

package cmd

import (
	"os"
	"syscall"
)

// stdoutIsNull reports whether stdout is the null device. The Go runtime
// puts /dev/null on a standard descriptor the caller closed (`>&-`), so a
// closed stdout looks like this too; a hook's answer written there never
// reaches the agent.
func stdoutIsNull() bool {
	out, err := os.Stdout.Stat()
	if err != nil {
		return false
	}
	null, err := os.Stat(os.DevNull)
	if err != nil || out.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	a, ok1 := out.Sys().(*syscall.Stat_t)
	b, ok2 := null.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && a.Rdev == b.Rdev
}
