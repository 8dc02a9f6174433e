package policy

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/policy/testcases"
	"github.com/gatekeep/gatekeep/shellparse"
)

// refUnknownSuffixes is unknownSuffixes as first written: each suffix
// built and appended one at a time, each with its own Via.
func refUnknownSuffixes(c *shellparse.Command) []shellparse.Command {
	if !unknownCommand(c) {
		return nil
	}
	var out []shellparse.Command
	for k := 1; k < len(c.Args) && len(out) < maxSuffixes; k++ {
		w := c.Args[k]
		if w.Dynamic || w.Text == "" || strings.HasPrefix(w.Text, "-") {
			continue
		}
		inner := *c
		inner.Args = c.Args[k:]
		inner.Inner, inner.Parent, inner.Via = -1, -1, append(slices.Clip(c.Via), c.Name())
		out = append(out, inner)
	}
	return out
}

// TestUnknownSuffixes: the suffixes of every command of the agent corpus
// and of commands made for it (past maxSuffixes words, options and
// dynamic words, under a wrapper) are those built one at a time, and the
// Via they share is full, so that an append to one copies it.
func TestUnknownSuffixes(t *testing.T) {
	many := "flock /tmp/l" + strings.Repeat(" rm -rf x", 40)
	cmds := append(testcases.AgentSample(t, 2000), many, "flock /tmp/l -x $X rm -rf ~", "sudo flock l rm x", "sudo nice flock l rm x", "sudo nice env flock l rm x", "taskset 1 rm -rf ~",
		"chrt 1", "unknowncmd", `unknowncmd "" -a b`)
	n := 0
	for _, src := range cmds {
		s, err := shellparse.Parse(src, shellparse.Options{Home: dangerHome})
		if err != nil {
			continue
		}
		for i := range s.Commands {
			c := &s.Commands[i]
			got, want := unknownSuffixes(c), refUnknownSuffixes(c)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q command %d: suffixes\n%+v\nwant\n%+v", src, i, got, want)
			}
			for _, sc := range got {
				if len(sc.Via) != cap(sc.Via) {
					t.Fatalf("%q: a suffix's Via has room (len %d cap %d): an append would write into the others'", src, len(sc.Via), cap(sc.Via))
				}
			}
			n += len(got)
		}
	}
	if n < 300 {
		t.Errorf("only %d suffixes among the samples", n)
	}
}
