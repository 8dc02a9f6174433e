//go:build linux

package pathguard

import "syscall"

const sysFstatat = syscall.SYS_NEWFSTATAT
