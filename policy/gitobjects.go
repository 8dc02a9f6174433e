package policy

import (
	"fmt"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// runtimeObjects judges a git command that prints the content of objects
// whose paths are only known at run time (cmdmodel.GitRuntimeObjects): the object
// store keeps every file ever committed, a secret removed from the index
// too, so a Read deny rule cannot be checked against what it prints. While
// such a rule exists it is a final ask (CodeRuleDenyRuntimeName), which no
// mode and no auto_allow turns into allow, like a read of a name only
// known at run time in a denied directory.
func (e *evaluation) runtimeObjects(p *part) verdict {
	c := p.cmd
	if c == nil || e.cfg.Rules == nil {
		return verdict{}
	}
	if g := e.plainGit(c); g != nil {
		c = g // `git -C DIR show ...` in the project's repository
	}
	why := cmdmodel.GitRuntimeObjects(&c.Command)
	if why == "" {
		return verdict{}
	}
	for _, cd := range e.cfg.Rules.treeCandidates() {
		if cd.rule.Ref.Effect != Deny {
			continue
		}
		ref := cd.rule.Ref
		return verdict{ok: true, effect: Ask, final: true, code: CodeRuleDenyRuntimeName, rule: &ref,
			message: fmt.Sprintf("git %s, so Read deny rules such as %s cannot be checked against what it prints; name the paths in the command (git show REV:PATH, git log -p -- PATH)",
				why, ref.Rule)}
	}
	return verdict{}
}
