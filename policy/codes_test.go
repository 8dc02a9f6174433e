package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// codeShape is what a decision code looks like.
var codeShape = regexp.MustCompile(`^(safe|danger|sandbox|rule|mode|plan|ask|input|parse|config|internal)\.[a-z_]+$`)

// notCodes are strings of a code's shape that are something else: config
// keys named in error messages, file names.
var notCodes = map[string]bool{
	"config.toml": true, "config.worktree": true, "plan.tools": true,
	"sandbox.allow_dirs": true, "sandbox.writable": true, "sandbox.readable": true, "sandbox.unconfined": true,
	"sandbox.enforce": true, "sandbox.bypass": true, "sandbox.allowed_hosts": true,
}

// TestCodesTable: every string of a code's shape in gatekeep's source is a
// code of Codes (or a known config key), each code is listed once with a
// layer, and no code is given by two layers.
func TestCodesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Codes {
		if seen[c.Code] {
			t.Errorf("%s is listed twice", c.Code)
		}
		seen[c.Code] = true
		if !codeShape.MatchString(c.Code) || c.Layer == "" || len(c.Effects) == 0 || c.Meaning == "" {
			t.Errorf("%+v: want a dotted code, a layer, its effects and when it is given", c)
		}
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !codeShape.MatchString(s) || notCodes[s] {
				return true
			}
			if _, ok := CodeLayer(s); !ok {
				t.Errorf("%s: %q looks like a decision code but is not in policy.Codes (policy/codes.go); add it there and to docs/codes.md (go test ./cmd -run TestReadmeTables -update), or to notCodes if it is not a code", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
