package cmdmodel

import (
	"slices"
	"strings"
)

// scriptOpts are the options of a shell or an interpreter that decide
// which operand it runs as a script file. An option of code means the
// program runs no file named by an operand: the code is in a word (-c,
// -e), comes from standard input (a shell's -s), names a module (python
// -m) or is only checked (node --check). An option of value takes a value,
// which is then no script.
type scriptOpts struct {
	code, value         string // short option letters
	longCode, longValue []string
	// attached: a value letter followed by more letters takes them as its
	// value (python -Wignore, perl -I/dir); otherwise it takes the next
	// word wherever it stands in a cluster (bash -eo pipefail).
	attached bool
}

// interpreterScriptOpts are each interpreter family's (python(1), perlrun,
// node(1)); the real-tool test runs each on a script file.
var interpreterScriptOpts = [...]struct {
	family string
	opts   scriptOpts
}{
	{FamilyPython, scriptOpts{code: "cm", value: "WX", longValue: []string{"check-hash-based-pycs"}, attached: true}},
	// perl -c compiles the file, which runs its BEGIN blocks: a file runs.
	{FamilyPerl, scriptOpts{code: "eE", value: "I", attached: true}},
	{FamilyNode, scriptOpts{code: "cep", value: "rC", longCode: []string{"eval", "print", "check"},
		longValue: []string{"require", "import", "conditions", "input-type", "loader", "experimental-loader", "title"}}},
}

// otherScriptOpts stand for an interpreter the table does not describe:
// the letters that give code or take a value in any of them.
var otherScriptOpts = scriptOpts{code: "cemEp", value: "oOWX"}

// ScriptOperand returns the index in args (args[0] is the program, a
// basename of which IsInterpreter holds unless shell) of the operand a
// shell or an interpreter runs as a script file: the first word that is
// no option or an option's value, or the word after `--`. It reports false
// when the program runs code from a word, standard input or a module, or
// when a word it would read is only known at run time.
func ScriptOperand(args []Word, shell bool) (int, bool) {
	if shell {
		// A shell runs its first operand unless it is given code
		// (-c), reads standard input (-s) or only reads (-n).
		st := ReadShellStart(args)
		ok := !st.Dynamic && !st.Code && !st.Stdin && !st.NoExec && st.Operand < len(args) && !args[st.Operand].Dynamic
		return st.Operand, ok
	}
	o := scriptOptsOf(args)
	for i := 1; i < len(args); i++ {
		t := args[i].Text
		switch {
		case t == "--":
			return i + 1, i+1 < len(args)
		case t == "-" || args[i].Dynamic:
			return 0, false
		case !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+"):
			return i, true
		}
		skip, code := o.option(t)
		if code {
			return 0, false
		}
		if skip {
			i++
		}
	}
	return 0, false
}

// InterpreterOptTakesValue reports whether the option word t of the
// interpreter args[0] takes the next word as its value (python -W ARG,
// perl -I DIR, node -r MODULE).
func InterpreterOptTakesValue(args []Word, t string) bool {
	skip, code := scriptOptsOf(args).option(t)
	return skip && !code
}

// scriptOptsOf returns the options table of the shell or interpreter
// args[0].
func scriptOptsOf(args []Word) scriptOpts {
	o := otherScriptOpts
	if len(args) > 0 {
		family := InterpreterFamily(args[0].Text)
		for _, s := range interpreterScriptOpts {
			if s.family == family {
				o = s.opts
			}
		}
	}
	return o
}

// option reads the option word t (`-x...`, `+x...` or `--name[=value]`):
// whether it runs code, and whether it takes the next word as its value.
func (o scriptOpts) option(t string) (skip, code bool) {
	if name, ok := strings.CutPrefix(t, "--"); ok {
		name, _, hasVal := strings.Cut(name, "=")
		return !hasVal && slices.Contains(o.longValue, name), slices.Contains(o.longCode, name)
	}
	return o.shortCluster(t[1:])
}

// shortCluster reads a cluster of short option letters: whether one of
// them runs code, and whether one takes the next word as its value.
func (o scriptOpts) shortCluster(letters string) (skip, code bool) {
	if strings.ContainsAny(letters, o.code) && !o.attached {
		return false, true
	}
	for j, l := range letters {
		switch {
		case strings.ContainsRune(o.code, l):
			return false, true
		case strings.ContainsRune(o.value, l):
			if o.attached {
				return j == len(letters)-1, false
			}
			skip = true
		}
	}
	return skip, false
}
