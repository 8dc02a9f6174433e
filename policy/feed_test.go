//go:build unix

package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/shellparse"
)

// TestXargsFeedRows: `find ... | xargs CMD` is judged by the paths find
// prints now: allowed when CMD only reads and no path is a secret; a
// secret among them is denied; a name xargs would split or unquote asks.
func TestXargsFeedRows(t *testing.T) {
	v := newCfgEnv(t)
	for _, f := range []string{".env", "README.md", "src/a.go", "src/b.go", "docs/x.md"} {
		v.write(filepath.Join(v.root, f), "x\n")
	}
	cfg := v.config(v.load(), ModeDefault)
	rows := []struct {
		cmd  string
		want Effect
	}{
		{"find . -name '*.go' | xargs wc -l", Allow},
		{"find src -name '*.go' -print0 | xargs -0 grep -l main", Allow},
		{"find . -name '*.md' | xargs -n 1 head -1", Allow},
		{"find . -type f | xargs cat", Deny},
		{"find . -name '.e*' | xargs wc -l", Deny},
		{"find . -name '*.go' -print0 | xargs wc -l", Ask}, // NULs in a blank-split input
		{"find . -name '*.go' | xargs rm", Ask},
		{"find . -name '*.go' | xargs sed -n p", Ask}, // a path is sed's script
	}
	for _, tt := range rows {
		if d := v.bash(cfg, tt.cmd); d.Effect != tt.want {
			t.Errorf("%s: %v %s: %s, want %v", tt.cmd, d.Effect, d.Code, d.Message, tt.want)
		}
	}
	// A hostile name: xargs splits at blanks and removes quotes, so
	// `x '.env' y.go` would hand it .env.
	v.write(filepath.Join(v.root, "src", "x '.env' y.go"), "x\n")
	if d := v.bash(cfg, "find . -name '*.go' | xargs wc -l"); d.Effect == Allow {
		t.Errorf("a name with blanks and quotes: %v %s", d.Effect, d.Code)
	}
	if d := v.bash(cfg, "find . -name '*.go' -print0 | xargs -0 wc -l"); d.Effect != Allow {
		t.Errorf("with -print0 and -0 the name is one word: %v %s: %s", d.Effect, d.Code, d.Message)
	}
}

// TestFindExecRows: `find ... -exec CMD ... {} +` (or `\;`) is judged by
// the paths find finds now, as the xargs feed is: allowed when CMD only
// reads and no path is a secret; a secret among them is denied; `{}`
// inside a word, -execdir and tests the feed does not read ask.
func TestFindExecRows(t *testing.T) {
	v := newCfgEnv(t)
	for _, f := range []string{".env", "README.md", "src/a.go", "src/b.go", "src/x '.env' y.go"} {
		v.write(filepath.Join(v.root, f), "x\n")
	}
	cfg := v.config(v.load(), ModeDefault)
	for _, tt := range []struct {
		cmd  string
		want Effect
	}{
		{"find . -name '*.go' -exec grep -l TODO {} +", Allow},
		{"find src -type f -exec wc -l {} \\;", Allow},
		{"find . -name '*.md' -exec head -1 {} +", Allow},
		{"find . -name .env -exec cat {} +", Deny},
		{"find . -type f -exec cat {} +", Deny},
		{"find . -name '*.go' -exec rm {} +", Ask},
		{"find . -name '*.go' -exec cp {} out \\;", Ask},
		{"find . -name '*.go' -exec grep x {}.bak \\;", Ask},
		{"find . -name '*.go' -execdir grep -l TODO {} +", Ask},
		{"find . -newer x -exec cat {} +", Ask},
		{"find . -name '*.go' -ok cat {} \\;", Ask},
		{"find . -name '*.go' -exec sort -o {} +", Ask},
		{"find missing -exec cat {} +", Ask}, // it may be made before find runs
	} {
		if d := v.bash(cfg, tt.cmd); d.Effect != tt.want {
			t.Errorf("%s: %v %s: %s, want %v", tt.cmd, d.Effect, d.Code, d.Message, tt.want)
		}
	}
}

// TestFeedAgainstFind compares the paths feedPaths lists with what the
// real find prints for the same command (never fewer; more only where a
// test is ignored: -type, -path, -mindepth).
func TestFeedAgainstFind(t *testing.T) {
	find, err := exec.LookPath("find")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("find is needed and missing")
		}
		t.Skip("no find")
	}
	v := newCfgEnv(t)
	for _, f := range []string{".env", ".hidden/a.go", "README.md", "src/a.go", "src/.b.go", "src/sub/c.GO", "docs/x.md"} {
		v.write(filepath.Join(v.root, f), "x\n")
	}
	os.Symlink("src", filepath.Join(v.root, "link"))
	cfg := v.config(v.load(), ModeDefault)
	e := &evaluation{cfg: cfg, cwd: v.root}
	for _, args := range []string{
		". -name *.go", "src -name *.go", "src/ -name *.go", ". -iname *.go", ". -maxdepth 1 -name *",
		". -name .*", "link -name *", "docs src -name *.md -print", ". -name *.go -type f",
	} {
		src := "find " + strings.ReplaceAll(strings.ReplaceAll(args, "*", `\*`), "?", `\?`) + " | xargs wc -l"
		s, err := shellparse.Parse(src, shellparse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, ok := e.feedPaths(s, &s.Commands[len(s.Commands)-1])
		if !ok {
			t.Errorf("%s: not listed", src)
			continue
		}
		cmd := exec.Command(find, strings.Fields(args)...)
		cmd.Dir = v.root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("find %s: %v", args, err)
		}
		want := strings.Fields(string(out))
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("find %s: gatekeep misses %q (got %q)", args, w, got)
			}
		}
		if len(got) != len(want) && !strings.Contains(args, "-type") {
			t.Errorf("find %s: gatekeep %q, find %q", args, got, want)
		}
	}
}
