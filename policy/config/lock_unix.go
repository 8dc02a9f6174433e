//go:build unix

package config

import "syscall"

const oNonblock = syscall.O_NONBLOCK
