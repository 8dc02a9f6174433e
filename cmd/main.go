// Package cmd is gatekeep's command line: the cobra tree, its flags and
// streams, the exit-code table, rendering Decisions as text or JSON,
// resolving an ask through the prompt, and exec-ing what was checked.
package cmd

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// Main runs gatekeep with the process's arguments and streams and returns
// the exit status. It is the only entry point; only main.go exits.
func Main() int {
	return Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Run runs gatekeep with the given arguments and streams. A panic anywhere
// becomes a deny line on stderr and ExitInternal: nothing runs.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			writeJSONLine(stderr, denyLine{Source: "gatekeep", Version: SchemaVersion, Effect: "deny",
				Layer: "internal", Code: "internal.panic", Message: fmt.Sprintf("gatekeep failed and ran nothing: %v", r), Offset: -1})
			if os.Getenv("GATEKEEP_DEBUG") != "" {
				fmt.Fprintf(stderr, "%s\n", debug.Stack())
			}
			code = ExitInternal
		}
	}()
	a := newApp(stdin, stdout, stderr)
	root := a.rootCmd()
	root.SetArgs(args)
	err := root.Execute()
	code, silent := exitCodeOf(err)
	if err != nil && !silent {
		fmt.Fprintf(stderr, "gatekeep: %v\n", err)
		if code == ExitUsage {
			fmt.Fprintln(stderr, "run 'gatekeep --help' for usage")
		}
	}
	return code
}
