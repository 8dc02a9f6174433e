package cmdmodel

import (
	"slices"
	"strings"
)

// The language families of the interpreters: the name an interpreter's
// program is read by (python3.12 is of FamilyPython).
const (
	FamilyPython = "python"
	FamilyPerl   = "perl"
	FamilyRuby   = "ruby"
	FamilyNode   = "node"
	FamilyPHP    = "php"
)

// interpreters read a program from standard input when given no script:
// these names, and the versioned ones followed by digits and dots
// (python3.12, perl5, lua5.4).
var (
	interpreters         = []string{"node", "nodejs", "Rscript", "osascript", "deno", "bun"}
	versionedInterpreter = []string{"python", "pypy", "perl", "ruby", "php", "lua", "tclsh"}
)

// interpreterCode lists each interpreter's options that take program text
// (a table the linker lays out; a map would be built in init).
var interpreterCode = [...]struct {
	family string
	opts   []string
}{{FamilyPython, []string{"c"}}, {FamilyPerl, []string{"e", "E"}}, {FamilyRuby, []string{"e"}},
	{FamilyNode, []string{"e", "p", "eval", "print"}}, {FamilyPHP, []string{"r"}}, {"lua", []string{"e"}}, {"Rscript", []string{"e"}}}

// IsInterpreter reports whether name (a basename) runs programs in another
// language (python, perl, node ...).
func IsInterpreter(name string) bool {
	if slices.Contains(interpreters, name) {
		return true
	}
	for _, p := range versionedInterpreter {
		if v, ok := strings.CutPrefix(name, p); ok && strings.Trim(v, "0123456789.") == "" {
			return true
		}
	}
	return false
}

// InterpreterFamily returns the family of the interpreter name: the name
// without its version (python3.12 is python).
func InterpreterFamily(name string) string { return strings.TrimRight(name, "0123456789.") }

// InterpreterCodeOpts returns the options of an interpreter family that
// take program text (python -c, perl -e and -E, node -e/--eval ...).
func InterpreterCodeOpts(family string) []string {
	var opts []string
	for _, ic := range interpreterCode {
		if ic.family == family {
			opts = ic.opts
		}
	}
	return opts
}

// RunsModule reports whether the interpreter option word t makes the
// interpreter run a module by name instead of a script or standard input
// (python -m MODULE).
func RunsModule(family, t string) bool {
	return family == FamilyPython && strings.HasPrefix(t, "-m")
}

// CodeReader names the reader of a program whose words hold code or a
// command that is not a wrapper's: what the shell reader unwraps it with.
type CodeReader int

const (
	// NoCodeReader: the program is none of those below.
	NoCodeReader CodeReader = iota
	// FindCode: find's -exec, -execdir, -ok and -okdir commands (FindExecs).
	FindCode
	// GitCode: git's aliases, -c configuration and subcommand options that
	// run commands (gitSubCodeOpts).
	GitCode
	// MakeCode: make's makefile given on the command line (MakeSpec).
	MakeCode
	// AtCode: at(1) and batch read the commands they schedule from
	// standard input or a file.
	AtCode
	// CrontabCode: crontab(1) installs a table of commands.
	CrontabCode
)

// CodeReaderOf returns the reader of name's code words (a basename).
func CodeReaderOf(name string) CodeReader {
	switch name {
	case "find":
		return FindCode
	case "git":
		return GitCode
	case "make", "gmake":
		return MakeCode
	case "at", "batch":
		return AtCode
	case "crontab":
		return CrontabCode
	}
	return NoCodeReader
}

// MakeSpec is make's model (GNU make 4.4): its options, read to find a
// makefile or code given on the command line.
func MakeSpec() (*Spec, bool) { return LookupSpec("make", false) }

// MakefileOpt reports whether opt, an option of a line MakeSpec reads,
// names a makefile to read (-f, --file, --makefile).
func MakefileOpt(opt string) bool { return opt == "f" || opt == "file" || opt == "makefile" }

// MakeEvalOpt reports whether opt, an option of a line MakeSpec reads,
// gives makefile text to evaluate (-E, --eval).
func MakeEvalOpt(opt string) bool { return opt == "E" || opt == "eval" }
