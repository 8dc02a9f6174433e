package shellparse

import (
	"fmt"
	"testing"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// TestLinksMade: the links ln and cp -s create, as ln(1) and cp(1) name
// them.
func TestLinksMade(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want string // target>link for each, s for symbolic, d for IntoDir
		ok   bool
	}{
		{"ln -s /etc d", "[/etc>d s d]", true},
		{"ln -sfT /etc d", "[/etc>d s]", true},
		{"ln /etc/passwd p", "[/etc/passwd>p d]", true},
		{"ln -s /etc", "[/etc>etc s]", true},
		{"ln -s a b dir", "[a>dir/a s b>dir/b s]", true},
		{"ln -st dir a b", "[a>dir/a s b>dir/b s]", true},
		{"cp -s /etc/passwd x", "[/etc/passwd>x s d]", true},
		{"cp a b", "[]", true},
		{"ln --no-such-option a b", "[]", false},
		{"touch a", "[]", true},
	} {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		links, ok := cmdmodel.LinksMade(&s.Commands[0].Command)
		var got []string
		for _, l := range links {
			g := l.Target.Text + ">" + l.Link.Text
			if l.Symbolic {
				g += " s"
			}
			if l.IntoDir {
				g += " d"
			}
			got = append(got, g)
		}
		if g := fmt.Sprint(got); g != tt.want && !(len(got) == 0 && tt.want == "[]") || ok != tt.ok {
			t.Errorf("%s: got %v %v, want %s %v", tt.src, got, ok, tt.want, tt.ok)
		}
	}
}
