package cmdmodel

import (
	flagpkg "flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var updateNames = flagpkg.Bool("update-names", false, "rewrite testdata/names_outside.txt with the program names found outside cmdmodel")

// bashBuiltins are the names the shell reader knows as the shell's own
// (bash(1) SHELL BUILTIN COMMANDS, `compgen -b`): a literal of one in
// shellparse is a fact about the shell, not about a program.
var bashBuiltins = strings.Fields(". : [ alias bg bind break builtin caller cd command compgen complete compopt " +
	"continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs " +
	"kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source " +
	"suspend test times trap true type typeset ulimit umask unalias unset wait")

// programNames are the names of the programs the model describes: the
// effects, wrapper, read-only, network and destroyer tables, less the
// shell's builtins.
func programNames() map[string]bool {
	names := map[string]bool{}
	for _, t := range []*specTable{&effectTable, &wrapperTable} {
		for _, e := range t.entries {
			names[e.name] = true
		}
	}
	for n := range safeTable {
		names[n] = true
	}
	for n := range networkCommands() {
		names[n] = true
	}
	for n := range runners {
		names[n] = true
	}
	for _, b := range bashBuiltins {
		delete(names, b)
	}
	return names
}

// TestProgramNamesOutsideModel fails when a program the model describes
// is named by a string literal in a non-test Go file outside cmdmodel
// that testdata/names_outside.txt does not list: a fact about a program
// belongs in the model. The list holds what has not moved yet, one
// "FILE NAME" a line; it may only shrink (-update-names rewrites it).
func TestProgramNamesOutsideModel(t *testing.T) {
	names := programNames()
	root := filepath.Join("..", "..")
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "cmdmodel") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.ImportSpec); ok {
				return false // a package path
			}
			if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING {
				if s, err := strconv.Unquote(l.Value); err == nil && names[s] {
					found = append(found, filepath.ToSlash(rel)+" "+s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	found = slices.Compact(found)
	const list = "testdata/names_outside.txt"
	if *updateNames {
		if err := os.WriteFile(list, []byte(strings.Join(found, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	known := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, f := range found {
		if !slices.Contains(known, f) {
			t.Errorf("%s: a program name as a string literal outside cmdmodel: move the fact into the model", f)
		}
	}
	t.Logf("%d program names still named outside cmdmodel (%s)", len(found), list)
}
