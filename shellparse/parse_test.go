package shellparse

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// argvs returns each command's argv joined by spaces, with the via chain.
func argvs(s *Script) []string {
	var out []string
	for _, c := range s.Commands {
		line := strings.Join(c.Argv(), " ")
		if len(c.Via) > 0 {
			line = strings.Join(c.Via, ">") + ": " + line
		}
		out = append(out, line)
	}
	return out
}

func TestParseFindsEveryCommand(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"ls -la", []string{"ls -la"}},
		{"a; b && c || d & e\nf", []string{"a", "b", "c", "d", "e", "f"}},
		{"a | b |& c", []string{"a", "b", "c"}},
		{"(a; (b)) && { c; }", []string{"a", "b", "c"}},
		{"echo $(a `b`) <(c) >(d)", []string{"echo $(a `b`) <(c) >(d)", "$(...): a `b`", "$(...)>$(...): b", "<(...): c", ">(...): d"}},
		{"if a; then b; elif c; then d; else e; fi", []string{"a", "b", "c", "d", "e"}},
		{"for x in $(a); do b; done; while c; do d; done; until e; do f; done", []string{"$(...): a", "b", "c", "d", "e", "f"}},
		{"case $(a) in x) b;; *) c;; esac", []string{"$(...): a", "b", "c"}},
		{"f() { a; }; function g { b; }", []string{"a", "b"}},
		// The output of $(a) is evaluated as arithmetic, so the expansion is
		// reported as code of its own (code.go); `wc -l` prints a number.
		{"echo $(( $(a) + 1 ))", []string{"echo $(( $(a) + 1 ))", "$(( $(( $(a) + 1 ))", "$(...): a"}},
		{"echo $(( $(wc -l < f) + 1 ))", []string{"echo $(( $(wc -l < f) + 1 ))", "$(...): wc -l"}},
		{"[[ -f $(a) ]] && (( $(b) ))", []string{"$(...): a", "(( (( $(b) ))", "$(...): b"}},
		// Subscripts of assignments are walked (`a[$(rm -rf /)]=1`).
		{"a[$(a)]=1", []string{"", "a[...]= a[$(a)]=1", "$(...): a"}},
		{"a[`a`]+=1", []string{"", "a[...]= a[`a`]+=1", "$(...): a"}},
		{"a[${x:-$(a)}]=1", []string{"", "a[...]= a[${x:-$(a)}]=1", "$(...): a"}},
		{"declare a[$(a)]=1", []string{"declare a=1", "a[...]= a[$(a)]=1", "$(...): a"}},
		{"a=([$(a)]=1 [2]=$(b))", []string{"", "[...]= $(a)]=1", "$(...): a", "$(...): b"}},
		{"a[1]=x; echo ${a[1]} ${#a[@]}", []string{"", "echo ${a[1]} ${#a[@]}"}},
		{"trap 'a; b' EXIT", []string{"trap a; b EXIT", "trap: a", "trap: b"}},
		{"mapfile -C 'a' -c 1 arr < f", []string{"mapfile -C a -c 1 arr", "mapfile -C: a"}},
		{"x=$(a) y=1", []string{"", "$(...): a"}},
		{"export P=$(a)", []string{"export P=$(a)", "$(...): a"}},
		{"cat <<EOF\n$(a)\nEOF", []string{"cat", "$(...): a"}},
		{"cat <<'EOF'\n$(a)\nEOF", []string{"cat"}},
		{"time a", []string{"a"}},
		{"echo `a` \"`b`\"", []string{"echo `a` `b`", "$(...): a", "$(...): b"}},
		{"coproc { a; }; coproc N ( b ); coproc while c; do d; done", []string{"a", "b", "c", "d"}},
		{"! a", []string{"a"}},
		{"{ a; } > out", []string{"", "a"}},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if diff := cmp.Diff(tt.want, argvs(s)); diff != "" {
			t.Errorf("Parse(%q) commands (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestParseSeesThroughWrappers(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"sudo -u root rm -rf /", []string{"sudo -u root rm -rf /", "sudo: rm -rf /"}},
		{"sudo -E env -i PATH=/x rm x", []string{"sudo -E env -i PATH=/x rm x", "sudo: env -i PATH=/x rm x", "sudo>env: rm x"}},
		{"command -p nice -n 5 nohup timeout -s KILL 5 stdbuf -oL setsid ionice -c3 rm x",
			[]string{"command -p nice -n 5 nohup timeout -s KILL 5 stdbuf -oL setsid ionice -c3 rm x",
				"command: nice -n 5 nohup timeout -s KILL 5 stdbuf -oL setsid ionice -c3 rm x",
				"command>nice: nohup timeout -s KILL 5 stdbuf -oL setsid ionice -c3 rm x",
				"command>nice>nohup: timeout -s KILL 5 stdbuf -oL setsid ionice -c3 rm x",
				"command>nice>nohup>timeout: stdbuf -oL setsid ionice -c3 rm x",
				"command>nice>nohup>timeout>stdbuf: setsid ionice -c3 rm x",
				"command>nice>nohup>timeout>stdbuf>setsid: ionice -c3 rm x",
				"command>nice>nohup>timeout>stdbuf>setsid>ionice: rm x"}},
		{"command -v rm", []string{"command -v rm"}},
		{"exec rm x", []string{"exec rm x", "exec: rm x"}},
		{"builtin cd /", []string{"builtin cd /", "builtin: cd /"}},
		{"busybox rm -rf /", []string{"busybox rm -rf /", "busybox: rm -rf /"}},
		{"bash -c 'rm -rf /; ls'", []string{"bash -c rm -rf /; ls", "bash -c: rm -rf /", "bash -c: ls"}},
		{"sh -lc \"cd /tmp && rm x\"", []string{"sh -lc cd /tmp && rm x", "sh -c: cd /tmp", "sh -c: rm x"}},
		{"bash -euxc 'a'", []string{"bash -euxc a", "bash -c: a"}},
		{"eval 'rm' -rf /", []string{"eval rm -rf /", "eval: rm -rf /"}},
		{"watch -n 1 'ls | wc'", []string{"watch -n 1 ls | wc", "watch: ls", "watch: wc"}},
		{"xargs -0 rm -f", []string{"xargs -0 rm -f", "xargs: rm -f"}},
		{"find . -name '*.o' -exec rm {} \\; -print", []string{"find . -name *.o -exec rm {} ; -print", "find -exec: rm {}"}},
		{"bash <<'EOF'\nrm x\nEOF", []string{"bash", "heredoc: rm x"}},
		{"bash <<< 'rm x'", []string{"bash", "heredoc: rm x"}},
		{"sudo bash -c 'eval \"rm x\"'", []string{"sudo bash -c eval \"rm x\"", "sudo: bash -c eval \"rm x\"", "sudo>bash -c: eval rm x", "sudo>bash -c>eval: rm x"}},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if diff := cmp.Diff(tt.want, argvs(s)); diff != "" {
			t.Errorf("Parse(%q) commands (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestParseResolvesWords(t *testing.T) {
	tests := []struct {
		src     string
		text    string
		dynamic bool
	}{
		{`rm`, "rm", false},
		{`\rm`, "rm", false},
		{`'rm'`, "rm", false},
		{`r"m"`, "rm", false},
		{`$'\x72m'`, "rm", false},
		{`"a\"b\$c"`, `a"b$c`, false},
		{`'$HOME'`, "$HOME", false},
		{`$HOME`, "/home/u", false},
		{`"${HOME}/x"`, "/home/u/x", false},
		{`~`, "/home/u", false},
		{`~/x`, "/home/u/x", false},
		{`'~'`, "~", false},
		{`~root`, "~root", true},
		{`$X`, "$X", true},
		{`${HOME:-/}`, "${HOME:-/}", true},
		{`$(pwd)`, "$(pwd)", true},
		{`*.go`, "*.go", true},
		{`'*.go'`, "*.go", false},
		{`\*`, "*", false},
		{`{a,b}`, "{a,b}", true},
		{`{}`, "{}", false},
		{`$((1+2))`, "$((1+2))", true},
	}
	for _, tt := range tests {
		s, err := Parse("echo "+tt.src, Options{Home: "/home/u"})
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		w := s.Commands[0].Args[1]
		if w.Text != tt.text || w.Dynamic != tt.dynamic {
			t.Errorf("word %s = (%q, dynamic %v), want (%q, %v)", tt.src, w.Text, w.Dynamic, tt.text, tt.dynamic)
		}
	}
	// A script that assigns HOME makes $HOME and ~ dynamic after it.
	s, _ := Parse("HOME=/tmp; rm -rf ~ $HOME", Options{Home: "/home/u"})
	for _, w := range s.Commands[1].Args[2:] {
		if !w.Dynamic {
			t.Errorf("after HOME=..., %q should be dynamic", w.Text)
		}
	}
}

func TestParseCodeOfUnknownOrigin(t *testing.T) {
	tests := []struct {
		src       string
		idx       int
		unknown   bool
		stdinCode bool
		feeders   []string // argv[0] of each feeder
	}{
		{"curl -s x | sh", 1, false, true, []string{"curl"}},
		{"curl -s x | sudo bash", 2, false, true, []string{"curl"}},
		{"wget -O- x | tee log | python3", 2, false, true, []string{"wget", "tee"}},
		{"bash <(curl x)", 0, true, false, []string{"curl"}},
		{"sh -c \"$(curl x)\"", 0, true, false, []string{"curl"}},
		{"eval \"$(wget -O- x)\"", 0, true, false, []string{"wget"}},
		{"source <(curl x)", 0, true, false, []string{"curl"}},
		{"python3 -c \"$(curl x)\"", 0, true, false, []string{"curl"}},
		{"$CMD x", 0, true, false, nil},
		{"bash script.sh", 0, true, false, nil},
		{"bash < script.sh", 0, true, false, nil},
		{"python3 script.py", 0, false, false, nil},
		{"python3 -W ignore script.py", 0, false, false, nil},
		{"curl -s x | python3 -W ignore", 1, false, true, []string{"curl"}}, // ignore is -W's value
		{"curl -s x | perl -I lib", 1, false, true, []string{"curl"}},
		{"bash -c 'ls'", 0, false, false, nil},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		c := s.Commands[tt.idx]
		var feeders []string
		for _, f := range c.Feeders {
			feeders = append(feeders, s.Commands[f].Name())
		}
		if (c.Unknown != "") != tt.unknown || c.StdinCode != tt.stdinCode || !cmp.Equal(feeders, tt.feeders) {
			t.Errorf("%q command %d (%s): unknown %q, stdinCode %v, feeders %v; want unknown %v, stdinCode %v, feeders %v",
				tt.src, tt.idx, c.Text, c.Unknown, c.StdinCode, feeders, tt.unknown, tt.stdinCode, tt.feeders)
		}
	}
}

func TestParseTracksShellState(t *testing.T) {
	s, err := Parse("cd src && make; (cd /tmp; ls); pwd; cd $X; cat y; PATH=/evil; ls; export LD_PRELOAD=x; id", Options{})
	if err != nil {
		t.Fatal(err)
	}
	type st struct {
		Name    string
		Dir     string
		DirDyn  bool
		Tainted []string
	}
	var got []st
	for _, c := range s.Commands {
		got = append(got, st{c.Name(), c.Dir, c.DirDynamic, c.Tainted})
	}
	want := []st{
		{"cd", "", false, nil},
		{"make", "src", false, nil},
		{"cd", "src", false, nil},
		{"ls", "/tmp", false, nil},
		{"pwd", "src", false, nil},
		{"cd", "src", false, nil},
		{"cat", "src", true, nil},
		{"", "src", true, nil},
		{"ls", "src", true, []string{"PATH"}},
		{"export", "src", true, []string{"PATH"}},
		{"id", "src", true, []string{"PATH", "LD_PRELOAD"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shell state (-want +got):\n%s", diff)
	}
}

func TestParseArgvIsLiteral(t *testing.T) {
	s, err := ParseArgv([]string{"sudo", "rm", "-rf", "$HOME", "*"}, Options{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	if got := argvs(s); !cmp.Equal(got, []string{"sudo rm -rf $HOME *", "sudo: rm -rf $HOME *"}) {
		t.Errorf("argvs = %q", got)
	}
	for _, w := range s.Commands[1].Args {
		if w.Dynamic {
			t.Errorf("argv word %q marked dynamic: argv words reach execve unexpanded", w.Text)
		}
	}
	if s.Source != `sudo rm -rf '$HOME' '*'` {
		t.Errorf("Source = %q", s.Source)
	}
}

// TestParseRefusesBadInput: every hostile input gets an *Error with its
// code, quickly, and never a partial script.
func TestParseRefusesBadInput(t *testing.T) {
	tests := []struct {
		name string
		src  string
		code string
	}{
		{"nul", "ls\x00rm -rf /", CodeInvalid},
		{"invalid utf-8", "ls \xff\xfe", CodeInvalid},
		{"10 MB", strings.Repeat("a", 10<<20), CodeTooLarge},
		{"just over the cap", strings.Repeat("a", MaxSize+1), CodeTooLarge},
		{"10000 nested $(", strings.Repeat("$(", 10000) + "ls" + strings.Repeat(")", 10000), CodeTooDeep},
		{"10000 unclosed $(", strings.Repeat("$(", 10000), CodeTooDeep},
		{"10000 nested groups", strings.Repeat("{ ", 10000) + "ls" + strings.Repeat("; }", 10000), CodeTooDeep},
		{"deep bash -c", strings.Repeat("bash -c ", 1) + "'" + strings.Repeat("eval ", 200) + "ls'", CodeTooDeep},
		{"unterminated double quote", `echo "abc`, CodeParse},
		{"unterminated single quote", `echo 'abc`, CodeParse},
		{"unterminated heredoc in bash -c", `bash -c 'cat <<EOF'`, ""},
		{"bad nested code", `bash -c 'echo "x'`, CodeParse},
		{"too many commands", strings.Repeat("ls;", MaxCommands+1), CodeTooLarge},

		// A carriage return is a blank to the parser and a word character
		// to bash: `ls\r#; rm` is ls and a comment to one, rm to the other.
		{"cr before a comment", "ls\r#; rm -rf ~/", CodeInvalid},
		{"backslash cr lf", "echo x\\\r\nrm -rf ~/", CodeInvalid},
		{"crlf line ends", "ls\r\nrm -rf ~/\r\n", CodeInvalid},
		{"cr in nested code", "bash -c $'ls\\r#; rm -rf ~/'", CodeInvalid},
		// A JSON "\ud800" decodes to U+FFFD.
		{"replacement character", "echo \uFFFD; rm x", CodeInvalid},
		// A comment ending in a backslash: bash ends it at the newline,
		// the parser joins the next line.
		{"comment continued", "ls -la # see \\\nrm -rf ~/", CodeParse},
		{"comment continued after a word", "echo hello # \\\ntouch x", CodeParse},
		{"comment continued after arithmetic", "echo $((1)) #\\\ntouch x", CodeParse},
		{"comment continued in nested code", "bash -c 'ls # \\\nrm -rf ~/'", CodeParse},
		{"comment ending the input in a backslash", "ls # \\", CodeParse},
		// Read differently by bash and the parser (TestDifferentialBash).
		{"backquotes three deep", "echo `echo \\`echo \\\\\\`rm -rf /home\\\\\\`\\``", CodeParse},
		{"backquotes two deep", "echo `echo \\`touch x\\``", CodeParse},
		{"backquotes two deep with a continuation", "echo `echo \\`tou\\\\\nch x\\``", CodeParse},
		{"backquotes two deep in a heredoc", "cat <<EOF\n`: \\`touch x\\``\nEOF", CodeParse},
		{"backquotes two deep in nested code", "bash -c 'echo `echo \\`touch x\\``'", CodeParse},
		{"coproc of a simple command", "coproc dd if=/dev/zero of=/dev/sda", CodeParse},
		{"coproc with an assignment", "coproc X=1 git push --force origin main", CodeParse},
		{"coproc of rm", "coproc FOO=bar rm -rf /", CodeParse},
		{"coproc of a wrapped command", "coproc time ls", CodeParse},
		{"coproc in nested code", "eval 'coproc ls'", CodeParse},
		// Nesting that would overflow the parser's stack or take its
		// memory is refused before the parser sees it.
		{"150000 nested (", strings.Repeat("(", 150000) + "ls" + strings.Repeat(")", 150000), CodeTooDeep},
		{"(( and 500000 (", "((" + strings.Repeat("(", 500000) + "1" + strings.Repeat(")", 500000) + "))", CodeTooDeep},
		{"60000 nested (", strings.Repeat("(", 60000) + "ls" + strings.Repeat(")", 60000), CodeTooDeep},
		{"nesting behind quoted closers", strings.Repeat("(')';", 200000), CodeTooDeep},
		{"nesting behind closers that are words", strings.Repeat("{ echo }; ", 50000) + "ls" + strings.Repeat("; }", 50000), CodeTooDeep},
		{"nesting from $'\\x28'", "bash -c $'" + strings.Repeat("\\x28", 200000) + "'", CodeTooDeep},
		{"520000 [[ !", "[[ " + strings.Repeat("! ", 520000) + "x ]]", CodeTooDeep},
		// Within the guard's bounds, MaxDepth holds in every walk.
		{"5000 [[ !", "[[ " + strings.Repeat("! ", 5000) + "x ]]", CodeTooDeep},
		{"deep arithmetic in a word", "echo $((" + strings.Repeat("1+", 5000) + "1))", CodeTooDeep},
		{"deep arithmetic command", "((" + strings.Repeat("- ", 5000) + "1))", CodeTooDeep},
		{"deep arithmetic parens", "echo $((" + strings.Repeat("(", 900) + "1" + strings.Repeat(")", 900) + "))", CodeTooDeep},
		{"deep test operators", "[[ " + strings.Repeat("x && ", 5000) + "x ]]", CodeTooDeep},
		{"deep parameter defaults", "echo " + strings.Repeat("${x:-", 900) + strings.Repeat("}", 900), CodeTooDeep},
		// A list or a pipeline is as long as it is, not nested: it is
		// limited by its number of commands.
		{"long pipeline", strings.Repeat("ls | ", 50000) + "ls", CodeTooLarge},
		{"long && list", strings.Repeat("ls && ", 50000) + "ls", CodeTooLarge},
	}
	for _, tt := range tests {
		t0 := cpuNow()
		_, err := Parse(tt.src, Options{})
		took := cpuNow() - t0
		if took > time.Second {
			t.Errorf("%s: took %v of CPU", tt.name, took)
		}
		var pe *Error
		switch {
		case tt.code == "" && err != nil && !errors.As(err, &pe):
			t.Errorf("%s: error %v is not an *Error", tt.name, err)
		case tt.code != "" && (!errors.As(err, &pe) || pe.Code != tt.code):
			t.Errorf("%s: err = %v, want code %s", tt.name, err, tt.code)
		}
		t.Logf("%s: %v in %v", tt.name, err, took)
	}
	// An argv is checked too: `bash -c` in it is parsed.
	var pe *Error
	if _, err := ParseArgv([]string{"bash", "-c", "ls\r#; rm -rf ~/"}, Options{}); !errors.As(err, &pe) || pe.Code != CodeInvalid {
		t.Errorf("ParseArgv with a carriage return: err = %v, want code %s", err, CodeInvalid)
	}
}

// TestParseFindsCodeInStrings: text that bash evaluates as code (code.go)
// gives a command with Unknown set; ordinary arithmetic and tests do not.
func TestParseFindsCodeInStrings(t *testing.T) {
	tests := []struct {
		src  string
		code bool
	}{
		// From the red-team report: all ran `touch p` in bash 5.2.
		{`x='$(touch p)'; echo ${x@P}`, true},
		{`x='a[$(touch p)]'; echo $((x))`, true},
		{`x='a[$(touch p)]'; (( x ))`, true},
		{`x='a[$(touch p)]'; [[ x -eq 0 ]]`, true},
		{`x='a[$(touch p)]'; echo ${y[$x]}`, true},
		{`x='a[$(touch p)]'; echo ${!x}`, true},
		{`x='a[$(touch p)]'; for ((i=x;0;)); do :; done`, true},
		{`x='a[$(touch p)]'; test -v "$x"`, true},
		{`test -v 'a[$(touch p)]'`, true},
		{`[ -v 'a[$(touch p)]' ]`, true},
		{`[[ -v 'a[$(touch p)]' ]]`, true},
		{`[[ 'a[$(touch p)]' -eq 1 ]]`, true},
		{`let 'a[$(touch p)]=1'`, true},
		{`echo $(( 'a[$(touch p)]' ))`, true},
		// More of the same family.
		{`echo $(( '$(touch p)' ))`, true},
		{`echo $[x]`, true},
		{`echo ${y:x}`, true},
		{`echo ${y:0:$x}`, true},
		{`x=$(cat f); echo $(( x + 1 ))`, true},
		// $"…" is translated and the translation expanded: a .mo whose
		// msgstr is $(touch p) runs it (bash 5.2, noexpand_translation off).
		{`echo $"hello"`, true},
		{`x=$"hello"`, true},
		{`cat <<< $"hello"`, true},
		{`echo "$(echo $"hello")"`, true},
		{`echo "\$"hello""`, false},
		{`echo '$"hello"'`, false},
		{`echo $(( $(cat f) + 1 ))`, true},
		{`[[ $(cat f) -gt 0 ]]`, true},
		{`[[ $1 -eq 0 ]]`, true},
		{`a[x]=1`, true},
		{`a=([x]=1)`, true},
		{`read 'a[$(touch p)]'`, true},
		{`read -r "$name"`, true},
		{`printf -v 'a[$(touch p)]' x`, true},
		{`declare 'a[$(touch p)]=1'`, true},
		{`declare "$x=1"`, true},
		{`declare -n r='a[$(touch p)]'`, true},
		{`declare -i y; y=$x`, true},
		{`y=$x; declare -i y`, true}, // settled at the end: a loop could repeat the assignment
		{`f() { y=$x; }; declare -i y; f`, true},
		{`declare -i y=$x`, true},
		{`builtin let 'a[$(touch p)]'`, true},
		{`x=1; echo ${!x}`, true},
		{`i=0; while (( i < 3 )); do i=$(cat f); done`, true},
		{`x=1; declare -n r=x; r=$(cat f); (( x ))`, true},
		{`declare -n r; r=PATH; r=/tmp/x; git status`, true},
		{`builtin declare -n r; r=PATH`, true},
		{`export -n PATH`, false},
		{`f() { (( n + 1 )); }; n=1; f`, true},
		// Ordinary scripts stay clean.
		{`echo $((1+2))`, false},
		{`for ((i=0;i<3;i++)); do echo $i; done`, false},
		{`for i in 1 2 3; do echo $((i*2)); done`, false},
		{`for i in {1..10}; do echo $((i*2)); done`, false},
		{`for i in $(seq 1 5); do echo $((i*2)); done`, false},
		{`i=0; while (( i < 3 )); do i=$((i+1)); done`, false},
		{`n=$(wc -l < f); echo $((n+1))`, false},
		{`echo $(( $(date +%s) - 5 ))`, false},
		{`n=$(grep -c x f); [[ $n -gt 0 ]]`, false},
		{`n=$(grep -rc x .); (( n ))`, true}, // prints file:count lines
		{`count=0; count=$((count + 1)); echo "$count"`, false},
		{`start=$SECONDS; sleep 1; echo $((SECONDS - start))`, false},
		{`[[ $# -eq 0 ]] && echo none`, false},
		{`[[ -f x ]]`, false},
		{`[[ $a == b* && -n $c ]]`, false},
		{`[ "$a" = b ]`, false},
		{`[ "$n" -eq 1 ]`, false}, // test's -eq reads a plain integer
		{`test -d dir`, false},
		{`test -v HOME`, false},
		{`read -r line < f; echo "$line"`, false},
		{`echo ${#x} ${x:-y} ${a[@]} ${!a[@]} ${!pre*} ${x@Q}`, false},
		{`arr=(a b c); echo ${arr[0]} ${arr[@]:1:2}`, false},
		{`declare -A m=([k]=v); echo "${!m[@]}"`, false},
		{`x=5; declare -i y=x+1`, false},
		{`(( x = 5 )); echo $(( x * 2 ))`, false},
		{`let x=1 y=x+1`, false},
		{`cat <<'EOF'` + "\n$((x)) ${!x}\nEOF", false},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		var unknown []string
		for _, c := range s.Commands {
			if c.Unknown != "" {
				unknown = append(unknown, c.Text+": "+c.Unknown)
			}
		}
		if got := len(unknown) > 0; got != tt.code {
			t.Errorf("Parse(%q): code found %v, want %v %q", tt.src, got, tt.code, unknown)
		}
	}
}

// TestParseTaintsLoopAndReadVariables: a loop variable and the variables
// builtins assign taint later commands like `NAME=value` does.
func TestParseTaintsLoopAndReadVariables(t *testing.T) {
	tests := []struct {
		src     string
		tainted string // in the last command's Tainted, or "" for none
	}{
		{"for PATH in bin:/usr/bin; do git status; done", "PATH"},
		{"for HOME in /tmp; do rm -rf ~/x; done", "HOME"},
		{"for LD_PRELOAD in ./x.so; do ls; done; ls", "LD_PRELOAD"},
		{"for BASH_ENV in ./rc; do bash -c ls; done", "BASH_ENV"},
		{"for GIT_DIR in ../x; do :; done; git status", "GIT_DIR"},
		{"select GIT_DIR in a; do git status; done", "GIT_DIR"},
		{"read PATH < f; git status", "PATH"},
		{"read -r -p 'x' HOME; ls ~", "HOME"},
		{"read -a LD_PRELOAD < f; ls", "LD_PRELOAD"},
		{"while read -r BASH_ENV; do bash -c ls; done < f", "BASH_ENV"},
		{"IFS= read -r GIT_DIR < f; git log", "GIT_DIR"},
		{"mapfile PATH < f; ls", "PATH"},
		{"readarray -t LD_PRELOAD < f; ls", "LD_PRELOAD"},
		{"printf -v PATH %s /tmp; ls", "PATH"},
		{"printf -vGIT_DIR %s x; git status", "GIT_DIR"},
		{"getopts ab PATH; ls", "PATH"},
		{"unset PATH; ls", "PATH"},
		{"(( PATH = 0 )); ls", "PATH"},
		{"let PATH=0; ls", "PATH"},
		{"declare -n r=PATH; r=/tmp; ls", "PATH"},
		{"export -n PATH; ls", "PATH"},
		{"eval 'PATH=/tmp'; ls", "PATH"},
		{"builtin read PATH < f; ls", "PATH"},
		{"shopt -s lastpipe; echo /tmp | read PATH; ls", "PATH"},
		// bash(1) Parameter Expansion: ${NAME:=word} and ${NAME=word}
		// assign word to NAME when it is unset (or null).
		{": ${PATH:=/tmp}; ls", "PATH"},
		{"echo ${CDPATH=/home} >/dev/null; ls", "CDPATH"},
		{`echo "${GIT_DIR:=../x}"; git status`, "GIT_DIR"},
		{"ls ${LD_PRELOAD:=x.so} && ls", "LD_PRELOAD"},
		// bash(1) REDIRECTION: {NAME}>file puts the new descriptor's
		// number in NAME (in the shell itself for a builtin or a compound
		// command); coproc NAME sets NAME to the coprocess's descriptors.
		{": {PATH}>/dev/null; ls", "PATH"},
		{"{ :; } {CDPATH}<a; cd x; ls", "CDPATH"},
		{"exec {GIT_DIR}>&1; git status", "GIT_DIR"},
		{"coproc PATH { :; }; ls", "PATH"},
		{"coproc GIT_DIR { cat; }; git status", "GIT_DIR"},
		{`coproc "PATH" { :; }; ls`, "PATH"},
		// Not the shell's own: a pipeline stage or a wrapper's program.
		{"echo /tmp | read PATH; ls", ""},
		{"sudo read PATH; ls", ""},
		{"bash -c 'read PATH'; ls", ""},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		last := s.Commands[len(s.Commands)-1]
		got := slices.Contains(last.Tainted, tt.tainted)
		if tt.tainted == "" {
			got = len(last.Tainted) == 0 || !slices.Contains(last.Tainted, "PATH")
		}
		if !got {
			t.Errorf("Parse(%q): last command %q tainted by %q, want %q", tt.src, last.Text, last.Tainted, tt.tainted)
		}
	}
	// HOME set by a loop makes ~ dynamic inside it.
	s, _ := Parse("for HOME in /tmp; do rm -rf ~; done", Options{Home: "/home/u"})
	if w := s.Commands[0].Args[2]; !w.Dynamic {
		t.Errorf("after for HOME, ~ = %q, not dynamic", w.Text)
	}
	// eval runs in the same shell: cd stays.
	s, _ = Parse("eval 'cd /etc'; rm x", Options{})
	if c := s.Commands[len(s.Commands)-1]; c.Dir != "/etc" {
		t.Errorf("after eval 'cd /etc', rm runs in %q", c.Dir)
	}
}

// TestParseAfterLink: commands that can run after a command that creates
// links are marked.
func TestParseAfterLink(t *testing.T) {
	tests := []struct {
		src  string
		want []bool // AfterLink of each command, in order
	}{
		{"ln -s ~/.bashrc t; echo pwn >> t", []bool{false, true}},
		{"echo x > t; ln -s ~/.bashrc t", []bool{false, false}},
		{"link a t && cat t", []bool{false, true}},
		{"(ln -s a t); echo >> t", []bool{false, true}},
		{"echo $(ln -s a t) > t", []bool{true, false}},
		{"sudo ln -s a t; cat t", []bool{false, false, true}},
		{"a | ln -s x t | cat t", []bool{true, true, true}},
		{"for i in 1 2; do echo pwn >> t; ln -s ~/.bashrc t; done", []bool{true, true}},
		{"f() { echo pwn >> t; }; ln -s ~/.bashrc t; f", []bool{true, false, true}},
		{"(sleep 1; echo pwn >> t) & ln -s a t", []bool{true, true, false}},
		{"cp -s a t; cat t", []bool{false, true}},
		{"cp -r src dst; cat dst/x", []bool{false, true}},
		{"cp --archive src dst; cat dst/x", []bool{false, true}},
		{"cp -Pf a t; cat t", []bool{false, true}},
		{"cp a b; cat b", []bool{false, false}},
		{"mv a t; cat t", []bool{false, true}},
		{"tar -xzf a.tgz; cat x", []bool{false, true}},
		{"tar xf a.tar; cat x", []bool{false, true}},
		{"tar --extract -f a.tar; cat x", []bool{false, true}},
		{"tar -czf a.tgz src; cat x", []bool{false, false}},
		{"unzip a.zip; cat x", []bool{false, true}},
		{"cpio -idv < a.cpio; cat x", []bool{false, true}},
		{"cpio --ext -d < a.cpio; cat x", []bool{false, true}},
		{"cpio -pd dst < list; cat x", []bool{false, true}},
		{"cpio -o -H newc < list > a.cpio; cat x", []bool{false, false}},
		{"cpio -o --bogus < list > a.cpio; cat x", []bool{false, true}},
		{"pax -r -f a.pax; cat x", []bool{false, true}},
		{"pax -w -f a.pax src; cat x", []bool{false, false}},
		{"tar --ex -f a.tar; cat x", []bool{false, true}},
		{"tar -cf a.tar --exclude x src; cat x", []bool{false, false}},
		{"tar -cf a.tar --bogus src; cat x", []bool{false, true}},
		{"tar -c $X -f a.tar src; cat x", []bool{false, true}},
		{"rsync -a src/ dst/; cat dst/x", []bool{false, true}},
		{"git -C repo checkout main; cat repo/x", []bool{false, true}},
		{"git clone u d; cat d/x", []bool{false, true}},
		{"git stash pop; cat x", []bool{false, true}},
		{"git status; cat x", []bool{false, false}},
		{"git --no-pager -C . status; cat x", []bool{false, false}},
		{"git --bogus status; cat x", []bool{false, true}},
		{"git --git-dir=d checkout main; cat x", []bool{false, true}},
		{"git stash list; cat x", []bool{false, true}},
		{"install -m 644 a b; cat b", []bool{false, false}},
		{"$tool a b; cat b", []bool{false, true}},
		{"bash -c 'ln -s a t'; cat t", []bool{false, false, true}},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{Home: "/home/u"})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		var got []bool
		for _, c := range s.Commands {
			got = append(got, c.AfterLink)
		}
		if !cmp.Equal(got, tt.want) {
			t.Errorf("Parse(%q) AfterLink = %v, want %v (%q)", tt.src, got, tt.want, argvs(s))
		}
	}
}

// TestLongLists: an `&&`/`||` list or a pipeline of thousands of commands
// is a flat list (mvdan builds it as a tree as deep as it is long): it is
// parsed whole, each command keeps its place, and a `cd` in it moves the
// commands after it as in a short list.
func TestLongLists(t *testing.T) {
	const n = 5000
	for _, tc := range []struct {
		name, src string
		cmds      int
	}{
		{"&& list", strings.Repeat("true && ", n-1) + "true", n},
		{"|| list", strings.Repeat("false || ", n-1) + "true", n},
		{"mixed list", strings.Repeat("a && b || ", n/2-1) + "a && b", n},
		{"pipeline", strings.Repeat("cat | ", n-1) + "cat", n},
	} {
		s, err := Parse(tc.src, Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(s.Commands) != tc.cmds {
			t.Errorf("%s: %d commands, want %d", tc.name, len(s.Commands), tc.cmds)
		}
	}
	s, err := Parse("cd build && "+strings.Repeat("true && ", n)+"touch x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := s.Commands[len(s.Commands)-1]
	if last.Args[0].Text != "touch" || last.Dir != "build" || len(last.OtherDirs) != 0 {
		t.Errorf("touch after cd build && a long list runs in %q (others %q), want build", last.Dir, last.OtherDirs)
	}
	s, err = Parse("cd build || "+strings.Repeat("true && ", n)+"touch x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	last = s.Commands[len(s.Commands)-1]
	if last.Dir == "build" && len(last.OtherDirs) == 0 {
		t.Errorf("touch after cd build || ... runs where cd failed, not in build only: %q %q", last.Dir, last.OtherDirs)
	}
	// Real nesting still counts.
	deep := strings.Repeat("( ", 150) + "ls" + strings.Repeat(" )", 150)
	var pe *Error
	if _, err := Parse(deep, Options{}); !errors.As(err, &pe) || pe.Code != CodeTooDeep {
		t.Errorf("150 nested subshells: %v, want %s", err, CodeTooDeep)
	}
}

// TestParseWordsShareNoRoom checks the words of a script's commands, which
// come out of one array (wordsFor): a bare assignment or a redirect alone
// has nil Args, as callers test, and appending to one command's Args never
// changes the next command's words.
func TestParseWordsShareNoRoom(t *testing.T) {
	s, err := Parse("HOME=/x; a b; >f; c d e; f $(g h) i", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range s.Commands {
		c := &s.Commands[i]
		if len(c.Args) == 0 {
			if c.Args != nil {
				t.Errorf("command %d (%q): Args empty but not nil", i, c.Text)
			}
			continue
		}
		got = append(got, strings.Join(c.Argv(), " "))
	}
	for _, c := range s.Commands {
		_ = append(c.Args, Word{Text: "X"})
	}
	var after []string
	for _, c := range s.Commands {
		if len(c.Args) > 0 {
			after = append(after, strings.Join(c.Argv(), " "))
		}
	}
	want := []string{"a b", "c d e", "f $(g h) i", "g h"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("argvs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(got, after); diff != "" {
		t.Errorf("an append to one command's Args changed another's (-before +after):\n%s", diff)
	}
}

// TestHeredocBodyIsNotAWord: a here-document's body is resolved by heredoc
// alone, never as a word (it is not globbed, brace-expanded or tilde
// expanded), so no glob form is recorded for it, while the substitutions in
// an unquoted body are still found and the body's text is as before.
func TestHeredocBodyIsNotAWord(t *testing.T) {
	for _, tc := range []struct{ src, body, sub string }{
		{"cat <<'EOF' >x\n*.py [ab] ~/x a\\b\nEOF", "*.py [ab] ~/x a\\b\n", ""},
		{"cat <<'EOF' >x\n{a,b} *.py\nEOF", "{a,b} *.py\n", ""},
		{"cat <<EOF >x\n*.py ~/x a\\$b\nEOF", "*.py ~/x a$b\n", ""},
		{"cat <<EOF >x\n*.py {a,b} ~/x a\\$b $(rm y)\nEOF", "*.py {a,b} ~/x a$b $(rm y)\n", "rm y"},
	} {
		s, err := Parse(tc.src, Options{Home: "/home/u"})
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if len(s.globs) != 0 {
			t.Errorf("%q: %d glob forms recorded, want none (the body was resolved as a word)", tc.src, len(s.globs))
		}
		if got := s.Commands[0].Redirects[0].Target.Text; got != tc.body {
			t.Errorf("%q: body %q, want %q", tc.src, got, tc.body)
		}
		var subs []string
		for _, c := range s.Commands[1:] {
			subs = append(subs, strings.Join(c.Argv(), " "))
		}
		if got := strings.Join(subs, ";"); got != tc.sub {
			t.Errorf("%q: nested commands %q, want %q", tc.src, got, tc.sub)
		}
	}
}
