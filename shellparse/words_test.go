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
