package shellparse

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCheckNestingShortcut holds checkNesting, which answers most texts by
// counting their openers and `!`s, to scanNesting's pass over every byte on
// random texts around both limits: each opener, each closer and `!` in
// turn near MaxNesting deep, and near MaxBrackets in all.
func TestCheckNestingShortcut(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 4))
	const kinds = "({[!)}]"
	n := 0
	check := func(text string) {
		t.Helper()
		got, want := checkNesting(text), scanNesting(text)
		if (got == nil) != (want == nil) || got != nil && *got != *want {
			t.Fatalf("%q...(%d bytes): checkNesting %v, scanNesting %v", text[:20], len(text), got, want)
		}
		if want != nil {
			n++
		}
	}
	// At each limit and one past it.
	for _, k := range kinds {
		for _, m := range []int{MaxNesting, MaxNesting + 1, MaxBrackets, MaxBrackets + 1} {
			check(strings.Repeat(string(k), m))
			check(strings.Repeat(string(k)+"()", m/3) + strings.Repeat("!", m-m/3*3))
		}
	}
	for _, k := range kinds {
		for range 40 {
			var sb strings.Builder
			target := MaxNesting - 20 + rng.IntN(40)
			if k == '!' || rng.IntN(4) == 0 {
				target = MaxBrackets - 20 + rng.IntN(40)
			}
			for range target {
				sb.WriteRune(k)
				if rng.IntN(8) == 0 {
					// filler, and now and then another bracket
					sb.WriteString([]string{"a", " ", "'", "\n", string(kinds[rng.IntN(len(kinds))])}[rng.IntN(5)])
				}
			}
			check(sb.String())
		}
	}
	if n == 0 {
		t.Fatal("no text was refused: the limits were not reached")
	}
}
