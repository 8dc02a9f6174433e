//go:build unix

package shellparse

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// globTree makes a directory with dotfiles, normal files and hostile names.
func globTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := []string{
		".env", ".env.local", ".hidden/x.go", ".hidden/.y.go", "README.md", "Upper.GO", "a.go", "b.md",
		"src/a.go", "src/.secret.go", "src/sub/deep.go", "src/sub/.env", "-n", "--include=x.go",
		"new\nline.go", "space name.md", "docs/guide.md", "star*name", "q?", "[x]", "bad\xffname.go",
	}
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("src", filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, "dangling.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".env", filepath.Join(dir, "envlink")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// globPatterns are the words compared with bash, as shell source.
var globPatterns = []string{
	`*`, `*.go`, `*.md`, `*/`, `*/*.go`, `src/*`, `src/*.go`, `**`, `**/*.go`, `src/**`, `**/`,
	`.e*`, `.env*`, `?env`, `[.]env`, `*.GO`, `--include=*.go`, `-*`, `nomatch*`, `*".go"`, `\**`,
	`star\*na*`, `'star*'*`, `"q"?`, `[a-c]*`, `[!a]*`, `[^a]*`, `*[[:upper:]]*`, `.hidden/*`,
	`*/.*.go`, `linkdir/*`, `*/sub/*`, `new?line.go`, `*name*`, `[[]x]`, `*\ name.md`,
}

// TestGlobAgainstBash compares what Expand gives for a glob word with what
// the real bash expands it to, in a directory with dotfiles and hostile
// names, for every combination of dotglob, nullglob, nocaseglob and
// globstar.
func TestGlobAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("bash is needed for the glob differential test and is missing")
		}
		t.Skip("no bash")
	}
	dir := globTree(t)
	opts := []struct {
		bit  GlobOpt
		name string
	}{{DotGlob, "dotglob"}, {NullGlob, "nullglob"}, {NoCaseGlob, "nocaseglob"}, {GlobStar, "globstar"}}
	type tcase struct {
		pat string
		on  GlobOpt
	}
	var cases []tcase
	var script strings.Builder
	script.WriteString("f() { printf '%d\\0' $#; if (($#)); then printf '%s\\0' \"$@\"; fi; }\n")
	for _, pat := range globPatterns {
		for on := GlobOpt(0); on < 1<<len(opts); on++ {
			var set GlobOpt
			for i, o := range opts {
				flag := "-u"
				if on&(1<<i) != 0 {
					flag = "-s"
					set |= o.bit
				}
				fmt.Fprintf(&script, "shopt %s %s; ", flag, o.name)
			}
			fmt.Fprintf(&script, "f %s\n", pat)
			cases = append(cases, tcase{pat, set})
		}
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	fields := strings.Split(string(out), "\x00")
	compared, dots := 0, 0
	for _, tc := range cases {
		n, err := strconv.Atoi(fields[0])
		if err != nil {
			t.Fatalf("bash output out of step at %q", tc.pat)
		}
		want := fields[1 : 1+n]
		fields = fields[1+n:]
		s, err := Parse("f "+tc.pat, Options{Glob: BashDefaults})
		if err != nil {
			t.Fatal(err)
		}
		w := s.Commands[0].Args[1]
		if !IsGlob(w) {
			t.Errorf("%s: not taken for a glob word", tc.pat)
			continue
		}
		got, err := s.Expand(w, dir, tc.on, nil)
		if errors.Is(err, ErrGlobDots) {
			dots++
			continue
		}
		if err != nil {
			t.Errorf("%s (%s): %v", tc.pat, optNames(tc.on), err)
			continue
		}
		compared++
		if slices.Equal(got, want) {
			continue
		}
		// Never fewer names than bash (that would let a secret through);
		// more only where expand is known to give more: `**` follows
		// links to directories (bash 5.2 does not), and nocaseglob
		// folds character classes ([[:upper:]] matches "a").
		missing := slices.DeleteFunc(slices.Clone(want), func(s string) bool { return slices.Contains(got, s) })
		superset := tc.on&GlobStar != 0 && strings.Contains(tc.pat, "**") || tc.on&NoCaseGlob != 0 && strings.Contains(tc.pat, "[[:")
		if len(missing) > 0 || !superset {
			t.Errorf("%s (%s):\n gatekeep %q\n bash     %q", tc.pat, optNames(tc.on), got, want)
		}
	}
	if len(fields) != 1 || fields[0] != "" {
		t.Fatalf("bash printed more than expected: %q", fields)
	}
	t.Logf("%d expansions compared with bash, %d refused (can match . or ..)", compared, dots)
	if compared < len(cases)*3/4 {
		t.Fatalf("only %d of %d cases compared", compared, len(cases))
	}
}

func optNames(on GlobOpt) string {
	var names []string
	for _, o := range []struct {
		bit  GlobOpt
		name string
	}{{DotGlob, "dotglob"}, {NullGlob, "nullglob"}, {NoCaseGlob, "nocaseglob"}, {GlobStar, "globstar"}, {NoGlob, "noglob"}} {
		if on&o.bit != 0 {
			names = append(names, o.name)
		}
	}
	if names == nil {
		return "defaults"
	}
	return strings.Join(names, ",")
}

// TestGlobDotsRefused: a component that can match . or .. is not expanded
// (bash < 5.2 or without globskipdots gives them).
func TestGlobDotsRefused(t *testing.T) {
	dir := globTree(t)
	for _, pat := range []string{`.*`, `.?`, `src/.*`, `.[a-z.]*`} {
		s, err := Parse("ls "+pat, Options{Glob: BashDefaults})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Expand(s.Commands[0].Args[1], dir, 0, nil); !errors.Is(err, ErrGlobDots) {
			t.Errorf("%s: err %v, want ErrGlobDots", pat, err)
		}
	}
}

// TestGlobWords: which words are glob words.
func TestGlobWords(t *testing.T) {
	for _, tt := range []struct {
		src  string
		glob bool
	}{
		{`*.go`, true}, {`src/*`, true}, {`*".go"`, true}, {`--include=*.go`, true}, {`~/x/*`, true},
		{`"*.go"`, false}, {`\*.go`, false}, {`$D/*`, false}, {`{a,b}*`, false}, {`@(a|b)`, false},
		{`$'\x2a'*`, false}, {`"$x"*`, false}, {`$(ls)*`, false}, {`x=~/*`, false}, {`~root/*`, false},
	} {
		s, err := Parse("ls "+tt.src, Options{Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		if got := IsGlob(s.Commands[0].Args[1]); got != tt.glob {
			t.Errorf("%s: Glob() = %v, want %v", tt.src, got, tt.glob)
		}
	}
	s, err := Parse("ls *.go", Options{Dialect: Zsh})
	if err != nil {
		t.Fatal(err)
	}
	if IsGlob(s.Commands[0].Args[1]) {
		t.Error("zsh: a glob word is expanded by zsh's rules, not bash's")
	}
}

// TestGlobTilde: `~/` is the home directory in the expansion.
func TestGlobTilde(t *testing.T) {
	dir := globTree(t)
	s, err := Parse("ls ~/src/*.go", Options{Home: dir})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Expand(s.Commands[0].Args[1], "/", 0, nil)
	if err != nil || !slices.Equal(got, []string{dir + "/src/a.go"}) {
		t.Fatalf("got %q, %v", got, err)
	}
}

// TestGlobTooLarge: an expansion that reads too many entries fails.
func TestGlobTooLarge(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		os.WriteFile(filepath.Join(dir, fmt.Sprint(i)), nil, 0o644)
	}
	s, _ := Parse("ls *", Options{})
	w := s.Commands[0].Args[1]
	calls := 0
	_, err := s.Expand(w, dir, 0, func(d string) ([]os.DirEntry, error) {
		calls++
		es, err := os.ReadDir(d)
		for len(es) < MaxGlobEntries+1 {
			es = append(es, es...)
		}
		return es, err
	})
	if !errors.Is(err, ErrGlobTooLarge) || calls == 0 {
		t.Fatalf("err %v after %d reads, want ErrGlobTooLarge", err, calls)
	}
}

// TestGlobState: shopt and set change the options for later commands;
// a change in a loop, a function body or another shell leaves them
// unknown.
func TestGlobState(t *testing.T) {
	for _, tt := range []struct {
		src       string
		known, on GlobOpt // of the last command
	}{
		{"cat *", globAll, 0},
		{"shopt -s dotglob; cat *", globAll &^ DotGlob, DotGlob},
		{"shopt -s dotglob nullglob; shopt -u dotglob; cat *", globAll &^ (DotGlob | NullGlob), NullGlob},
		{"set -f; cat *", globAll &^ NoGlob, NoGlob},
		{"set -euo noglob; cat *", globAll &^ NoGlob, NoGlob},
		{"shopt -s -o noglob; cat *", globAll &^ NoGlob, NoGlob},
		{"shopt -p dotglob; cat *", globAll, 0},
		{"shopt -s $x; cat *", 0, 0},
		{"eval \"$x\"; cat *", 0, 0},
		{". ./env.sh; cat *", 0, 0},
		{"$f; cat *", 0, 0},
		{"for i in 1 2; do cat *; shopt -s dotglob; done", globAll &^ DotGlob, 0},
		{"f() { cat *; }; shopt -s dotglob; f", globAll &^ DotGlob, 0},
		{"bash -c 'cat *'", 0, 0},
		{"command shopt -s globstar; cat *", globAll &^ GlobStar, GlobStar},
	} {
		s, err := Parse(tt.src, Options{Glob: BashDefaults})
		if err != nil {
			t.Fatal(err)
		}
		var c *Command
		for i := range s.Commands {
			if s.Commands[i].Name() == "cat" {
				c = &s.Commands[i]
			}
		}
		if c == nil {
			t.Fatalf("%s: no cat", tt.src)
		}
		if c.Glob.Known != tt.known || c.Glob.On != tt.on {
			t.Errorf("%s: known %s on %s, want known %s on %s", tt.src, optNames(c.Glob.Known), optNames(c.Glob.On), optNames(tt.known), optNames(tt.on))
		}
	}
}

// TestGlobStateFromEnv: BASHOPTS, SHELLOPTS and GLOBIGNORE as bash reads
// them at start-up, checked against the real bash.
func TestGlobStateFromEnv(t *testing.T) {
	env := map[string]string{"BASHOPTS": "dotglob:globstar", "SHELLOPTS": "braceexpand:noglob"}
	st := GlobStateFromEnv(func(k string) string { return env[k] })
	if st.Known != globAll || st.On != DotGlob|GlobStar|NoGlob {
		t.Fatalf("state %+v", st)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		return
	}
	dir := globTree(t)
	for _, e := range []string{"BASHOPTS=dotglob", "GLOBIGNORE=x"} {
		cmd := exec.Command(bash, "-c", "printf '%s\\n' .e*; printf '%s\\n' *")
		cmd.Dir, cmd.Env = dir, []string{"LC_ALL=C", e}
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(append([]byte("\n"), out...), []byte("\n.env\n")) {
			t.Errorf("%s: bash did not expand * to .env: %q", e, out)
		}
		k, v, _ := strings.Cut(e, "=")
		if st := GlobStateFromEnv(func(x string) string {
			if x == k {
				return v
			}
			return ""
		}); st.On&DotGlob == 0 {
			t.Errorf("%s: dotglob not taken", e)
		}
	}
}

// TestXargsFeed: a command xargs runs with the output of a find that only
// prints appended gets Feed; other shapes do not.
func TestXargsFeed(t *testing.T) {
	for _, tt := range []struct {
		src  string
		feed bool
		null bool
	}{
		{"find . -name '*.go' | xargs wc -l", true, false},
		{"find . -name '*.go' -print0 | xargs -0 wc -l", true, true},
		{"find . -type f | xargs -r -n 5 grep -l x", true, false},
		{"find . | xargs -I{} cat {}", false, false},
		{"find . | xargs -d '\\n' cat", false, false},
		{"find . | xargs -a list cat", false, false},
		{"{ find .; echo .env; } | xargs cat", false, false},
		{"xargs cat < list", false, false},
	} {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var c *Command
		for i := range s.Commands {
			if s.Commands[i].TrailingArgs || slices.Contains(s.Commands[i].Via, "xargs") {
				c = &s.Commands[i]
			}
		}
		if c == nil {
			t.Fatalf("%s: no command run by xargs", tt.src)
		}
		if got := len(c.Feed) == 1; got != tt.feed || c.FeedNull != tt.null {
			t.Errorf("%s: Feed %v null %v, want feed %v null %v", tt.src, c.Feed, c.FeedNull, tt.feed, tt.null)
		}
		if tt.feed && s.Commands[c.Feed[0]].Name() != "find" {
			t.Errorf("%s: fed by %q", tt.src, s.Commands[c.Feed[0]].Text)
		}
	}
}

// TestFindPrints: the subset of find whose output is a plain list of
// paths.
func TestFindPrints(t *testing.T) {
	for _, tt := range []struct {
		src string
		ok  bool
	}{
		{"find . -name '*.go'", true},
		{"find src docs -type f -iname '*.MD' -maxdepth 2 -print", true},
		{"find . -name '*.go' -print0", true},
		{"find", true},
		{"find . -name '*.go' -o -name '*.env'", false},
		{"find . ! -name '*.go'", false},
		{"find . -exec cat {} ;", false},
		{"find . -name '*.go' -delete", false},
		{"find -L . -name x", false},
		{"find . -newer x", false},
		{"find . -print -name x", false},
		{"find $D -name x", false},
	} {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := cmdmodel.FindPrints(&s.Commands[0].Command); ok != tt.ok {
			t.Errorf("%s: ok %v, want %v", tt.src, ok, tt.ok)
		}
	}
}
