// Package cmdmodel holds every fact gatekeep knows about programs: how
// each command it models reads its command line (options as the real
// tool's getopt or hand parser takes them, cited by version), which of its
// words are files it reads or writes, the read-only forms, the wrappers
// and what they run, the options that run code, the tool variables that
// change what a program loads, and the readers of the small languages
// programs take as arguments (find expressions, sed and awk programs, env
// -S strings, git's global options and subcommands, which operand a shell
// or an interpreter runs as its script). The entries are checked against
// the real binaries by TestRealTools and its kin.
//
// It reads a Command: the words of one command line after the shell's
// quote removal, its assignments and its redirections. Parsing shell text
// into commands is shellparse's business, and deciding allow, ask or deny
// is policy's; this package imports neither, nor any other package of
// gatekeep.
package cmdmodel
