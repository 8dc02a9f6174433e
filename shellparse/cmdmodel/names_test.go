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
// effects, wrapper, read-only, network, interpreter and destroyer
// tables, less the shell's builtins.
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
	for _, n := range slices.Concat(interpreters, versionedInterpreter, Finders, BlockCopiers, ModeChangers,
		OwnerChangers, Movers, Syncers, TreeRemovers, FileRemovers, NVMeTools,
		DiskWipers, VolumeTools, Partitioners) {
		names[n] = true
	}
	for _, b := range bashBuiltins {
		delete(names, b)
	}
	return names
}

// TestProgramNamesOutsideModel fails when a program the model describes
// is named by a string literal in a non-test Go file outside cmdmodel: a
// fact about a program belongs in the model, and the caller asks it.
// Literals that cannot name a program are not counted: import paths, the
// components of a path built with filepath.Join or path.Join, and the Op
// of an os.PathError (a system call). The rest that are not program
// names (a configuration key, a JSON field, git's grep subcommand) are
// listed in testdata/names_outside.txt, one "FILE NAME..." a line, each
// with its reason after "#". The test fails on a literal the list does
// not hold, on an entry without a reason, and on an entry no longer
// needed; -update-names drops the entries no longer needed.
func TestProgramNamesOutsideModel(t *testing.T) {
	names := programNames()
	root := filepath.Join("..", "..")
	found := map[string]bool{} // "FILE NAME"
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
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false // a package path
			case *ast.CallExpr:
				if isPathJoin(n.Fun) {
					return false // path components
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Op" {
					return false // os.PathError's system call
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(n.Value); err == nil && names[s] {
					found[filepath.ToSlash(rel)+" "+s] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const list = "testdata/names_outside.txt"
	data, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	var kept []string
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		entry, reason, _ := strings.Cut(line, "#")
		fields := strings.Fields(entry)
		if len(fields) == 0 {
			kept = append(kept, line) // a comment or a blank line
			continue
		}
		if strings.TrimSpace(reason) == "" {
			t.Errorf("%s:%d: %q gives no reason after \"#\"", list, i+1, line)
		}
		var still []string
		for _, n := range fields[1:] {
			key := fields[0] + " " + n
			listed[key] = true
			if found[key] {
				still = append(still, n)
			} else if !*updateNames {
				t.Errorf("%s:%d: %s no longer names %s: drop it from the list (-update-names)", list, i+1, fields[0], n)
			}
		}
		if len(fields) < 2 {
			t.Errorf("%s:%d: %q names no program", list, i+1, line)
		}
		if len(still) > 0 {
			kept = append(kept, strings.Join(append(fields[:1], still...), " ")+" #"+reason)
		}
	}
	var missing []string
	for f := range found {
		if !listed[f] {
			missing = append(missing, f)
		}
	}
	slices.Sort(missing)
	for _, f := range missing {
		t.Errorf("%s: a program name as a string literal outside cmdmodel: move the fact into the model, or list it in %s with the reason it names no program", f, list)
	}
	if *updateNames {
		if err := os.WriteFile(list, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// isPathJoin reports a call of filepath.Join or path.Join, whose string
// arguments are path components.
func isPathJoin(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Join" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "filepath" || pkg.Name == "path")
}
