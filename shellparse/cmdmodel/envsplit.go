package cmdmodel

import (
	"errors"
	"strings"
)

// env -S: a string that env itself splits into a command.
//
// GNU env's -S/--split-string (coreutils 9.1, env(1) and info env
// "env invocation", "-S/--split-string usage in scripts") splits its
// argument into words, puts them in place of the option, and goes on
// reading options from the first of them: `env -S 'rm -rf ${HOME}'` runs
// rm with HOME's value. EnvSplit reads the string as env does, and the
// words become a command judged like any other, so a danger written
// inside -S is the danger written plainly. TestRealEnvSplit checks the
// reading against the real env.

var ErrEnvSplit = errors.New("env -S: the string is not one env accepts")

// EnvSplit splits s as GNU env's -S does. Outside quotes, space, tab,
// newline, vertical tab, form feed and carriage return separate words;
// '...' quotes everything but `\\` and `\'`; "..." quotes but keeps the
// escapes; `\_` is a separator outside double quotes and a space inside;
// `\c` ends the string (it may not stand inside double quotes); `\f \n
// \r \t \v` are those characters; `\" \# \$ \' \\` stand for themselves;
// `#` at the start of a word starts a comment; `${NAME}` is the value of
// the environment variable NAME (empty when unset) and is never split
// further. Any other backslash sequence, `$` not followed by `{NAME}`,
// and an unclosed quote make env fail before it runs anything:
// ErrEnvSplit. resolve gives a variable's value when it is known
// (ok false: only known at run time).
func EnvSplit(s string, resolve func(name string) (string, bool)) ([]Word, error) {
	var (
		out     []Word
		cur     strings.Builder
		dyn     bool
		inWord  bool
		sq, dq  bool
		endWord = func() {
			if inWord {
				out = append(out, Word{Text: cur.String(), Dynamic: dyn})
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
				return nil, ErrEnvSplit
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
					return nil, ErrEnvSplit
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
				return nil, ErrEnvSplit
			}
			inWord = true
			continue
		case c == '$' && !sq:
			name, ok := envVarRef(s[i:])
			if !ok {
				return nil, ErrEnvSplit
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
		return nil, ErrEnvSplit
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

// EnvSplitLetters returns the option letters of env's cluster opt that
// stand before its S (`-iS STRING` or `-iSSTRING` gives "-i"): env has
// read them before it splits the string. "" for a long option or an S
// that opens the cluster.
func EnvSplitLetters(opt string) string {
	if strings.HasPrefix(opt, "--") {
		return ""
	}
	if j := strings.IndexByte(opt, 'S'); j > 1 {
		return opt[:j]
	}
	return ""
}
