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
// It also reports what a command does to files (Effects) from a table of
// well-known commands. It does not decide anything: allow, ask and deny are
// the policy package's business.
package shellparse
