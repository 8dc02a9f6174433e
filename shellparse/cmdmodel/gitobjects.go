package cmdmodel

import "strings"

// GitRuntimeObjects returns why a git command prints the content of
// objects whose paths are only known at run time, "" when it does not:
// cat-file's --batch and --batch-command read the object names from stdin
// (--batch-check prints no content); cat-file -p or TYPE, and show, print
// an object named by its id, which may be any file's blob
// (git-rev-parse(1)), and so does diff with two ids (two blobs are
// compared whole); show, log -p, diff, grep and cat-file with a word
// only known at run time (`git show $(git rev-parse HEAD:.env)`);
// unpack-file writes a blob named by its id to a file; archive,
// fast-export, format-patch and `bundle create` write out whole revisions.
// It is "" for any command but git.
func GitRuntimeObjects(c *Command) string {
	if len(c.Args) < 2 || c.Args[0].Dynamic || strings.TrimSuffix(strings.ToLower(c.Name()), ".exe") != "git" {
		return ""
	}
	g, ok := ReadGitLine(c)
	if !ok {
		return ""
	}
	l := g.Line
	ops := l.Operands()
	dynamic, ids := false, 0
	for _, w := range ops {
		dynamic = dynamic || w.Dynamic
		if !w.Dynamic && IsObjectID(w.Text) {
			ids++
		}
	}
	objectID := ids > 0
	switch g.Sub {
	case "cat-file":
		if l.Has("batch", "batch-command") {
			return "cat-file reads the names of the objects it prints from its input"
		}
		if l.Has("t", "s", "e") && !l.Has("p") {
			return "" // the type, the size or whether it exists
		}
		if dynamic || objectID {
			return "cat-file prints an object named by its id or by a word only known at run time"
		}
	case "show":
		if dynamic || objectID {
			return "show prints an object named by its id or by a word only known at run time"
		}
	case "diff":
		if dynamic || ids >= 2 {
			return "diff prints objects named by their ids or by words only known at run time (two blobs are printed whole)"
		}
	case "log", "whatchanged", "grep":
		if dynamic && (g.Sub == "grep" || l.Has("p", "u", "patch", "patch-with-stat", "patch-with-raw", "cc", "c")) {
			return g.Sub + " prints the files of a revision only known at run time"
		}
	case "archive", "fast-export", "format-patch":
		return g.Sub + " writes out every file of the revisions it is given"
	case "unpack-file":
		return "unpack-file writes out an object named by its id"
	case "bundle":
		for i := 1; i+1 < len(c.Args); i++ {
			if c.Args[i].Text == "bundle" {
				if w := c.Args[i+1]; w.Dynamic || w.Text == "create" {
					return "bundle create packs every object of the revisions"
				}
				break
			}
		}
	}
	return ""
}
