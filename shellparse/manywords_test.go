package shellparse

import (
	"runtime"
	"strings"
	"testing"
)

// TestManyWordsLinear: a command of many words costs memory in proportion
// to its words, once (issue 16): its argv and the option scan's items are
// sized from the words, not grown by doubling. Before, parse and effects
// of 100,000 words allocated about 1,100 bytes a word; now about 300.
func TestManyWordsLinear(t *testing.T) {
	const n = 100000
	src := "echo " + strings.Repeat("w ", n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := Parse(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Commands {
		Effects(&s.Commands[i])
	}
	runtime.ReadMemStats(&after)
	if len(s.Commands) != 1 || len(s.Commands[0].Args) != n+1 {
		t.Fatalf("got %d commands", len(s.Commands))
	}
	if perWord := (after.TotalAlloc - before.TotalAlloc) / n; perWord > 600 {
		t.Errorf("parse and effects allocate %d bytes a word, want at most 600", perWord)
	}
}
