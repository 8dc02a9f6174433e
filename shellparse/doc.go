// Package shellparse turns shell text into the simple commands it can run.
//
// It parses with mvdan.cc/sh/v3/syntax (Bash by default, POSIX sh on request)
// and walks the whole tree: lists, pipelines, subshells, groups, command and
// process substitutions, control flow, function bodies, here-documents fed to
// a shell, and the literal code of `bash -c`, `eval` and similar wrappers.
// Every simple command is reported with its words resolved without running
// anything: quotes and escapes are removed, and a word whose value depends on
// a variable, a substitution, a glob or brace expansion is marked Dynamic.
//
// Where bash would evaluate a string as code (an arithmetic expression that
// reads a variable, `${!x}`, `${x@P}`, a variable name with a subscript
// given to `read` or `test -v`), the place is reported as a command whose
// Unknown says so (code.go). Commands that can run after one that creates
// links are marked AfterLink (links.go).
//
// Input the parser would read differently from bash is refused with an
// *Error rather than analysed: carriage returns, comments ending in a
// backslash, text that is not valid UTF-8 or holds U+FFFD, and nesting deep
// enough to exhaust the parser (see the limits in parse.go).
//
// Besides the shell's own builtins it knows only where programs take code
// in a string (shells and interpreters, make recipes, git's configuration,
// crontab and at lines) and reads that code as commands of its own; which
// programs those are, and which of their options hold the code, the
// command model says (CodeReaderOf, IsInterpreter, GitSubCodeOpts). What a
// program does with its words (options, files, wrappers, read-only forms,
// destroyers) is the command model's, in package cmdmodel, which the walk
// asks to find the command a wrapper runs; Effects joins the model's file
// effects with the command's redirects. It does not decide anything:
// allow, ask and deny are the policy package's business.
package shellparse
