//go:build windows

package cmd

import "os"

// auditOpenFlags opens the audit log for appending, creating it.
const auditOpenFlags = os.O_WRONLY | os.O_APPEND | os.O_CREATE
