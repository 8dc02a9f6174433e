package shellparse

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one word of a simple command after quote removal.
type Word struct {
	// Text is the word's value with quotes and escapes removed. Parts that
	// cannot be known without running anything keep their source text
	// (`$HOME` stays "$HOME" unless Options.Home resolves it).
	Text string
	// Offset is the byte offset of the word in Script.Source. Words that come
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
	// glob, for a word whose only dynamic part is pathname expansion in
	// bash (glob.go), is 1 + the index of its parsed form in its
	// Script's globs; for a loop's variable, -1 - the index of the loop
	// (loopwords.go); 0 for any other word. (An int32 beside the flags:
	// a Word stays 32 bytes.)
	glob int32
}

// Glob reports a word whose only dynamic part is bash's pathname
// expansion: an unquoted `*`, `?` or `[...]` and nothing else that is
// only known at run time. Script.Expand works out what it expands to.
func (w Word) Glob() bool { return w.glob > 0 }

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

// Command is one simple command found in a script.
type Command struct {
	// Args is the argv as written, wrapper included (`sudo rm -rf /`).
	Args []Word
	// Assigns are the leading `NAME=value` words, and for a command reached
	// through `env` or `sudo`, the assignments those were given.
	Assigns []Assign
	// Redirects of this command. A compound command's redirects (`{ ...; } >f`)
	// are reported on a Command with no Args.
	Redirects []Redirect
	// Offset and End delimit the command in Script.Source (bytes). A command
	// found in re-parsed text has the span of the outer word that held it.
	Offset, End int
	// Text is the source text of the command (for re-parsed code, the inner
	// text).
	Text string

	// Via lists the wrappers and constructs this command was reached through,
	// outermost first: "sudo", "env", "bash -c", "eval", "$(...)", "<(...)",
	// "xargs", "find -exec", "heredoc" ...
	Via []string
	// Parent is the index in Script.Commands of the command whose word or
	// wrapper produced this one, or -1.
	Parent int
	// Inner is the index of the command this one wraps (`sudo X`: X), or -1.
	// A wrapper's own risk (privilege, a file it reads) is its own; what it
	// runs is judged at Inner.
	Inner int

	// Unknown is non-empty when the command runs code that cannot be seen
	// statically: a command name that is dynamic, `eval "$x"`, `sh -c "$(..)"`,
	// `bash script.sh`, `source file`, or text that bash evaluates as code
	// (an arithmetic expression that reads a variable the script did not set
	// to a number, `${!x}`, `${x@P}`, `read 'a[$(id)]'`: see code.go). It
	// says what is unknown. A place that evaluates text is reported as a
	// command of its own, Args a keyword ("((", "$((", "let", "[[",
	// "for ((", "${", "NAME[...]=") and the source text, when it is not a
	// simple command already.
	Unknown string
	// StdinCode is true for a shell or interpreter that reads its program from
	// standard input (`... | sh`, `python3 -`, `bash -s`).
	StdinCode bool
	// Feeders are the indices of commands whose output this command may run
	// as code: the earlier stages of a pipeline into a StdinCode command, or
	// the commands inside a substitution that is an Unknown command's code.
	Feeders []int
	// TrailingArgs is true when more arguments are appended at run time
	// (`xargs CMD`), so Args is not the whole argv.
	TrailingArgs bool
	// Feed, for a command xargs runs with words from its input appended,
	// holds the index of the one simple command of the pipeline stage
	// before xargs, when xargs's options keep each input word whole (-0,
	// -r, -n, -t, -P only): the appended words are what it prints
	// (feed.go). FeedNull: xargs splits its input at NUL bytes (-0),
	// not at blanks and quotes.
	Feed     []int
	FeedNull bool

	// Dir is the directory the command runs in, relative to the working
	// directory of the script ("" for it) or absolute, as earlier `cd`
	// commands of the same shell moved it: logical and cleaned, as bash's
	// cd keeps it. When the command may run in more than one directory (a
	// `cd` before it may have failed or not run: `cd X; cmd`, `false && cd
	// X; cmd`, `cd X & cmd`), Dir is the first and OtherDirs holds the
	// others; its relative paths resolve in each. A directory reached with
	// `cd -P` holds PhysicalMark where bash resolved links: ResolveDir makes
	// it absolute. DirDynamic is set when it may also run somewhere only
	// known at run time (`cd "$X"`, `cd -`, CDPATH set, a loop that moves
	// the shell).
	Dir        string
	OtherDirs  []string
	DirDynamic bool
	// Tainted lists the variables assigned, exported or unset earlier in the
	// same shell, so that those which change what runs (PATH, LD_PRELOAD
	// ...) can be found: by `NAME=`, declare and its kin, `for`/`select`
	// loop variables, arithmetic assignments, read, mapfile/readarray,
	// `printf -v`, getopts, `wait -p`, unset, and `declare -n` targets.
	Tainted []string
	// AfterLink is true when a command that can create a link or put one
	// in place (ln, cp -s/-r/-a, mv, tar -x, unzip, rsync, git checkout ...,
	// see createsLinks) can run before this one in the same script: earlier
	// in it, an earlier stage of a pipeline or pass of a loop, a background
	// job. A path this command names may then be a link that did not exist
	// when the script was checked, so where it leads is only known at run
	// time.
	AfterLink bool
	// StdoutAway is true when the command's standard output is not the
	// script's: a pipeline stage before the last, or inside a compound
	// command whose redirect sends it to a file (`(cmd) > f`, `{ cmd; }
	// &> f`). Its own redirects are in Redirects.
	StdoutAway bool
	// UserFunc is true when the command name is a function the script
	// defines: it runs the script's code, whatever the name says.
	UserFunc bool
	// Glob is what is known of the shell's glob options when the command
	// runs (glob.go): from Options.Glob, changed by shopt and set earlier
	// in the same script, unknown in code another shell runs (`bash -c`)
	// and where a change can come before the command out of order (a
	// loop, a function body, a background job).
	Glob GlobState
}

// Dirs returns every directory the command may run in: Dir, then
// OtherDirs.
func (c *Command) Dirs() []string {
	if len(c.OtherDirs) == 0 {
		return []string{c.Dir}
	}
	return append([]string{c.Dir}, c.OtherDirs...)
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

// IsWrapper reports whether this command runs another one that is listed at
// Inner.
func (c *Command) IsWrapper() bool { return c.Inner >= 0 }

// Script is the result of parsing one shell string or argv.
type Script struct {
	Source   string
	Commands []Command
	// Funcs are the names of the functions the script defines anywhere
	// (`f() {...}`, `function f {...}`): a command of that name runs the
	// script's own code, not the program of that name.
	Funcs []string
	// ForkBombs are the functions (of Funcs) whose body calls the function
	// itself at least twice, at least once in the background or as a
	// stage of a pipeline: `:(){ :|:& };:`.
	ForkBombs []string
	// Values are literal words the script gives a variable other than by
	// a `NAME=value` assignment (whose Assign says it): each word of a
	// `for NAME in WORDS` list, each element of an array assignment
	// `NAME=(WORDS)`, and what `read NAME...` takes from a here-string of
	// static text (bash(1) SHELL BUILTIN COMMANDS, read: split at blanks,
	// the last name taking the rest). A word holding an expansion other
	// than a brace list, a glob or `~` is left out. Nil when there is none.
	Values map[string][]string

	// globs are the parsed forms of the glob words (Word.glob).
	globs []*syntax.Word
	// loops are the loops whose variable words are known (loopwords.go).
	loops []loopInfo
}
