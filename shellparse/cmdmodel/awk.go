package cmdmodel

import (
	"regexp"
	"strconv"
	"strings"
)

// This file reads awk programs as awk reads them, to find what a program
// does besides reading its input files and printing to standard output:
// the shell command lines it runs, the files it writes and reads by name.
// The grammar is POSIX awk's (XCU awk, "Grammar" and "Lexical
// Conventions", IEEE Std 1003.1-2017) with the extensions of gawk (GNU
// Awk manual 5.2: 4.10 "Using getline", 5.6 "Redirecting Output of print
// and printf", 9.1.4 "Input/Output Functions", 12.3 "Two-Way
// Communications", 2.7 "Including Other Files", 2.8 "Loading Dynamic
// Extensions", 9.3 "Indirect Function Calls") and mawk 1.3.4.
//
//   - system(EXPR), print ... | EXPR, EXPR | getline, print ... |& EXPR
//     and EXPR |& getline run EXPR with /bin/sh -c;
//   - print ... > EXPR, print ... >> EXPR (printf alike) write the file;
//   - getline < EXPR, getline VAR < EXPR read the file;
//   - @load, @include and @NAME(...) (a call of the function named by a
//     variable, which may be system) run or read code not in the text.

// awkNames are the awk implementations read here: POSIX awk, gawk, mawk,
// the one true awk (nawk, original-awk) and BusyBox's applet (reached
// through the busybox wrapper).
var awkNames = [...]string{"awk", "gawk", "mawk", "nawk", "original-awk"}

func IsAwk(name string) bool {
	for _, n := range awkNames {
		if n == name {
			return true
		}
	}
	return false
}

// AwkRun is a shell command line an awk program runs.
type AwkRun struct {
	Code string
	Via  string // "system()", "print |", "getline", "|&"
	// Input are the string literals a print statement writes into the
	// command (each, and all joined by spaces): when the command is a
	// shell reading its standard Input, they are some of its code.
	Input []string
}

// AwkProgram is what an awk program does besides reading its input and
// printing to standard output.
type AwkProgram struct {
	Runs          []AwkRun
	reads, writes []string
	// Unknown says why part of what the program runs, reads or writes is
	// only known at run time (or not read here); empty when all is known.
	Unknown string
	// DynamicRun: a command line it runs is only known at run time.
	DynamicRun bool
}

func (a *AwkProgram) fail(why string) {
	if a.Unknown == "" {
		a.Unknown = why
	}
}

// awkTok is a token of an awk program.
type awkTok struct {
	kind byte   // 's' string, 'r' regex, 'n' number, 'w' name, 'N' newline, 'o' operator
	text string // a string's value with escapes decoded; an operator or name as written
	// inexact: a string escape the implementations decode differently.
	inexact bool
}

// awkKeywords are the reserved words after which a "/" starts a regular
// expression (POSIX awk, Lexical Conventions, and gawk's switch/case).
var awkKeywords = map[string]bool{
	"BEGIN": true, "END": true, "BEGINFILE": true, "ENDFILE": true, "function": true, "func": true,
	"if": true, "else": true, "while": true, "for": true, "do": true, "break": true, "continue": true,
	"next": true, "nextfile": true, "exit": true, "return": true, "delete": true, "in": true,
	"print": true, "printf": true, "switch": true, "case": true, "default": true,
}

// lexAwk splits an awk program into tokens. ok is false when the text
// does not lex (a string or regex not closed on its line).
func lexAwk(src string) (toks []awkTok, ok bool) {
	return lexAwkReading(src, false)
}

// lexAwkReading is lexAwk; with slashRegex a `/` after `)`, `]`, `$`,
// `++` or `--` starts a regular expression instead of dividing. awk's
// grammar decides that by context the lexer does not have (gawk reads
// `if (c) /re/` and `$/re/` as regular expressions), so analyzeAwk reads
// a program both ways.
func lexAwkReading(src string, slashRegex bool) (toks []awkTok, ok bool) {
	i := 0
	regexOK := func() bool {
		if len(toks) == 0 {
			return true
		}
		t := toks[len(toks)-1]
		switch t.kind {
		case 's', 'r', 'n':
			return false
		case 'w':
			return awkKeywords[t.text]
		case 'o':
			switch t.text {
			case ")", "]", "$", "++", "--":
				return slashRegex
			}
		}
		return true
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2 // a continued line
		case c == '\\' && i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n':
			i += 3
		case c == '\n':
			toks = append(toks, awkTok{kind: 'N', text: "\n"})
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"':
			s, inexact, n, good := awkString(src[i+1:])
			if !good {
				return toks, false
			}
			toks = append(toks, awkTok{kind: 's', text: s, inexact: inexact})
			i += 1 + n
		case c == '/' && regexOK():
			n, good := awkRegex(src[i+1:])
			if !good {
				return toks, false
			}
			toks = append(toks, awkTok{kind: 'r', text: src[i+1 : i+n]})
			i += 1 + n
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			for j < len(src) && (isAwkNameByte(src[j]) || src[j] == '.' ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E')) {
				j++
			}
			toks = append(toks, awkTok{kind: 'n', text: src[i:j]})
			i = j
		case isAwkNameByte(c):
			j := i
			for j < len(src) && isAwkNameByte(src[j]) {
				j++
			}
			toks = append(toks, awkTok{kind: 'w', text: src[i:j]})
			i = j
		default:
			op := src[i : i+1]
			for _, m := range awkOps3 {
				if strings.HasPrefix(src[i:], m) {
					op = m
					break
				}
			}
			toks = append(toks, awkTok{kind: 'o', text: op})
			i += len(op)
		}
	}
	return toks, true
}

// sameAwkToks reports whether two token lists are the same.
func sameAwkToks(a, b []awkTok) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].kind != b[i].kind || a[i].text != b[i].text {
			return false
		}
	}
	return true
}

// awkOps3 are the operators of more than one character, longest first.
var awkOps3 = [...]string{"**=", "|&", "||", "&&", ">>", ">=", "<=", "==", "!=", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "^=", "**", "!~"}

func isAwkNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// awkString decodes a string literal whose text starts after the opening
// quote: its value, whether an escape in it is one awks decode
// differently, and the bytes consumed with the closing quote. The escapes
// all of them decode alike are POSIX's (\" \\ \/ \a \b \f \n \r \t \v and
// one to three octal digits) and \x with one or two hex digits followed
// by no third (gawk 5 reads at most two; older gawk, more).
func awkString(s string) (val string, inexact bool, n int, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), inexact, i + 1, true
		case '\n':
			return "", false, 0, false
		case '\\':
			i++
			if i >= len(s) {
				return "", false, 0, false
			}
			switch e := s[i]; e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'v':
				b.WriteByte('\v')
			case '0', '1', '2', '3', '4', '5', '6', '7':
				v, j := 0, i
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					v = v*8 + int(s[j]-'0')
					j++
				}
				b.WriteByte(byte(v))
				i = j - 1
			case 'x':
				v, j := 0, i+1
				for j < len(s) {
					d, err := strconv.ParseUint(s[j:j+1], 16, 8)
					if err != nil {
						break
					}
					v = v*16 + int(d)
					j++
				}
				if j == i+1 || j > i+3 {
					inexact = true
				}
				b.WriteByte(byte(v))
				i = j - 1
			case '\n':
				// gawk and mawk join a line continued inside a string.
			default:
				inexact = true // gawk drops the backslash, mawk keeps it
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false, 0, false
}

// awkRegex finds the end of a regular expression literal whose text
// starts after the opening slash: the bytes consumed with the closing
// slash. A slash inside a bracket expression does not end it (gawk, mawk).
func awkRegex(s string) (n int, ok bool) {
	inBracket := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			return 0, false
		case c == '\\':
			i++
		case inBracket && c == '[' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '.' || s[i+1] == '='):
			end := strings.Index(s[i+2:], string(s[i+1])+"]")
			if end < 0 {
				return 0, false
			}
			i += 2 + end + 1
		case c == '[' && !inBracket:
			inBracket = true
			if i+1 < len(s) && s[i+1] == '^' {
				i++
			}
			if i+1 < len(s) && s[i+1] == ']' {
				i++
			}
		case c == ']' && inBracket:
			inBracket = false
		case c == '/' && !inBracket:
			return i + 1, true
		case c == '/':
			// BusyBox awk ends the expression here; gawk and mawk do not.
			return 0, false
		}
	}
	return 0, false
}

// AnalyzeAwk reads an awk program's text.
func AnalyzeAwk(src string) AwkProgram {
	var a AwkProgram
	toks, ok := lexAwk(src)
	if !ok {
		a.fail("the awk program does not lex (a string or regular expression is not closed)")
		return a
	}
	// A `/` the grammar may read either way: when the other reading
	// tokenizes the program differently, both readings are judged (what
	// either runs, reads or writes counts) and the program is not known.
	if other, ok2 := lexAwkReading(src, true); !ok2 || !sameAwkToks(toks, other) {
		a = analyzeAwkToks(toks)
		if ok2 {
			b := analyzeAwkToks(other)
			a.Runs = append(a.Runs, b.Runs...)
			a.reads = append(a.reads, b.reads...)
			a.writes = append(a.writes, b.writes...)
			a.DynamicRun = a.DynamicRun || b.DynamicRun
		}
		a.Unknown = ""
		a.fail("a / in the awk program may divide or start a regular expression, and the two readings differ")
		return a
	}
	return analyzeAwkToks(toks)
}

// analyzeAwkToks is analyzeAwk over one reading's tokens.
func analyzeAwkToks(toks []awkTok) AwkProgram {
	var a AwkProgram
	inPrint := false // in a print or printf statement, before a redirect
	depth := 0       // parentheses and brackets open since the statement began
	printAt := 0     // the print or printf token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == 'w' && (t.text == "print" || t.text == "printf"):
			inPrint, depth, printAt = true, 0, i
		case t.kind == 'o' && (t.text == "(" || t.text == "["):
			depth++
		case t.kind == 'o' && (t.text == ")" || t.text == "]"):
			depth--
			if depth < 0 {
				inPrint = false
			}
		case t.kind == 'o' && (t.text == ";" || t.text == "{" || t.text == "}"),
			t.kind == 'N' && depth <= 0 && !awkContinues(toks[:i]):
			inPrint = false
		case inPrint && depth == 0 && t.kind == 'o' && (t.text == ">" || t.text == ">>" || t.text == "|" || t.text == "|&"):
			end := awkStatementEnd(toks, i+1)
			a.redirect(t.text, toks[i+1:end], toks[printAt+1:i])
			inPrint = false
			i = end - 1
		case t.kind == 'w' && t.text == "system":
			j := i + 1
			if j < len(toks) && toks[j].kind == 'o' && toks[j].text == "(" {
				end := awkClose(toks, j)
				a.run("system()", toks[j+1:end], nil)
			} else {
				a.fail("awk names system without calling it")
			}
		case t.kind == 'w' && t.text == "getline":
			a.getline(toks, i)
		case t.kind == 'w' && (t.text == "ARGV" || t.text == "ARGC"):
			a.fail("the awk program may change the files it reads (ARGV)")
		case t.kind == 'o' && t.text == "@":
			if i+1 < len(toks) && toks[i+1].kind == 'w' && toks[i+1].text == "namespace" {
				continue
			}
			name := ""
			if i+1 < len(toks) {
				name = toks[i+1].text
			}
			switch name {
			case "load":
				a.fail("gawk @load loads a shared library, which is not checked")
			case "include":
				a.fail("gawk @include reads awk source from a file, which is not checked")
			default:
				a.fail("gawk calls a function named at run time (@" + name + "), which may be system")
			}
		}
	}
	return a
}

// awkContinues reports whether a newline after toks continues the
// statement: after a comma, {, &&, ||, do, else (POSIX awk, newline_opt).
func awkContinues(toks []awkTok) bool {
	if len(toks) == 0 {
		return false
	}
	t := toks[len(toks)-1]
	switch t.text {
	case ",", "{", "&&", "||", "do", "else":
		return t.kind == 'o' || t.kind == 'w'
	}
	return false
}

// awkStatementEnd is the index of the token that ends the statement
// whose remaining tokens start at i: a ; or } or newline outside
// parentheses, or a ) that closes one opened before i.
func awkStatementEnd(toks []awkTok, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == 'o' && (t.text == "(" || t.text == "["):
			depth++
		case t.kind == 'o' && (t.text == ")" || t.text == "]"):
			depth--
			if depth < 0 {
				return i
			}
		case depth == 0 && t.kind == 'o' && (t.text == ";" || t.text == "}"):
			return i
		case depth == 0 && t.kind == 'N' && !awkContinues(toks[:i]):
			return i
		}
	}
	return i
}

// awkClose is the index of the ) that closes the ( at open, or len(toks).
func awkClose(toks []awkTok, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		if toks[i].kind != 'o' {
			continue
		}
		switch toks[i].text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(toks)
}

// awkLiteral reads an expression that is string literals only, joined
// (awk's concatenation) and perhaps in parentheses: its value, and ok
// false when it is anything else. inexact: an escape in it is decoded
// differently by the implementations.
func awkLiteral(toks []awkTok) (val string, inexact, ok bool) {
	for len(toks) >= 2 && toks[0].kind == 'o' && toks[0].text == "(" && awkClose(toks, 0) == len(toks)-1 {
		toks = toks[1 : len(toks)-1]
	}
	if len(toks) == 0 {
		return "", false, false
	}
	var b strings.Builder
	for _, t := range toks {
		if t.kind != 's' {
			return "", false, false
		}
		b.WriteString(t.text)
		inexact = inexact || t.inexact
	}
	return b.String(), inexact, true
}

// redirect reads the target of a print statement's output redirection;
// printed are the tokens of what it prints.
func (a *AwkProgram) redirect(op string, target, printed []awkTok) {
	switch op {
	case "|", "|&":
		via := "print |"
		if op == "|&" {
			via = "|&"
		}
		if a.run(via, target, nil) {
			var all []string
			r := &a.Runs[len(a.Runs)-1]
			for _, t := range printed {
				if t.kind == 's' {
					r.Input = append(r.Input, t.text)
					all = append(all, t.text)
				}
			}
			if len(all) > 1 {
				r.Input = append(r.Input, strings.Join(all, " "))
			}
		}
	default:
		val, inexact, ok := awkLiteral(target)
		switch {
		case !ok:
			a.fail("awk writes a file named only at run time")
		case inexact:
			a.fail("awk writes a file whose name has an escape awks decode differently")
		default:
			// gawk writes the whole concatenation; an awk that takes
			// only the first string as the target would write that.
			a.writes = append(a.writes, val)
			if first, _, _ := awkLiteral(target[:1]); first != val && target[0].kind == 's' {
				a.writes = append(a.writes, first)
			}
		}
	}
}

// run reads the command line an awk construct runs. alt, when set, is a
// second reading of it (the last string of a concatenation before
// `| getline`, which POSIX leaves ambiguous). It reports whether the
// command line is known (then it is a.runs' last).
func (a *AwkProgram) run(via string, expr, alt []awkTok) bool {
	val, inexact, ok := awkLiteral(expr)
	switch {
	case !ok:
		a.DynamicRun = true
		a.fail("awk runs shell code only known at run time (" + via + ")")
		return false
	case inexact:
		a.DynamicRun = true
		a.fail("awk runs shell code with an escape awks decode differently (" + via + ")")
		return false
	}
	if v, _, ok := awkLiteral(alt); ok && v != val {
		a.Runs = append(a.Runs, AwkRun{Code: v, Via: via})
	}
	a.Runs = append(a.Runs, AwkRun{Code: val, Via: via})
	return true
}

// getline reads the getline at toks[i]: `EXPR | getline`, `EXPR |&
// getline` (a command), `getline [VAR] < EXPR` (a file).
func (a *AwkProgram) getline(toks []awkTok, i int) {
	if i > 0 && toks[i-1].kind == 'o' && (toks[i-1].text == "|" || toks[i-1].text == "|&") {
		via := "getline"
		if toks[i-1].text == "|&" {
			via = "|&"
		}
		// The command is the operand before the bar: a parenthesized
		// expression, or a run of strings (and perhaps other operands,
		// which make it dynamic).
		end := i - 1
		start := end
		if start > 0 && toks[start-1].kind == 'o' && toks[start-1].text == ")" {
			depth := 0
			for start--; start >= 0; start-- {
				if toks[start].kind == 'o' && toks[start].text == ")" {
					depth++
				} else if toks[start].kind == 'o' && toks[start].text == "(" {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if start < 0 {
				a.fail("awk runs shell code only known at run time (getline)")
				a.DynamicRun = true
				return
			}
		}
		for start > 0 && toks[start-1].kind == 's' {
			start--
		}
		if start > 0 && awkOperandEnd(toks[start-1]) {
			start = 0 // concatenated with something else: not literal
			a.run(via, nil, nil)
			return
		}
		a.run(via, toks[start:end], toks[end-1:end])
		return
	}
	// getline [lvalue] < file: the first < after getline, before the
	// statement or expression ends, is taken for the redirect (a longer
	// lvalue than awk allows only makes more reads).
	j := i + 1
	for depth := 0; j < len(toks); j++ {
		t := toks[j]
		if t.kind == 'N' || t.kind == 'w' && awkKeywords[t.text] {
			break
		}
		if t.kind != 'o' {
			continue
		}
		if t.text == "(" || t.text == "[" {
			depth++
			continue
		}
		if t.text == ")" || t.text == "]" {
			if depth--; depth < 0 {
				break
			}
			continue
		}
		if depth == 0 && (t.text == "<" || strings.Contains(";{},|&?:<>=!~", t.text[:1])) {
			break
		}
	}
	if j >= len(toks) || toks[j].kind != 'o' || toks[j].text != "<" {
		return // reads the input
	}
	j++
	// The file is a primary (gawk: `getline < "a" "b"` reads "a"); an
	// awk that reads the concatenation would read "ab": both are reads.
	k := j
	if k < len(toks) && toks[k].kind == 'o' && toks[k].text == "(" {
		k = awkClose(toks, k) + 1
	} else {
		for k < len(toks) && toks[k].kind == 's' {
			k++
		}
	}
	if k == j {
		a.fail("awk reads a file named only at run time (getline <)")
		return
	}
	val, inexact, ok := awkLiteral(toks[j:min(k, len(toks))])
	switch {
	case !ok || k < len(toks) && awkOperandStart(toks[k]):
		a.fail("awk reads a file named only at run time (getline <)")
	case inexact:
		a.fail("awk reads a file whose name has an escape awks decode differently")
	default:
		a.reads = append(a.reads, val)
		if toks[j].kind == 's' && toks[j].text != val {
			a.reads = append(a.reads, toks[j].text)
		}
	}
}

// awkOperandEnd reports whether a token ends an operand, so that a string
// after it is concatenated to it.
func awkOperandEnd(t awkTok) bool {
	switch t.kind {
	case 's', 'r', 'n':
		return true
	case 'w':
		return !awkKeywords[t.text]
	case 'o':
		return t.text == ")" || t.text == "]" || t.text == "$" || t.text == "++" || t.text == "--"
	}
	return false
}

// awkOperandStart reports whether a token can start an operand that is
// concatenated to what precedes it.
func awkOperandStart(t awkTok) bool {
	switch t.kind {
	case 's', 'r', 'n':
		return true
	case 'w':
		return !awkKeywords[t.text]
	case 'o':
		return t.text == "(" || t.text == "$" || t.text == "!" || t.text == "-" || t.text == "+"
	}
	return false
}

// AwkSource finds the program an awk command line runs (model: awkSpec):
// the texts of -e/--source (gawk, BusyBox) joined by newlines, else the
// first operand. why says why the program is not read here: it is in a
// file (-f, -E, mawk's -W exec), it includes or loads files (-i, -l), or
// the line is not understood. at is the word the program starts in.
func AwkSource(l *Cmdline) (prog Word, why string) {
	if l.Err != "" {
		return Word{}, "awk: " + l.Err
	}
	for _, it := range l.Items {
		switch it.Opt {
		case "f", "file", "E", "exec":
			return Word{}, "awk runs the program file " + l.Val(it).Text + ", which is not checked"
		case "i", "include":
			return Word{}, "gawk --include reads awk source from " + l.Val(it).Text + ", which is not checked"
		case "l", "load":
			return Word{}, "gawk --load loads the shared library " + l.Val(it).Text + ", which is not checked"
		case "W":
			// mawk -W: exec FILE (mawk(1)); gawk -W takes its long options.
			if v := l.Val(it); v.Dynamic || !awkHarmlessW(v.Text) {
				return Word{}, "awk -W " + v.Text + " is not read here"
			}
		}
	}
	var texts []Word
	for _, v := range l.Values("e", "source") {
		texts = append(texts, v.Word)
	}
	if len(texts) == 0 {
		ops := l.Operands()
		if len(ops) == 0 {
			return Word{}, "" // no program: awk prints its usage
		}
		texts = []Word{ops[0].Word}
	}
	// gawk joins several -e texts as lines of one program.
	parts := make([]string, len(texts))
	prog.Offset = texts[0].Offset
	for i, w := range texts {
		parts[i] = w.Text
		prog.Dynamic = prog.Dynamic || w.Dynamic
	}
	prog.Text = strings.Join(parts, "\n")
	return prog, ""
}

// awkHarmlessW reports whether a -W option changes nothing but how the
// input is read or messages are printed (mawk(1) -W: version, usage,
// interactive, posix_space, sprintf=, random=; gawk's long names of its
// flags).
func awkHarmlessW(v string) bool {
	name, _, _ := strings.Cut(v, "=")
	switch name {
	case "version", "usage", "help", "interactive", "posix_space", "sprintf", "random",
		"posix", "traditional", "compat", "lint", "re-interval", "characters-as-bytes":
		return true
	}
	return false
}

// awkOps reports an awk command's files: the operands that are not
// NAME=value assignments are read; the program's getline < FILE reads and
// print > FILE writes; gawk's -d, -o and -p write their default files.
// A program that runs shell code, or that names at run time what it
// reads, writes or runs, acts beyond files.
// awkAssign is an operand awk takes for an assignment, not a file (POSIX
// awk, OPERANDS: "assignment ... begins with an underscore or alphabetic
// character").
var awkAssign = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

func awkOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	prog, why := AwkSource(l)
	if why == "" && len(l.Values("e", "source")) == 0 && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, o := range ops {
		if !awkAssign.MatchString(o.Text) {
			out.read(o)
		}
	}
	for _, it := range l.Items {
		def := ""
		switch it.Opt {
		case "d", "dump-variables":
			def = "awkvars.out"
		case "o", "pretty-print", "p", "profile":
			def = "awkprof.out"
		default:
			continue
		}
		if it.Has {
			out.write(l.Val(it))
		} else {
			out.write(made(def, Arg{Word: l.Cmd.Args[it.At], At: int(it.At)}, false))
		}
	}
	if why != "" || prog.Dynamic {
		out.acted = true
		return
	}
	a := AnalyzeAwk(prog.Text)
	at := Arg{Word: prog, At: -1}
	for _, f := range a.reads {
		out.add(Read, made(f, at, false))
	}
	for _, f := range a.writes {
		if !awkStdStream(f) {
			out.add(Write, made(f, at, false))
		}
	}
	if a.Unknown != "" || len(a.Runs) > 0 {
		out.acted = true
	}
}

// awkStdStream reports whether a print redirect's target is a stream awk
// opens itself rather than a file (gawk manual 5.8 "Special File names":
// /dev/stdout, /dev/stderr, /dev/fd/1 and /dev/fd/2; mawk(1) the same
// names and "-") or the null device.
func awkStdStream(f string) bool {
	switch f {
	case "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2", "/dev/null":
		return true
	}
	return false
}
