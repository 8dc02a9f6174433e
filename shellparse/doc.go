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
// It also reports what a command does to files (Effects) from a table of
// well-known commands. It does not decide anything: allow, ask and deny are
// the policy package's business.
package shellparse
