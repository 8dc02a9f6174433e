package shellparse

import (
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one word of a simple command after quote removal (the model's
// type: the shell fills in the words the model reads).
type Word = cmdmodel.Word

// IsGlob reports a word whose only dynamic part is bash's pathname
// expansion: an unquoted `*`, `?` or `[...]` and nothing else that is
// only known at run time. Script.Expand works out what it expands to.
func IsGlob(w Word) bool { return w.Shell > 0 }

// Word.Shell, for a word whose only dynamic part is pathname expansion in
// bash (glob.go), is 1 + the index of its parsed form in its Script's
// globs; for a loop's variable, -1 - the index of the loop
// (loopwords.go); 0 for any other word.

// Command is one simple command found in a script: the command line
// (cmdmodel.Command: Args, Assigns, Redirects, Offset, TrailingArgs) and
// where and how the shell runs it.
type Command struct {
	cmdmodel.Command
	// End is where the command ends in Script.Source (bytes); Offset is
	// where it starts. A command found in re-parsed text has the span of
	// the outer word that held it.
	End int
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

	// globs are the parsed forms of the glob words (Word.Shell).
	globs []*syntax.Word
	// loops are the loops whose variable words are known (loopwords.go).
	loops []loopInfo
}
