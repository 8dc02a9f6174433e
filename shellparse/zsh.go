package shellparse

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Dialect is the shell that runs a script.
type Dialect string

// The dialects Parse knows.
const (
	// Bash is GNU bash, the default.
	Bash Dialect = "bash"
	// Zsh is the Z shell (the login shell on macOS). mvdan.cc/sh parses it
	// experimentally and returns some of its expansions as plain text, so
	// what the parser cannot represent is treated as code or as dynamic
	// (zshCode, zshDynamic), checked against the real zsh by
	// TestZshAgainstZsh.
	Zsh Dialect = "zsh"
	// Sh is POSIX sh.
	Sh Dialect = "sh"
	// korn is the MirBSD Korn shell's language, for code given to ksh or
	// mksh (shellDialects); not a dialect a request can name.
	korn Dialect = "mksh"
)

// ParseDialect maps a shell's name or path ("/bin/zsh", "bash", "dash")
// to its dialect; ok is false for a name it does not know.
func ParseDialect(name string) (Dialect, bool) {
	base := name
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	switch base {
	case "bash":
		return Bash, true
	case "zsh":
		return Zsh, true
	case "sh", "dash", "ash", "posix":
		return Sh, true
	}
	return "", false
}

func (p *parser) zsh() bool { return p.dialect == Zsh }

// zshCommands are names zsh gives a meaning bash does not have, which
// change how the rest of the command or later commands are read or run:
// precommand modifiers (noglob, nocorrect, `-`), repeat, history re-runs
// (r, fc), aliases (on in zsh scripts, expanded on later lines), options
// that change parsing and globbing, and builtins that run code later or
// load modules (zshbuiltins(1), zshmisc(1) PRECOMMAND MODIFIERS).
// Built on first use (start-up: most calls never look it up).
var zshCommands = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"noglob": true, "nocorrect": true, "-": true, "repeat": true, "r": true, "fc": true,
		"alias": true, "unalias": true, "setopt": true, "unsetopt": true, "emulate": true,
		"sched": true, "zpty": true, "zmodload": true, "autoload": true, "enable": true,
		"disable": true, "zle": true, "bindkey": true, "functions": true, "zcompile": true,
		"ztcp": true, "zsocket": true, "vared": true, "limit": true, "unlimit": true,
	}
})

// zshCommand says why a simple command is not safe under zsh, or "".
func zshCommand(c *Command) string {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return ""
	}
	name := c.Args[0].Text
	if zshCommands()[name] {
		return "in zsh, " + name + " changes how commands are read or run, which the gate does not follow"
	}
	if name == "set" {
		for _, a := range c.Args[1:] {
			t := a.Text
			if a.Dynamic || (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+")) && strings.Trim(t[1:], "euxv") != "" && t != "--" {
				return "in zsh, set changes options that change how words are read"
			}
		}
	}
	return ""
}

// zshCode says why zsh may run code while expanding w, where the parser
// sees plain text or a plain expansion, or "":
//   - `(` or `)` in an unquoted part: a glob qualifier (`*(e:'cmd':)`,
//     `*(+cmd)`) runs code, and the parser returns qualifiers as text;
//   - a word starting with an unquoted `=`: `=cmd` is a path lookup and
//     `=(cmd)` a process substitution the parser does not see;
//   - parameter flags and prefixes (`${(e)x}`, `$~x`, `$=x`, `$^x`, nested
//     `${${x}}`, modifiers): `(e)` evaluates, `~` globs the value;
//   - an unquoted parameter expansion: with GLOB_SUBST (an option a user's
//     configuration may set) its value is a pattern, qualifiers included.
func zshCode(w *syntax.Word, home func(*syntax.ParamExp) bool) string {
	if w == nil {
		return ""
	}
	for i, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(part.Value, "()") {
				return "in zsh, a parenthesis in a word is a glob qualifier or group, and a qualifier can run commands"
			}
			if i == 0 && strings.HasPrefix(part.Value, "=") {
				return "in zsh, a word starting with = is expanded (=cmd, =(...) runs commands)"
			}
		case *syntax.ParamExp:
			if why := zshParam(part); why != "" {
				return why
			}
			if !home(part) {
				return "in zsh, an unquoted expansion is globbed when GLOB_SUBST is set, and a glob qualifier can run commands"
			}
		case *syntax.DblQuoted:
			for _, dp := range part.Parts {
				if pe, ok := dp.(*syntax.ParamExp); ok {
					if why := zshParam(pe); why != "" {
						return why
					}
				}
			}
		}
	}
	return ""
}

func zshParam(pe *syntax.ParamExp) string {
	if pe.Flags != nil || pe.Split != 0 || pe.GlobSubst != 0 || pe.RcExpand != 0 || pe.NestedParam != nil ||
		len(pe.Modifiers) > 0 || pe.IsSet {
		return "zsh parameter flags and prefixes (${(e)x}, $~x, $=x, nested expansions) can evaluate the value as code"
	}
	return ""
}

// zshDynamic reports an unquoted part of w whose value zsh computes in a
// way that depends on options a user's configuration may set, or that
// the parser does not decode as zsh does: glob and extended-glob
// characters (`* ? [ ] ^ # ~ < > |`, outside a bare `[` or `]`), braces
// (`{a,b}`, `{abc}` with BRACE_CCL, a lone `}` zsh refuses; `{}` stays),
// `==`, `:=` and a `=` after a quoted part (MAGIC_EQUAL_SUBST), two single-quoted parts side by side (RC_QUOTES),
// and $'…' with a backslash (zsh keeps a NUL and decodes escapes its own
// way).
func zshDynamic(w *syntax.Word) bool {
	if modified(w.Parts) {
		return true
	}
	prevSgl := false
	for i, part := range w.Parts {
		sgl := false
		switch part := part.(type) {
		case *syntax.Lit:
			v := part.Value
			if len(w.Parts) == 1 && (v == "[" || v == "]" || v == "{}") {
				continue
			}
			if i == 0 {
				v = strings.TrimPrefix(v, "~") // the tilde itself is judged by tilde()
			}
			if strings.ContainsAny(v, "*?[]^#~<>|{}") {
				return true
			}
			// MAGIC_EQUAL_SUBST expands `=cmd` and `~` after the first
			// `=` of any argument.
			if strings.Contains(v, "==") || strings.Contains(v, ":=") || i > 0 && strings.HasPrefix(v, "=") {
				return true
			}
		case *syntax.SglQuoted:
			if part.Dollar {
				if strings.Contains(part.Value, `\`) {
					return true
				}
			} else {
				if prevSgl {
					return true
				}
				sgl = true
			}
		case *syntax.DblQuoted:
			if part.Dollar || modified(part.Parts) {
				return true
			}
		}
		prevSgl = sgl
	}
	return false
}

// modified reports an expansion followed by `:` in parts: zsh applies
// history modifiers to `$x:h`, `$HOME:A` (also in double quotes).
func modified(parts []syntax.WordPart) bool {
	for i := 0; i+1 < len(parts); i++ {
		if _, ok := parts[i].(*syntax.ParamExp); !ok {
			continue
		}
		if l, ok := parts[i+1].(*syntax.Lit); ok && strings.HasPrefix(l.Value, ":") {
			return true
		}
	}
	return false
}
