package shellparse

import (
	"path"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// awkCode judges the shell code an awk program runs (system(), print |,
// getline from a command, gawk's coprocesses) as `sh -c` code under the
// command at idx; a program in a file, or one that runs code only known
// at run time, makes the command Unknown.
func (p *parser) awkCode(idx int) {
	c := p.cmds[idx]
	s, ok := cmdmodel.LookupSpec(path.Base(c.Args[0].Text), false)
	if !ok {
		return
	}
	prog, why := cmdmodel.AwkSource(s.Scan(&c.Command))
	switch {
	case why != "":
		p.cmds[idx].Unknown = why
		p.cmds[idx].Feeders = p.children(idx)
		return
	case prog.Dynamic:
		p.cmds[idx].Unknown = "awk runs a program only known at run time"
		p.cmds[idx].Feeders = p.children(idx)
		return
	case prog.Text == "":
		return
	}
	a := cmdmodel.AnalyzeAwk(prog.Text)
	inner := -1
	for _, r := range a.Runs {
		at := len(p.cmds)
		p.reparseDialects(idx, Word{Text: r.Code, Offset: prog.Offset}, "awk "+r.Via, shellDialects("sh", p.dialect))
		if inner < 0 {
			inner = p.cmds[idx].Inner
		}
		// `print "rm -rf ~" | "sh"`: what is printed into a shell that
		// reads its standard input is code too.
		for j := at; j < len(p.cmds) && len(r.Input) > 0; j++ {
			if p.cmds[j].StdinCode && IsShell(p.cmds[j].Name()) {
				for _, in := range r.Input {
					p.reparseShell(j, Word{Text: in, Offset: prog.Offset}, "awk print")
				}
			}
		}
	}
	if inner >= 0 {
		p.cmds[idx].Inner = inner
	}
	if a.Unknown != "" {
		p.cmds[idx].Unknown = a.Unknown
		if a.DynamicRun {
			// The command line may come from the input (`{system($0)}`).
			p.cmds[idx].Feeders = p.upstream[:len(p.upstream):len(p.upstream)]
		}
	}
}
