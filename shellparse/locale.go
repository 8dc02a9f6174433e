package shellparse

import (
	"path"
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// A locale the script sets changes how bash reads the rest of it.
//
// bash reads its input in the character set of LC_ALL, LC_CTYPE or LANG
// (the first set), and changes it as soon as a script assigns one of them
// (bash(1) Shell Variables; variables.c sv_locale). In a multibyte
// character set such as GBK, BIG5 or SJIS a lead byte joins the byte after
// it into one character even when that byte is `\`, `"` or `$`: after
// `LC_ALL=zh_CN.GBK`, `echo "丁\"; touch M #"` (丁 is e4 b8 81) closes the
// string early and runs touch, while the parser, which reads UTF-8, sees
// one echo. So a script that changes the locale of the shell that reads it
// to anything not known to be UTF-8, C or POSIX is not analysed at all:
// its answer is parse.error, an ask nothing but the person turns into
// allow. Changes are: an assignment standing alone or given to export,
// declare, typeset, local or readonly, and any other way the script sets
// or unsets one of the names (read, for, printf -v, unset ...), wherever
// it stands; and a prefix assignment on a command that reads shell code
// in that environment (a shell, eval, source or ., one of the script's
// functions). A prefix on any other command (`LC_ALL=C sort`, `LANG=zh_CN.GBK
// ls`) changes only that program's output and stays as it was.

// localeVar reports the variables that choose the character set bash
// reads.
func localeVar(name string) bool { return name == "LC_ALL" || name == "LC_CTYPE" || name == "LANG" }

// knownLocale reports whether a locale name is one whose character set
// reads the script as the parser does: C, POSIX, or a UTF-8 codeset
// (`C.UTF-8`, `en_US.utf8`, `de_DE.UTF-8@euro`).
func knownLocale(v string) bool {
	if v == "C" || v == "POSIX" {
		return true
	}
	_, codeset, ok := strings.Cut(v, ".")
	if !ok {
		return false
	}
	codeset, _, _ = strings.Cut(codeset, "@")
	switch strings.ToLower(codeset) {
	case "utf-8", "utf8":
		return true
	}
	return false
}

// checkLocale refuses the script when an assignment in as changes the
// locale the shell reads it in to one not known (see knownLocale).
func (p *parser) checkLocale(as []cmdmodel.Assign, off int) {
	for _, a := range as {
		if localeVar(a.Name) && (a.Dynamic || !knownLocale(a.Value)) {
			v := a.Value
			if a.Dynamic || v == "" {
				v = "a value only known at run time"
			}
			p.fail(CodeParse, off, "the script sets "+a.Name+" to "+v+", not known to be a UTF-8, C or POSIX locale: bash reads the rest of the script in that character set, which the parser does not")
			return
		}
	}
}

// readsCodeInEnv reports whether the command reads shell code with its
// prefix assignments in effect: a shell, eval, source or ., or a function
// the script defines.
func (p *parser) readsCodeInEnv(c *Command) bool {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return len(c.Args) > 0
	}
	name := path.Base(c.Args[0].Text)
	return IsShell(name) || name == "eval" || name == "source" || name == "." || slices.Contains(p.funcs, c.Args[0].Text)
}
