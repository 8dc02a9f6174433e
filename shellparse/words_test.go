package shellparse

import (
	"math/rand/v2"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// splitsBraces is hasBraceExp without its mayBrace guard: SplitBraces on a
// copy of every word.
func splitsBraces(w *syntax.Word) bool {
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(cp) {
		return false
	}
	for _, part := range cp.Parts {
		if b, ok := part.(*syntax.BraceExp); ok && (b.Sequence || len(b.Elems) > 1) {
			return true
		}
	}
	return false
}

// TestMayBraceCoversSplitBraces checks what hasBraceExp's guard and word()
// rely on: every word SplitBraces makes a list or a sequence of, mayBrace
// reports. The words are the quoting forms of TestWordsAgainstBash and
// random strings dense in braces, commas, dots, escapes and quotes.
func TestMayBraceCoversSplitBraces(t *testing.T) {
	s := seed(t)
	r := rand.New(rand.NewPCG(s, s^0x51ced))
	g := wordGen{r: r}
	const dense = `{{{}},,..\'"ax$`
	var srcs []string
	for range 20000 {
		srcs = append(srcs, g.word())
		var sb strings.Builder
		for range 1 + r.IntN(12) {
			sb.WriteByte(dense[r.IntN(len(dense))])
		}
		srcs = append(srcs, sb.String())
	}
	parser := syntax.NewParser()
	braces := 0
	for _, src := range srcs {
		f, err := parser.Parse(strings.NewReader("f "+src), "")
		if err != nil || len(f.Stmts) != 1 {
			continue
		}
		call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok {
			continue
		}
		for _, w := range call.Args[1:] {
			full := splitsBraces(w)
			if full {
				braces++
			}
			if full && !mayBrace(w) {
				t.Errorf("seed %d: %q: SplitBraces expands it, mayBrace does not see it", s, src)
			}
			if full != hasBraceExp(w) {
				t.Errorf("seed %d: %q: hasBraceExp %v, SplitBraces %v", s, src, !full, full)
			}
		}
	}
	if braces < 1000 {
		t.Fatalf("only %d of the words brace-expand: the test sees too few", braces)
	}
	t.Logf("%d words, %d brace-expand", len(srcs), braces)
}

// unescapeBytewise is unescape as it was written first, byte by byte: the
// reference TestUnescapeChunks holds the chunked form to.
func unescapeBytewise(s string, escapable func(byte) bool) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch {
			case s[i+1] == '\n':
				i++
				continue
			case escapable(s[i+1]):
				i++
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// TestUnescapeChunks compares the three unescapers with the byte-by-byte
// reference on random text dense in backslashes and the bytes they escape.
func TestUnescapeChunks(t *testing.T) {
	s := seed(t)
	r := rand.New(rand.NewPCG(s, s^0xe5c))
	const alphabet = "\\\\\\ab$`\"\n'"
	fns := []struct {
		name string
		fn   func(string) string
		esc  func(byte) bool
	}{
		{"unquoted", unescapeUnquoted, func(byte) bool { return true }},
		{"double", unescapeDouble, func(c byte) bool { return strings.IndexByte("$`\"\\", c) >= 0 }},
		{"heredoc", unescapeHeredoc, func(c byte) bool { return strings.IndexByte("$`\\", c) >= 0 }},
	}
	for range 20000 {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		in := sb.String()
		for _, f := range fns {
			if got, want := f.fn(in), unescapeBytewise(in, f.esc); got != want {
				t.Fatalf("seed %d: %s(%q) = %q, want %q", s, f.name, in, got, want)
			}
		}
	}
}
