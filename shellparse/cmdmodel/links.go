package cmdmodel

import (
	"path"
	"strings"
)

// CreatesLinks reports a command that can create a symbolic or hard link,
// or put one in place: ln(1), link(1), mv(1), cp(1) with -s, -l, -d, -P,
// -r/-R or -a (and their long forms), tar(1) and bsdtar(1) extracting,
// unzip(1), 7z x/e, unrar x/e, cpio(1) -i/-p, pax(1) -r, rsync(1),
// patch(1) (git-style diffs create symlinks), and git(1) commands that
// write the work tree. A command whose name is only known at run time may
// be any of them.
func CreatesLinks(c *Command) bool {
	if len(c.Args) == 0 {
		return false
	}
	if c.Args[0].Dynamic {
		return true
	}
	args := c.Args[1:]
	switch path.Base(c.Args[0].Text) {
	case "ln", "gln", "link", "mv", "gmv", "rsync", "unzip", "patch", "gpatch":
		return true
	case "cp", "gcp":
		// The command model; a line it does not understand may hold any
		// of these options.
		line, _ := ReadLine(c, "cp")
		if !line.Understood() || line.Has("s", "symbolic-link", "l", "link", "d", "P", "no-dereference", "r", "R", "recursive", "a", "archive") {
			return true
		}
		for _, v := range line.Values("preserve") {
			if strings.Contains(v.Text, "links") || strings.Contains(v.Text, "all") || v.Dynamic {
				return true
			}
		}
		return false
	case "tar", "gtar", "bsdtar":
		// The command model (old style `tar xzf a.tgz` too); a line it
		// does not understand may extract.
		line, _ := ReadLine(c, "tar")
		return !line.Understood() || line.Has("x", "extract", "get")
	case "cpio":
		line, _ := ReadLine(c, "cpio")
		return !line.Understood() || line.Has("i", "extract", "p", "pass-through")
	case "pax":
		line, _ := ReadLine(c, "pax")
		return !line.Understood() || line.Has("r")
	case "7z", "7za", "7zr", "unrar":
		for _, w := range args {
			if w.Dynamic || w.Text == "x" || w.Text == "e" {
				return true
			}
		}
	case "git":
		switch gitSubcommand(c) {
		case "", "clone", "checkout", "switch", "restore", "reset", "pull", "merge", "apply", "am",
			"stash", "worktree", "submodule", "init", "cherry-pick", "rebase", "revert", "bisect",
			"checkout-index", "read-tree", "sparse-checkout", "mv":
			return true
		}
	}
	return false
}

// gitSubcommand returns git's subcommand after its global options, read
// by the command model (git_table.go): "" when it is only known at run
// time or the global options are not understood (any subcommand), "-"
// when there is none (git prints its usage).
func gitSubcommand(c *Command) string {
	g, ok := ReadGitLine(c)
	switch {
	case ok:
		sub, _, _ := strings.Cut(g.Sub, " ")
		return sub
	case g.Global.Understood() && len(g.Global.Operands()) == 0:
		return "-"
	}
	return ""
}

// LinkMade is one link a command creates: Link is the path of the new
// link (relative to the command's Dir unless absolute), Target what it
// points to as given. For a symbolic link a relative Target is taken
// from the link's own directory (symlink(7)); IntoDir is set when Link
// may be an existing directory the link is made in (named after
// Target's last component), as ln and cp do without -T.
type LinkMade struct {
	Target, Link Word
	Symbolic     bool
	IntoDir      bool
}

// IsLn reports whether name (a basename) is ln(1), or GNU's as gln.
func IsLn(name string) bool { return name == "ln" || name == "gln" }

// LinksMade lists the links ln(1) (`ln [-s] TARGET LINK`, `ln TARGET`,
// `ln -t DIR TARGET...`) and cp -s/--symbolic-link (cp(1): SOURCE...
// DEST makes symbolic links to the sources) create, read by the command
// model; ok is false when a line it does not understand may make links
// it cannot list.
func LinksMade(c *Command) (links []LinkMade, ok bool) {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return nil, false
	}
	var line Line
	switch path.Base(c.Args[0].Text) {
	case "ln", "gln":
		line, _ = ReadLine(c, "ln")
	case "cp", "gcp":
		line, _ = ReadLine(c, "cp")
		if line.Understood() && !line.Has("s", "symbolic-link") {
			return nil, true
		}
	default:
		return nil, true
	}
	if !line.Understood() {
		return nil, false
	}
	symbolic := line.Has("s", "symbolic", "symbolic-link")
	ops := line.Operands()
	noDir := line.Has("T", "no-target-directory")
	if dirs := line.Values("t", "target-directory"); len(dirs) > 0 {
		for _, d := range dirs {
			for _, t := range ops {
				links = append(links, LinkMade{Target: t, Link: Word{Text: path.Join(d.Text, path.Base(t.Text)), Dynamic: d.Dynamic || t.Dynamic, Offset: t.Offset}, Symbolic: symbolic})
			}
		}
		return links, true
	}
	switch {
	case len(ops) == 1:
		t := ops[0]
		return []LinkMade{{Target: t, Link: Word{Text: path.Base(t.Text), Dynamic: t.Dynamic, Offset: t.Offset}, Symbolic: symbolic}}, true
	case len(ops) == 2:
		return []LinkMade{{Target: ops[0], Link: ops[1], Symbolic: symbolic, IntoDir: !noDir}}, true
	case len(ops) > 2:
		d := ops[len(ops)-1]
		for _, t := range ops[:len(ops)-1] {
			links = append(links, LinkMade{Target: t, Link: Word{Text: path.Join(d.Text, path.Base(t.Text)), Dynamic: d.Dynamic || t.Dynamic, Offset: t.Offset}, Symbolic: symbolic})
		}
	}
	return links, true
}
