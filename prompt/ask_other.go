//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package prompt

import (
	"fmt"
	"runtime"
)

// Ask puts q to the person on a terminal. Raw terminal input is supported
// on Linux, macOS and the BSDs only: here it returns Deny and an error
// wrapping ErrNoTTY, so every ask is denied.
func Ask(q Question, opt Options) (Answer, error) {
	return Deny, fmt.Errorf("%w: terminal prompts are not supported on %s", ErrNoTTY, runtime.GOOS)
}
