package shellparse

import (
	"bytes"
	goflag "flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The differential test of word decoding against the real bash.
var (
	wordsSeed = goflag.Uint64("words.seed", 0, "seed of TestWordsAgainstBash (0: $GATEKEEP_WORDS_SEED or the fixed default)")
	wordsN    = goflag.Int("words.n", 12000, "how many words TestWordsAgainstBash generates")
)

// defaultWordsSeed is the seed every run uses unless told otherwise, so a
// failure is reproducible.
const defaultWordsSeed = 20261201

// testHome is the home directory given to both bash and the parser.
const testHome = "/home/gk-test"

// needTool finds a program a differential test runs. In CI a missing
// program fails the test instead of skipping it.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is needed for this test in CI: %v", name, err)
		}
		t.Skipf("%s not found: %v", name, err)
	}
	return p
}

func seed(t *testing.T) uint64 {
	s := *wordsSeed
	if s == 0 {
		if e := os.Getenv("GATEKEEP_WORDS_SEED"); e != "" {
			v, err := strconv.ParseUint(e, 10, 64)
			if err != nil {
				t.Fatalf("GATEKEEP_WORDS_SEED: %v", err)
			}
			s = v
		}
	}
	if s == 0 {
		s = defaultWordsSeed
	}
	return s
}

// codeOnly reports whether every command is one reported for text bash
// evaluates as code (Unknown set).
func codeOnly(cmds []Command) bool {
	for _, c := range cmds {
		if c.Unknown == "" {
			return false
		}
	}
	return true
}

// TestWordsAgainstBash generates words of every quoting form bash has
// (plain and backslash-escaped characters, '…', "…", $'…' with every kind
// of escape, $"…", brace and tilde forms) and compares the static value
// the parser gives each with what `printf '%s\0' WORD` prints in the real
// bash. A word the parser calls dynamic is not compared (it is never
// trusted), but the test fails if fewer than half of them are static. Run
// with -v for the counts; -words.seed=N or GATEKEEP_WORDS_SEED=N replays a
// run.
func TestWordsAgainstBash(t *testing.T) {
	bash := needTool(t, "bash")
	s := seed(t)
	r := rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
	g := wordGen{r: r}
	type item struct {
		src    string
		fields []string // the parser's static words
	}
	var items []item
	refused, dynamic := 0, 0
	for range *wordsN {
		src := g.word()
		sc, err := Parse("f "+src, Options{Home: testHome})
		if err != nil {
			refused++ // refused words are never trusted
			continue
		}
		if len(sc.Commands) > 1 && codeOnly(sc.Commands[1:]) {
			dynamic++ // $"…": code, reported as a command of its own
			continue
		}
		if len(sc.Commands) != 1 || len(sc.Commands[0].Args) > 2 {
			t.Fatalf("seed %d: generated %q is not one word to the parser", s, src)
		}
		it := item{src: src, fields: []string{}}
		for _, w := range sc.Commands[0].Args[1:] {
			if w.Dynamic {
				it.fields = nil
				break
			}
			it.fields = append(it.fields, w.Text)
		}
		if it.fields == nil {
			dynamic++
			continue
		}
		items = append(items, it)
	}
	start := time.Now()
	const batch = 3000
	mismatches := 0
	for i := 0; i < len(items); i += batch {
		part := items[i:min(i+batch, len(items))]
		srcs := make([]string, len(part))
		for j, it := range part {
			srcs[j] = it.src
		}
		got, err := bashFields(bash, srcs)
		if err != nil {
			// One word bash refuses spoils the batch: find it.
			for _, it := range part {
				if _, err := bashFields(bash, []string{it.src}); err != nil {
					t.Errorf("seed %d: bash refuses %q, which the parser reads as the static %q: %v", s, it.src, it.fields, err)
					mismatches++
				}
			}
			continue
		}
		for j, it := range part {
			if !slices.Equal(got[j], it.fields) {
				mismatches++
				if mismatches <= 30 {
					t.Errorf("seed %d: word %q: parser says static %q, bash prints %q", s, it.src, it.fields, got[j])
				}
			}
		}
	}
	t.Logf("seed %d: %d words: %d static compared with bash in %v, %d dynamic, %d refused; %d disagree",
		s, *wordsN, len(items), time.Since(start).Round(time.Millisecond), dynamic, refused, mismatches)
	if len(items) < *wordsN/2 {
		t.Errorf("seed %d: only %d of %d words were static: the generator tests too little", s, len(items), *wordsN)
	}
	if mismatches > 0 {
		t.Errorf("seed %d: %d words decode differently from bash (replay with -words.seed=%d)", s, mismatches, s)
	}
}

// bashFields runs `f WORD` for each word in one bash, where f prints its
// argument count and its arguments, each ended by a NUL, and returns the
// fields of each word.
func bashFields(bash string, words []string) ([][]string, error) {
	var sb strings.Builder
	sb.WriteString("f() { printf '%s\\0' \"$#\" \"$@\"; }\n")
	for _, w := range words {
		sb.WriteString("f " + w + "\n")
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", sb.String())
	cmd.Env = []string{"HOME=" + testHome, "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
	cmd.Dir = os.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		return nil, fmt.Errorf("bash: %v: %s", err, stderr.String())
	}
	fields := strings.Split(string(out), "\x00")
	var res [][]string
	k := 0
	for range words {
		if k >= len(fields) {
			return nil, fmt.Errorf("bash printed fewer words than it was given")
		}
		n, err := strconv.Atoi(fields[k])
		if err != nil || k+1+n > len(fields) {
			return nil, fmt.Errorf("bash output out of step at field %d", k)
		}
		res = append(res, fields[k+1:k+1+n])
		k += 1 + n
	}
	if k != len(fields)-1 {
		return nil, fmt.Errorf("bash printed more words than it was given")
	}
	return res, nil
}

// wordGen makes random shell words: each one word to bash and to the
// parser (no unquoted blank or operator).
type wordGen struct{ r *rand.Rand }

func (g wordGen) pick(s string) byte { return s[g.r.IntN(len(s))] }

const (
	plainChars = "abcxyzABC019._-/=:@%+,^]#!"
	anyASCII   = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\t\n"
	hexDigits  = "0123456789abcdefABCDEFgz"
)

func (g wordGen) word() string {
	var sb strings.Builder
	n := 1 + g.r.IntN(4)
	for i := range n {
		sb.WriteString(g.part(i == 0))
	}
	w := sb.String()
	if w == "" {
		return "''"
	}
	return w
}

func (g wordGen) part(first bool) string {
	switch g.r.IntN(12) {
	case 0, 1:
		return g.plain(first)
	case 2:
		return "\\" + string(g.pick(anyASCII))
	case 3:
		return "'" + strings.ReplaceAll(g.text(anyASCII, 6), "'", "") + "'"
	case 4, 5:
		return g.double()
	case 6, 7, 8:
		return g.dollarSingle()
	case 9:
		return `$"` + g.doubleBody() + `"`
	case 10:
		return g.brace()
	default:
		if first {
			return g.tilde()
		}
		return g.plain(false)
	}
}

func (g wordGen) text(chars string, max int) string {
	var sb strings.Builder
	for range g.r.IntN(max + 1) {
		sb.WriteByte(g.pick(chars))
	}
	return sb.String()
}

func (g wordGen) plain(first bool) string {
	s := g.text(plainChars, 5)
	if first {
		s = strings.TrimLeft(s, "#")
	}
	return s
}

func (g wordGen) double() string { return `"` + g.doubleBody() + `"` }

// doubleBody is the inside of "…": plain text, backslash sequences of every
// kind, no unescaped $, ` or ".
func (g wordGen) doubleBody() string {
	var sb strings.Builder
	for range g.r.IntN(6) {
		switch g.r.IntN(4) {
		case 0:
			sb.WriteByte('\\')
			sb.WriteByte(g.pick(anyASCII))
		default:
			c := g.pick(anyASCII)
			switch c {
			case '"', '$', '`', '\\', '!':
				sb.WriteByte('\\')
			}
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// dollarSingle is $'…' with escapes of every kind bash knows (bash(1)
// QUOTING) and some it does not.
func (g wordGen) dollarSingle() string {
	var sb strings.Builder
	sb.WriteString("$'")
	for range g.r.IntN(6) {
		switch g.r.IntN(14) {
		case 0:
			sb.WriteByte('\\')
			sb.WriteByte(g.pick(`abeEfnrtv\'"?`))
		case 1:
			sb.WriteByte('\\')
			sb.WriteString(g.digits("01234567", 1+g.r.IntN(3)))
		case 2:
			sb.WriteString(`\x` + g.digits(hexDigits, g.r.IntN(3)))
		case 3:
			sb.WriteString(`\u` + g.digits(hexDigits, g.r.IntN(5)))
		case 4:
			sb.WriteString(`\U` + g.digits(hexDigits, g.r.IntN(9)))
		case 5:
			// \cX: control characters, \c@ and \c` are NUL.
			c := g.pick("@`aAzZ[]^_?{|}~09 !" + `\'"`)
			switch c {
			case '\\':
				sb.WriteString(`\c\\`)
			case '\'':
				sb.WriteString(`\c\'`)
			default:
				sb.WriteString(`\c` + string(c))
			}
		case 6:
			sb.WriteString(g.pick0())
		case 7:
			sb.WriteByte('\\')
			sb.WriteByte(g.pick("qzkQ1089 {}"))
		default:
			c := g.pick(anyASCII)
			if c == '\'' || c == '\\' {
				sb.WriteByte('\\')
			}
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('\'')
	return sb.String()
}

// pick0 is an escape that gives a NUL.
func (g wordGen) pick0() string {
	return []string{`\0`, `\00`, `\000`, `\x0`, `\x00`, `\u0`, `\u0000`, `\U00000000`, `\c@`, "\\c`", `\400`}[g.r.IntN(11)]
}

func (g wordGen) digits(set string, n int) string {
	var sb strings.Builder
	for range n {
		sb.WriteByte(g.pick(set))
	}
	return sb.String()
}

func (g wordGen) brace() string {
	return []string{"{a,b}", "{1..3}", "{a..c}", "{a}", "{}", "{a,b", "a,b}", "{,}", "{x,}", `\{a,b}`, "'{a,b}'", "{1..}", "{a..b..2}", "{..}", "{a,{b,c}}", "x{}y"}[g.r.IntN(16)]
}

func (g wordGen) tilde() string {
	forms := []string{"~", "~/", "~/x", "~root", "~+", "~-", "~+/x", "~nobody/x", "~x:", "~:", "~/'a'", "~\"\"", "~\\/x", "~a~",
		// bash expands a tilde after the = of an argument shaped like an
		// assignment, and after each : in it.
		"a=~/x", "a=b:~/y", "A_1=~", "a+=~/x", "1a=~/x", "--o=~/x", "a==~/x", "a=x~", "_=~:~", "a=~root/x", "a=\\~/x", "a='~'/x",
		"a=b:", "x:~/w", "a=\"b\":~/y", "a=b:\"c\"~/y"}
	return forms[g.r.IntN(len(forms))]
}
