package cmdmodel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func scriptWords(line string) []Word {
	var ws []Word
	for _, f := range strings.Fields(line) {
		ws = append(ws, Word{Text: f})
	}
	return ws
}

func TestScriptOperand(t *testing.T) {
	for _, tc := range []struct {
		line  string
		shell bool
		want  int // -1: no script file
	}{
		{"bash s", true, 1},
		{"bash -e -o posix -O extglob s", true, 6},
		{"bash +o posix s", true, 3},
		{"bash -c code s", true, -1},
		{"bash -ec code s", true, -1},
		{"bash -s s", true, -1},
		{"bash --norc -- -s", true, 3},
		{"bash --", true, -1},
		{"bash - s", true, -1},
		{"bash -x", true, -1},
		{"python3 -W ignore -X dev s", false, 5},
		{"python3 -u s", false, 2},
		{"python3 -O s", false, 2},
		{"python3 -Wignore s", false, 2},
		{"perl -I /tmp s", false, 3},
		{"node -r mod s", false, 3},
		{"node --require mod s", false, 3},
		{"node --require=mod s", false, 2},
		{"ruby -e code s", false, -1},
		{"python3 -m s", false, -1},
		{"python3 -c code s", false, -1},
		{"perl -e code s", false, -1},
		{"perl -E code s", false, -1},
		{"node -p code s", false, -1},
		{"node --no-warnings s", false, 2},
	} {
		i, ok := ScriptOperand(scriptWords(tc.line), tc.shell)
		if !ok {
			i = -1
		}
		if i != tc.want {
			t.Errorf("ScriptOperand(%q) = %d, want %d", tc.line, i, tc.want)
		}
	}
	dyn := []Word{{Text: "bash"}, {Text: "$X", Dynamic: true}, {Text: "s"}}
	if i, ok := ScriptOperand(dyn, true); ok {
		t.Errorf("ScriptOperand(bash $X s) = %d, want none: the word may be -c", i)
	}
}

// TestScriptOperandRealTools runs each shell and interpreter on a script
// file that prints a marker, and checks that the file runs exactly when
// ScriptOperand names it: the options that take a value (bash -o and -O,
// python -W and -X) and those that run other code (-c, -s, -m, -e, -E,
// -p) as the programs read them.
func TestScriptOperandRealTools(t *testing.T) {
	const marker = "RAN-SCRIPT-FILE"
	programs := map[string]string{
		"bash":    "echo " + marker,
		"dash":    "echo " + marker,
		"python3": "print('" + marker + "')",
		"perl":    "BEGIN { print \"" + marker + "\\n\" }", // perl -c runs BEGIN blocks
		"node":    "console.log('" + marker + "')",
	}
	for _, line := range []string{
		"bash s", "bash -e s", "bash -o posix s", "bash -O extglob s", "bash +o posix s", "bash -c : s",
		"bash -s s", "bash -- s", "bash --norc s", "bash --rcfile /dev/null s", "bash -eo pipefail s",
		"dash s", "dash -o noglob s", "dash -c : s", "dash -s s",
		"python3 s", "python3 -W ignore s", "python3 -X dev s", "python3 -u s", "python3 -c pass s",
		"python3 -m s", "python3 -- s", "python3 -O s", "python3 -E s", "python3 -Wignore s", "python3 -Wc s",
		"python3 --check-hash-based-pycs default s", "python3 -mc s",
		"perl s", "perl -w s", "perl -e 1 s", "perl -E 1 s", "perl -- s", "perl -I /tmp s", "perl -I/tmp s", "perl -c s",
		"node s", "node -e 1 s", "node -p 1 s", "node -- s", "node -c s", "node --check s", "node -C x s",
		"node --title x s", "node --eval 1 s", "node --conditions=x s",
	} {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			words := scriptWords(line)
			bin := needBinary(t, words[0].Text)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "s"), []byte(programs[words[0].Text]+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			argv := []string{bin}
			for _, w := range words[1:] {
				argv = append(argv, w.Text)
			}
			out := run(t, dir, argv...)
			ran := strings.Contains(out, marker)
			i, ok := ScriptOperand(words, words[0].Text == "bash" || words[0].Text == "dash")
			names := ok && words[i].Text == "s"
			if ran != names {
				t.Errorf("the file ran: %v; ScriptOperand names it: %v (output %q)", ran, names, firstLine(out))
			}
		})
	}
}
