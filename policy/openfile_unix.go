//go:build unix

package policy

import "syscall"

const oNonblock = syscall.O_NONBLOCK
