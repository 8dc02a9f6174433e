//go:build !windows

package cmd

import (
	"os"

	"golang.org/x/sys/unix"
)

// auditOpenFlags opens the audit log for appending, creating it, and
// refuses a symlink planted in its place.
const auditOpenFlags = os.O_WRONLY | os.O_APPEND | os.O_CREATE | unix.O_NOFOLLOW
