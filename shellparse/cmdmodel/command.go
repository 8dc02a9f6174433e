package cmdmodel

import (
	"path"
	"strings"
)

// Word is one word of a command line after the shell's quote removal.
type Word struct {
	// Text is the word's value with quotes and escapes removed. Parts that
	// cannot be known without running anything keep their source text
	// (`$HOME` stays "$HOME" unless the shell reader resolves it).
	Text string
	// Offset is the byte offset of the word in the script's text. Words that come
	// from re-parsed text (`bash -c '...'`) carry the offset of the outer word.
	// (It stands before the flags, so a Word is 32 bytes, not 40.)
	Offset int
	// Dynamic is true when the value is not known statically: it holds a
	// parameter expansion, a command or process substitution, arithmetic, an
	// unquoted glob character, brace expansion or `~user`.
	Dynamic bool
	// SubstOnly is set on a dynamic word whose only dynamic parts are
	// command substitutions inside double quotes (`"$(cat <<'EOF' ...
	// EOF)"`, "v`date`"): it is one argument holding the output of
	// commands that are judged on their own, not a variable, a glob, a
	// brace list, or an unquoted substitution split into words.
	SubstOnly bool
	// ProcIn is set on a word that is exactly one input process
	// substitution, `<(...)`: bash passes a /dev/fd/N path to a pipe
	// holding the output of the commands inside, which are judged as
	// commands of their own. (A bool beside the flags: a Word stays 32
	// bytes.)
	ProcIn bool
	// Shell is the shell reader's own note on the word (shellparse: a
	// glob's or a loop variable's index), carried with the whole word
	// and never read here. (An int32 beside the flags: a Word stays 32
	// bytes.)
	Shell int32
}

// Assign is a `NAME=value` assignment: leading a simple command, given to a
// wrapper (`env NAME=value cmd`), or standing alone or after `export`.
type Assign struct {
	Name    string
	Value   string
	Dynamic bool // the value is not static
}

// Redirect is one redirection of a simple command or of a compound command.
type Redirect struct {
	// Op is the operator: ">", ">>", ">|", "&>", "&>>", "<", "<>",
	// "<<", "<<-", "<<<", ">&", "<&"; in zsh also ">>|", "&>|", "&>>|"
	// (`>!` and kin are reported with "|").
	Op string
	// Fd is the explicit file descriptor number before the operator, or -1.
	Fd int
	// Target is the file, the fd for ">&"/"<&", or the here-string. For a
	// here-document it is the body.
	Target Word
	Offset int
}

// Writes reports whether the redirect opens its target for writing.
func (r Redirect) Writes() bool {
	switch r.Op {
	case ">&":
		// `>&file` (no digits, no "-") is the same as `&>file`.
		return !isFdWord(r.Target)
	case "<", "<<", "<<-", "<<<", "<&":
		return false
	}
	// ">", ">>", ">|", "&>", "&>>", "<>", zsh's ">>|", "&>|", "&>>|", and
	// any operator with a ">" the parser may add: toward denial.
	return strings.Contains(r.Op, ">")
}

// Reads reports whether the redirect opens its target file for reading.
func (r Redirect) Reads() bool {
	switch r.Op {
	case "<", "<>":
		return true
	case "<&":
		return !isFdWord(r.Target)
	}
	return false
}

func isFdWord(w Word) bool {
	if w.Dynamic || w.Text == "" {
		return false
	}
	if w.Text == "-" {
		return true
	}
	t := strings.TrimSuffix(w.Text, "-") // `>&3-` moves the fd
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return t != ""
}

// Command is a command line as the program sees it: its words, the
// variables assigned for it and its redirections. The shell reader
// (shellparse) embeds it in the commands it finds.
type Command struct {
	// Args is the argv as written, wrapper included (`sudo rm -rf /`).
	Args []Word
	// Assigns are the leading `NAME=value` words, and for a command reached
	// through `env` or `sudo`, the assignments those were given.
	Assigns []Assign
	// Redirects of this command. A compound command's redirects (`{ ...; } >f`)
	// are reported on a Command with no Args.
	Redirects []Redirect
	// Offset is the byte offset of the command in the script's text: the
	// words the model makes up (a default file, xargs's operands) carry it.
	Offset int
	// StdoutAway is true when the command's standard output is not the
	// script's: a pipeline stage before the last, or inside a compound
	// command whose redirect sends it to a file (`(cmd) > f`, `{ cmd; }
	// &> f`). Its own redirects are in Redirects.
	StdoutAway bool
	// TrailingArgs is true when more arguments are appended at run time
	// (`xargs CMD`), so Args is not the whole argv.
	TrailingArgs bool
}

// Name is the command name with any directory removed: "rm" for `/bin/rm`,
// `\rm` and `'rm'`. Checks that look for danger use it; checks that allow
// use Bare.
func (c *Command) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	return path.Base(c.Args[0].Text)
}

// Bare reports whether the command name is a plain static word without a
// slash, the only form the safe list and allow rules accept.
func (c *Command) Bare() bool {
	return len(c.Args) > 0 && !c.Args[0].Dynamic && c.Args[0].Text != "" &&
		!strings.Contains(c.Args[0].Text, "/")
}

// Argv returns the words' texts.
func (c *Command) Argv() []string {
	out := make([]string, len(c.Args))
	for i, w := range c.Args {
		out[i] = w.Text
	}
	return out
}

// HasDynamic reports whether any word from index i on is dynamic.
func (c *Command) HasDynamic(from int) bool {
	for _, w := range c.Args[min(from, len(c.Args)):] {
		if w.Dynamic {
			return true
		}
	}
	return false
}
