package shellparse

import "github.com/gatekeep/gatekeep/shellparse/cmdmodel"

// envSplitCommand handles `env ... -S STRING ...`: the option's argument
// at item it is split as env splits it (cmdmodel.EnvSplit) and the words
// take its place; env then reads options again from the first of them
// (coreutils env.c parse_split_string). The words before the option are kept: what they
// did (-i, -u, -C, NAME=value) stays done. The new command line is
// emitted as the wrapper's inner command, an env of its own, and read
// like any other.
func (p *parser) envSplitCommand(idx int, l *cmdmodel.Cmdline, it cmdmodel.Item) {
	c := p.cmds[idx]
	v := l.Val(it)
	if v.Dynamic {
		p.cmds[idx].Unknown = "env -S splits a string only known at run time into a command"
		p.cmds[idx].Feeders = p.children(idx)
		return
	}
	words, err := cmdmodel.EnvSplit(v.Text, func(name string) (string, bool) {
		if name == "HOME" && p.opt.Home != "" && !p.homeAssigned {
			return p.opt.Home, true
		}
		return "", false
	})
	if err != nil {
		// env refuses the string and runs nothing; what it would have
		// been is not known, so it is not judged harmless either.
		p.cmds[idx].Unknown = "env -S is given a string env does not accept"
		return
	}
	args := make([]Word, 0, len(c.Args)+len(words))
	args = append(args, c.Args[:it.At]...)
	if l := cmdmodel.EnvSplitLetters(c.Args[it.At].Text); l != "" {
		args = append(args, Word{Text: l, Offset: c.Args[it.At].Offset}) // env read these before S
	}
	for _, w := range words {
		args = append(args, Word{Text: w.Text, Dynamic: w.Dynamic, Offset: v.Offset})
	}
	args = append(args, c.Args[it.ValAt+1:]...)
	inner := Command{Command: cmdmodel.Command{Args: args, Assigns: c.Assigns, Offset: c.Offset, TrailingArgs: c.TrailingArgs}, End: c.End, Text: c.Text, Parent: idx, Inner: -1}
	p.emitInner(idx, inner, "env -S")
}
