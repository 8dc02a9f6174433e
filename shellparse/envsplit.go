package shellparse

import (
	"errors"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// env -S: a string that env itself splits into a command.
//
// GNU env's -S/--split-string (coreutils 9.1, env(1) and info env
// "env invocation", "-S/--split-string usage in scripts") splits its
// argument into words, puts them in place of the option, and goes on
// reading options from the first of them: `env -S 'rm -rf ${HOME}'` runs
// rm with HOME's value. envSplit reads the string as env does, and the
// words become a command judged like any other, so a danger written
// inside -S is the danger written plainly. TestRealEnvSplit checks the
// reading against the real env.

// envWord is one word of a -S string: its text, with each `${NAME}`
// kept as written unless resolve gives its value, and whether it holds a
// value only known at run time.
type envWord struct {
	text    string
	dynamic bool
}

var errEnvSplit = errors.New("env -S: the string is not one env accepts")

// envSplit splits s as GNU env's -S does. Outside quotes, space, tab,
// newline, vertical tab, form feed and carriage return separate words;
// '...' quotes everything but `\\` and `\'`; "..." quotes but keeps the
// escapes; `\_` is a separator outside double quotes and a space inside;
// `\c` ends the string (it may not stand inside double quotes); `\f \n
// \r \t \v` are those characters; `\" \# \$ \' \\` stand for themselves;
// `#` at the start of a word starts a comment; `${NAME}` is the value of
// the environment variable NAME (empty when unset) and is never split
// further. Any other backslash sequence, `$` not followed by `{NAME}`,
// and an unclosed quote make env fail before it runs anything:
// errEnvSplit. resolve gives a variable's value when it is known
// (ok false: only known at run time).
func envSplit(s string, resolve func(name string) (string, bool)) ([]envWord, error) {
	var (
		out     []envWord
		cur     strings.Builder
		dyn     bool
		inWord  bool
		sq, dq  bool
		endWord = func() {
			if inWord {
				out = append(out, envWord{text: cur.String(), dynamic: dyn})
			}
			cur.Reset()
			dyn, inWord = false, false
		}
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !sq && !dq && isEnvSpace(c) {
			endWord()
			continue
		}
		switch {
		case c == '\'' && !dq:
			sq = !sq
			inWord = true
			continue
		case c == '"' && !sq:
			dq = !dq
			inWord = true
			continue
		case c == '#' && !sq && !dq && !inWord:
			// A comment runs to the end of the string.
			return out, nil
		case c == '\\' && (!sq || i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\'')):
			i++
			if i >= len(s) {
				return nil, errEnvSplit
			}
			switch e := s[i]; e {
			case '"', '#', '$', '\'', '\\':
				cur.WriteByte(e)
			case '_':
				if dq {
					cur.WriteByte(' ')
				} else {
					endWord()
					continue
				}
			case 'c':
				if dq {
					return nil, errEnvSplit
				}
				endWord()
				return out, nil
			case 'f':
				cur.WriteByte('\f')
			case 'n':
				cur.WriteByte('\n')
			case 'r':
				cur.WriteByte('\r')
			case 't':
				cur.WriteByte('\t')
			case 'v':
				cur.WriteByte('\v')
			default:
				return nil, errEnvSplit
			}
			inWord = true
			continue
		case c == '$' && !sq:
			name, ok := envVarRef(s[i:])
			if !ok {
				return nil, errEnvSplit
			}
			if v, known := resolve(name); known {
				cur.WriteString(v)
			} else {
				cur.WriteString("${" + name + "}")
				dyn = true
			}
			i += len(name) + 2 // `${` NAME, and the loop steps past `}`
			inWord = true
			continue
		}
		cur.WriteByte(c)
		inWord = true
	}
	if sq || dq {
		return nil, errEnvSplit
	}
	endWord()
	return out, nil
}

func isEnvSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

// envVarRef reads `${NAME}` at the start of s: NAME is a letter or `_`
// followed by letters, digits and `_`.
func envVarRef(s string) (string, bool) {
	if !strings.HasPrefix(s, "${") {
		return "", false
	}
	end := strings.IndexByte(s, '}')
	if end < 3 {
		return "", false
	}
	name := s[2:end]
	for j := 0; j < len(name); j++ {
		c := name[j]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (j == 0 || c < '0' || c > '9') {
			return "", false
		}
	}
	return name, true
}

// envSplitCommand handles `env ... -S STRING ...`: the option's argument
// at item it is split and the words take its place; env then reads
// options again from the first of them (coreutils env.c
// parse_split_string). The words before the option are kept: what they
// did (-i, -u, -C, NAME=value) stays done. The new command line is
// emitted as the wrapper's inner command, an env of its own, and read
// like any other.
func (p *parser) envSplitCommand(idx int, l *cmdmodel.Cmdline, it cmdmodel.Item) {
	c := p.cmds[idx]
	v := l.Val(it)
	if v.Dynamic {
		p.cmds[idx].Unknown = "env -S splits a string only known at run time into a command"
		p.cmds[idx].Feeders = p.children(idx)
		return
	}
	words, err := envSplit(v.Text, func(name string) (string, bool) {
		if name == "HOME" && p.opt.Home != "" && !p.homeAssigned {
			return p.opt.Home, true
		}
		return "", false
	})
	if err != nil {
		// env refuses the string and runs nothing; what it would have
		// been is not known, so it is not judged harmless either.
		p.cmds[idx].Unknown = "env -S is given a string env does not accept"
		return
	}
	args := make([]Word, 0, len(c.Args)+len(words))
	args = append(args, c.Args[:it.At]...)
	if t := c.Args[it.At].Text; !strings.HasPrefix(t, "--") {
		// A cluster (`-iS STRING`, `-iSSTRING`): its letters before S
		// were read.
		if j := strings.IndexByte(t, 'S'); j > 1 {
			args = append(args, Word{Text: t[:j], Offset: c.Args[it.At].Offset})
		}
	}
	for _, w := range words {
		args = append(args, Word{Text: w.text, Dynamic: w.dynamic, Offset: v.Offset})
	}
	args = append(args, c.Args[it.ValAt+1:]...)
	inner := Command{Command: cmdmodel.Command{Args: args, Assigns: c.Assigns, Offset: c.Offset, TrailingArgs: c.TrailingArgs}, End: c.End, Text: c.Text, Parent: idx, Inner: -1}
	p.emitInner(idx, inner, "env -S")
}
