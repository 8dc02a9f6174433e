package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// A literal script fed to a shell is code (issue 18): when every command
// that feeds a shell's standard input writes text known from the script
// alone (echo or printf of static words, cat of a literal here-document or
// here-string), that text is parsed and walked like the here-document form
// (`bash <<'EOF'`), and xargs fed such text gets its words as arguments.

// maxLiteralOutput bounds the text a literal source is taken to produce;
// past it (printf can repeat a format) the source counts as unknown.
const maxLiteralOutput = MaxSize

// literalOutput returns what the commands at idxs write to standard output
// when each of them is a literal source, in order; ok is false when idxs is
// empty or any of them is not. It errs toward more text: where bash's echo
// and a POSIX sh's echo (which interprets backslash escapes) would differ,
// both readings are returned, one after the other.
func (p *parser) literalOutput(idxs []int) (string, bool) {
	if len(idxs) == 0 {
		return "", false
	}
	var sb strings.Builder
	for _, i := range idxs {
		if i < 0 || i >= len(p.cmds) {
			return "", false
		}
		c := &p.cmds[i]
		if len(c.Args) > 0 && containsStr(p.funcs, c.Args[0].Text) {
			return "", false // `echo() { curl ...; }`: the script's own code
		}
		s, ok := literalSource(c)
		if !ok || sb.Len()+len(s) > maxLiteralOutput {
			return "", false
		}
		sb.WriteString(s)
	}
	return sb.String(), true
}

// literalSource returns what one command writes to standard output when it
// is a literal source.
func literalSource(c *Command) (string, bool) {
	if len(c.Args) == 0 || c.Unknown != "" || len(c.Assigns) > 0 || !c.Bare() || c.HasDynamic(0) {
		return "", false
	}
	switch c.Args[0].Text {
	case "echo":
		if len(c.Redirects) > 0 {
			return "", false
		}
		return echoOutput(c.Argv()[1:])
	case "printf":
		if len(c.Redirects) > 0 {
			return "", false
		}
		return printfOutput(c.Argv()[1:])
	case "cat":
		// `cat <<'EOF'`, `cat <<< 'text'`, `cat - <<EOF`: the body only.
		if len(c.Args) > 2 || len(c.Args) == 2 && c.Args[1].Text != "-" || len(c.Redirects) != 1 {
			return "", false
		}
		r := c.Redirects[0]
		if r.Fd > 0 || r.Target.Dynamic {
			return "", false
		}
		switch r.Op {
		case "<<", "<<-":
			return r.Target.Text, true
		case "<<<":
			return r.Target.Text + "\n", true
		}
	}
	return "", false
}

// echoOutput is bash's echo builtin (bash(1) SHELL BUILTIN COMMANDS):
// leading words of only n, e, E letters are options, -e interprets
// backslash escapes. Without -e a POSIX sh's echo interprets them anyway,
// so both readings are given when they differ.
func echoOutput(args []string) (string, bool) {
	newline, escapes := true, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		for _, l := range args[0][1:] {
			switch l {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	text := strings.Join(args, " ")
	interpreted := text
	if strings.Contains(text, `\`) {
		s, _, err := expand.Format(nil, "%b", []string{text})
		if err != nil {
			return "", false
		}
		interpreted = s
	}
	out := text
	switch {
	case escapes:
		out = interpreted
	case interpreted != text:
		out = text + "\n" + interpreted
	}
	if newline {
		out += "\n"
	}
	return out, true
}

// printfOutput is printf FORMAT [ARG...]: the format is reused while
// arguments remain, as bash's printf does. `printf -v NAME` writes a
// variable, not the output.
func printfOutput(args []string) (string, bool) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return "", false
	}
	format, rest := args[0], args[1:]
	var sb strings.Builder
	for {
		s, n, err := expand.Format(nil, format, rest)
		if err != nil || sb.Len()+len(s) > maxLiteralOutput {
			return "", false
		}
		sb.WriteString(s)
		if n <= 0 || n >= len(rest) {
			break
		}
		rest = rest[n:]
	}
	return sb.String(), true
}

// isStdinPath reports the names of standard input that a shell, source or
// an interpreter can be given as its script.
func isStdinPath(w Word) bool {
	if w.Dynamic {
		return false
	}
	switch w.Text {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0":
		return true
	}
	return false
}

// xargsLiteralOpts are the xargs options (xargs(1)) under which input text
// becomes arguments by plain splitting at blanks and newlines, when it
// holds no quote or backslash: the others (-0, -d, -a, -E, -I ...) change
// what the input is or where it goes.
var xargsLiteralOpts = []string{"r", "no-run-if-empty", "t", "verbose", "n", "max-args", "P", "max-procs",
	"L", "max-lines", "x", "exit", "s", "max-chars", "p", "interactive", "o", "open-tty"}

// xargsLiteralArgs returns the words xargs reads from a literal input,
// or ok false when the input is not literal or not plainly split.
func (p *parser) xargsLiteralArgs(seen []string, offset int) ([]Word, bool) {
	for _, o := range seen {
		if !containsStr(xargsLiteralOpts, o) {
			return nil, false
		}
	}
	text, ok := p.stdinLiteral()
	if !ok || strings.ContainsAny(text, `"'\`) {
		return nil, false
	}
	var out []Word
	for _, f := range strings.Fields(text) {
		out = append(out, Word{Text: f, Offset: offset})
	}
	return out, true
}

// stdinLiteral is the literal text on the standard input of the pipeline
// stage being walked: every earlier stage a literal source, or else the
// stage just before it, when all its commands are literal sources — they
// do not read their own input, so what came before them never reaches this
// stage (`true | echo 'rm -rf /' | sh`). Found by TestDifferentialBash.
func (p *parser) stdinLiteral() (string, bool) {
	if text, ok := p.literalOutput(p.upstream); ok {
		return text, true
	}
	return p.literalOutput(p.prevStage)
}
