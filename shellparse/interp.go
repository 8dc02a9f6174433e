package shellparse

import (
	"strings"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// This file finds the shell commands an interpreter one-liner runs
// (`perl -e`, `python3 -c`, `ruby -e`, `node -e`, `php -r`): the string
// literals passed to the language's shell-out calls. It is no parser of
// those languages: it splits the program into names, string literals and
// punctuation, and reads the arguments of the calls it knows. What it
// finds only adds checks: the interpreter itself stays a command that is
// not read-only.
//
// The calls, by the languages' own documentation:
//   - perl (perlfunc: system, exec, readpipe, open with a "|" mode or a
//     command ending or starting in "|"; perlop: `...`, qx//);
//   - python (os: system, popen, exec*, spawn*; subprocess: run, call,
//     check_call, check_output, Popen, getoutput, getstatusoutput;
//     commands.getoutput; pty.spawn);
//   - ruby (Kernel: system, exec, spawn, `...`, %x(); IO.popen; Open3);
//   - node (child_process: exec, execSync, spawn, spawnSync, execFile,
//     execFileSync);
//   - php (system, exec, shell_exec, passthru, popen, proc_open,
//     pcntl_exec, `...`).

// interpShellOuts are, per language family, the names of the calls that
// run a command line. A name with a dot needs that qualifier.
var interpShellOuts = map[string][]string{
	cmdmodel.FamilyPerl: {"system", "exec", "readpipe", "open"},
	cmdmodel.FamilyPython: {"system", "popen", "execv", "execvp", "execl", "execlp", "execve", "execvpe", "spawnv", "spawnvp",
		"spawnl", "spawnlp", "check_output", "check_call", "getoutput", "getstatusoutput", "Popen",
		"subprocess.run", "subprocess.call", "sp.run", "sp.call", "pty.spawn", "spawn"},
	cmdmodel.FamilyRuby: {"system", "exec", "spawn", "popen", "capture2", "capture2e", "capture3", "popen2", "popen2e",
		"popen3", "pipeline", "pipeline_r", "pipeline_w", "pipeline_rw", "pipeline_start"},
	cmdmodel.FamilyNode: {"exec", "execSync", "spawn", "spawnSync", "execFile", "execFileSync"},
	cmdmodel.FamilyPHP:  {"system", "exec", "shell_exec", "passthru", "popen", "proc_open", "pcntl_exec"},
}

// interpTok is a token of a one-liner: 'w' a name (dotted: os.system,
// Open3::capture2, $obj->x keeps the last part), 's' a string literal
// with its value, 'x' a literal command string (backticks, qx, %x), 'v'
// a string or backtick with interpolation or an escape not decoded, 'o'
// punctuation.
type interpTok struct {
	kind byte
	text string
}

// interpShell is a command an interpreter one-liner runs: shell code, or
// an argv of literal words.
type interpShell struct {
	code string
	argv []string
	via  string
}

// analyzeInterp finds the shell commands a one-liner of family runs.
// unknown says why some command it runs is only known at run time.
func analyzeInterp(family, src string) (runs []interpShell, unknown string) {
	names := interpShellOuts[family]
	if names == nil {
		return nil, ""
	}
	toks := lexInterp(family, src)
	fail := func(why string) {
		if unknown == "" {
			unknown = why
		}
	}
	for i, t := range toks {
		switch t.kind {
		case 'x':
			runs = append(runs, interpShell{code: t.text, via: family + " `...`"})
			continue
		case 'v':
			if strings.HasPrefix(t.text, "`") {
				fail(family + " runs a command line only known at run time (`...`)")
			}
			continue
		case 'w':
		default:
			continue
		}
		if !interpNameMatch(family, names, t.text, src) {
			continue
		}
		base := t.text[strings.LastIndexAny(t.text, ".:>")+1:]
		args, ok := interpArgs(family, toks, i+1)
		if !ok {
			continue // a name, not a call
		}
		via := family + " " + base + "()"
		switch {
		case family == cmdmodel.FamilyPerl && base == "open":
			runs, unknown = perlOpen(args, runs, unknown, via)
			continue
		case len(args) == 0:
			continue
		}
		first := args[0]
		lits, allLit := interpLiterals(args)
		switch {
		case family == cmdmodel.FamilyPython && len(args[0]) > 0 && args[0][0].kind == 'o' && args[0][0].text == "[":
			if argv, ok := interpList(args[0]); ok {
				runs = append(runs, interpShell{argv: argv, via: via})
			} else {
				fail(family + " runs a command only known at run time (" + base + ")")
			}
		case family == cmdmodel.FamilyNode && (base == "spawn" || base == "spawnSync" || base == "execFile" || base == "execFileSync"):
			// (file, [args], {shell: true}): argv, or with shell the words joined.
			if len(args) >= 1 && len(args[0]) == 1 && args[0][0].kind == 's' {
				argv := []string{args[0][0].text}
				if len(args) >= 2 {
					more, ok := interpList(args[1])
					if !ok {
						fail(family + " runs a command only known at run time (" + base + ")")
						continue
					}
					argv = append(argv, more...)
				}
				runs = append(runs, interpShell{argv: argv, via: via})
				runs = append(runs, interpShell{code: strings.Join(argv, " "), via: via})
			} else {
				fail(family + " runs a command only known at run time (" + base + ")")
			}
		case len(first) == 1 && first[0].kind == 's' && (len(args) == 1 || family == cmdmodel.FamilyNode || family == cmdmodel.FamilyPHP || family == cmdmodel.FamilyPython):
			// One string: a command line for /bin/sh -c (perl, ruby with
			// shell metacharacters; python shell=True; the others always).
			runs = append(runs, interpShell{code: first[0].text, via: via})
		case allLit && len(lits) > 1:
			runs = append(runs, interpShell{argv: lits, via: via})
		default:
			fail(family + " runs a command only known at run time (" + base + ")")
		}
	}
	return runs, unknown
}

// interpNameMatch reports whether the name t is one of the shell-out calls
// of names. Node's are only counted when the program names child_process;
// python's Popen, check_* and the like need no qualifier, run and call
// need subprocess's.
func interpNameMatch(family string, names []string, t, src string) bool {
	if family == cmdmodel.FamilyNode && !strings.Contains(src, "child_process") {
		return false
	}
	base := t[strings.LastIndexAny(t, ".:>")+1:]
	for _, n := range names {
		if strings.Contains(n, ".") {
			if strings.HasSuffix(t, n) {
				return true
			}
		} else if n == base {
			return true
		}
	}
	return false
}

// perlOpen reads open's arguments (perlfunc open): a mode "-|" or "|-"
// and a command (one string: shell code; several: an argv), or a 2-arg
// EXPR that starts or ends with "|".
func perlOpen(args [][]interpTok, runs []interpShell, unknown, via string) ([]interpShell, string) {
	fail := func() {
		if unknown == "" {
			unknown = "perl opens a command only known at run time (open)"
		}
	}
	if len(args) < 2 {
		return runs, unknown
	}
	mode := args[1]
	if len(mode) != 1 || mode[0].kind != 's' {
		if len(args) == 2 {
			fail() // a 2-arg open of an expression may be a pipe
		}
		return runs, unknown
	}
	m := strings.TrimSpace(mode[0].text)
	switch {
	case len(args) == 2 && (strings.HasPrefix(m, "|") || strings.HasSuffix(m, "|")):
		runs = append(runs, interpShell{code: strings.TrimSpace(strings.Trim(m, "|")), via: via})
	case len(args) > 2 && (m == "-|" || m == "|-"):
		lits, all := interpLiterals(args[2:])
		switch {
		case all && len(lits) == 1:
			runs = append(runs, interpShell{code: lits[0], via: via})
		case all:
			runs = append(runs, interpShell{argv: lits, via: via})
		default:
			fail()
		}
	}
	return runs, unknown
}

// interpLiterals returns the arguments' values when each is one string.
func interpLiterals(args [][]interpTok) ([]string, bool) {
	var out []string
	for _, a := range args {
		if len(a) != 1 || a[0].kind != 's' {
			return nil, false
		}
		out = append(out, a[0].text)
	}
	return out, true
}

// interpList reads a list literal [ "a", "b" ] (the tokens of one
// argument): its strings, and ok false when an element is not a string.
func interpList(a []interpTok) ([]string, bool) {
	if len(a) < 2 || a[0].text != "[" || a[len(a)-1].text != "]" {
		return nil, false
	}
	var out []string
	for _, t := range a[1 : len(a)-1] {
		switch {
		case t.kind == 's':
			out = append(out, t.text)
		case t.kind == 'o' && t.text == ",":
		default:
			return nil, false
		}
	}
	return out, true
}

// interpArgs splits the arguments of the call whose name ends at toks[i]:
// in parentheses, or (perl, ruby) up to the end of the statement. Each
// argument is its tokens, split at top-level commas; a keyword argument
// (python shell=True, node {shell: true}) is one too. ok is false when
// no call follows.
func interpArgs(family string, toks []interpTok, i int) (args [][]interpTok, ok bool) {
	closer := ""
	if i < len(toks) && toks[i].kind == 'o' && toks[i].text == "(" {
		closer = ")"
		i++
	} else if family != cmdmodel.FamilyPerl && family != cmdmodel.FamilyRuby || i >= len(toks) || toks[i].kind != 's' && toks[i].kind != 'v' {
		return nil, false
	}
	depth := 0
	var cur []interpTok
	for ; i < len(toks); i++ {
		t := toks[i]
		if t.kind == 'o' {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					if closer != "" || t.text == "}" {
						return append(args, cur), true
					}
				}
				depth--
			case ",":
				if depth == 0 {
					args, cur = append(args, cur), nil
					continue
				}
			case ";", "\n":
				if depth == 0 && closer == "" {
					return append(args, cur), true
				}
			}
		}
		cur = append(cur, t)
	}
	return append(args, cur), true // (not closed: what is there is read)
}

// lexInterp splits a one-liner into tokens.
func lexInterp(family, src string) []interpTok {
	var toks []interpTok
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\n':
			toks = append(toks, interpTok{kind: 'o', text: "\n"})
			i++
		case c == '#' && family != cmdmodel.FamilyNode:
			if family == cmdmodel.FamilyRuby && i+1 < len(src) && src[i+1] == '{' {
				toks = append(toks, interpTok{kind: 'o', text: "#"})
				i++
				continue
			}
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/' && (family == cmdmodel.FamilyNode || family == cmdmodel.FamilyPHP):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*' && (family == cmdmodel.FamilyNode || family == cmdmodel.FamilyPHP):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return toks
			}
			i += end + 4
		case c == '%' && family == cmdmodel.FamilyRuby && i+2 < len(src) && src[i+1] == 'x' && strings.IndexByte("([{<|!/", src[i+2]) >= 0:
			body, n, ok := delimited(src[i+2:])
			val, exact := unescapeQuoted(family, body, false)
			if !ok || !exact {
				toks = append(toks, interpTok{kind: 'v', text: "`"})
			} else {
				toks = append(toks, interpTok{kind: 'x', text: val})
			}
			if !ok {
				return toks
			}
			i += 2 + n
		case c == '$' && family == cmdmodel.FamilyPerl && i+1 < len(src) && src[i+1] == '#':
			toks = append(toks, interpTok{kind: 'v', text: "$#"}) // $#array, not a comment
			i += 2
		case c == '/' && (family == cmdmodel.FamilyPerl || family == cmdmodel.FamilyRuby) && interpRegexOK(toks):
			// A match: its text is no code, and a # in it starts no comment.
			body, n, ok := delimited(src[i:])
			if !ok {
				return toks
			}
			toks = append(toks, interpTok{kind: 'v', text: "/" + body})
			i += n
		case c == '"' || c == '\'' || c == '`':
			t, n := interpString(family, src[i:], "")
			toks = append(toks, t)
			i += n
		case isNameChar(c) || c == '$' || c == '@' && family == cmdmodel.FamilyPerl:
			j := i + 1
			for j < len(src) && (isNameChar(src[j]) || src[j] == '.' && family != cmdmodel.FamilyPerl && family != cmdmodel.FamilyPHP ||
				src[j] == ':' && j+1 < len(src) && src[j+1] == ':' || src[j] == ':' && j > 0 && src[j-1] == ':' ||
				src[j] == '-' && j+1 < len(src) && src[j+1] == '>' || src[j] == '>' && src[j-1] == '-') {
				j++
			}
			word := src[i:j]
			if family == cmdmodel.FamilyPython && j < len(src) && (src[j] == '"' || src[j] == '\'') && len(word) <= 2 &&
				strings.Trim(strings.ToLower(word), "rbfu") == "" {
				t, n := interpString(family, src[j:], strings.ToLower(word))
				toks = append(toks, t)
				i = j + n
				continue
			}
			if q, n, ok := quoteLike(family, word, src[j:]); ok {
				toks = append(toks, q)
				i = j + n
				continue
			}
			if c == '$' || c == '@' {
				toks = append(toks, interpTok{kind: 'v', text: word})
			} else {
				toks = append(toks, interpTok{kind: 'w', text: word})
			}
			i = j
		default:
			toks = append(toks, interpTok{kind: 'o', text: src[i : i+1]})
			i++
		}
	}
	return toks
}

// quoteLike reads perl's q qq qx and ruby's %x %q %Q %w forms after
// their name (rest starts after it): q(...) is a string, qx(...) and
// %x(...) a command line.
func quoteLike(family, word, rest string) (interpTok, int, bool) {
	cmd := false
	bodies := 1
	switch {
	case family == cmdmodel.FamilyPerl && (word == "q" || word == "qq" || word == "qx"):
		cmd = word == "qx"
	case family == cmdmodel.FamilyPerl && (word == "m" || word == "qr" || word == "qw"):
	case family == cmdmodel.FamilyPerl && (word == "s" || word == "y" || word == "tr"):
		bodies = 2
	default:
		return interpTok{}, 0, false
	}
	k := 0
	for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t') {
		k++
	}
	if k >= len(rest) || isNameChar(rest[k]) || strings.IndexByte(",;=)}$@%-", rest[k]) >= 0 ||
		k > 0 && strings.IndexByte("([{<", rest[k]) < 0 {
		return interpTok{}, 0, false // `-s $f`, `s => 1`: no quote
	}
	body, n, ok := delimited(rest[k:])
	if !ok {
		return interpTok{kind: 'v', text: "?"}, len(rest), true
	}
	if word != "q" && word != "qq" && word != "qx" {
		// A match, substitution or word list: no string to run. The
		// second part of s{a}{b} has delimiters of its own; of s/a/b/
		// it shares the middle one.
		if bodies == 2 {
			end := k + n
			if strings.IndexByte("([{<", rest[k]) >= 0 {
				for end < len(rest) && (rest[end] == ' ' || rest[end] == '\t') {
					end++
				}
				if _, m, ok := delimited(rest[end:]); ok {
					end += m
				}
			} else if _, m, ok := delimited(rest[k+n-1:]); ok {
				end = k + n - 1 + m
			}
			n = end - k
		}
		return interpTok{kind: 'v', text: word}, k + n, true
	}
	single := word == "q" || rest[k] == '\''
	val, exact := unescapeQuoted(family, body, single)
	switch {
	case !exact:
		if cmd {
			return interpTok{kind: 'v', text: "`"}, k + n, true
		}
		return interpTok{kind: 'v', text: "?"}, k + n, true
	case cmd:
		return interpTok{kind: 'x', text: val}, k + n, true
	}
	return interpTok{kind: 's', text: val}, k + n, true
}

// delimited reads a perl quote body from its opening delimiter: brackets
// nest, any other character closes itself. n counts the closing one.
func delimited(s string) (body string, n int, ok bool) {
	open := s[0]
	closeBy := map[byte]byte{'(': ')', '[': ']', '{': '}', '<': '>'}[open]
	if closeBy == 0 {
		closeBy = open
	}
	depth := 1
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case s[i] == open && closeBy != open:
			depth++
		case s[i] == closeBy:
			depth--
			if depth == 0 {
				return s[1:i], i + 1, true
			}
		}
	}
	return "", 0, false
}

// interpString reads a quoted literal at the start of s (prefix: a python
// string prefix such as "r" or "f"). n is the bytes consumed.
func interpString(family, s, prefix string) (interpTok, int) {
	q := s[0]
	delim := s[:1]
	if family == cmdmodel.FamilyPython && strings.HasPrefix(s, strings.Repeat(delim, 3)) {
		delim = strings.Repeat(delim, 3)
	}
	i := len(delim)
	for i < len(s) && !strings.HasPrefix(s[i:], delim) {
		if s[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(s) {
		return interpTok{kind: 'v', text: "?"}, len(s)
	}
	body := s[len(delim):i]
	n := i + len(delim)
	var val string
	exact := true
	switch {
	case family == cmdmodel.FamilyPython && strings.Contains(prefix, "r"):
		val = body
		exact = !strings.Contains(prefix, "f") || !strings.Contains(body, "{")
	case family == cmdmodel.FamilyPython:
		val, exact = unescapeC(body)
		if strings.Contains(prefix, "f") && strings.Contains(body, "{") {
			exact = false
		}
	case family == cmdmodel.FamilyNode:
		val, exact = unescapeC(body)
		if q == '`' && strings.Contains(body, "${") {
			exact = false
		}
	default:
		val, exact = unescapeQuoted(family, body, q == '\'')
	}
	switch {
	case q == '`' && family != cmdmodel.FamilyNode && family != cmdmodel.FamilyPython:
		if !exact {
			return interpTok{kind: 'v', text: "`"}, n
		}
		return interpTok{kind: 'x', text: val}, n
	case !exact:
		return interpTok{kind: 'v', text: "?"}, n
	}
	return interpTok{kind: 's', text: val}, n
}

// unescapeQuoted decodes a perl, ruby or php literal: single-quoted ones
// only know \\ and \' (perlop, Quote and Quote-like Operators; ruby and
// php alike); double-quoted ones and backticks interpolate $ and @ (perl),
// #{} (ruby), $ (php), which makes them not literal (exact false), and
// decode the C escapes.
func unescapeQuoted(family, body string, single bool) (string, bool) {
	if single {
		var b strings.Builder
		for i := 0; i < len(body); i++ {
			if body[i] == '\\' && i+1 < len(body) && (body[i+1] == '\\' || body[i+1] == '\'') {
				i++
			}
			b.WriteByte(body[i])
		}
		return b.String(), true
	}
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' {
			i++
			continue
		}
		switch {
		case body[i] == '$' && family != cmdmodel.FamilyRuby, body[i] == '@' && family == cmdmodel.FamilyPerl,
			body[i] == '#' && family == cmdmodel.FamilyRuby && i+1 < len(body) && body[i+1] == '{':
			return "", false
		}
	}
	return unescapeC(body)
}

// unescapeC decodes the escapes every one of these languages reads alike
// in a double-quoted string: \\ \" \' \n \t \r \$ \@ \`. Any
// other escape is not decoded (exact false).
func unescapeC(body string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", false
		}
		switch e := body[i]; e {
		case '\\', '"', '\'', '$', '@', '`':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// interpShellCode judges the shell commands the literal program code of
// the interpreter command at idx runs: command lines as `sh -c` code, and
// argv forms as commands. The interpreter stays what it was (not a
// wrapper: its program does more than what is found here); a shell-out
// only known at run time makes it Unknown.
func (p *parser) interpShellCode(idx int, family string, code Word) {
	runs, unknown := analyzeInterp(family, code.Text)
	for _, r := range runs {
		if r.argv == nil {
			p.reparseDialects(idx, Word{Text: r.code, Offset: code.Offset}, r.via, shellDialects("sh", p.dialect))
			continue
		}
		args := make([]Word, len(r.argv))
		for i, a := range r.argv {
			args[i] = Word{Text: a, Offset: code.Offset}
		}
		c := p.cmds[idx]
		p.emitInner(idx, Command{Command: cmdmodel.Command{Args: args, Offset: code.Offset}, End: c.End, Text: c.Text, Parent: idx, Inner: -1}, r.via)
	}
	p.cmds[idx].Inner = -1
	if unknown != "" {
		p.cmds[idx].Unknown = unknown
		p.cmds[idx].Feeders = p.upstream[:len(p.upstream):len(p.upstream)]
	}
}

// interpCodeWord is the program text of the code option co at args[i]:
// attached (`-e'...'`, `--eval=...`) or the next word.
func interpCodeWord(args []Word, i int, co string) (Word, bool) {
	t := args[i].Text
	if len(co) == 1 && len(t) > 2 && !strings.HasPrefix(t, "--") {
		return Word{Text: t[2:], Dynamic: args[i].Dynamic, Offset: args[i].Offset}, !args[i].Dynamic
	}
	if v, ok := strings.CutPrefix(t, "--"+co+"="); ok {
		return Word{Text: v, Dynamic: args[i].Dynamic, Offset: args[i].Offset}, !args[i].Dynamic
	}
	if i+1 < len(args) && !args[i+1].Dynamic {
		return args[i+1], true
	}
	return Word{}, false
}

// interpRegexOK reports whether a "/" after toks starts a perl or ruby
// regular expression rather than a division: after an operator or at the
// start, not after an operand.
func interpRegexOK(toks []interpTok) bool {
	if len(toks) == 0 {
		return true
	}
	t := toks[len(toks)-1]
	return t.kind == 'o' && t.text != ")" && t.text != "]" && t.text != "}"
}
