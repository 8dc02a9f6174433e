package cmdmodel

import (
	"regexp"
	"testing"
)

// TestIsInterpreter: the names IsInterpreter takes are those of the
// regular expression it replaced.
func TestIsInterpreter(t *testing.T) {
	re := regexp.MustCompile(`^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|Rscript|tclsh[0-9.]*|osascript|deno|bun)$`)
	for _, n := range []string{"python", "python3", "python3.12", "python3.", "python3x", "pythonx", "xpython", "pypy3",
		"perl", "perl5.36", "ruby", "ruby3.2", "node", "nodejs", "node18", "php", "php8.2", "lua", "lua5.4", "luajit",
		"Rscript", "rscript", "tclsh", "tclsh8.6", "osascript", "deno", "bun", "bunx", "", "sh", "bash", "python-3",
		"python3 ", "perl.", "..", "p", "rubyx"} {
		if got, want := IsInterpreter(n), re.MatchString(n); got != want {
			t.Errorf("IsInterpreter(%q) = %v, the expression says %v", n, got, want)
		}
	}
}
