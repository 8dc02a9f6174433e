package cmdmodel

import (
	"slices"
	"strings"
	"sync"
)

// wrapperTable is the command model of the commands that run another
// command given as their arguments: their own options (each complete, as
// the version cited parses them), what their option arguments are, and
// where the wrapped command starts. Only the words before the wrapped
// command are theirs; what they run is a command of its own.
//
// Long option lists were checked against the real binaries
// (TestRealTools): getopt_long's ambiguity message lists every option a
// prefix could name, hidden ones included.
var wrapperTable = specTable{entries: []specEntry{
	// env(1), GNU coreutils 9.1 (getopt "+C:iS:u:v0"). `-` alone is -i.
	// -S splits its argument into a command at run time.
	{"env", &Spec{kind: beyond, complete: true, assigns: true,
		flags: "i ignore-environment 0 null v debug list-signal-handling help version",
		args:  "u unset", optional: "default-signal block-signal ignore-signal",
		chdir: "C chdir", split: "S split-string", noRun: "help version"}},
	// sudo(8) 1.9.13 (getopt "+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv").
	// -e edits files (sudoedit), -l lists, -v validates: no command runs.
	// -D/--chdir, -R/--chroot: the command runs elsewhere. NAME=value
	// words may stand among the options, not after `--`, and one that
	// starts with "/" is the command.
	{"sudo", &sudoSpec},
	// doas(1) (OpenBSD, getopt "+a:C:Lnsu:"): -C checks a config file and
	// -L clears persisted authentications; neither runs a command.
	{"doas", &Spec{kind: beyond, complete: true, exact: true, flags: "L n s", args: "a C u", noRun: "C L"}},
	// bash(1) builtins `command [-pVv]`, `builtin`, `exec [-cl] [-a NAME]`.
	{"command", &Spec{kind: beyond, complete: true, exact: true, flags: "p v V help", noRun: "v V help"}},
	{"builtin", &Spec{kind: beyond, complete: true, exact: true, flags: "help", noRun: "help"}},
	{"exec", &Spec{kind: beyond, complete: true, exact: true, flags: "c l help", args: "a", noRun: "help"}},
	// nice(1), GNU coreutils 9.1 (getopt "+n:"); `-N`, `--N`, `-+N` are
	// the obsolete spelling of -n N.
	{"nice", &Spec{kind: beyond, complete: true, args: "n adjustment", flags: "help version", noRun: "help version",
		obsolete: niceObsolete}},
	// nohup(1), GNU coreutils 9.1: only --help and --version. Output goes
	// to ./nohup.out (else $HOME/nohup.out) when standard output is not
	// redirected.
	{"nohup", &Spec{kind: beyond, complete: true, flags: "help version", noRun: "help version", ops: nohupOps}},
	// timeout(1), GNU coreutils 9.1 (getopt "+k:s:v"): DURATION, then the
	// command.
	{"timeout", &Spec{kind: beyond, complete: true, Skip: 1, flags: "v verbose foreground preserve-status help version",
		args: "k kill-after s signal", noRun: "help version"}},
	// time(1), GNU time 1.9 (getopt "+af:o:pqvV"): -o writes the timing.
	{"time", &Spec{kind: beyond, complete: true, flags: "a append p portability q quiet v verbose V version help",
		args: "f format", writes: "o output-file", noRun: "V version help"}},
	// stdbuf(1), GNU coreutils 9.1 (getopt "+i:o:e:").
	{"stdbuf", &Spec{kind: beyond, complete: true, args: "i input o output e error", flags: "help version",
		noRun: "help version"}},
	// setsid(1), util-linux 2.38 (getopt "+cfhwV").
	{"setsid", &Spec{kind: beyond, complete: true, flags: "c ctty f fork w wait h help V version", noRun: "h help V version"}},
	// ionice(1), util-linux 2.38 (getopt "+c:hn:p:P:tu:V"): with -p, -P or
	// -u the operands are process ids, not a command.
	{"ionice", &Spec{kind: beyond, complete: true, flags: "t ignore h help V version",
		args: "c class n classdata p pid P pgid u uid", noRun: "p pid P pgid u uid h help V version"}},
	// busybox(1) 1.35: `busybox APPLET ARGS...`; its own options are
	// spelled whole.
	{"busybox", &Spec{kind: beyond, complete: true, exact: true, flags: "list list-full help", args: "show",
		acts: "install", noRun: "list list-full help show install", applets: true}},
	// watch(1), procps-ng 4.0.2 (getopt "+bced::ghn:pq:tvwx"): without
	// -x the words are joined and run by `sh -c`.
	{"watch", &Spec{kind: beyond, complete: true,
		flags: "b beep c color e errexit g chgexit p precise t no-title w no-wrap x exec h help v version",
		args:  "n interval q equexit", optional: "d differences", noRun: "h help v version", shellUnless: "x exec"}},
	// xargs(1), GNU findutils 4.9 (getopt "+0a:d:E:e::I:i::l::L:n:oprP:s:txv"):
	// -a FILE reads the arguments from FILE.
	{"xargs", &Spec{kind: beyond, complete: true,
		flags:    "0 null o open-tty p interactive r no-run-if-empty t verbose x exit show-limits help version",
		args:     "d delimiter E I L n max-args P max-procs s max-chars process-slot-var",
		optional: "e eof i replace l max-lines", reads: "a arg-file", noRun: "help version", fromInput: true}},
}}

// sudoSpec is sudo's model in wrapperTable, which sudoEdit copies.
var sudoSpec = Spec{kind: beyond, complete: true, assigns: true, interleave: true,
	flags: "A askpass b background B bell E e edit H set-home i login K remove-timestamp k reset-timestamp " +
		"l list N no-update n non-interactive P preserve-groups S stdin s shell V version v validate help",
	args: "a auth-type C close-from c login-class g group host p prompt r role T command-timeout t type " +
		"U other-user u user", optional: "h preserve-env", chdir: "D chdir R chroot",
	noRun: "e edit K remove-timestamp l list V version v validate help"}

// niceObsolete: nice(1) takes `-N`, `--N` and `-+N` as the adjustment N.
func niceObsolete(t string, _ int) bool {
	if len(t) < 2 || t[0] != '-' {
		return false
	}
	k := 1
	if t[1] == '-' || t[1] == '+' {
		k = 2
	}
	return k < len(t) && t[k] >= '0' && t[k] <= '9'
}

// headTailObsolete: head(1) and tail(1) take a first word `-NUM` with an
// optional multiplier and letters (`head -5`, `head -10c`, `tail -5f`) as
// the obsolete spelling of -n/-c. tail's `+NUM` is read as the file it
// is under POSIX 2008 (_POSIX2_VERSION decides), which reads more.
func headTailObsolete(t string, i int) bool {
	if i != 1 || len(t) < 2 || t[0] != '-' || t[1] < '0' || t[1] > '9' {
		return false
	}
	j := 1
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	if j < len(t) && strings.IndexByte("bkm", t[j]) >= 0 {
		j++
	}
	return strings.Trim(t[j:], "clqvzf") == ""
}

// IsWrapper reports whether the model has an entry for name as a wrapper:
// a command that runs the command named by its words.
func IsWrapper(name string) bool { return wrapperTable.has(name) }

// containsField reports whether name is one of the space-separated names
// (and "|" aliases) in list.
func containsField(list, name string) bool {
	for _, g := range strings.Fields(list) {
		for _, n := range strings.Split(g, "|") {
			if n == name {
				return true
			}
		}
	}
	return false
}

// WrapperDir returns the directory a wrapper's options make the wrapped
// command run in: `env -C DIR`/`--chdir=DIR` (env(1)), `sudo -D DIR`/
// `--chdir=DIR`, `sudo -R DIR` (sudo(8)). `sudo -i` starts in the target
// user's home, which is not known here: the directory is dynamic.
func WrapperDir(name string, s *Spec, l *Cmdline) (Word, bool) {
	var dir Word
	found := false
	for _, it := range l.Items {
		switch {
		case containsField(s.chdir, it.Opt) && it.Has:
			dir, found = l.Val(it).Word, true
			if it.Opt == "R" || it.Opt == "chroot" {
				dir = Word{Text: "/", Dynamic: true, Offset: dir.Offset}
			}
		case name == "sudo" && (it.Opt == "i" || it.Opt == "login"):
			dir, found = Word{Text: "~", Dynamic: true, Offset: l.Cmd.Args[0].Offset}, true
		}
	}
	return dir, found
}

// SplitsWith reports whether the wrapper's option opt makes it split a
// string into a command at run time (env -S).
func (s *Spec) SplitsWith(opt string) bool { return containsField(s.split, opt) }

// ArgsFromInput reports whether the wrapper appends words it reads from
// standard input to the command it runs (xargs).
func (s *Spec) ArgsFromInput() bool { return s.fromInput }

// RunsJoinedByShell reports whether the wrapper, as its line l reads,
// runs its command's words joined with spaces by `sh -c` (watch
// without -x).
func (s *Spec) RunsJoinedByShell(l *Cmdline) bool {
	return s.shellUnless != "" && !l.Has(strings.Fields(s.shellUnless)...)
}

// RunsApplets reports whether the wrapper's command is one of its own
// applets, named by its base name (busybox).
func (s *Spec) RunsApplets() bool { return s.applets }

// RunsNothingWith reports whether with the wrapper's option opt it runs
// no command (`sudo -l`, `command -v`).
func (s *Spec) RunsNothingWith(opt string) bool { return containsField(s.noRun, opt) }

// runner is what the model knows of a program, besides the wrappers of
// wrapperTable, whose words hold a command or code.
type runner struct {
	// command: it runs the command its words name, but the shell reader
	// does not unwrap it (chroot(8) NEWROOT COMMAND, expect's
	// unbuffer(1) COMMAND).
	command bool
	// code: it runs its words as code of the shell that runs it (bash(1)
	// eval, source, `.`).
	code bool
}

// runners are the programs of runner. find, awk and sed are not among
// them: their code words (-exec, a program) are read by their models;
// ExactOnly names them.
var runners = map[string]runner{
	"chroot": {command: true}, "unbuffer": {command: true},
	"eval": {code: true}, "source": {code: true}, ".": {code: true},
}

// RunsCommand reports whether name runs the command its words name: a
// wrapper of the model, or one the shell reader does not unwrap.
func RunsCommand(name string) bool { return IsWrapper(name) || runners[name].command }

// RunsWords reports whether name runs whatever program or code its words
// name: a wrapper of the model, or eval, source and `.`.
func RunsWords(name string) bool { return IsWrapper(name) || runners[name].code }

// ExactOnly reports whether an allow rule for name should name the whole
// command, never `name *`: its words are code or another command (the
// programs of RunsWords, find's -exec, awk's and sed's programs).
func ExactOnly(name string) bool {
	switch name {
	case "find", "awk", "gawk", "sed":
		return true
	}
	return RunsWords(name)
}

// subSubcommands lists commands whose first word after the name is itself
// a command taking a name (`npm run test`, `git stash drop`): a rule for
// them keeps two words. git's are the subcommands whose first operand
// names a subcommand of theirs (gitSubSubs) and `git submodule`.
var subSubcommands = sync.OnceValue(func() map[string][]string {
	git := []string{"submodule"}
	for sub := range gitSubSubs() {
		git = append(git, sub)
	}
	return map[string][]string{
		"npm": {"run", "run-script", "exec"}, "pnpm": {"run", "exec"}, "yarn": {"run"}, "bun": {"run"},
		"docker": {"compose"}, "podman": {"compose"}, "git": git,
		"go": {"mod", "tool"}, "cargo": {"run"},
	}
})

// HasSubSubcommands reports whether name's subcommand sub takes a command
// of its own as its next word (`npm run NAME`, `git stash drop`).
func HasSubSubcommands(name, sub string) bool {
	return slices.Contains(subSubcommands()[name], sub)
}

// RaisesPrivilege reports the wrappers that run their command as another
// user (sudo(8), doas(1)): what they add is their own, whatever they run.
func RaisesPrivilege(name string) bool { return name == "sudo" || name == "doas" }

// xargsLiteralOpts are the xargs options (xargs(1)) under which input text
// becomes arguments by plain splitting at blanks and newlines, when it
// holds no quote or backslash: the others (-0, -d, -a, -E, -I ...) change
// what the input is or where it goes.
var xargsLiteralOpts = []string{"r", "no-run-if-empty", "t", "verbose", "n", "max-args", "P", "max-procs",
	"L", "max-lines", "x", "exit", "s", "max-chars", "p", "interactive", "o", "open-tty"}

// XargsSplitsPlainly reports whether xargs, given the options opts (as
// its model names them), makes arguments of its input text by plain
// splitting at blanks and newlines (xargsLiteralOpts).
func XargsSplitsPlainly(opts []string) bool {
	for _, o := range opts {
		if !slices.Contains(xargsLiteralOpts, o) {
			return false
		}
	}
	return true
}
