package shellparse

import (
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// TestWrapperReading checks the command a wrapper runs, as derived from the
// command model (getopt_long's rules: optional arguments attached only,
// unambiguous abbreviations, clusters, `--`, obsolete forms), and that a
// command line the model does not understand makes the wrapper Unknown.
func TestWrapperReading(t *testing.T) {
	for _, tt := range []struct {
		src     string
		inner   string // the argv of the command at the wrapper's Inner, "" for none
		unknown bool   // the wrapper is Unknown
	}{
		{src: `env --default-signal rm -rf ls ~`, inner: "rm -rf ls ~"},
		{src: `env --default-signal=INT ls`, inner: "ls"},
		{src: `env --uns echo rm -rf ls DIR`, inner: "rm -rf ls DIR"},
		{src: `env --chd=/tmp cat x`, inner: "cat x"},
		{src: `env --d ls`, unknown: true}, // --debug or --default-signal
		{src: `env -iu X -- A=1 ls`, inner: "ls"},
		{src: `env - A=1 ls`, inner: "ls"},
		// -S splits its string as env does; env reads the words again.
		{src: `env -S 'rm -rf /'`, inner: "env rm -rf /"},
		{src: `env --sp 'rm -rf /'`, inner: "env rm -rf /"},
		{src: `env -S "$X"`, unknown: true},
		{src: `env --help rm`, inner: ""},
		{src: `xargs --eof rm -rf echo DIR`, inner: "rm -rf echo DIR"},
		{src: `xargs -e rm -rf x`, inner: "rm -rf x"},
		{src: `xargs -E rm ls`, inner: "ls"},
		{src: `xargs -0rn1 rm -f`, inner: "rm -f"},
		{src: `xargs -I{} cp {} x`, inner: "cp {} x"},
		{src: `timeout --sig KILL 5 rm -rf ~`, inner: "rm -rf ~"},
		{src: `timeout -k5 -sKILL 10 ls`, inner: "ls"},
		{src: `timeout --f 5 ls`, inner: "ls"},
		{src: `nice --adj 5 rm -rf ~`, inner: "rm -rf ~"},
		{src: `nice -10 ls`, inner: "ls"},
		{src: `nice --10 ls`, inner: "ls"},
		{src: `sudo --us root rm -rf /`, inner: "rm -rf /"},
		{src: `sudo -k rm -rf /`, inner: "rm -rf /"},
		{src: `sudo -l rm`, inner: ""},
		{src: `sudo -u root -- rm x`, inner: "rm x"},
		{src: `sudo --frob rm -rf /`, unknown: true},
		{src: `stdbuf -oL -e 0 grep x`, inner: "grep x"},
		{src: `/usr/bin/time -o t.txt ls`, inner: "ls"},
		{src: `setsid -f ls`, inner: "ls"},
		{src: `ionice -c2 -n7 ls`, inner: "ls"},
		{src: `ionice -p 1 ls`, inner: ""},
		{src: `command -v ls`, inner: ""},
		{src: `command -p ls`, inner: "ls"},
		{src: `doas -u root ls`, inner: "ls"},
		{src: `busybox rm -rf /`, inner: "rm -rf /"},
		{src: `env "$X" ls`, unknown: true},
		{src: `bash --rcfile ./x.sh -ic true`, inner: "true", unknown: true},
		{src: `bash -lc ls`, inner: "ls", unknown: true},
		{src: `bash -c ls`, inner: "ls"},
	} {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		c := s.Commands[0]
		inner := ""
		if c.Inner >= 0 {
			inner = strings.Join(s.Commands[c.Inner].Argv(), " ")
		}
		if inner != tt.inner || (c.Unknown != "") != tt.unknown {
			t.Errorf("%s: inner %q Unknown %q, want inner %q unknown=%v", tt.src, inner, c.Unknown, tt.inner, tt.unknown)
		}
	}
}

// TestReadOnly checks the safe layer's question to the command model.
func TestReadOnly(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"ls -la", true},
		{"ls --col=never", true}, // --color
		{"ls --co", false},       // --color or --context
		{"ls --frob", false},
		{"ls -Y", false},
		{"cat -A f", true},
		{"head -5 f", true},
		{"head -n5 f", true},
		{"head -n", false}, // missing argument
		{"grep -rn '--include=*.go' x .", true},
		{"grep --col x f", true}, // --color and --colour are one option
		{"sort -o out f", false},
		// --files0-from names a file that lists what is read (red team:
		// printf '%s\0' ~/.ssh/id_rsa | sort --files0-from=- printed the key).
		{"sort --files0-from=- ", false},
		{"sort --files0=names", false},
		{"wc -l --files0-from=names", false},
		// jq modules read files from a search path the program may set.
		{`jq '.a' f.json`, true},
		{`jq -n 'import ".credentials" as $c {search: "~/.claude"}; $c'`, false},
		{`jq 'include "x"; .' f`, false},
		{`jq -f prog.jq f.json`, false},
		{"sort --out=x f", false},
		{"sort --compress-program=sh f", false},
		{"sort -k2 f", true},
		{"uniq a", true},
		{"uniq a b", false},
		{"strings f", true},
		{"strings @f", false},
		{"jq . f", true},
		{"jq -n -L dir 'import \"x\" as $c; $c'", false},
		{"jq --arg a b . f", true},
		{"jq --ar a b . f", false}, // jq spells options whole
		{"diff -l a b", false},
		{"diff -u a b", true},
		{"file -z f", false},
		{"file f", true},
		{"tree -L 2", true},
		{"tree -R", false},
		{"tree -o x", false},
		{"xxd f", true},
		{"xxd f out", false},
		{"base64 -o x f", false},
		{"shasum -a 256 f", true},
		{"rm f", false},
	} {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, why := cmdmodel.ReadOnly(&s.Commands[0].Command)
		if got != tt.want {
			t.Errorf("cmdmodel.ReadOnly(%s) = %v (%s), want %v", tt.src, got, why, tt.want)
		}
	}
}
