// Package cmd is gatekeep's command line: the cobra tree, its flags and
// streams, the exit-code table, rendering Decisions as text or JSON,
// resolving an ask through the prompt, and exec-ing what was checked.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/gatekeep/gatekeep/policy"
)

// Main runs gatekeep with the process's arguments and streams and returns
// the exit status. It is the only entry point; only main.go exits.
func Main() int {
	growStack()
	return Run(os.Args[1:], os.Stdin, processStdout{os.Stdout}, os.Stderr)
}

// growStack grows the goroutine's stack to what a call needs (16 KB)
// while it holds only a few frames. The runtime starts a goroutine on
// 2 KB and doubles the stack when a call overflows it, copying it and
// adjusting every frame on it; left to itself, a call grew it twice in
// package init and a third time in policy's evaluation, a dozen frames
// deep.
//
//go:noinline
func growStack() byte {
	var frame [12 << 10]byte
	return frame[len(os.Args)%len(frame)] // an index the compiler cannot know keeps the frame
}

// processStdout is the process's own stdout. Whether it is the null
// device, or was closed by the caller (stdoutIsNull), matters only once a
// hook's answer was written there (it is lost), and is looked up only
// then: a call that execs what it checked never needs it.
type processStdout struct{ io.Writer }

// Run runs gatekeep with the given arguments and streams. A panic anywhere
// becomes a deny line on stderr and ExitInternal: nothing runs.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			writeJSONLine(&safeWriter{w: stderr}, denyLine{Source: "gatekeep", Version: SchemaVersion, Effect: "deny",
				Layer: string(policy.LayerInternal), Code: policy.CodeInternalPanic, Message: fmt.Sprintf("gatekeep failed and ran nothing: %v", r), Offset: -1})
			if os.Getenv("GATEKEEP_DEBUG") != "" {
				fmt.Fprintf(stderr, "%s\n", debug.Stack())
			}
			code = ExitInternal
		}
	}()
	out := &errWriter{w: stdout}
	safeOut, safeErr := &safeWriter{w: out}, &safeWriter{w: stderr}
	defer safeErr.Flush()
	stderr = safeErr
	a := newApp(stdin, safeOut, stderr)
	a.rawStdout = out
	err := a.execute(args)
	safeOut.Flush()
	code, silent := exitCodeOf(err)
	if err != nil && !silent {
		fmt.Fprintf(stderr, "gatekeep: %v\n", err)
		if code == ExitUsage {
			fmt.Fprintln(stderr, a.usageHint())
		}
	}
	if _, ok := stdout.(processStdout); ok && out.err == nil && out.n > 0 && a.hookMode && stdoutIsNull() {
		out.err = errors.New("stdout is closed or /dev/null")
	}
	if out.err != nil {
		// What was decided never reached the caller: never exit as if it
		// had. A hook blocks; anything else is an internal error.
		switch {
		case a.hookMode && code == ExitHookBlock && !silent:
			// hookFail said so already.
		case a.hookMode:
			fmt.Fprintf(stderr, "gatekeep: cannot write the answer on stdout (%v), so the call is blocked\n", out.err)
		default:
			fmt.Fprintf(stderr, "gatekeep: cannot write to stdout: %v\n", out.err)
		}
		if a.hookMode {
			return ExitHookBlock
		}
		return ExitInternal
	}
	return code
}
