package policy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// linkOutside (sandbox.link_outside) asks for a command that makes a link
// inside a root to a target whose real path lies outside every root
// (cmdmodel.LinksMade: ln, ln -s, cp -s): a write through the link,
// by a later command of this call or by another call, lands outside the
// roots, and each write is judged by the disk as it is when it is
// checked. A symbolic link's relative target is taken from the link's
// directory (symlink(7)), and from the link itself when the link names a
// directory the link is made in. Every mode asks but bypassPermissions,
// where the writes through the link are still judged when they come.
func (e *evaluation) linkOutside(p *part) verdict {
	if e.cfg.bypassing() || e.cfg.Guard == nil || p.cmd == nil {
		return verdict{}
	}
	links, ok := cmdmodel.LinksMade(&p.cmd.Command)
	if !ok && cmdmodel.IsLn(p.cmd.Name()) && !p.cmd.Args[0].Dynamic {
		// An ln line the model does not read: where its links point is
		// not known.
		return verdict{ok: true, effect: Ask, code: CodeSandboxLinkOutside,
			message: p.cmd.Name() + " makes links the command model cannot list, so where they point is not known"}
	}
	for _, l := range links {
		if l.Link.Dynamic {
			continue // a dynamic link path is judged as a write of its own
		}
		if l.Target.Dynamic {
			return verdict{ok: true, effect: Ask, code: CodeSandboxLinkOutside,
				message: l.Link.Text + " would be a link to " + l.Target.Text + ", which is only known at run time and may lie outside the sandbox roots"}
		}
		for _, d := range p.cmd.Dirs() {
			dir, ok := commandDir(e.cwd, d)
			if !ok || !filepath.IsAbs(dir) || p.cmd.DirDynamic {
				continue
			}
			link := e.check(dir, l.Link.Text)
			if !link.Inside() {
				continue // the write of the link itself is outside: denied on its own
			}
			from := []string{dir}
			if l.Symbolic {
				from = []string{filepath.Dir(link.Abs)}
				if l.IntoDir {
					from = append(from, link.Abs)
				}
			}
			for _, f := range from {
				t := e.check(f, l.Target.Text)
				if t.Code != pathguard.CodeOutside {
					continue
				}
				where := t.Abs
				if t.Real != "" {
					where = t.Real
				}
				return verdict{ok: true, effect: Ask, code: CodeSandboxLinkOutside,
					message: fmt.Sprintf("%s would be a link to %s, outside the sandbox roots (%s): a later write through it lands there",
						l.Link.Text, where, strings.Join(e.cfg.Guard.Roots(), ", "))}
			}
		}
	}
	return verdict{}
}
