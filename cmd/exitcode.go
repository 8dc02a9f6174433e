package cmd

import (
	"errors"
	"fmt"
)

// Exit codes: the contract with agents and scripts (README, "Exit codes").
// Codes 64 and up follow sysexits(3) where one fits.
const (
	ExitOK         = 0   // allowed and ran (or check: allow); otherwise the command's own status
	ExitFailure    = 1   // a file tool failed: not found, no match, I/O error
	ExitHookBlock  = 2   // hook mode: the call is blocked (a denial the agent reads from stderr, or any failure)
	ExitUsage      = 64  // the command line is wrong (EX_USAGE)
	ExitNoInput    = 66  // an input file named on the command line does not exist or cannot be read (EX_NOINPUT)
	ExitInternal   = 70  // gatekeep itself failed; nothing ran (EX_SOFTWARE)
	ExitAsk        = 75  // check: the call would ask (EX_TEMPFAIL)
	ExitDeny       = 77  // denied; nothing ran (EX_NOPERM)
	ExitConfig     = 78  // a config file is invalid; nothing ran (EX_CONFIG)
	ExitNotExec    = 126 // the command exists but cannot be executed (as in sh)
	ExitNotFound   = 127 // the command was not found (as in sh)
	exitSignalBase = 128 // a command killed by signal N exits 128+N (Windows: its code)
)

// exitCodeHelp is the exit-code table of `gatekeep --help`, one line per
// code of the block above (README, "Exit codes", has the long form;
// TestExitCodeTables checks that the three agree).
const exitCodeHelp = `Exit status:
  0      allowed and ran successfully; check: allow
  N      allowed and ran: the command's own status (128+N when killed by signal N)
  1      a file tool failed (a JSON error line on stderr); test: a case failed;
         doctor: not in the agent's loop; rules add/remove failed
  2      hook: the call is blocked
  64     usage error (run 'gatekeep COMMAND --help')
  66     an input file does not exist or cannot be read (check --batch, trust)
  70     gatekeep itself failed; nothing ran
  75     check: ask
  77     denied; nothing ran (check: deny; --deny-exit-code changes it for a run)
  78     a config file is invalid; nothing ran
  126    the command cannot be executed
  127    the command was not found`

// exitError carries an exit status out of a command to Main, the only place
// that exits. A silent exitError prints nothing (its output is already out).
type exitError struct {
	code   int
	err    error
	silent bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// withCode wraps err with an exit status.
func withCode(code int, err error) error { return &exitError{code: code, err: err} }

// silentExit returns status code without printing anything more.
func silentExit(code int) error { return &exitError{code: code, silent: true} }

// usageErr is a command-line mistake (exit 64).
func usageErr(format string, args ...any) error {
	return withCode(ExitUsage, fmt.Errorf(format, args...))
}

// exitCodeOf maps an error returned by a command to its exit status, and
// whether it was already reported. gatekeep's own errors carry their code
// (withCode, silentExit, usageErr; a flag error gets ExitUsage from the
// flag error funcs), so an error without one is cobra's own: an unknown
// command or a wrong number of arguments, a usage error (64).
func exitCodeOf(err error) (int, bool) {
	if err == nil {
		return ExitOK, true
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code, ee.silent
	}
	return ExitUsage, false
}
