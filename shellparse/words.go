package shellparse

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// joiner concatenates strings like a strings.Builder, without copying
// when there is only one (most words are one literal).
type joiner struct {
	first string
	n     int
	sb    strings.Builder
}

func (j *joiner) WriteString(s string) {
	switch j.n {
	case 0:
		j.first = s
	case 1:
		j.sb.Grow(len(j.first) + len(s))
		j.sb.WriteString(j.first)
		j.sb.WriteString(s)
	default:
		j.sb.WriteString(s)
	}
	j.n++
}

func (j *joiner) String() string {
	if j.n <= 1 {
		return j.first
	}
	return j.sb.String()
}

// word resolves a parsed word without running anything. Quotes and escapes
// are removed; every part whose value is only known at run time keeps its
// source text and marks the word dynamic.
func (p *parser) word(w *syntax.Word) Word {
	if w == nil {
		return Word{}
	}
	out := Word{Offset: p.off(w.Pos())}
	var sb joiner
	other := false // a dynamic part that is not a command substitution
	// globbed: an unquoted glob character; tilde: a leading `~` resolved
	// to the home directory; notGlob: a dynamic part other than those.
	globbed, tilde, notGlob := false, false, false
	for i, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			s := part.Value
			if i == 0 && strings.HasPrefix(s, "~") {
				dyn := out.Dynamic
				s, out.Dynamic = p.tilde(s, len(w.Parts) > 1, out.Dynamic)
				other = other || out.Dynamic && !dyn
				notGlob = notGlob || out.Dynamic && !dyn
				tilde = !out.Dynamic
			}
			if hasGlobMeta(s, i < len(w.Parts)-1) {
				out.Dynamic, other = true, true
				globbed = true
			}
			sb.WriteString(unescapeUnquoted(s))
		case *syntax.SglQuoted:
			if part.Dollar {
				s, dyn := decodeANSIC(part.Value)
				out.Dynamic = out.Dynamic || dyn
				sb.WriteString(s)
			} else {
				sb.WriteString(part.Value)
			}
		case *syntax.DblQuoted:
			if part.Dollar {
				// $"…" is translated when it runs, through the message
				// catalogue TEXTDOMAIN and TEXTDOMAINDIR name (bash(1)
				// QUOTING): any text at all.
				out.Dynamic = true
			}
			for _, dp := range part.Parts {
				switch dp := dp.(type) {
				case *syntax.Lit:
					sb.WriteString(unescapeDouble(dp.Value))
				default:
					s, dyn := p.dynamicPart(dp)
					out.Dynamic = out.Dynamic || dyn
					other = other || dyn && !isCmdSubst(dp)
					sb.WriteString(s)
				}
			}
		default:
			// Unquoted, a substitution's output is split into words and
			// globbed: it is no single known argument.
			s, dyn := p.dynamicPart(part)
			out.Dynamic = out.Dynamic || dyn
			other = other || dyn
			sb.WriteString(s)
		}
	}
	text := sb.String()
	if !out.Dynamic && assignTilde(w) {
		text, out.Dynamic = p.expandAssignTilde(w, text)
		other = other || out.Dynamic
	}
	if !out.Dynamic && p.zsh() && zshDynamic(w) {
		out.Dynamic, other = true, true
	}
	// Brace expansion: {a,b} or {1..3}. Every word hasBraceExp reports,
	// mayBrace reports too, so mayBrace alone says whether one may happen.
	brace := mayBrace(w)
	if !out.Dynamic && brace {
		out.Dynamic = true
	}
	out.SubstOnly = out.Dynamic && !other && !(brace && hasBraceExp(w))
	if out.Dynamic && out.Shell == 0 {
		p.loopWord(w, &out)
	}
	if len(w.Parts) == 1 {
		ps, ok := w.Parts[0].(*syntax.ProcSubst)
		out.ProcIn = ok && ps.Op == syntax.CmdIn
	}
	out.Text = text
	if globbed && !notGlob && p.dialect == Bash && !assignTilde(w) && !brace {
		if g := globWord(w, p.opt.Home, tilde); g != nil {
			p.globs = append(p.globs, g)
			out.Shell = int32(len(p.globs))
		}
	}
	return out
}

func isCmdSubst(part syntax.WordPart) bool {
	_, ok := part.(*syntax.CmdSubst)
	return ok
}

// expandAssignTilde expands the tildes bash expands in a word shaped like
// an assignment (assignTilde): `~` right after the first `=` or after a
// `:`, up to a `/`, a `:` or the end, is the home directory. Only a word
// of one unquoted, unescaped literal is expanded; any other shape, `~user`,
// or an unknown home is dynamic.
func (p *parser) expandAssignTilde(w *syntax.Word, text string) (string, bool) {
	lit, ok := w.Parts[0].(*syntax.Lit)
	if len(w.Parts) != 1 || !ok || strings.Contains(lit.Value, "\\") || p.opt.Home == "" || p.homeAssigned {
		return text, true
	}
	v := lit.Value
	eq := strings.IndexByte(v, '=')
	var sb strings.Builder
	sb.WriteString(v[:eq+1])
	for i := eq + 1; i < len(v); i++ {
		if v[i] == '~' && (i == eq+1 || v[i-1] == ':') {
			rest := v[i+1:]
			if rest != "" && rest[0] != '/' && rest[0] != ':' {
				return text, true // ~user, ~+, ~-
			}
			sb.WriteString(p.opt.Home)
			continue
		}
		sb.WriteByte(v[i])
	}
	return sb.String(), false
}

// dynamicPart renders a part that needs run time to be known. Only a plain
// `$HOME` / `${HOME}` is resolved, from Options.Home, and only while the
// script has not assigned HOME itself.
func (p *parser) dynamicPart(part syntax.WordPart) (string, bool) {
	if pe, ok := part.(*syntax.ParamExp); ok && p.opt.Home != "" && !p.homeAssigned &&
		pe.Param != nil && pe.Param.Value == "HOME" && isPlainParam(pe) {
		return p.opt.Home, false
	}
	return p.src(part.Pos(), part.End()), true
}

// homeParam reports a plain `$HOME` that dynamicPart resolves.
func (p *parser) homeParam(pe *syntax.ParamExp) bool {
	return p.opt.Home != "" && !p.homeAssigned && pe.Param != nil && pe.Param.Value == "HOME" && isPlainParam(pe)
}

func isPlainParam(pe *syntax.ParamExp) bool {
	return !pe.Excl && !pe.Length && !pe.Width && !pe.IsSet && pe.NestedParam == nil &&
		pe.Index == nil && len(pe.Modifiers) == 0 && pe.Slice == nil && pe.Repl == nil &&
		pe.Names == 0 && pe.Exp == nil
}

// tilde resolves a leading unquoted `~` or `~/...` against Options.Home.
// `~user` and `~+`/`~-` are dynamic.
func (p *parser) tilde(s string, more bool, dyn bool) (string, bool) {
	name, rest, slash := strings.Cut(s[1:], "/")
	if name != "" || (!slash && more) {
		// `~user/...`, or `~` followed by a quoted or dynamic part
		// (bash does not expand `~"x"`), which we treat as unknown.
		return s, true
	}
	if p.opt.Home == "" || p.homeAssigned {
		return s, true
	}
	if slash {
		return p.opt.Home + "/" + rest, dyn
	}
	return p.opt.Home, dyn
}

// hasGlobMeta reports an unquoted pathname-expansion character. Escaped
// characters (`\*`) do not count.
//
// A `[` opens a bracket expression only when a `]` follows it in the word
// (bash(1) Pattern Matching), so the test command `[` is a plain word; more
// says other parts follow this literal, which may hold the `]`.
func hasGlobMeta(s string, more bool) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if more || strings.IndexByte(s[i+1:], ']') >= 0 {
				return true
			}
		}
	}
	return false
}

// unescapeUnquoted removes the backslashes of an unquoted literal: `\x` is x
// and a backslash-newline disappears.
func unescapeUnquoted(s string) string {
	return unescape(s, func(byte) bool { return true })
}

// unescape removes the backslash before each byte escapable says it
// escapes, and a backslash-newline whole; another backslash stays, and the
// byte after it is read as if the backslash were not there. The text
// between backslashes is copied whole.
func unescape(s string, escapable func(byte) bool) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for ; i >= 0 && i+1 < len(s); i = strings.IndexByte(s, '\\') {
		switch c := s[i+1]; {
		case c == '\n':
			sb.WriteString(s[:i])
			s = s[i+2:]
		case escapable(c):
			sb.WriteString(s[:i])
			sb.WriteByte(c)
			s = s[i+2:]
		default:
			sb.WriteString(s[:i+1])
			s = s[i+1:]
		}
	}
	sb.WriteString(s)
	return sb.String()
}

// unescapeDouble removes the backslashes that are special inside double
// quotes: before $, `, ", \ and newline.
func unescapeDouble(s string) string {
	return unescape(s, func(c byte) bool { return c == '$' || c == '`' || c == '"' || c == '\\' })
}

// hasBraceExp reports a brace expansion that bash would perform: `{a,b}`
// or `{1..3}`, not `{}` or `{x}`. SplitBraces rewrites the word it is
// given, so it works on a copy, made only when mayBrace holds: SplitBraces
// makes a list or a sequence only of an unescaped `{`, a `,` or `..` and a
// `}` after it in the word's unquoted literals, in that order, which
// mayBrace looks for without allocating (`find -exec cmd {} +` is common).
func hasBraceExp(w *syntax.Word) bool {
	if !mayBrace(w) {
		return false
	}
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(cp) {
		return false
	}
	for _, part := range cp.Parts {
		if b, ok := part.(*syntax.BraceExp); ok && (b.Sequence || len(b.Elems) > 1) {
			return true
		}
	}
	return false
}

// assignTilde reports a word shaped like an assignment (`NAME=...`,
// `NAME+=...`) with an unquoted `~` after the `=`: bash expands a tilde
// after its `=` and after each `:` even in a command's arguments
// (`dd of=~/x` writes in the home directory), so the word is dynamic.
func assignTilde(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	first, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	v := first.Value
	i := 0
	for i < len(v) && (v[i] == '_' || v[i] >= 'a' && v[i] <= 'z' || v[i] >= 'A' && v[i] <= 'Z' || i > 0 && v[i] >= '0' && v[i] <= '9') {
		i++
	}
	if i == 0 || i == len(v) || !strings.HasPrefix(v[i:], "=") && !strings.HasPrefix(v[i:], "+=") && v[i] != '[' {
		return false
	}
	if strings.Contains(v[i:], "~") {
		return true
	}
	for _, part := range w.Parts[1:] {
		if l, ok := part.(*syntax.Lit); ok && strings.Contains(l.Value, "~") {
			return true
		}
	}
	return false
}

// mayBrace reports a word bash may brace-expand that hasBraceExp does not
// see: an unquoted `{` with a `,` or `..` after it and an unquoted `}`
// after that. bash pairs braces its own way (`{a}a,b}` is `a}a b`), so
// any such word is dynamic; `{}` and `{x}` stay static.
func mayBrace(w *syntax.Word) bool {
	// Most words have no `{` in an unquoted literal: nothing opens.
	if !slices.ContainsFunc(w.Parts, func(part syntax.WordPart) bool {
		lit, ok := part.(*syntax.Lit)
		return ok && strings.IndexByte(lit.Value, '{') >= 0
	}) {
		return false
	}
	open, sep := false, false
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			v := part.Value
			for i := 0; i < len(v); i++ {
				switch {
				case v[i] == '\\':
					i++
				case v[i] == '{':
					open = true
				case open && (v[i] == ',' || strings.HasPrefix(v[i:], "..")):
					sep = true
				case sep && v[i] == '}':
					return true
				}
			}
		case *syntax.SglQuoted:
			sep = sep || open && (strings.Contains(part.Value, ",") || strings.Contains(part.Value, ".."))
		case *syntax.DblQuoted:
			for _, dp := range part.Parts {
				if l, ok := dp.(*syntax.Lit); ok && open && (strings.Contains(l.Value, ",") || strings.Contains(l.Value, "..")) {
					sep = true
				}
			}
		}
	}
	return false
}

// heredoc resolves a here-document body. With a quoted delimiter
// (`<<'EOF'`) the body is literal; otherwise it expands parameters and
// substitutions (dynamic) and `\` escapes only $, `, \ and newline.
func (p *parser) heredoc(r *syntax.Redirect) Word {
	quoted := false
	for _, part := range r.Word.Parts {
		if lit, ok := part.(*syntax.Lit); !ok || strings.Contains(lit.Value, "\\") {
			quoted = true
		}
	}
	out := Word{Offset: p.off(r.Hdoc.Pos())}
	var sb joiner // a quoted body is one literal: its text is not copied
	for _, part := range r.Hdoc.Parts {
		lit, ok := part.(*syntax.Lit)
		switch {
		case ok && quoted:
			sb.WriteString(lit.Value)
		case ok:
			sb.WriteString(unescapeHeredoc(lit.Value))
		default:
			s, dyn := p.dynamicPart(part)
			out.Dynamic = out.Dynamic || dyn
			sb.WriteString(s)
		}
	}
	out.Text = sb.String()
	return out
}

func unescapeHeredoc(s string) string {
	return unescape(s, func(c byte) bool { return c == '$' || c == '`' || c == '\\' })
}

// decodeANSIC decodes the text of $'…' as bash does (bash(1) QUOTING; the
// code is ansicstr in bash's lib/sh/strtrans.c, and TestWordsAgainstBash
// checks it against the real bash): byte by byte, `\cX` is X's control
// character, an octal escape takes up to three digits and keeps the low
// byte, `\x` up to two hex digits, an unknown escape keeps its backslash.
// The result is a C string: a NUL (`\0`, `\x00`, `\c@`, `\400` ...) ends
// it, and bash drops the rest of the quoted text. `\u`/`\U` above 0x7f
// are converted to the locale's encoding at run time (and written back as
// `\uXXXX` in a locale that cannot hold them): dynamic.
func decodeANSIC(s string) (string, bool) {
	var out []byte
	dynamic := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			out = append(out, c)
			continue
		}
		i++
		c = s[i]
		switch c {
		case 'a':
			c = 7
		case 'b':
			c = 8
		case 'e', 'E':
			c = 27
		case 'f':
			c = 12
		case 'n':
			c = 10
		case 'r':
			c = 13
		case 't':
			c = 9
		case 'v':
			c = 11
		case '\\', '\'', '"', '?':
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(c - '0')
			for n := 0; n < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; n++ {
				i++
				v = v*8 + int(s[i]-'0')
			}
			c = byte(v & 0xff)
		case 'x':
			if i+1 < len(s) && s[i+1] == '{' {
				// bash 5.2: `\x{HHH}`, any number of digits, the low byte;
				// the `}` is optional.
				i++
				v := 0
				for i+1 < len(s) && isHex(s[i+1]) {
					i++
					v = (v*16 + hexVal(s[i])) & 0xff
				}
				if i+1 < len(s) && s[i+1] == '}' {
					i++
				}
				c = byte(v)
				break
			}
			v, n := 0, 0
			for ; n < 2 && i+1 < len(s) && isHex(s[i+1]); n++ {
				i++
				v = v*16 + hexVal(s[i])
			}
			if n == 0 {
				out = append(out, '\\')
				c = 'x'
			} else {
				c = byte(v & 0xff)
			}
		case 'u', 'U':
			max := 4
			if c == 'U' {
				max = 8
			}
			v, n := 0, 0
			for ; n < max && i+1 < len(s) && isHex(s[i+1]); n++ {
				i++
				v = v*16 + hexVal(s[i])
			}
			switch {
			case n == 0:
				out = append(out, '\\')
			case v > 0x7f:
				dynamic = true
				out = append(out, s[i-n-1:i+1]...)
				continue
			default:
				c = byte(v)
			}
		case 'c':
			if i+1 == len(s) {
				out = append(out, '\\') // `\c` at the end stays
				break
			}
			i++
			c = s[i]
			if c == '\\' && i+1 < len(s) && s[i+1] == '\\' {
				i++
			}
			if c == '?' {
				c = 0x7f
			} else {
				if c >= 'a' && c <= 'z' {
					c -= 'a' - 'A'
				}
				c &= 0x1f
			}
		default:
			out = append(out, '\\')
		}
		if c == 0 {
			break // the C string ends here
		}
		out = append(out, c)
	}
	return string(out), dynamic
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}
