package cmdmodel

import (
	"slices"
	"strings"
	"sync"
)

// safeEntry is one command of the read-only table.
type safeEntry struct {
	// dynamicOK: the command neither reads named files nor has an option
	// that writes or runs anything, so an argument only known at run time
	// (a variable, a substitution, words appended by xargs) is still safe
	// (`echo $PATH` prints a variable, whatever its value).
	dynamicOK bool
	// args judges the arguments after the name; nil leaves it to the
	// command model (ReadOnly), or accepts any for a dynamicOK
	// command. It sees only static words unless dynamicOK is set.
	args func(args []Word) bool
	// context judges the rest of the command (assignments, the directory
	// it runs in); nil accepts any.
	context func(c *Command, at Place) bool
}

// Place is where the shell runs a command, as far as the read-only table
// asks: Dir and then Others are the directories it may run in, relative
// to the caller's working directory ("" for it) or absolute; Dynamic is
// set when it may also run somewhere only known at run time (`cd "$X"`
// before it).
type Place struct {
	Dir     string
	Others  []string
	Dynamic bool
}

// safeTable is the argument-aware list of commands that only read or print
// without touching anything. Each entry names the man page its argument
// rules come from. Redirects and the files a command reads are judged as
// parts of their own, so an entry only answers "does this command, by its
// name and arguments, change nothing and run nothing else".
//
// Left out on purpose: `less`/`more`/`man` (pagers run commands with `!`),
// `perl`/`python` (run arbitrary code: `system()`), `xargs`/`env`
// with a command (wrappers, judged through what they run), `hash` (`-p`
// rebinds a command name), `tee` (writes).
var safeTable = map[string]safeEntry{
	// ls(1), dir(1), vdir(1): list directories; no option writes.
	"ls":   {},
	"dir":  {},
	"vdir": {},
	// tree(1): -o writes the listing to a file; -R runs tree again with
	// `-o 00Tree.html` in every directory.
	"tree": {},
	// cat(1), head(1), tail(1), wc(1), nl(1), tac(1), rev(1): print files.
	"cat":  {},
	"head": {},
	"tail": {},
	"wc":   {},
	"nl":   {},
	"tac":  {},
	"rev":  {},
	// grep(1), egrep, fgrep: search files; GNU and BSD grep have no option
	// that writes or runs a program.
	"grep":  {},
	"egrep": {},
	"fgrep": {},
	// rg(1): --pre runs a preprocessor, --hostname-bin runs a program,
	// -z/--search-zip runs decompressors found on PATH. Its config file
	// (RIPGREP_CONFIG_PATH) is a risky variable, see riskyVar.
	"rg": {},
	// find(1) ACTIONS: -exec*, -ok* run commands, -delete removes,
	// -fprint*, -fls write files.
	"find": {args: findArgs},
	// sed(1): only -n with a script that selects and prints (see sedArgs);
	// never -i/--in-place, -f (a script the gate cannot see), or the w, W,
	// e, r, R commands.
	"sed": {args: sedArgs},
	// awk(1), gawk(1), mawk(1): only a program the command model reads
	// whole that runs nothing and writes no file (shellparse awk.go:
	// system(), print | and > redirects, getline from a command).
	"awk":  {},
	"gawk": {},
	"mawk": {},
	"nawk": {},
	// sort(1): -o/--output writes a file, --compress-program runs one.
	"sort": {},
	// uniq(1): `uniq IN OUT` writes OUT, so at most one file operand.
	"uniq": {},
	// cut(1), paste(1), column(1), comm(1), join(1), fold(1), fmt(1),
	// expand(1), unexpand(1): filter text to standard output. (column -o is
	// util-linux's output separator, a string.)
	"cut":      {},
	"paste":    {},
	"column":   {},
	"comm":     {},
	"join":     {},
	"fold":     {},
	"fmt":      {},
	"expand":   {},
	"unexpand": {},
	// tr(1): reads only standard input; its operands are character sets.
	"tr": {dynamicOK: true},
	// diff(1): -l/--paginate pipes the output through pr(1) found on PATH.
	"diff": {},
	// cmp(1): compares files to standard output.
	"cmp": {},
	// stat(1), du(1), df(1), realpath(1), readlink(1): file metadata.
	"stat":     {},
	"du":       {},
	"df":       {},
	"realpath": {},
	"readlink": {},
	// file(1): -m/--magic-file and -f/--files-from name files to load,
	// -C/--compile writes a compiled magic file, -z/-Z (--uncompress*) may
	// run decompressors found on PATH.
	"file": {},
	// od(1), hexdump(1), strings(1): dump files to standard output.
	"od":      {},
	"hexdump": {},
	"strings": {},
	// xxd(1): `xxd IN OUT` writes OUT, so at most one file operand.
	"xxd": {},
	// md5sum(1), sha*sum(1), b2sum(1), cksum(1), sum(1), shasum(1),
	// md5(1): checksums; -c only reads the list and the files.
	"md5sum":    {},
	"sha1sum":   {},
	"sha224sum": {},
	"sha256sum": {},
	"sha384sum": {},
	"sha512sum": {},
	"b2sum":     {},
	"cksum":     {},
	"sum":       {},
	"shasum":    {},
	"md5":       {},
	// base64(1): BSD/macOS -o/--output writes a file.
	"base64": {},
	// jq(1): filters JSON; it has no builtin that writes or runs a program
	// (-f, --rawfile, --slurpfile and -L only read).
	"jq": {},
	// echo(1), pwd(1), true(1), false(1), `:`, test(1)/[, which(1),
	// type/cd/command -v (bash(1) SHELL BUILTIN COMMANDS), whoami(1), id(1),
	// uname(1), basename(1), dirname(1), seq(1), expr(1), numfmt(1),
	// nproc(1), arch(1), groups(1), tty(1), sleep(1), printenv(1): print
	// or test something; no option writes or runs anything.
	"echo":  {dynamicOK: true},
	"pwd":   {dynamicOK: true},
	"true":  {dynamicOK: true},
	"false": {dynamicOK: true},
	// exit and return (bash(1) SHELL BUILTIN COMMANDS) end the shell or
	// function with a status: safe with none or a static number.
	"exit":     {args: exitArgs},
	"return":   {args: exitArgs},
	":":        {dynamicOK: true},
	"test":     {dynamicOK: true},
	"[":        {dynamicOK: true},
	"which":    {dynamicOK: true},
	"type":     {dynamicOK: true},
	"cd":       {dynamicOK: true},
	"command":  {dynamicOK: true, args: commandArgs},
	"whoami":   {dynamicOK: true},
	"id":       {dynamicOK: true},
	"uname":    {dynamicOK: true},
	"basename": {dynamicOK: true},
	"dirname":  {dynamicOK: true},
	"seq":      {dynamicOK: true},
	"expr":     {dynamicOK: true},
	"numfmt":   {dynamicOK: true},
	"nproc":    {dynamicOK: true},
	"arch":     {dynamicOK: true},
	"groups":   {dynamicOK: true},
	"tty":      {dynamicOK: true},
	"sleep":    {dynamicOK: true},
	"printenv": {dynamicOK: true},
	// printf (bash(1) builtin): -v VAR assigns a variable instead of
	// printing; it can only come first, so the first word must be static.
	"printf": {dynamicOK: true, args: printfArgs},
	// env(1) reaches this table only when it runs no command (the parser
	// unwraps it otherwise): it prints the environment. A dynamic word
	// could split into a command, so it is not dynamicOK.
	"env": {args: envArgs},
	// date(1): -s/--set or an operand that is not `+FORMAT` sets the clock
	// (BSD: also with -f); only the display options are accepted.
	"date": {args: dateArgs},
	// hostname(1): an operand, -F or -b sets the host name; only the
	// display options are accepted.
	"hostname": {args: hostnameArgs},
	// git(1): read-only subcommands only, see gitArgs, run in the
	// current directory's repository (gitContext).
	"git": {args: gitArgs, context: gitContext},
	// go(1): `go version` and `go env` print (goArgs); `go env -w/-u`
	// write the user's go env file, every other subcommand builds or
	// runs code.
	"go": {args: goArgs},
	// ps(1) (procps-ng, BSD): lists processes; only display options
	// (psArgs), never BSD `e` or -E, which print other processes'
	// environments (their secrets).
	"ps": {args: psArgs},
	// pip(1) list, freeze, show: print installed packages from the
	// installed metadata (pipArgs); list -o/-u ask the package index.
	"pip":  {args: pipArgs},
	"pip3": {args: pipArgs},
	// python(1), node(1), perl(1), gcc(1), make(1) with only the option
	// that prints the version (VersionOnly); npm(1) also `npm
	// ls` (npmArgs).
	"python":  versionOnly,
	"python3": versionOnly,
	"node":    versionOnly,
	"perl":    versionOnly,
	"gcc":     versionOnly,
	"g++":     versionOnly,
	"cc":      versionOnly,
	"clang":   versionOnly,
	"make":    versionOnly,
	"npm":     {args: npmArgs},
}

// versionOnly is the entry of a program that is safe only printing its
// version (VersionOnly judges the one word, as context).
var versionOnly = safeEntry{context: func(c *Command, _ Place) bool { return VersionOnly(c) }, args: func([]Word) bool { return true }}

// npmArgs accepts `npm --version`/`-v` and `npm ls` (npm-ls(1), npm 10:
// also list, ll, la), which prints the installed packages from
// node_modules, with only display options and package names; it runs no
// script.
func npmArgs(args []Word) bool {
	if len(args) == 1 && (args[0].Text == "-v" || args[0].Text == "--version") {
		return true
	}
	if len(args) == 0 || !slices.Contains([]string{"ls", "list", "ll", "la"}, args[0].Text) {
		return false
	}
	for i := 1; i < len(args); i++ {
		t := args[i].Text
		name, _, hasVal := strings.Cut(t, "=")
		switch {
		case slices.Contains([]string{"-a", "--all", "--json", "-l", "--long", "-p", "--parseable", "--link",
			"--unicode", "--no-unicode", "--prod", "--production", "--dev", "--package-lock-only", "-g", "--global"}, t):
		case slices.Contains([]string{"--depth", "--omit", "--include", "-w", "--workspace"}, name):
			if !hasVal {
				i++
			}
		case !strings.HasPrefix(t, "-") && !strings.Contains(t, ".."):
		default:
			return false
		}
	}
	return true
}

// goReadOnlyFlags are the flags goArgs accepts, by subcommand.
var goReadOnlyFlags = map[string][]string{"version": {"-m", "-v"}, "env": {"-json", "-changed"}}

// goArgs accepts `go version [-m] [-v]` and `go env [-json] [-changed]
// [NAME...]` (go help version, go help env): no operand files, never
// -w/-u, which write the go env file.
func goArgs(args []Word) bool {
	if len(args) == 0 {
		return false
	}
	flags := goReadOnlyFlags[args[0].Text]
	if flags == nil {
		return false
	}
	for _, w := range args[1:] {
		t := w.Text
		switch {
		case strings.HasPrefix(t, "-"):
			if !slices.Contains(flags, strings.Replace(t, "--", "-", 1)) {
				return false
			}
		case args[0].Text == "env" && envName(t):
		default:
			return false
		}
	}
	return true
}

// envName: an environment variable's name as go env takes it.
func envName(t string) bool {
	for i, c := range t {
		if c != '_' && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return t != ""
}

// The options psArgs accepts (procps-ng ps(1)): UNIX letters without and
// with an argument, BSD letters, long options without and with one.
const psUnix, psWithArg, psBSD = "AaedfFlLjHTwyNcM", "oOpuUgGCtq", "auxwfjlvrcSHhmT"

var (
	psLong    = []string{"forest", "no-headers", "headers", "help", "version", "cumulative"}
	psLongArg = []string{"sort", "format", "pid", "ppid", "user", "User", "group", "Group", "cols", "columns", "width", "lines", "rows", "tty", "sid"}
)

// psArgs accepts the display options of ps(1) (procps-ng; most also BSD):
// UNIX options (`-ef`, `-eo pid,cmd`, `-p 1`, `-u root`, `--sort=-rss`),
// BSD letters (`aux`, `axjf`); never BSD `e`, -E or the `environ`
// format, which print other processes' environments.
func psArgs(args []Word) bool {
	unix, withArg, bsd, long, longArg := psUnix, psWithArg, psBSD, psLong, psLongArg
	for _, w := range args {
		if strings.Contains(strings.ToLower(w.Text), "env") {
			return false
		}
	}
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		switch {
		case strings.HasPrefix(t, "--"):
			name, _, hasVal := strings.Cut(t[2:], "=")
			switch {
			case slices.Contains(long, name) && !hasVal:
			case slices.Contains(longArg, name):
				if !hasVal {
					i++
				}
			default:
				return false
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				c := t[j]
				if strings.IndexByte(withArg, c) >= 0 {
					if j == len(t)-1 {
						i++
					}
					break
				}
				if strings.IndexByte(unix, c) < 0 {
					return false
				}
			}
		default:
			for j := 0; j < len(t); j++ {
				if strings.IndexByte(bsd, t[j]) < 0 {
					return false
				}
			}
		}
	}
	return true
}

// pipReadOnlyFlags are the options pipArgs accepts, by subcommand.
var pipReadOnlyFlags = map[string][]string{
	"list": {"-l", "--local", "--user", "--not-required", "--exclude-editable", "--include-editable", "-e", "--editable",
		"--format=columns", "--format=freeze", "--format=json", "-v", "--verbose", "-q", "--quiet"},
	"freeze": {"-l", "--local", "--user", "--all", "--exclude-editable", "-v", "-q"},
	"show":   {"-f", "--files", "-v", "--verbose", "-q"},
}

// pipArgs accepts `pip list`, `pip freeze` and `pip show NAME...` with
// display options only (pip(1)): no -o/--outdated, -u/--uptodate, which
// ask the package index, and no global options (--index-url, --proxy,
// --cert, -r, --path ...).
func pipArgs(args []Word) bool {
	if len(args) == 0 {
		return false
	}
	sub := args[0].Text
	flags, ok := pipReadOnlyFlags[sub]
	if !ok {
		return false
	}
	for _, w := range args[1:] {
		t := w.Text
		switch {
		case strings.HasPrefix(t, "-"):
			if !slices.Contains(flags, t) {
				return false
			}
		case sub == "show" && t != "" && !strings.ContainsAny(t, "/\\"):
		default:
			return false
		}
	}
	return true
}

// Safe reports whether a simple command only reads or prints, by
// safeTable, c running at the place at. The caller has checked that the
// name is a bare word resolved outside the roots and that the shell sees
// all the code the command runs; a word that is a process substitution
// is given as the path bash passes for it.
func Safe(c *Command, at Place) bool {
	if len(c.Args) == 0 {
		return false
	}
	entry, ok := safeTable[c.Args[0].Text]
	if !ok {
		return false
	}
	args := c.Args[1:]
	if !entry.dynamicOK {
		// A dynamic word could be a file to read (Read rules cannot be
		// checked) or the dangerous option; after `cd "$X"` every relative
		// path is dynamic.
		if c.HasDynamic(1) || c.TrailingArgs || at.Dynamic {
			return false
		}
	} else if c.TrailingArgs {
		// Words appended at run time (xargs) are dynamic words at the end.
		args = append(args[:len(args):len(args)], Word{Dynamic: true})
	}
	if entry.context != nil && !entry.context(c, at) {
		return false
	}
	if entry.args != nil {
		return entry.args(args)
	}
	if entry.dynamicOK {
		return true
	}
	// The command model decides: every option known, none that writes
	// or runs anything, no operand written.
	ro, _ := ReadOnly(c)
	return ro
}

// findArgs refuses find's actions that delete or write (find(1) ACTIONS:
// -delete, -fprint, -fprint0, -fprintf, -fls) or ask on the terminal
// (-ok, -okdir). -exec and -execdir are accepted: the command each runs
// is a command of its own (`{}` standing for the paths found), judged on
// its own. The expression is read by find's model (readFind), and a
// primary is matched by prefix, so any word find would take for a
// primary starting like one of the refused actions is refused.
func findArgs(args []Word) bool {
	for _, p := range readFind(args, wordText).prims {
		t := p.name
		for _, pre := range []string{"-ok", "-delete", "-fprint", "-fls"} {
			if strings.HasPrefix(t, pre) {
				return false
			}
		}
		if strings.HasPrefix(t, "-exec") && t != "-exec" && t != "-execdir" {
			return false
		}
	}
	return true
}

// commandArgs: `command` reaches the table only when it runs nothing
// (bash(1): `command -v`/`-V` describe a name). One name only: the peers
// refuse `command -V git reset --hard`, which reads like a command.
func commandArgs(args []Word) bool {
	describe, names := false, 0
	for _, w := range args {
		t := w.Text
		switch {
		case strings.HasPrefix(t, "-") && len(t) > 1 && strings.Trim(t[1:], "pvV") == "":
			describe = describe || strings.ContainsAny(t, "vV")
		default:
			names++
		}
	}
	return describe && names == 1
}

// printfArgs refuses `printf -v VAR` (bash(1): assigns instead of
// printing) and a dynamic first word, which could split into `-v`.
func printfArgs(args []Word) bool {
	if len(args) == 0 {
		return true
	}
	first := args[0]
	return !first.Dynamic && !strings.HasPrefix(first.Text, "-v")
}

// dateArgs accepts only display options and `+FORMAT` operands (date(1),
// GNU and BSD): -s/--set, an operand that is a date, and BSD's -f with a
// date set the system clock.
func dateArgs(args []Word) bool {
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		switch {
		case strings.HasPrefix(t, "+"):
		case t == "--":
			for _, w := range args[i+1:] {
				if !strings.HasPrefix(w.Text, "+") {
					return false
				}
			}
			return true
		case t == "-d" || t == "-r" || t == "-v" || t == "--date" || t == "--reference":
			i++ // the value: a date string, a file or a BSD display adjustment
		case strings.HasPrefix(t, "--date=") || strings.HasPrefix(t, "--reference=") ||
			strings.HasPrefix(t, "--iso-8601") || strings.HasPrefix(t, "--rfc-3339="):
		case strings.HasPrefix(t, "-d") || strings.HasPrefix(t, "-r") || strings.HasPrefix(t, "-v") ||
			strings.HasPrefix(t, "-I"):
		case t == "-u" || t == "--utc" || t == "--universal" || t == "-R" || t == "--rfc-2822" ||
			t == "--rfc-email" || t == "-j" || t == "--debug":
		default:
			return false
		}
	}
	return true
}

// hostnameDisplay are hostname(1)'s display options.
var hostnameDisplay = []string{"-s", "--short", "-f", "--fqdn", "--long", "-d", "--domain", "-i", "--ip-address",
	"-I", "--all-ip-addresses", "-A", "--all-fqdns", "-a", "--alias"}

// hostnameArgs accepts only the display options of hostname(1) (Linux
// net-tools/inetutils and BSD); an operand, -F and -b set the name.
func hostnameArgs(args []Word) bool {
	for _, w := range args {
		if !slices.Contains(hostnameDisplay, w.Text) {
			return false
		}
	}
	return true
}

// sedArgs accepts sed(1) only with -n (--quiet, --silent) and a script that
// selects and prints (sedPrintOnly). Options are looked for in every word,
// since GNU sed takes them after operands too (`sed -n 1p f -i`). Refused:
// -i/--in-place, -f/--file, -l (GNU takes a value, BSD does not), and any
// option not listed here.
func sedArgs(args []Word) bool {
	quiet, haveE := false, false
	var scripts, operands []string
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		switch {
		case t == "--":
			for _, w := range args[i+1:] {
				operands = append(operands, w.Text)
			}
			i = len(args)
		case strings.HasPrefix(t, "--"):
			name, val, hasVal := strings.Cut(t[2:], "=")
			switch name {
			case "quiet", "silent":
				quiet = true
			case "expression":
				if !hasVal {
					i++
					if i >= len(args) {
						return false
					}
					val = args[i].Text
				}
				scripts, haveE = append(scripts, val), true
				continue
			case "regexp-extended", "separate", "unbuffered", "null-data", "posix", "sandbox", "debug":
			default:
				return false
			}
			if hasVal {
				return false
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
		cluster:
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'n':
					quiet = true
				case 'E', 'r', 's', 'u', 'z':
				case 'e':
					val := t[j+1:]
					if val == "" {
						i++
						if i >= len(args) {
							return false
						}
						val = args[i].Text
					}
					scripts, haveE = append(scripts, val), true
					break cluster
				default:
					return false
				}
			}
		default:
			operands = append(operands, t)
		}
	}
	if !haveE {
		if len(operands) == 0 {
			return false
		}
		scripts = operands[:1]
	}
	return quiet && sedPrintOnly(strings.Join(scripts, "\n"))
}

// gitHarmlessGlobals are git(1)'s global options that change nothing but
// how git reads, by their names in the command model
// (shellparse/git_table.go). Not --bare: it makes the current directory
// the git directory, whose config would then run; not -p/--paginate, -c,
// --config-env, --exec-path, --git-dir, --work-tree (the model marks them
// as acting). -C is accepted only for the current directory.
var gitHarmlessGlobals = []string{"P", "no-pager", "no-replace-objects", "literal-pathspecs", "glob-pathspecs",
	"noglob-pathspecs", "icase-pathspecs", "no-optional-locks", "no-advice", "no-lazy-fetch", "namespace", "C"}

// gitArgs accepts git(1) with only harmless global options and a
// read-only subcommand of gitSubcommands, every word read by the command
// model (ReadGitLine): an option the model does not know, an
// ambiguous abbreviation or a missing value makes it not safe, and so does
// any option the model marks as writing or running something (--output,
// --ext-diff, --textconv, --show-signature, grep -O, blame -S, --help
// ...), or a `%G` format placeholder (runs gpg, ssh-keygen or gpgsm).
//
// Another directory is another repository: `-C DIR`, --git-dir and
// --work-tree can point git at a directory shaped like a git directory
// (HEAD, objects/, refs/) that the agent wrote, whose config runs
// programs (core.fsmonitor, core.pager, diff.external). The table does
// not know the project root, so only `-C .` (or `-C ""`, which git
// ignores) is accepted.
func gitArgs(args []Word) bool {
	g, hasSub := ReadGitLine(&Command{Args: append([]Word{{Text: "git"}}, args...)})
	if !g.Global.Understood() {
		return false
	}
	for _, o := range g.Global.Options() {
		if !slices.Contains(gitHarmlessGlobals, o) && (o != "version" || hasSub) {
			return false
		}
	}
	for _, d := range g.Global.Values("C") {
		if !gitHere(d.Text) {
			return false
		}
	}
	if !hasSub {
		return g.Global.Has("version") // `git --version`; `git` alone prints usage
	}
	sub, ok := gitSubcommands()[g.Sub]
	if !ok || !g.Line.Understood() || len(g.Line.Acting()) > 0 {
		return false
	}
	for _, w := range args {
		if strings.Contains(w.Text, "%G") {
			return false
		}
	}
	return sub.args == nil || sub.args(g.Line)
}

// gitHere reports whether a directory given to git names the current
// directory: "", ".", "./", "./.".
func gitHere(dir string) bool {
	if strings.HasPrefix(dir, "/") {
		return false
	}
	for _, c := range strings.Split(dir, "/") {
		if c != "" && c != "." {
			return false
		}
	}
	return true
}

// gitContext accepts git only in the directory the call runs in (not
// after `cd DIR`, see gitArgs) and without GIT_* assignments (GIT_DIR,
// GIT_WORK_TREE, GIT_CONFIG_* choose another repository or config; the
// safe layer refuses them as risky variables too).
func gitContext(c *Command, at Place) bool {
	if at.Dynamic {
		return false
	}
	for _, d := range append([]string{at.Dir}, at.Others...) {
		if !gitHere(d) {
			return false
		}
	}
	for _, a := range c.Assigns {
		if strings.HasPrefix(a.Name, "GIT_") {
			return false
		}
	}
	return true
}

// gitSub is the rule of one git subcommand.
type gitSub struct {
	// args judges the form (listing only, no operand ...) from the
	// command line as the model read it; nil accepts every form.
	args func(Line) bool
}

// gitSubcommands are the read-only subcommands by their names in the
// command model, each with the source of its rule (git-<name>(1)).
// Options that write or run something are refused by gitArgs, for all.
// Built on first use (start-up: most calls never look it up).
var gitSubcommands = sync.OnceValue(func() map[string]gitSub {
	return map[string]gitSub{
		// git-status, git-log, git-diff, git-show, git-shortlog, git-rev-list:
		// read the repository. `git log -p` is fine.
		"status":   {},
		"log":      {},
		"diff":     {},
		"show":     {},
		"shortlog": {},
		"rev-list": {},
		// git-rev-parse, git-ls-files, git-ls-tree, git-show-ref,
		// git-merge-base, git-describe, git-blame, git-version: read only.
		"rev-parse":  {},
		"ls-files":   {},
		"ls-tree":    {},
		"show-ref":   {},
		"merge-base": {},
		"describe":   {},
		"blame":      {},
		"version":    {},
		// git-grep: -O/--open-files-in-pager (a pager program) is acting.
		"grep": {},
		// git-cat-file: only -t, -s, -e, -p (see catFileArgs).
		"cat-file": {args: catFileArgs},
		// git-branch: the listing forms only (see gitBranch).
		"branch": {args: gitBranch},
		// git-tag: listing only, -l/--list or no operand; -d, -a, -s, -f, -v
		// ... create, delete or verify (runs gpg).
		"tag": {args: gitTag},
		// git-remote: no argument or -v/--verbose, and get-url; `remote show`
		// and `update`/`prune` contact the network, the others write config.
		"remote":         {args: noOperands},
		"remote get-url": {},
		// git-reflog: show (alone or named) and exists; expire, delete, drop,
		// write change it.
		"reflog":        {args: gitReflog},
		"reflog show":   {},
		"reflog exists": {},
		// git-stash: only list and show.
		"stash list": {},
		"stash show": {},
		// git-worktree: only list.
		"worktree list": {},
		// git-config: only the forms that read (see gitConfig).
		"config": {args: gitConfig},
		// git-for-each-ref: prints refs; a signature atom runs gpg (see
		// gitForEachRef).
		"for-each-ref": {args: gitForEachRef},
		// git-check-attr: prints the attributes of paths (.gitattributes,
		// which the effects read), never runs a filter or driver.
		"check-attr": {},
	}
})

// gitConfig accepts the forms of git-config(1) (git 2.39) that only
// read the configuration git itself reads: --get, --get-all,
// --get-regexp, --get-urlmatch, --get-color, --get-colorbool, -l/--list,
// or one NAME alone (a get), with only options that choose the scope or
// the way values print. Refused: --add, --replace-all, --unset*,
// --rename-section, --remove-section, -e, NAME VALUE (write), any
// negation (`--no-list` turns a list back into a write), and -f/--file,
// --blob (another file or object, which Read rules would not see).
func gitConfig(l Line) bool {
	for _, o := range l.Options() {
		if !slices.Contains(gitConfigReading, o) && !slices.Contains(gitConfigGets, o) {
			return false
		}
	}
	return l.Has(gitConfigGets...) || len(l.Operands()) == 1
}

// gitConfigGets are git-config(1)'s actions that only read.
var gitConfigGets = []string{"get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool", "l", "list"}

// gitConfigReading are git-config(1)'s options that choose the scope or
// how values print.
var gitConfigReading = []string{"global", "system", "local", "worktree", "fixed-value", "t", "type", "bool", "int",
	"bool-or-int", "bool-or-str", "path", "expiry-date", "z", "null", "name-only", "includes", "show-origin",
	"show-scope", "default"}

// gitForEachRef accepts git-for-each-ref(1) with its listing options and
// patterns; a `signature` atom in --format or --sort is refused as in
// gitListMode, and so are the quoting options, which only matter to
// output meant to be run.
func gitForEachRef(l Line) bool {
	for _, o := range l.Options() {
		if !slices.Contains([]string{"count", "format", "sort", "points-at", "color", "merged", "no-merged",
			"contains", "no-contains", "ignore-case"}, o) {
			return false
		}
	}
	for _, v := range l.Values("format", "sort") {
		if strings.Contains(v.Text, "signature") {
			return false
		}
	}
	return true
}

// noOperands accepts a command line with options only.
func noOperands(l Line) bool { return len(l.Operands()) == 0 }

// catFileArgs accepts `git cat-file -t|-s|-e OBJECT` and the printing
// forms (-p, or `git cat-file TYPE OBJECT`) of an object named by a path
// (`HEAD:README.md`, whose file the effects judge); printing an object
// named by its id may print any file's content, unseen by Read rules.
func catFileArgs(l Line) bool {
	for _, o := range l.Options() {
		if !slices.Contains([]string{"t", "s", "e", "p"}, o) {
			return false
		}
	}
	if l.Has("t", "s", "e") && !l.Has("p") {
		return true
	}
	for _, w := range l.Operands() {
		if IsObjectID(w.Text) {
			return false
		}
	}
	return true
}

// gitBranch accepts `git branch` only in list mode (builtin/branch.c,
// git-branch(1)): no option that deletes, moves, copies, creates, forces or
// sets upstream; name operands only with -l/--list or a filter (--contains,
// --merged, --points-at), which make them patterns. -v does not imply list
// mode (`git branch -v NAME` creates NAME).
func gitBranch(l Line) bool {
	return gitListMode(l, []string{"a", "all", "r", "remotes", "v", "verbose", "q", "quiet", "show-current",
		"i", "ignore-case", "color", "no-color", "column", "no-column", "abbrev", "no-abbrev", "sort", "no-sort",
		"format", "no-format", "no-all", "no-remotes", "no-verbose", "no-quiet", "no-ignore-case", "no-show-current",
		"no-points-at", "no-list"}, gitRefFilters)
}

// gitRefFilters are the options that put `git branch` and `git tag` in
// list mode, making their operands patterns.
var gitRefFilters = []string{"l", "list", "contains", "no-contains", "with", "without", "merged", "no-merged",
	"points-at"}

// gitTag accepts `git tag` only in list mode (builtin/tag.c, git-tag(1)):
// -l/--list or a filter (--contains, --merged, --points-at) makes operands
// patterns; without them, no operand at all. The other options create,
// delete or verify tags (-v runs gpg).
func gitTag(l Line) bool {
	return gitListMode(l, []string{"n", "sort", "no-sort", "format", "no-format", "column", "no-column", "i",
		"ignore-case", "no-ignore-case", "color", "no-color", "no-points-at"}, gitRefFilters)
}

// gitListMode accepts only the options of a listing (by their names in
// the command model) and the filters that make it one; operands only in
// list mode. A format or sort key naming ref-filter's signature atom
// (`%(signature:grade)`, `--sort=signature`; git-for-each-ref(1) FIELD
// NAMES, newer git) is refused: it verifies the commit's signature with
// gpg, ssh-keygen or gpgsm, as `%G` does in git log.
func gitListMode(l Line, listing, filters []string) bool {
	for _, o := range l.Options() {
		if !slices.Contains(listing, o) && !slices.Contains(filters, o) {
			return false
		}
	}
	for _, v := range l.Values("format", "sort") {
		if strings.Contains(v.Text, "signature") {
			return false
		}
	}
	return len(l.Operands()) == 0 || l.Has(filters...)
}

// envArgs accepts env(1) without a command: options that only change the
// environment it prints (-i, -0, -u NAME) and NAME=value words.
func envArgs(args []Word) bool {
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		switch {
		case t == "-u" || t == "--unset":
			i++
		case t == "-", t == "--ignore-environment", t == "--null", strings.HasPrefix(t, "--unset="),
			strings.HasPrefix(t, "-u"):
		case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--"):
			if strings.Trim(t[1:], "i0") != "" {
				return false
			}
		case envAssign(t):
		default:
			return false
		}
	}
	return true
}

func envAssign(t string) bool {
	name, _, ok := strings.Cut(t, "=")
	if !ok || name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// gitReflog accepts `git reflog [<log-options>] [<ref>]`, which is
// `reflog show` (git-reflog(1)); a first operand that names another
// subcommand (expire, delete, drop, write) changes the reflog.
func gitReflog(l Line) bool {
	ops := l.Operands()
	return len(ops) == 0 || !slices.Contains([]string{"expire", "delete", "drop", "write", "list"}, ops[0].Text)
}

// exitArgs accepts `exit`/`return` with no status or one static decimal
// status (bash reads a status word as a number, never as arithmetic).
func exitArgs(args []Word) bool {
	if len(args) == 0 {
		return true
	}
	if len(args) > 1 || args[0].Dynamic {
		return false
	}
	t := strings.TrimPrefix(args[0].Text, "-")
	if t == "" || len(t) > 10 {
		return false
	}
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
