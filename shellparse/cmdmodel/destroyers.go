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

// NeedsNetwork reports whether a simple command is a known network tool.
func NeedsNetwork(c *Command) bool {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return false
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

// gitDestroyOpts is how a git subcommand reads its options, as git's
// parse-options does (git 2.39, `git SUB -h`): args take a value (the rest
// of a short option's word or the next word; `--long=value` or the next
// word), optional take one only when attached (`-tdirect`,
// `--track=inherit`), flags take none. Names are space-separated; names
// joined by "|" are one option (a short letter and its long name). A long
// option may be abbreviated to a prefix that names one option, and
// negated with no-. destroy are the options that make the subcommand
// throw work away or move a ref.
type gitDestroyOpts struct {
	args, optional, flags, destroy string
}

// gitDestroyers are the git subcommands that throw away work in some of
// their forms (DestroysProjectWork says which).
var gitDestroyers = sync.OnceValue(func() map[string]gitDestroyOpts {
	return map[string]gitDestroyOpts{
		"checkout": {args: "b B conflict orphan pathspec-from-file", optional: "t|track recurse-submodules",
			flags:   "l guess overlay q|quiet progress m|merge d|detach f|force overwrite-ignore ignore-other-worktrees 2|ours 3|theirs p|patch ignore-skip-worktree-bits pathspec-file-nul",
			destroy: "f B 2 3 pathspec-from-file"},
		"switch": {args: "c|create C|force-create conflict orphan", optional: "t|track recurse-submodules",
			flags:   "guess discard-changes q|quiet progress m|merge d|detach f|force overwrite-ignore ignore-other-worktrees",
			destroy: "C discard-changes f"},
		"branch": {args: "u|set-upstream-to contains no-contains merged no-merged sort points-at format",
			optional: "t|track color abbrev column",
			flags:    "v|verbose q|quiet unset-upstream r|remotes a|all d|delete D m|move M c|copy C l|list show-current create-reflog edit-description f|force i|ignore-case recurse-submodules omit-empty",
			destroy:  "D f M C"},
		"reset": {args: "pathspec-from-file", optional: "recurse-submodules",
			flags:   "q|quiet no-refresh refresh mixed soft hard merge keep p|patch N|intent-to-add pathspec-file-nul",
			destroy: "hard merge keep"},
		"rm": {args: "pathspec-from-file",
			flags: "n|dry-run q|quiet cached f|force r ignore-unmatch sparse pathspec-file-nul"},
		"gc": {optional: "prune", flags: "q|quiet cruft aggressive auto force keep-largest-pack", destroy: "prune"},
		"read-tree": {args: "index-output prefix exclude-per-directory", optional: "recurse-submodules",
			flags:   "empty v|verbose m trivial aggressive reset u i n|dry-run no-sparse-checkout debug-unpack q|quiet",
			destroy: "u reset"},
		"checkout-index": {args: "prefix stage",
			flags:   "a|all ignore-skip-worktree-bits f|force q|quiet n|no-create u|index z stdin temp",
			destroy: "f"},
		"stash":  {},
		"reflog": {},
	}
})

// gitDestroyLine is a git subcommand's command line as gitDestroyOpts reads it.
type gitDestroyLine struct {
	set      map[string]bool // options given (by their first name), after negations
	operands []string
	dashdash bool // "--" was given: the operands after it are paths
	afterDD  int  // operands after "--"
	ok       bool // every word understood
}

// readDestroyerLine reads words (after the subcommand) by o. An option o does
// not know, an ambiguous abbreviation, a missing value or a word only
// known at run time make the line not ok: it may be any option.
func readDestroyerLine(o gitDestroyOpts, words []Word) gitDestroyLine {
	l := gitDestroyLine{set: map[string]bool{}, ok: true}
	type opt struct {
		key  string
		kind byte // 'a' args, 'o' optional, 'f' flag
	}
	short, long := map[string]opt{}, map[string]opt{}
	for _, g := range []struct {
		names string
		kind  byte
	}{{o.args, 'a'}, {o.optional, 'o'}, {o.flags, 'f'}} {
		for _, group := range strings.Fields(g.names) {
			names := strings.Split(group, "|")
			for _, n := range names {
				if len(n) == 1 {
					short[n] = opt{names[0], g.kind}
				} else {
					long[n] = opt{names[0], g.kind}
				}
			}
		}
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w.Dynamic {
			l.ok = false
			return l
		}
		t := w.Text
		switch {
		case l.dashdash || t == "-" || !strings.HasPrefix(t, "-"):
			l.operands = append(l.operands, t)
			if l.dashdash {
				l.afterDD++
			}
		case t == "--":
			l.dashdash = true
		case strings.HasPrefix(t, "--"):
			name, value, hasValue := strings.Cut(t[2:], "=")
			neg := false
			op, found := long[name]
			if !found {
				// A unique prefix of one option (or of its negation).
				var hits []opt
				var negs []bool
				for n, cand := range long {
					for _, pre := range []struct {
						full string
						neg  bool
					}{{n, false}, {"no-" + n, true}} {
						if strings.HasPrefix(pre.full, name) && !slices.ContainsFunc(hits, func(h opt) bool { return h.key == cand.key }) {
							hits, negs = append(hits, cand), append(negs, pre.neg)
						}
					}
				}
				if len(hits) != 1 {
					l.ok = false
					return l
				}
				op, neg = hits[0], negs[0]
			}
			switch {
			case neg && hasValue:
				l.ok = false
				return l
			case op.kind == 'a' && !hasValue && !neg:
				if i+1 >= len(words) || words[i+1].Dynamic {
					l.ok = false
					return l
				}
				i++
			case op.kind == 'f' && hasValue:
				l.ok = false
				return l
			}
			_ = value
			l.set[op.key] = !neg
		default:
			for j := 1; j < len(t); j++ {
				op, found := short[t[j:j+1]]
				if !found {
					l.ok = false
					return l
				}
				l.set[op.key] = true
				if op.kind == 'o' {
					break
				}
				if op.kind == 'a' {
					if j+1 == len(t) {
						if i+1 >= len(words) || words[i+1].Dynamic {
							l.ok = false
							return l
						}
						i++
					}
					break
				}
			}
		}
	}
	return l
}

// has reports whether any of the options (by their first name) is set.
func (l gitDestroyLine) has(keys ...string) bool {
	for _, k := range keys {
		if l.set[k] {
			return true
		}
	}
	return false
}

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
		for _, a := range c.Args[1:] {
			if a.Text == "-delete" {
				return true
			}
		}
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
		o, ok := gitDestroyers()[sub]
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
		l := readDestroyerLine(o, args[2:])
		if !l.ok || l.has(strings.Fields(o.destroy)...) {
			return true
		}
		switch sub {
		case "rm":
			// Files with changes go with -f; a tree with -r.
			return l.has("f", "r") && !l.has("cached", "n")
		case "checkout":
			if l.afterDD > 0 {
				return true // git checkout [REV] -- FILE...
			}
			if l.has("b", "orphan") {
				// The operand is where the new branch starts.
				return len(l.operands) > 1
			}
			switch len(l.operands) {
			case 0:
				return false
			case 1:
				// A branch, or a path git overwrites from the index.
				return gitPathspecLike(l.operands[0]) || hasGlobals || exists(l.operands[0])
			}
			return true // git checkout REV FILE...
		}
	}
	return false
}

// gitPathspecLike reports an operand only a path can be: ".", a magic
// pathspec (":/", ":(top)"), a glob.
func gitPathspecLike(s string) bool {
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, ":") || strings.ContainsAny(s, "*?[")
}

// StripGitGlobals removes git's global options (git(1) OPTIONS) between
// `git` and its subcommand: `git -C dir -c k=v --no-pager push` becomes
// `git push`. ok is false when there were none.
func StripGitGlobals(args []Word) ([]Word, bool) {
	i := 1
	for i < len(args) {
		t := args[i].Text
		if args[i].Dynamic || !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		i++
		if t == "--" {
			break
		}
		if slices.Contains(gitGlobalsWithArg, t) {
			i++
		}
	}
	if i == 1 {
		return nil, false
	}
	out := make([]Word, 0, len(args)-i+1)
	out = append(out, args[0])
	if i < len(args) {
		out = append(out, args[i:]...)
	}
	return out, true
}

// gitGlobalsWithArg are git's global options that take the next word as
// their value (git(1) OPTIONS); the others are a single word, or
// `--opt=value`.
var gitGlobalsWithArg = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace",
	"--super-prefix", "--config-env", "--attr-source", "--exec-path", "--list-cmds"}

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
			for _, a := range rest {
				if a.Text == "-delete" {
					return true
				}
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
