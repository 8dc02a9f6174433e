package cmdmodel

import "slices"

// versionOptions are the options that make a program print its version
// and exit, reading no project file and running no code (each program's
// man page: python(1) -V/--version, node(1) -v/--version, perl(1) -v,
// gcc(1) and make(1) --version, npm-version(1) -v/--version;
// TestVersionOnlyRealTools runs them). Left out: ruby -v (it goes on to run
// a program from standard input), rustc and cargo (a rustup proxy picks
// the toolchain a project file names, which may be a path in the
// project), yarn (runs the release .yarnrc.yml's yarnPath names) and
// pnpm (the version package.json's packageManager names).
var versionOptions = map[string][]string{
	"python":  {"-V", "--version"},
	"python3": {"-V", "--version"},
	"node":    {"-v", "--version"},
	"perl":    {"-v", "--version"},
	"gcc":     {"--version"},
	"g++":     {"--version"},
	"cc":      {"--version"},
	"clang":   {"--version"},
	"make":    {"-v", "--version"},
	"npm":     {"-v", "--version"},
}

// VersionOnly reports whether c is a program of versionOptions given one
// word, a static option that prints its version and exits.
func VersionOnly(c *Command) bool {
	if len(c.Args) != 2 || c.Args[0].Dynamic || c.Args[1].Dynamic {
		return false
	}
	return slices.Contains(versionOptions[c.Args[0].Text], c.Args[1].Text)
}
