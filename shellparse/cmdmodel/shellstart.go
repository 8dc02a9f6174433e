package cmdmodel

import "strings"

// ShellStart is how a POSIX-like shell reads the words it is started
// with (bash(1) INVOCATION, dash(1)): its options, then the first operand,
// which is the code with -c, else the script file to run (none: it reads
// standard input, as with -s).
type ShellStart struct {
	// Operand is the index of the first operand in the words, their
	// length when there is none.
	Operand int
	// Code: -c, the operand is code. Stdin: -s, the commands come from
	// standard input and the operands are its positional parameters.
	// NoExec: -n, the commands are read, not run.
	Code, Stdin, NoExec bool
	// Startup names the option that makes the shell run start-up files
	// before the code: --rcfile or --init-file FILE, a login shell's
	// profile (-l, --login), an interactive one's rc file (-i); "" for
	// none.
	Startup string
	// Dynamic: an option word is only known at run time ($X), so what
	// the shell does is not known.
	Dynamic bool
}

// ReadShellStart reads the words of a shell's start, args[0] being the
// shell: `-` and `--` end the options; -o OPTION and -O SHOPT (after - or
// +) and --rcfile/--init-file FILE take the next word; letters cluster
// (`bash -eo pipefail script`).
func ReadShellStart(args []Word) ShellStart {
	var s ShellStart
	i := 1
	for i < len(args) {
		w := args[i]
		t := w.Text
		if w.Dynamic && strings.HasPrefix(t, "$") {
			s.Dynamic = true
			break
		}
		if t == "--" || t == "-" {
			i++
			break
		}
		if name, ok := strings.CutPrefix(t, "--"); ok {
			i++
			switch name {
			case "rcfile", "init-file":
				s.Startup = t
				i++
			case "login":
				s.Startup = t
			}
			continue
		}
		if (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+")) && len(t) > 1 {
			i++
			for _, l := range t[1:] {
				switch {
				case l == 'c' && t[0] == '-':
					s.Code = true
				case l == 's' && t[0] == '-':
					s.Stdin = true
				case l == 'n' && t[0] == '-':
					s.NoExec = true
				case (l == 'l' || l == 'i') && t[0] == '-':
					s.Startup = "-" + string(l)
				case l == 'o' || l == 'O':
					i++
				}
			}
			continue
		}
		break
	}
	s.Operand = min(i, len(args))
	return s
}
