// Command execwrap is the baseline for gatekeep's whole-process benchmark:
// a minimal Go program that looks its argv up in PATH and execs it, with no
// checking at all. docs/benchmarks.md has the hyperfine command.
package main

import (
	"os"
	"os/exec"
	"syscall"
)

func main() {
	path, err := exec.LookPath(os.Args[1])
	if err != nil {
		os.Exit(127)
	}
	syscall.Exec(path, os.Args[1:], os.Environ())
	os.Exit(126)
}
