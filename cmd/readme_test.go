package cmd_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/cmd"
)

// TestReadmeConfigExample: the example config in README loads, and its
// [[test]] entries pass, so the documentation cannot drift from the loader.
func TestReadmeConfigExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```toml\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README has no toml example")
	}
	proj := isolate(t)
	if err := os.MkdirAll(filepath.Join(proj, ".gatekeep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".gatekeep", "config.local.toml"), m[1], 0o600); err != nil {
		t.Fatal(err)
	}
	// The local file is not shown untracked by a git index here: trust it.
	for _, args := range [][]string{{"trust", ".gatekeep/config.local.toml"}, {"config", "validate"}, {"test"}} {
		var out, errb bytes.Buffer
		if code := cmd.Run(args, strings.NewReader(""), &out, &errb); code != 0 || strings.Contains(out.String(), "warning:") {
			t.Errorf("gatekeep %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
		}
	}
}
