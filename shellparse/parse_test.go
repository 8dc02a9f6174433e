package shellparse

import (
	"errors"
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
		{"echo $(( $(a) + 1 ))", []string{"echo $(( $(a) + 1 ))", "$(...): a"}},
		{"[[ -f $(a) ]] && (( $(b) ))", []string{"$(...): a", "$(...): b"}},
		{"x=$(a) y=1", []string{"", "$(...): a"}},
		{"export P=$(a)", []string{"export P=$(a)", "$(...): a"}},
		{"cat <<EOF\n$(a)\nEOF", []string{"cat", "$(...): a"}},
		{"cat <<'EOF'\n$(a)\nEOF", []string{"cat"}},
		{"time a", []string{"a"}},
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
		{"10000 unclosed $(", strings.Repeat("$(", 10000), CodeParse},
		{"10000 nested groups", strings.Repeat("{ ", 10000) + "ls" + strings.Repeat("; }", 10000), CodeTooDeep},
		{"deep bash -c", strings.Repeat("bash -c ", 1) + "'" + strings.Repeat("eval ", 200) + "ls'", CodeTooDeep},
		{"unterminated double quote", `echo "abc`, CodeParse},
		{"unterminated single quote", `echo 'abc`, CodeParse},
		{"unterminated heredoc in bash -c", `bash -c 'cat <<EOF'`, ""},
		{"bad nested code", `bash -c 'echo "x'`, CodeParse},
		{"too many commands", strings.Repeat("ls;", MaxCommands+1), CodeTooLarge},
	}
	for _, tt := range tests {
		t0 := time.Now()
		_, err := Parse(tt.src, Options{})
		took := time.Since(t0)
		var pe *Error
		switch {
		case tt.code == "" && err != nil && !errors.As(err, &pe):
			t.Errorf("%s: error %v is not an *Error", tt.name, err)
		case tt.code != "" && (!errors.As(err, &pe) || pe.Code != tt.code):
			t.Errorf("%s: err = %v, want code %s", tt.name, err, tt.code)
		}
		t.Logf("%s: %v in %v", tt.name, err, took)
	}
}
