package cmdmodel

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// This file holds the commands that need the network and those that throw
// away a project's work: the facts the sandbox's auto-allow asks of a
// command before it runs it confined without asking.

// networkCommands are commands that need the network to do their work:
// name → the subcommands that do (nil: every use). A call holding one is
// never auto-allowed while the sandbox has no network: confined, it would
// only fail.
// Built on first use (start-up: most calls never look it up).
var networkCommands = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"curl": nil, "wget": nil, "ssh": nil, "scp": nil, "sftp": nil, "rsync": nil, "nc": nil, "ncat": nil,
		"telnet": nil, "ftp": nil, "ping": nil, "dig": nil, "nslookup": nil, "host": nil, "npx": nil,
		"gh": nil, "gcloud": nil, "aws": nil, "az": nil, "kubectl": nil, "helm": nil,
		"git":     {"push", "fetch", "clone", "pull", "ls-remote", "submodule", "remote"},
		"pip":     {"install", "download"},
		"pip3":    {"install", "download"},
		"uv":      {"add", "sync", "lock", "pip", "tool"},
		"poetry":  {"install", "add", "update", "lock"},
		"npm":     {"install", "i", "ci", "add", "update", "publish", "view", "info"},
		"pnpm":    {"install", "i", "add", "update"},
		"yarn":    {"install", "add", "upgrade"},
		"cargo":   {"install", "fetch", "update", "publish", "search"},
		"go":      {"get", "install", "mod"},
		"apt":     {"install", "update", "upgrade", "download"},
		"apt-get": {"install", "update", "upgrade", "download"},
		"brew":    {"install", "update", "upgrade"},
		"docker":  {"pull", "push", "login"},
	}
})

// NeedsNetwork reports whether a simple command is a known network tool:
// one of networkCommands (in the subcommands listed) or a downloader.
func NeedsNetwork(c *Command) bool {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return false
	}
	if fetchers[c.Name()] {
		return true
	}
	subs, ok := networkCommands()[c.Name()]
	if !ok {
		return false
	}
	if subs == nil {
		return true
	}
	args := c.Args[1:]
	if c.Name() == "git" {
		if stripped, ok := StripGitGlobals(c.Args); ok {
			args = stripped[1:]
		}
	}
	for _, a := range args {
		if strings.HasPrefix(a.Text, "-") {
			continue
		}
		for _, s := range subs {
			if a.Text == s {
				return true
			}
		}
		return false
	}
	return false
}

// projectDestroyers are git subcommands that throw away uncommitted work
// or history inside the project, which the sandbox leaves writable, or
// move refs: a call holding one keeps asking even with auto_allow. Those
// listed here do so in any use.
var projectDestroyers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"clean": true, "restore": true, "rebase": true, "filter-branch": true, "update-ref": true,
		"symbolic-ref": true, "prune": true, "replace": true,
	}
})

// gitDestroyers are the git subcommands that throw away work in some of
// their forms (DestroysProjectWork says which): each with the options,
// in every spelling git's model lists (git_table.go), that make it throw
// work away or move a ref. Their command lines are read by that model.
var gitDestroyers = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"checkout":       "f force B 2 ours 3 theirs pathspec-from-file",
		"switch":         "C force-create discard-changes f force",
		"branch":         "D f force M C",
		"reset":          "hard merge keep",
		"rm":             "",
		"gc":             "prune",
		"read-tree":      "u reset",
		"checkout-index": "f force",
		"stash":          "",
		"reflog":         "",
	}
})

// DestroysProjectWork reports a command that throws away the project's
// uncommitted work or history (git's forms that do, read as git reads
// its options), or shreds or find-deletes files. exists reports whether a
// name is a path in a directory the command may run in (or where that
// directory is not known): a `git checkout NAME` whose NAME is one
// overwrites that path. Anything not understood counts.
func DestroysProjectWork(c *Command, exists func(name string) bool) bool {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return false
	}
	switch strings.ToLower(c.Name()) {
	case "shred":
		return true
	case "find":
		return FindDeletes(c.Args[1:])
	case "git", "git.exe":
		args := c.Args
		stripped, hasGlobals := StripGitGlobals(c.Args)
		if hasGlobals {
			args = stripped
		}
		if len(args) < 2 {
			return false
		}
		if args[1].Dynamic {
			return true
		}
		sub := strings.ToLower(args[1].Text)
		if projectDestroyers()[sub] {
			return true
		}
		destroy, ok := gitDestroyers()[sub]
		if !ok {
			return false
		}
		switch sub {
		case "stash", "reflog":
			// The first word that is no option names the action.
			for _, a := range args[2:] {
				if a.Dynamic {
					return true
				}
				if !strings.HasPrefix(a.Text, "-") {
					return slices.Contains([]string{"drop", "clear", "pop", "expire", "delete"}, a.Text)
				}
			}
			return false
		}
		if slices.ContainsFunc(args[2:], func(w Word) bool { return w.Dynamic }) {
			return true // a word only known at run time may be any option
		}
		spec, _ := gitSubSpec(sub)
		l := spec.Scan(&Command{Args: args[1:]})
		if l.Err != "" || l.Has(strings.Fields(destroy)...) {
			return true
		}
		var operands []string
		afterDD := 0
		dd := endOfOptions(l)
		for _, o := range l.Operands() {
			operands = append(operands, o.Text)
			if dd > 0 && o.At > dd {
				afterDD++
			}
		}
		switch sub {
		case "rm":
			// Files with changes go with -f; a tree with -r.
			return l.Has("f", "force", "r") && !l.Has("cached", "n", "dry-run")
		case "checkout":
			if afterDD > 0 {
				return true // git checkout [REV] -- FILE...
			}
			if l.Has("b", "orphan") {
				// The operand is where the new branch starts.
				return len(operands) > 1
			}
			switch len(operands) {
			case 0:
				return false
			case 1:
				// A branch, or a path git overwrites from the index.
				return gitPathspecLike(operands[0]) || hasGlobals || exists(operands[0])
			}
			return true // git checkout REV FILE...
		}
	}
	return false
}

// endOfOptions returns the index in l's words of the `--` that ends the
// options, or 0: the first `--` that is no option's value nor an operand.
func endOfOptions(l *Cmdline) int {
	for k, w := range l.Cmd.Args {
		if k == 0 || w.Text != "--" {
			continue
		}
		if !slices.ContainsFunc(l.Items, func(it Item) bool { return int(it.At) == k || int(it.ValAt) == k }) {
			return k
		}
	}
	return 0
}

// gitPathspecLike reports an operand only a path can be: ".", a magic
// pathspec (":/", ":(top)"), a glob.
func gitPathspecLike(s string) bool {
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, ":") || strings.ContainsAny(s, "*?[")
}

// StripGitGlobals removes git's global options between `git` and its
// subcommand, read by git's model (gitGlobalSpec, as git.c reads them):
// `git -C dir -c k=v --no-pager push` becomes `git push`. ok is false when
// there were none. The subcommand is the first word that is no option
// nor an option's value; a word only known at run time may be it.
func StripGitGlobals(args []Word) ([]Word, bool) {
	l := GitGlobal(&Command{Args: args})
	i := len(args)
	if ops := l.Operands(); len(ops) > 0 {
		i = ops[0].At
	}
	if i <= 1 {
		return nil, false
	}
	out := make([]Word, 0, len(args)-i+1)
	out = append(out, args[0])
	return append(out, args[i:]...), true
}

// DeletesTree reports whether a command's words, read from any word
// on as a command (a wrapper gatekeep does not know, xargs, find -exec),
// delete a tree: rm or srm with -r, -R or --recursive (rm(1)), find with
// -delete (find(1)), rsync with a --delete option (rsync(1)), rmdir -p or
// --parents (rmdir(1)). It errs toward yes: it only turns an ask that
// is already there into a final one.
func DeletesTree(args []Word) bool {
	for i, w := range args {
		if w.Dynamic {
			continue
		}
		rest := args[i+1:]
		switch filepath.Base(w.Text) {
		case "rm", "srm":
			if r, _ := RmOperands(rest); r {
				return true
			}
			// `rm $OPT "$X"`: with another operand beside it, a dynamic
			// operand may be -rf.
			if _, ops := RmOperands(rest); len(ops) > 1 {
				for _, a := range ops {
					if a.Dynamic && !a.SubstOnly && !strings.HasPrefix(a.Text, "/") && !strings.HasPrefix(a.Text, ".") {
						return true
					}
				}
			}
		case "find":
			if FindDeletes(rest) {
				return true
			}
		case "rsync":
			for _, a := range rest {
				if strings.HasPrefix(a.Text, "--delete") || strings.HasPrefix(a.Text, "--del") && strings.HasPrefix("--delete", a.Text) || a.Text == "--remove-source-files" {
					return true
				}
			}
		case "rmdir":
			for _, a := range rest {
				if a.Text == "--" {
					break
				}
				if a.Text == "--parents" || len(a.Text) > 1 && a.Text[0] == '-' && a.Text[1] != '-' && strings.ContainsRune(a.Text, 'p') {
					return true
				}
			}
		}
	}
	return false
}

// TreeRemovers are the programs that read their words as rm(1) does
// (RmOperands): rm, and srm(1), which overwrites before it removes.
var TreeRemovers = []string{"rm", "srm"}

// RmOperands splits rm's words (rm(1)): recursive is -r, -R or
// --recursive (any prefix of it), or an option only known at run time;
// operands are the other words, and every word after `--`.
func RmOperands(words []Word) (recursive bool, ops []Word) {
	for i, w := range words {
		t := w.Text
		switch {
		case t == "--":
			return recursive, append(ops, words[i+1:]...)
		case len(t) < 2 || t[0] != '-':
			ops = append(ops, w)
		case w.Dynamic:
			recursive = true
		case strings.HasPrefix(t, "--"):
			if name := t[2:]; name != "" && strings.HasPrefix("recursive", name) {
				recursive = true
			}
		default:
			if strings.ContainsAny(t[1:], "rR") {
				recursive = true
			}
		}
	}
	return recursive, ops
}

// fetchers download content from the network and print it: curl(1),
// wget(1), fetch(1) of the BSDs, aria2c, HTTPie's http/https, xh, curlie,
// lwp-request and its GET alias, text browsers' -dump, and raw sockets
// (nc, ncat, socat).
var fetchers = map[string]bool{
	"curl": true, "wget": true, "wget2": true, "fetch": true, "aria2c": true,
	"http": true, "https": true, "xh": true, "xhs": true, "curlie": true,
	"lwp-request": true, "get": true, "lynx": true, "w3m": true, "links": true,
	"elinks": true, "nc": true, "ncat": true, "netcat": true, "socat": true,
	"tftp": true, "ftp": true,
}

// Fetches reports whether name is a downloader (fetchers): what it prints
// or writes comes from the network.
func Fetches(name string) bool { return fetchers[name] }

// PrintsRemote reports whether c, called name (its basename, lowercased),
// prints content from the network: a downloader (fetchers), ssh(1) and
// telnet(1) (the remote side's output), and `openssl s_client` (a word
// only known at run time may be s_client).
func PrintsRemote(name string, c *Command) bool {
	switch {
	case Fetches(name), name == "ssh", name == "telnet":
		return true
	case name == "openssl":
		for _, w := range c.Args[1:] {
			if w.Dynamic || w.Text == "s_client" {
				return true
			}
		}
	}
	return false
}
