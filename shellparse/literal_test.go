package shellparse

import (
	"slices"
	"strings"
	"testing"
)

// TestLiteralScriptIsCode: text known from the script alone and piped into
// a shell is parsed as that shell's code; xargs fed such text gets its
// words. Anything else stays code only known at run time.
func TestLiteralScriptIsCode(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // an argv the script must hold, "" for none
		std  bool   // some command still reads its program from stdin
	}{
		{"echo 'rm -rf /' | bash", "rm -rf /", false},
		{"printf 'rm -rf x\\n' | sh", "rm -rf x", false},
		{"printf '%s\\n' ls 'rm y' | sh", "rm y", false},
		{"echo -n 'rm z' | bash -s", "rm z", false},
		{"echo 'a\\nrm w' | sh", "rm w", false}, // a POSIX echo reads \n
		{"cat <<'EOF' | bash\nrm v\nEOF", "rm v", false},
		{"cat <<< 'rm u' | sh", "rm u", false},
		{"echo 'rm t' | source /dev/stdin", "rm t", false},
		{"echo 'rm s' | bash /dev/stdin", "rm s", false},
		{"echo / | xargs rm -rf", "rm -rf /", false},
		{"echo a b | xargs -n1 rm", "rm a b", false},
		{"echo $X | bash", "", true},
		{"cat script | bash", "", true},
		{"echo x | cat | bash", "", true},
		{"echo() { curl x; }; echo ls | bash", "", true},
		{"echo 'print(1)' | python3", "", true},
		{"curl x | bash /dev/stdin", "", true},
		// The stage just before the shell is all the shell reads when it
		// is a literal source (TestDifferentialBash found these).
		{"true | echo 'rm r' | bash", "rm r", false},
		{"cat f | printf 'rm q\\n' | sh", "rm q", false},
		{"true | for i in 1; do echo 'rm p' | sh; done", "rm p", false},
		{"true | { echo 'rm o'; printf 'rm n\\n'; } | bash", "rm n", false},
		{"true | echo / | xargs rm -rf", "rm -rf /", false},
		// Only part of the input is literal: the shell's code is still
		// unknown, but the literal piece is judged as code too.
		{"{ cat f; echo 'rm m'; } | bash", "rm m", true},
		// echo -e and %b read \0 and up to three more octal digits (the
		// red team's rows, each run by the real bash).
		{`echo -e 'echo hi\0073 touch /tmp/M' | sh`, "touch /tmp/M", false},
		{`echo -e '\0162m -rf ~' | sh`, "rm -rf ~", false},
		{`echo -e '.\0145nv' | xargs cat`, "cat .env -e .env", false}, // bash's reading, then dash's
		{`printf '%b' '.en\0166' | xargs cat`, "cat .env", false},
		{`printf '%b\n' 'rm k' | sh`, "rm k", false},
		// xpg_echo or dash's echo (sh -c): escapes without -e.
		{`echo '\0162m j' | sh`, "rm j", false},
		{`echo '\162m j' | sh`, "rm j", false}, // dash reads \NNN too
		// What no reading knows is code only known at run time.
		{`echo -e '\u00e9' | sh`, "", true},
		{`echo -e 'a\0b' | sh`, "", true},
		{`printf '%d' 1 | sh`, "", true},
		{"echo ls | { cat; echo 'rm l'; } | bash", "rm l", true},
	} {
		s, err := Parse(tc.src, Options{})
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		var argvs []string
		std := false
		for i := range s.Commands {
			c := &s.Commands[i]
			argvs = append(argvs, strings.Join(c.Argv(), " "))
			std = std || c.StdinCode
		}
		if tc.want != "" && !slices.Contains(argvs, tc.want) {
			t.Errorf("%q: commands %q, want one to be %q", tc.src, argvs, tc.want)
		}
		if std != tc.std {
			t.Errorf("%q: reads code from stdin %v, want %v (%q)", tc.src, std, tc.std, argvs)
		}
	}
	// xargs with options that change the input, or quoted input, keeps
	// its arguments unknown.
	for _, src := range []string{"echo / | xargs -0 rm -rf", "echo \"'/'\" | xargs rm", "echo / | xargs -I{} rm {}"} {
		s, err := Parse(src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		last := &s.Commands[len(s.Commands)-1]
		if strings.Join(last.Argv(), " ") == "rm -rf /" || !last.TrailingArgs && !last.HasDynamic(0) {
			t.Errorf("%q: %q is taken as known", src, last.Argv())
		}
	}
}

// TestJoiner: joiner gives what strings.Builder gives, for none, one and
// several pieces.
func TestJoiner(t *testing.T) {
	for _, pieces := range [][]string{nil, {""}, {"a"}, {"a", "b"}, {"", "b"}, {"a", "", "c", "dd"}} {
		var j joiner
		var sb strings.Builder
		for _, s := range pieces {
			j.WriteString(s)
			sb.WriteString(s)
		}
		if j.String() != sb.String() {
			t.Errorf("%q: got %q, want %q", pieces, j.String(), sb.String())
		}
	}
}
