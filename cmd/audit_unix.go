//go:build !windows

package cmd

import (
	"os"

	"golang.org/x/sys/unix"
)

// auditOpenFlags opens the audit log for appending, creating it, refuses a
// symlink planted in its place, and never blocks: a FIFO with no reader
// fails at once (ENXIO) instead of hanging the call.
const auditOpenFlags = os.O_WRONLY | os.O_APPEND | os.O_CREATE | unix.O_NOFOLLOW | unix.O_NONBLOCK
