package shellparse

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// zshHostile are options a user's zsh configuration may set that change
// how words expand (zshoptions(1)). Words the parser calls static must
// read the same with and without them.
const zshHostile = "setopt extendedglob globsubst rcquotes braceccl magicequalsubst kshglob shwordsplit cshnullglob; "

// TestZshAgainstZsh generates zsh words and commands (the bash forms of
// TestWordsAgainstBash plus zsh's own: glob qualifiers that run code, =cmd,
// =(...), parameter flags and prefixes, precommand modifiers, RC_QUOTES,
// BRACE_CCL) and runs every one the parser reads as safe — static words,
// no command it cannot see — in the real zsh, with default options and
// with options a user's configuration may set. zsh must print exactly the
// parser's value and run nothing (each code-running form touches its own
// marker file). -words.seed=N or GATEKEEP_WORDS_SEED=N replays a run.
func TestZshAgainstZsh(t *testing.T) {
	zsh := needTool(t, "zsh")
	s := seed(t)
	r := rand.New(rand.NewPCG(s, s^0x2545f4914f6cdd1d))
	g := zshGen{wordGen{r: r}}
	type item struct {
		src    string
		fields []string
	}
	var items []item
	unsafe, refused := 0, 0
	n := *wordsN
	for i := range n {
		src := g.command(i)
		sc, err := Parse(src, Options{Dialect: Zsh, Home: testHome})
		if err != nil {
			refused++
			continue
		}
		if why := zshUnsafe(sc); why != "" {
			unsafe++
			continue
		}
		fields := []string{}
		for _, w := range sc.Commands[0].Args[1:] {
			fields = append(fields, w.Text)
		}
		items = append(items, item{src, fields})
	}
	dir := t.TempDir()
	for _, f := range []string{"a.txt", "b.txt", "c1"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mismatches := 0
	for _, opts := range []string{"", zshHostile} {
		const batch = 2000
		for i := 0; i < len(items); i += batch {
			part := items[i:min(i+batch, len(items))]
			srcs := make([]string, len(part))
			for j, it := range part {
				srcs[j] = it.src
			}
			got, err := zshFields(zsh, dir, opts, srcs)
			if err != nil {
				for _, it := range part {
					if _, err := zshFields(zsh, dir, opts, []string{it.src}); err != nil {
						t.Errorf("seed %d: zsh (%q) refuses %q, which the parser reads as the static %q: %v", s, opts, it.src, it.fields, err)
						mismatches++
					}
				}
				continue
			}
			for j, it := range part {
				if !slices.Equal(got[j], it.fields) {
					mismatches++
					if mismatches <= 30 {
						t.Errorf("seed %d: %q: parser says static %q, zsh (%q) prints %q", s, it.src, it.fields, opts, got[j])
					}
				}
			}
		}
		if ran := markers(t, dir); len(ran) > 0 {
			t.Errorf("seed %d: zsh (%q) ran code in commands the parser reads as safe: %v", s, opts, ran)
		}
	}
	t.Logf("seed %d: %d commands: %d safe compared with zsh twice, %d not safe, %d refused; %d disagree", s, n, len(items), unsafe, refused, mismatches)
	if len(items) < n/10 {
		t.Errorf("seed %d: only %d of %d commands were safe: the generator tests too little", s, len(items), n)
	}
}

// TestZshFormsRunCode is the oracle of TestZshAgainstZsh put to the test:
// each form does run code in the real zsh (its marker appears), and the
// parser finds it not safe.
func TestZshFormsRunCode(t *testing.T) {
	zsh := needTool(t, "zsh")
	for _, tt := range []struct{ setup, cmd string }{
		{"", `f *(e:'touch m':)`},
		{"", `f *(e:"touch m":)`},
		{"", `f a*(e@touch m@)`},
		{"", `f *.txt(e:'touch m':)`},
		{"", `f *(+g)`},
		{"", `f =(touch m)`},
		{"", `f ${(e):-'$(touch m)'}`},
		{`x='$(touch m)'; `, `f "${(e)x}"`},
		{`x='$(touch m)'; `, `f ${(e)x}`},
		{`x='*(e:g:)'; `, `f $~x`},
		{`x='*(e:g:)'; `, `f ${~x}`},
		{`setopt globsubst; x='*(e:g:)'; `, `f $x`},
		{"", `repeat 1 f *(e:g:)`},
		{"", `nocorrect f *(e:g:)`},
		{"", "alias h='touch m'; eval h"},
		{"", `repeat 1 touch m`},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a.txt"), nil, 0o644)
		script := "f() { :; }; g() { touch m; }; " + tt.setup + tt.cmd
		cmd := exec.Command(zsh, "-f", "-c", script)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + testHome, "PATH=/usr/bin:/bin"}
		out, _ := cmd.CombinedOutput()
		if _, err := os.Stat(filepath.Join(dir, "m")); err != nil {
			t.Errorf("%q: zsh ran no code (%s): the form proves nothing", script, out)
		}
		sc, err := Parse(tt.setup+tt.cmd, Options{Dialect: Zsh, Home: testHome})
		if err != nil {
			continue // refused: never safe
		}
		if zshUnsafe(sc) == "" {
			t.Errorf("%q: the parser reads it as safe; zsh runs code", tt.cmd)
		}
	}
}

// zshUnsafe says why a parsed one-command script is not a static `f
// WORD...` call, or "".
func zshUnsafe(sc *Script) string {
	if len(sc.Commands) != 1 {
		return fmt.Sprintf("%d commands", len(sc.Commands))
	}
	c := sc.Commands[0]
	switch {
	case c.Unknown != "":
		return c.Unknown
	case len(c.Args) == 0 || c.Args[0].Text != "f" || c.Args[0].Dynamic:
		return "not f"
	case len(c.Redirects) > 0 || len(c.Assigns) > 0:
		return "redirects or assignments"
	}
	for _, w := range c.Args {
		if w.Dynamic {
			return "dynamic word"
		}
	}
	return ""
}

// zshFields runs each command (a call of f, which prints its argument
// count and arguments, each ended by a NUL) in one zsh in dir.
func zshFields(zsh, dir, opts string, cmds []string) ([][]string, error) {
	var sb strings.Builder
	sb.WriteString("f() { printf '%s\\0' \"$#\" \"$@\"; }\n" + opts + "\n")
	for _, c := range cmds {
		sb.WriteString(c + "\n")
	}
	cmd := exec.Command(zsh, "-f", "-c", sb.String())
	cmd.Env = []string{"HOME=" + testHome, "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		return nil, fmt.Errorf("zsh: %v: %s", err, stderr.String())
	}
	fields := strings.Split(string(out), "\x00")
	var res [][]string
	k := 0
	for range cmds {
		if k >= len(fields) {
			return nil, fmt.Errorf("zsh printed fewer words than it was given")
		}
		n, err := strconv.Atoi(fields[k])
		if err != nil || k+1+n > len(fields) {
			return nil, fmt.Errorf("zsh output out of step at field %d", k)
		}
		res = append(res, fields[k+1:k+1+n])
		k += 1 + n
	}
	if k != len(fields)-1 {
		return nil, fmt.Errorf("zsh printed more words than it was given")
	}
	return res, nil
}

// markers lists the marker files code-running forms leave in dir.
func markers(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "m") {
			out = append(out, e.Name())
		}
	}
	return out
}

// zshGen makes `f WORD...` commands with bash's word forms and zsh's own.
type zshGen struct{ wordGen }

func (g zshGen) command(i int) string {
	m := "m" + strconv.Itoa(i)
	var sb strings.Builder
	switch g.r.IntN(20) {
	case 0:
		sb.WriteString([]string{"noglob ", "nocorrect ", "- ", "repeat 1 ", "builtin ", "command "}[g.r.IntN(6)])
	}
	sb.WriteString("f")
	for range 1 + g.r.IntN(2) {
		sb.WriteByte(' ')
		sb.WriteString(g.zshWord(m))
	}
	return sb.String()
}

func (g zshGen) zshWord(m string) string {
	var sb strings.Builder
	for range 1 + g.r.IntN(3) {
		if g.r.IntN(3) == 0 {
			sb.WriteString(g.zshPart(m))
		} else {
			sb.WriteString(g.part(sb.Len() == 0))
		}
	}
	if sb.Len() == 0 {
		return "''"
	}
	return sb.String()
}

// zshPart is a zsh form, many of which run `touch m` if zsh expands them.
func (g zshGen) zshPart(m string) string {
	forms := []string{
		"*(e:'touch " + m + "':)", "a*(e@touch " + m + "@)", "*(N)", "(a|b).txt", "a.txt(:r)", "*(.)",
		"=(touch " + m + ")", "=ls", "=", "x=y", "${(e):-'$(touch " + m + ")'}", "$~HOME", "${~HOME}", "$=HOME",
		"$^HOME", "${(U)HOME}", "${HOME:h}", "${${HOME}}", "$HOME", "${HOME}", "'a''b'", "{abc}", "{a,b}",
		"x^y", "a#b", "a~b", "x~", "{}", "[", "]", "a[bc]", "<1-3>", "~", "~/x", "~+", "a=~/x", "$'\\0'",
		"$'ab'", "$'\\c@x'", "$\"x\"", "\\(", "'('", "\"(\"", "%", "a:b", "-", "--", "\\=x", "'='x",
		"$HOME:h", "\"$HOME:t\"", "${HOME}:h", "a=b:=ls", "a=~/x", "x:~/y", "$HOME[1]",
	}
	return forms[g.r.IntN(len(forms))]
}

// TestZshRedirectsWrite: zsh's clobbering redirects (`>!`, `>>!`, `&>!`,
// `&>>!`, reported as `>|` and kin) write their target.
func TestZshRedirectsWrite(t *testing.T) {
	for _, src := range []string{"echo x >! f", "echo x >>! f", "echo x &>! f", "echo x &>>! f", "echo x >>| f", "echo x 2>! f"} {
		sc, err := Parse(src, Options{Dialect: Zsh})
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		c := sc.Commands[0]
		if len(c.Redirects) != 1 || !c.Redirects[0].Writes() || c.Redirects[0].Target.Text != "f" {
			t.Errorf("%s: redirects %+v, want one that writes f", src, c.Redirects)
		}
	}
}
