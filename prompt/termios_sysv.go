//go:build aix || linux || solaris || zos

package prompt

import "golang.org/x/sys/unix"

const (
	ioctlGetTermios      = unix.TCGETS
	ioctlSetTermiosFlush = unix.TCSETSF // tcsetattr(TCSAFLUSH)
)
