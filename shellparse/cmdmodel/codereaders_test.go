package cmdmodel

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestIsInterpreter: the names IsInterpreter takes are those of the
// regular expression it replaced.
func TestIsInterpreter(t *testing.T) {
	re := regexp.MustCompile(`^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|Rscript|tclsh[0-9.]*|osascript|deno|bun)$`)
	for _, n := range []string{"python", "python3", "python3.12", "python3.", "python3x", "pythonx", "xpython", "pypy3",
		"perl", "perl5.36", "ruby", "ruby3.2", "node", "nodejs", "node18", "php", "php8.2", "lua", "lua5.4", "luajit",
		"Rscript", "rscript", "tclsh", "tclsh8.6", "osascript", "deno", "bun", "bunx", "", "sh", "bash", "python-3",
		"python3 ", "perl.", "..", "p", "rubyx"} {
		if got, want := IsInterpreter(n), re.MatchString(n); got != want {
			t.Errorf("IsInterpreter(%q) = %v, the expression says %v", n, got, want)
		}
	}
}

// TestScriptOperand: which word a shell or an interpreter runs as its
// script file, past the options that take a value, and none when it is
// given code (-c, -e, -m) or reads its standard input.
func TestScriptOperand(t *testing.T) {
	// By the word each line runs as its script (-1: none).
	cases := map[int][]string{
		-1: {"bash -c code s", "bash -ec code s", "bash -s s", "bash --", "bash -", "bash -x", "bash -n s",
			"ruby -e code s", "python3 -m s", "python3 -c code s", "perl -e code s", "perl -E code s", "node -p code s"},
		1: {"bash s"},
		2: {"bash - s", "python3 -u s", "python3 -O s", "python3 -Wignore s", "node --require=mod s", "node --no-warnings s"},
		3: {"bash +o posix s", "bash --norc -- -s", "perl -I /tmp s", "node -r mod s", "node --require mod s"},
		5: {"python3 -W ignore -X dev s"},
		6: {"bash -e -o posix -O extglob s"},
	}
	for want, lines := range cases {
		for _, line := range lines {
			i, ok := ScriptOperand(findWords(line), strings.HasPrefix(line, "bash "))
			if !ok {
				i = -1
			}
			if i != want {
				t.Errorf("ScriptOperand(%q) = %d, want %d", line, i, want)
			}
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
		"bash - s", "dash - s", "bash -n s", "bash -ne s", "bash -O extglob -- s",
		"python3 s", "python3 -W ignore s", "python3 -X dev s", "python3 -u s", "python3 -c pass s",
		"python3 -m s", "python3 -- s", "python3 -O s", "python3 -E s", "python3 -Wignore s", "python3 -Wc s",
		"python3 --check-hash-based-pycs default s", "python3 -mc s",
		"perl s", "perl -w s", "perl -e 1 s", "perl -E 1 s", "perl -- s", "perl -I /tmp s", "perl -I/tmp s", "perl -c s",
		"node s", "node -e 1 s", "node -p 1 s", "node -- s", "node -c s", "node --check s", "node -C x s",
		"node --title x s", "node --eval 1 s", "node --conditions=x s",
	} {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			words := findWords(line)
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
