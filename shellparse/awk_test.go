package shellparse

import (
	"strings"
	"testing"
)

// describeAwk renders what analyzeAwk found: "run:CODE", "write:F",
// "read:F", "unknown" for each part, in that order.
func describeAwk(a awkProgram) string {
	var out []string
	for _, r := range a.runs {
		out = append(out, "run:"+r.code)
	}
	for _, f := range a.writes {
		out = append(out, "write:"+f)
	}
	for _, f := range a.reads {
		out = append(out, "read:"+f)
	}
	if a.unknown != "" {
		out = append(out, "unknown")
	}
	return strings.Join(out, " ")
}

func TestAnalyzeAwk(t *testing.T) {
	tests := []struct{ prog, want string }{
		// print-only
		{`{print $1}`, ``},
		{`NR==1`, ``},
		{`$3 > 5 {print $1, $2}`, ``},
		{`{ if (length($0) > 80) print }`, ``},
		{`{print (a > b)}`, ``},
		{`{print "a|b", "x>y"} # print > "c"`, ``},
		{`/a\/b|c>d/ {print}`, ``},
		{`$0 ~ /[\/]x"/ {n++} END {print n}`, ``},
		{`$0 ~ /[/]x"/ {n++} END {print n}`, `unknown`}, // BusyBox ends the regex at the /
		{`{printf "%s\n", $1}`, ``},
		// shell code
		{`BEGIN{system("rm -rf ~")}`, `run:rm -rf ~`},
		{`BEGIN { system ("touch " "a\tb") }`, "run:touch a\tb"},
		{`{print | "sort -u"}`, `run:sort -u`},
		{`{print $1 |& "cat"}`, `run:cat`},
		{`BEGIN{"date" | getline d; print d}`, `run:date`},
		{`BEGIN{while (("ls -1" | getline f) > 0) n++}`, `run:ls -1`},
		{`BEGIN{"echo " "x" | getline}`, `run:x run:echo x`},
		{`BEGIN{"cat" |& getline}`, `run:cat`},
		{`BEGIN{print "rm -rf ~" | "sh"}`, `run:sh`},
		{"BEGIN{system(\"a\\\nb\")}", `run:ab`},
		// dynamic
		{`{system($0)}`, `unknown`},
		{`{system("echo " $1)}`, `unknown`},
		{`{print | $2}`, `unknown`},
		{`{cmd | getline x}`, `unknown`},
		{`{x "ls" | getline}`, `unknown`},
		{`BEGIN{system("\q")}`, `unknown`},
		{`BEGIN{system("\x414")}`, `unknown`},
		// writes
		{`{print > "out"}`, `write:out`},
		{`{print $1 >> "log.txt"}`, `write:log.txt`},
		{`{printf("%s\n", $1) > "o"}`, `write:o`},
		{`{print > "a" "b"}`, `write:ab write:a`},
		{"{print $1,\n $2 > \"o\"}", `write:o`},
		{`{print > $1 ".txt"}`, `unknown`},
		{`{print a > b ? "x" : "y"}`, `unknown`},
		// reads
		{`BEGIN{while ((getline line < "in") > 0) print line}`, `read:in`},
		{`BEGIN{getline < "a"; getline x[1] < ("b")}`, `read:a read:b`},
		{`BEGIN{getline $0 < "c"}`, `read:c`},
		{`BEGIN{getline $$0 < "e"; getline a[1, "x"] < "g"}`, `read:e read:g`},
		{`BEGIN{while ((getline line) > 0) n++; if (n < 3) print n}`, ``},
		{`BEGIN{getline < f}`, `unknown`},
		{`BEGIN{getline < "d" x}`, `unknown`},
		// gawk extensions and tricks
		{`@load "filefuncs"; BEGIN{chdir("/")}`, `unknown`},
		{`@include "lib.awk"`, `unknown`},
		{`@namespace "x"; BEGIN{print}`, ``},
		{`BEGIN{f="system"; @f("ls")}`, `unknown`},
		{`BEGIN{ARGV[1]=".env"} {print}`, `unknown`},
		{`BEGIN{print "unclosed}`, `unknown`},
		{`{print /unclosed}`, `unknown`},
	}
	for _, tc := range tests {
		if got := describeAwk(analyzeAwk(tc.prog)); got != tc.want {
			t.Errorf("analyzeAwk(%q) = %q, want %q", tc.prog, got, tc.want)
		}
	}
}

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
			if isAwk(c.Name()) || c.Name() == "busybox" {
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

// TestAwkSlashBothReadings: a `/` after `)` or `$` may divide or start a
// regular expression (gawk reads `if (c) /re/` as a regex); when the two
// readings differ, what either finds counts and the program is not known
// (found by review: a `"` inside such a regex hid a system() call).
func TestAwkSlashBothReadings(t *testing.T) {
	a := analyzeAwk(`BEGIN { if (1) /"/; system("touch MARK") } # "`)
	if a.unknown == "" {
		t.Error("a program whose / has two readings is known")
	}
	found := false
	for _, r := range a.runs {
		if strings.Contains(r.code, "touch MARK") {
			found = true
		}
	}
	if !found {
		t.Errorf("the system() call of the regex reading is not judged: %+v", a.runs)
	}
	if b := analyzeAwk(`{print $1/2}`); b.unknown != "" {
		t.Errorf("$1/2 divides in every reading, yet: %s", b.unknown)
	}
}
