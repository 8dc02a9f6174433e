package shellparse

import (
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// TestParseAwk: the commands an awk program runs are commands of the
// script, under the awk command; a program in a file or a shell-out of
// a run-time value makes awk Unknown.
func TestParseAwk(t *testing.T) {
	tests := []struct {
		src, want string // want: the commands' argv, "|"-separated; "?" marks an Unknown one
	}{
		{`awk 'BEGIN{system("rm -rf /tmp/x; ls")}'`, `awk|rm -rf /tmp/x|ls`},
		{`busybox awk 'BEGIN{system("touch m")}'`, `busybox|awk|touch m`},
		{`gawk -e 'BEGIN{print "x" | "cat"}' -e 'END{"id" | getline}'`, `gawk|cat|id`},
		{`awk '{print}' f`, `awk`},
		{`awk -f prog.awk f`, `awk?`},
		{`gawk -l ordchr 'BEGIN{}'`, `gawk?`},
		{`awk "$p" f`, `awk?`},
		{`awk '{system($0)}' f`, `awk?`},
		{`awk 'BEGIN{print "rm -rf /tmp/y" | "sh"}'`, `awk|sh|rm -rf /tmp/y`},
	}
	for _, tc := range tests {
		s, err := Parse(tc.src, Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		var got []string
		for _, c := range s.Commands {
			var words []string
			for _, w := range c.Args {
				words = append(words, w.Text)
			}
			d := strings.Join(words, " ")
			if cmdmodel.IsAwk(c.Name()) || c.Name() == "busybox" {
				d = c.Name()
			}
			if c.Unknown != "" {
				d += "?"
			}
			got = append(got, d)
		}
		if g := strings.Join(got, "|"); g != tc.want {
			t.Errorf("%s: commands %q, want %q", tc.src, g, tc.want)
		}
	}
}
