package shellparse

import (
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestManyWordsLinear: a command of many words costs memory in proportion
// to its words, once: its argv, the option scan's items and
// its list of effects are sized from the words, not grown step by step,
// and nothing is copied per word that the words already hold. A bound is
// on the bytes allocated per word of the command, which do not depend on
// the machine's load: the parse (mvdan.cc/sh's syntax tree and the argv),
// and then the command model's reading of the command (Effects).
func TestManyWordsLinear(t *testing.T) {
	const n = 100000
	many := func(w string) string { return strings.Repeat(w+" ", n) }
	// Bytes a word of the source (split at blanks).
	for _, tc := range []struct {
		src            string
		parse, effects uint64 // bytes a word at most
	}{
		// No word of echo is a file and no option of it acts: its words
		// are not read again after the parse.
		{"echo " + many("w"), 300, 0},
		{"echo " + many(`"w" $x`), 300, 0},
		{"for i in " + many("w") + "; do echo $i; done", 300, 0},
		// Every operand is a file: an item (32 bytes), a FileEffect (88)
		// and the operands' list (40) a word.
		{"cat " + many("w"), 300, 180},
		{"grep -e x " + many("w"), 300, 180},
		{"rm -f " + many("w"), 300, 180},
	} {
		name := tc.src[:12]
		words := uint64(len(strings.Fields(tc.src)))
		var s *Script
		parse := allocated(func() {
			var err error
			if s, err = Parse(tc.src, Options{}); err != nil {
				t.Fatal(err)
			}
		})
		if len(s.Commands) == 0 {
			t.Fatalf("%s: no command", name)
		}
		effects := allocated(func() {
			for i := range s.Commands {
				Effects(&s.Commands[i])
			}
		})
		t.Logf("%s: parse %d, effects %d bytes a word", name, parse/words, effects/words)
		if parse/words > tc.parse {
			t.Errorf("%s: the parse allocates %d bytes a word, want at most %d", name, parse/words, tc.parse)
		}
		if effects/words > tc.effects {
			t.Errorf("%s: effects allocate %d bytes a word, want at most %d", name, effects/words, tc.effects)
		}
	}
}
