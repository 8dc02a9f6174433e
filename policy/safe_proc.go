package policy

import (
	"slices"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// procInStatic returns c with each word that is an input process
// substitution (shellparse.Word.ProcIn: `diff <(sort a) <(sort b)`) made
// the static path bash passes for it, /dev/fd/63: a pipe holding the
// output of commands judged on their own. Nil when c has none.
func procInStatic(c *shellparse.Command) *shellparse.Command {
	var out *shellparse.Command
	for i, w := range c.Args {
		if !w.ProcIn {
			continue
		}
		if out == nil {
			cc := *c
			cc.Args = slices.Clone(c.Args)
			out = &cc
		}
		out.Args[i] = shellparse.Word{Text: "/dev/fd/63", Offset: w.Offset}
	}
	return out
}

// safeCommand reports whether a simple command only reads or prints, by
// the command model's read-only table (cmdmodel.Safe), each input process
// substitution taken for the pipe bash passes. The caller has checked that
// the name is a bare word resolved outside the roots and that c.Unknown is
// empty.
func safeCommand(c *shellparse.Command) bool {
	if pc := procInStatic(c); pc != nil {
		c = pc
	}
	return cmdmodel.Safe(&c.Command, cmdmodel.Place{Dir: c.Dir, Others: c.OtherDirs, Dynamic: c.DirDynamic})
}
