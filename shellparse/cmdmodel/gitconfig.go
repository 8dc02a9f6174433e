package cmdmodel

import "strings"

// gitConfigReadOpts are git-config(1)'s options (git 2.47) that make the
// call only read: the old --get/--list spellings.
var gitConfigReadOpts = []string{"get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool", "list"}

// gitConfigValueOpts take the next word as their value (git-config(1)):
// the file, blob, type, default and comment options. -f is --file, -t
// --type.
var gitConfigValueOpts = []string{"file", "blob", "type", "default", "comment", "value"}

// GitConfigValueOpt reports whether t, an option word of `git config`,
// takes the next word as its value (gitConfigValueOpts written whole,
// -f or -t).
func GitConfigValueOpt(t string) bool {
	return t == "-f" || t == "-t" || !strings.Contains(t, "=") && gitLongIn(t, gitConfigValueOpts)
}

// gitConfigWrites reports the file `git config` changes: the repository's
// .git/config (or --worktree's config.worktree), --global's ~/.gitconfig,
// --system's /etc/gitconfig, or -f FILE. A later git runs what that file
// says (core.fsmonitor, core.pager, core.hooksPath, alias.*, diff
// drivers, filters), so the write is judged like any other write to it
// (gatekeep protects .git/ and ~/.gitconfig). It only reads with the new
// `list`/`get` subcommands, the old --get*/--list options, or a lone key
// (git-config(1), git 2.47); every other form, an unknown option or a
// word only known at run time included, is taken to write.
func gitConfigWrites(sub Arg, rest []Arg, cdir Arg, out *effectList) {
	if sub.Text != "config" {
		return
	}
	file := Arg{Word: Word{Text: ".git/config", Offset: sub.Offset}, At: sub.At}
	var operands []Arg
	reads, writes := false, false
	set := func(w Arg, text string) {
		file = Arg{Word: Word{Text: text, Dynamic: w.Dynamic, Offset: w.Offset}, At: w.At}
	}
	for j := 0; j < len(rest); j++ {
		w := rest[j]
		t := w.Text
		long := strings.HasPrefix(t, "--")
		_, val, hasVal := strings.Cut(t, "=")
		switch {
		case w.Dynamic:
			operands = append(operands, w)
		case t == "--":
			operands = append(operands, rest[j+1:]...)
			j = len(rest)
		case t == "-l":
			reads = true
		case t == "-f" || long && gitLongIs(t, "file"):
			if long && hasVal {
				set(w, val)
			} else if j+1 < len(rest) {
				j++
				file = rest[j]
			}
		case strings.HasPrefix(t, "-f"):
			set(w, t[2:])
		case gitLongIs(t, "global"):
			set(w, "~/.gitconfig")
		case gitLongIs(t, "system"):
			set(w, "/etc/gitconfig")
		case gitLongIs(t, "worktree"):
			set(w, ".git/config.worktree")
		case gitLongIn(t, gitConfigReadOpts):
			reads = true
		case GitConfigValueOpt(t):
			j++
		case long && hasVal || t == "-z" || gitLongIn(t, gitConfigQuietOpts):
		case strings.HasPrefix(t, "-") && t != "-":
			writes = true // --add, --unset, --replace-all, -e ..., or not known
		default:
			operands = append(operands, w)
		}
	}
	if len(operands) > 0 && !operands[0].Dynamic && (operands[0].Text == "list" || operands[0].Text == "get") {
		reads = true
	}
	if !writes && (reads || len(operands) == 1 && !operands[0].Dynamic) {
		return
	}
	out.write(joinArg(cdir, file))
}

// gitConfigQuietOpts change only how git-config(1) reads or prints.
var gitConfigQuietOpts = []string{"local", "null", "show-origin", "show-scope", "name-only", "includes",
	"no-includes", "fixed-value", "bool", "int", "bool-or-int", "path", "expiry-date", "all", "regexp"}

// gitLongIs reports whether t (`--name` or `--name=value`) is git's long
// option want or an unambiguous-looking prefix of it (parse-options takes
// abbreviations); toward denial, any prefix counts.
func gitLongIs(t, want string) bool {
	name, ok := strings.CutPrefix(t, "--")
	if !ok {
		return false
	}
	name, _, _ = strings.Cut(name, "=")
	return name != "" && strings.HasPrefix(want, name)
}

// gitLongIn reports whether t is exactly one of the long options in list.
func gitLongIn(t string, list []string) bool {
	name, ok := strings.CutPrefix(t, "--")
	if !ok {
		return false
	}
	name, _, _ = strings.Cut(name, "=")
	for _, l := range list {
		if name == l {
			return true
		}
	}
	return false
}
