//go:build !linux

package cmd_test

import (
	"fmt"
	"os"
)

// variantMain exists on Linux only (enforce_script_test.go).
func variantMain() {
	fmt.Fprintln(os.Stderr, "variant: kernel enforcement is Linux only")
	os.Exit(2)
}
