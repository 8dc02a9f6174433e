//go:build !unix

package cmd

// stdoutIsNull: not detected outside Unix.
func stdoutIsNull() bool { return false }
