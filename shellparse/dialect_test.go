package shellparse

import (
	"slices"
	"strings"
	"testing"
)

// TestShellDialects: code given to a shell is read in that shell's
// language and in bash's (the strictest wins). /bin/sh is dash here: `time`
// is not a keyword, so `time -o FILE` runs /usr/bin/time, which writes
// FILE (the red team wrote ~/.bashrc so under bypassPermissions).
func TestShellDialects(t *testing.T) {
	tests := []struct {
		src     string
		want    string // an argv the script must hold
		unknown bool   // a command runs code that is not analysed
		code    string // the parse error code, if any
	}{
		{`sh -c 'time -o t.txt true'`, "time -o t.txt true", false, ""},
		{`dash -c 'time -o t.txt true'`, "time -o t.txt true", false, ""},
		{`ash -c 'time -o t.txt true'`, "time -o t.txt true", false, ""},
		{`yash -c 'time -o t.txt true'`, "time -o t.txt true", false, ""},
		{`/bin/sh -c 'time -o t.txt true'`, "time -o t.txt true", false, ""},
		{`echo 'time -o t.txt true' | sh`, "time -o t.txt true", false, ""},
		{"sh <<'EOF'\ntime -o t.txt true\nEOF", "time -o t.txt true", false, ""},
		// bash's reading is judged too: its time keyword runs the rest.
		{`sh -c 'time -o t.txt true'`, "-o t.txt true", false, ""},
		{`bash -c 'time -o t.txt true'`, "-o t.txt true", false, ""},
		{`mksh -c 'ls'`, "ls", false, ""},
		{`ksh -c 'ls'`, "ls", false, ""},
		// A language the parser does not read is code not analysed.
		{`fish -c 'rm -rf x'`, "", true, ""},
		// Code that does not parse in the shell's own dialect is an ask.
		{`sh -c 'a=(1 2)'`, "", false, CodeParse},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if tt.code != "" {
			if e, ok := err.(*Error); !ok || e.Code != tt.code {
				t.Errorf("%q: err %v, want code %s", tt.src, err, tt.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		var argvs []string
		unknown := false
		for _, c := range s.Commands {
			argvs = append(argvs, strings.Join(c.Argv(), " "))
			unknown = unknown || c.Unknown != ""
		}
		if tt.want != "" && !slices.Contains(argvs, tt.want) {
			t.Errorf("%q: commands %q, want one to be %q", tt.src, argvs, tt.want)
		}
		if unknown != tt.unknown {
			t.Errorf("%q: unknown %v, want %v (%q)", tt.src, unknown, tt.unknown, argvs)
		}
	}
}
