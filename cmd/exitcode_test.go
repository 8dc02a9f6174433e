package cmd

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestExitCodeTables: every exit code of exitcode.go has a row in README's
// "Exit codes" table and a line in `gatekeep --help` (exitCodeHelp), and
// neither lists a code exitcode.go does not define.
func TestExitCodeTables(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "exitcode.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{"N": true} // a command's own status
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && strings.HasPrefix(name.Name, "Exit") {
					codes[lit.Value] = true
				}
			}
		}
	}
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i := strings.Index(readme, "\n## Exit codes\n")
	if i < 0 {
		t.Fatal("README has no Exit codes section")
	}
	section := readme[i+1:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	inReadme := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\| \*?(\d+|N)\*? \|`).FindAllStringSubmatch(section, -1) {
		inReadme[m[1]] = true
	}
	inHelp := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  (\d+|N) `).FindAllStringSubmatch(exitCodeHelp, -1) {
		inHelp[m[1]] = true
	}
	for c := range codes {
		if !inReadme[c] {
			t.Errorf("exit code %s has no row in README's Exit codes table", c)
		}
		if !inHelp[c] {
			t.Errorf("exit code %s is not in gatekeep --help (exitCodeHelp)", c)
		}
	}
	for c := range inReadme {
		if !codes[c] {
			t.Errorf("README lists exit code %s, which exitcode.go does not define", c)
		}
	}
	for c := range inHelp {
		if !codes[c] {
			t.Errorf("gatekeep --help lists exit code %s, which exitcode.go does not define", c)
		}
	}
}

// TestOwnErrorsCoded: an error of gatekeep's own, not of the command
// line, carries its code: the rules or the config files written to a
// stdout that fails are an internal error (70), not a usage error.
func TestOwnErrorsCoded(t *testing.T) {
	tmp := t.TempDir()
	for k, v := range map[string]string{"HOME": tmp, "XDG_CONFIG_HOME": tmp + "/config", "XDG_STATE_HOME": tmp + "/state",
		"XDG_CACHE_HOME": tmp + "/cache", "GATEKEEP_MODE": "", "GATEKEEP_ROOT": "", "GATEKEEP_ENFORCE": ""} {
		t.Setenv(k, v)
	}
	t.Chdir(tmp)
	for _, args := range [][]string{{"rules"}, {"config", "path"}} {
		a := newApp(strings.NewReader(""), failingWriter{}, io.Discard)
		root := a.rootCmd()
		root.SetArgs(args)
		err := root.Execute()
		if code, _ := exitCodeOf(err); code != ExitInternal {
			t.Errorf("%q with a failing stdout: exit %d (%v), want %d", args, code, err, ExitInternal)
		}
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }
