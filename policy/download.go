package policy

import (
	"path"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// runsDownload: the command runs a file (runFile) that another command of
// the same script downloads (downloads). Paths are compared as written,
// cleaned and joined to the directory each command runs in; a path only
// known at run time matches nothing.
func runsDownload(x *dangerCtx) (string, bool) {
	if !x.facts.fetches {
		return "", false
	}
	f, ok := runFile(x.c)
	if !ok || f.Dynamic {
		return "", false
	}
	ran := fileKeys(x.c, f.Text)
	for j := range x.s.Commands {
		if j == x.i {
			continue
		}
		for _, d := range downloads(&x.s.Commands[j]) {
			for _, k := range ran {
				if k == d {
					return f.Text, true
				}
			}
		}
	}
	return "", false
}

// runFile returns the file a command runs as a program: the script given
// to a shell or an interpreter (`sh FILE`, `bash -e FILE`, `python3 FILE`;
// bash(1), python(1): the first operand after the options), the file
// `source` or `.` reads, or the command name when it is a path (`./FILE`).
// Which operand a shell or interpreter runs is the command model's
// (cmdmodel.ScriptOperand): given code (-c, -e, -m, -p) or its standard
// input, it runs no file.
func runFile(c *shellparse.Command) (shellparse.Word, bool) {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return shellparse.Word{}, false
	}
	name := commandName(c)
	switch {
	case name == "source" || name == ".":
		if len(c.Args) > 1 {
			return c.Args[1], true
		}
	case shellparse.IsShell(name) || cmdmodel.IsInterpreter(name):
		if i, ok := cmdmodel.ScriptOperand(c.Args, shellparse.IsShell(name)); ok {
			return c.Args[i], true
		}
	case strings.Contains(c.Args[0].Text, "/"):
		return c.Args[0], true
	}
	return shellparse.Word{}, false
}

// downloads lists the files a downloader (cmdmodel.Fetches) writes, as fileKeys:
// what the command model says it writes (curl -o, wget -O), and the
// output redirects of its standard output (`curl URL > F`). A directory
// it writes into (curl -O or --output-dir, wget's current directory or
// -P) stands for the file named by the last path component of each URL
// it is given, as curl -O and wget name it.
func downloads(c *shellparse.Command) []string {
	if len(c.Args) == 0 || c.Args[0].Dynamic || !cmdmodel.Fetches(commandName(c)) {
		return nil
	}
	var names []string
	for _, w := range c.Args[1:] {
		if _, rest, ok := strings.Cut(w.Text, "://"); ok && !w.Dynamic {
			rest, _, _ = strings.Cut(rest, "?")
			rest, _, _ = strings.Cut(rest, "#")
			if _, p, ok := strings.Cut(rest, "/"); ok && path.Base(p) != "." && path.Base(p) != "/" {
				names = append(names, path.Base(p))
			}
		}
	}
	var out []string
	add := func(w shellparse.Word) {
		if w.Dynamic {
			return
		}
		out = append(out, fileKeys(c, w.Text)...)
		for _, n := range names {
			out = append(out, fileKeys(c, path.Join(w.Text, n))...)
		}
	}
	effects, _ := shellparse.Effects(c)
	for _, fe := range effects {
		if fe.Access == cmdmodel.Write && fe.Via != "redirect" {
			add(fe.Path)
		}
	}
	for _, r := range c.Redirects {
		if r.Writes() && (r.Fd == -1 || r.Fd == 1) {
			add(r.Target)
		}
	}
	return out
}

// fileKeys are the cleaned paths p names from each directory c may run
// in (relative to the script's directory, or absolute); none when the
// directory is only known at run time.
func fileKeys(c *shellparse.Command, p string) []string {
	if path.IsAbs(p) {
		return []string{path.Clean(p)}
	}
	if c.DirDynamic {
		return nil
	}
	var out []string
	for _, d := range c.Dirs() {
		out = append(out, path.Join(d, p))
	}
	return out
}
