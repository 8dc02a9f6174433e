package shellparse

import (
	"slices"
	"strings"
	"unicode"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// A literal script fed to a shell is code, as much as a here-document: when every command
// that feeds a shell's standard input writes text known from the script
// alone (echo or printf of static words, cat of a literal here-document or
// here-string), that text is parsed and walked like the here-document form
// (`bash <<'EOF'`), and xargs fed such text gets its words as arguments.

// maxLiteralOutput bounds the text a literal source is taken to produce;
// past it (printf can repeat a format) the source counts as unknown.
const maxLiteralOutput = MaxSize

// Readings of a literal source: the same text may print differently in
// the shell that runs it, and each reading is judged. bash's echo prints
// escapes as written unless -e is given or the xpg_echo option is on
// (which the gate cannot see); dash's echo (/bin/sh here) always
// interprets them and knows no -e. printf is bash's in the first two and
// dash's in the third.
const (
	readBash = iota
	readBashXPG
	readDash
	nReadings
)

// literalOutput returns what the commands at idxs write to standard output
// when each of them is a literal source, in order, once for each distinct
// reading (see readBash); ok is false when idxs is empty or any of them is
// not a literal source, or its output is not known in some reading.
func (p *parser) literalOutput(idxs []int) ([]string, bool) {
	if len(idxs) == 0 {
		return nil, false
	}
	var sb [nReadings]strings.Builder
	for _, i := range idxs {
		if i < 0 || i >= len(p.cmds) {
			return nil, false
		}
		c := &p.cmds[i]
		if len(c.Args) > 0 && slices.Contains(p.funcs, c.Args[0].Text) {
			return nil, false // `echo() { curl ...; }`: the script's own code
		}
		for r := range sb {
			s, ok := literalSource(c, r)
			if !ok || sb[r].Len()+len(s) > maxLiteralOutput {
				return nil, false
			}
			sb[r].WriteString(s)
		}
	}
	var out []string
	for r := range sb {
		if s := sb[r].String(); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, true
}

// literalSource returns what one command writes to standard output when it
// is a literal source, in the reading r.
func literalSource(c *Command, r int) (string, bool) {
	if len(c.Args) == 0 || c.Unknown != "" || len(c.Assigns) > 0 || !c.Bare() || c.HasDynamic(0) {
		return "", false
	}
	switch c.Args[0].Text {
	case "echo":
		if len(c.Redirects) > 0 {
			return "", false
		}
		if r == readDash {
			return dashEcho(c.Argv()[1:])
		}
		return bashEcho(c.Argv()[1:], r == readBashXPG)
	case "printf":
		if len(c.Redirects) > 0 {
			return "", false
		}
		return printfOutput(c.Argv()[1:], r == readDash)
	default:
		// `cat <<'EOF'`, `cat <<< 'text'`, `cat - <<EOF`: the body only.
		if !cmdmodel.CopiesStdin(&c.Command) || len(c.Redirects) != 1 {
			return "", false
		}
		rd := c.Redirects[0]
		if rd.Fd > 0 || rd.Target.Dynamic {
			return "", false
		}
		switch rd.Op {
		case "<<", "<<-":
			return rd.Target.Text, true
		case "<<<":
			return rd.Target.Text + "\n", true
		}
	}
	return "", false
}

// printfOutput is printf FORMAT [ARG...] as bash's printf (bashPrintf) or
// dash's (dashPrintf) prints it. `printf -v NAME` writes a variable, not
// the output.
func printfOutput(args []string, dash bool) (string, bool) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return "", false
	}
	if dash {
		return dashPrintf(args[0], args[1:])
	}
	return bashPrintf(args[0], args[1:])
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

// xargsLiteralArgs returns the words xargs reads from a literal input,
// or ok false when the input is not literal or not plainly split.
func (p *parser) xargsLiteralArgs(seen []string, offset int) ([]Word, bool) {
	if !cmdmodel.XargsSplitsPlainly(seen) {
		return nil, false
	}
	texts, ok := p.stdinLiteral()
	text := strings.Join(texts, "\n") // every reading's words
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
func (p *parser) stdinLiteral() ([]string, bool) {
	if text, ok := p.literalOutput(p.upstream); ok {
		return text, true
	}
	return p.literalOutput(p.prevStage)
}

// maxValues bounds the literal values Script.Values keeps per variable.
const maxValues = 16

// addValue notes w as a value the script gives the variable name
// (Script.Values), when its text is known up to brace lists, globs and
// `~`, which the reader of Values expands as it needs.
func (p *parser) addValue(name string, w Word) {
	if w.Dynamic && (strings.ContainsAny(w.Text, "$`") || strings.Contains(w.Text, "<(") || strings.HasPrefix(w.Text, "~")) {
		return
	}
	if p.values == nil {
		p.values = map[string][]string{}
	}
	if vs := p.values[name]; len(vs) < maxValues && !slices.Contains(vs, w.Text) {
		p.values[name] = append(vs, w.Text)
	}
}

// readValues notes what `read [-r] NAME...` or `read -a NAME` takes
// from a here-string of static text (bash(1) read): the first line split
// at blanks, each name a field and the last one the rest; with -a every
// field an element. Other options (-d, -n, -N ...) or a backslash in the
// text (without -r it escapes) leave the values unknown.
func (p *parser) readValues(c *Command, ops []Word, opts map[byte]Word) {
	var text string
	found := false
	for _, r := range c.Redirects {
		if r.Op == "<<<" && (r.Fd == -1 || r.Fd == 0) && !r.Target.Dynamic {
			text, found = r.Target.Text, true
		}
	}
	for o := range opts {
		if o != 'r' && o != 'a' {
			found = false
		}
	}
	if !found || strings.Contains(text, `\`) {
		return
	}
	line, _, _ := strings.Cut(text, "\n")
	fields := strings.Fields(line)
	if a, ok := opts['a']; ok {
		if len(ops) == 0 && !a.Dynamic {
			for _, f := range fields {
				p.addValue(a.Text, Word{Text: f})
			}
		}
		return
	}
	if len(ops) == 0 {
		ops = []Word{{Text: "REPLY"}}
	}
	for i, w := range ops {
		if w.Dynamic || i >= len(fields) {
			return
		}
		v := fields[i]
		if i == len(ops)-1 {
			// The last name takes the rest of the line, inner blanks kept.
			v = strings.TrimLeftFunc(line, unicode.IsSpace)
			for _, f := range fields[:i] {
				v = strings.TrimLeftFunc(v[len(f):], unicode.IsSpace)
			}
			v = strings.TrimRightFunc(v, unicode.IsSpace)
		}
		p.addValue(w.Text, Word{Text: v})
	}
}
