package policy

import (
	"fmt"
	"strings"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// sandboxLayer (4): a write whose real target lies outside the roots is
// denied; a write to a protected path inside them asks.
func sandboxLayer(e *evaluation, p *part) verdict {
	if p.cmd == nil && isNetworkPath(p.path) {
		// bash opens a socket for these paths (bash(1) REDIRECTION): a
		// read can send data out in the host name, a write anywhere.
		return verdict{ok: true, effect: Ask, code: CodeSandboxNetwork,
			message: p.path + " opens a network connection, which needs approval"}
	}
	if p.cmd != nil {
		if v := e.linkOutside(p); v.ok {
			return v
		}
		return e.rootDelete(p)
	}
	if p.access != cmdmodel.Write || p.path == "" || p.tool != ToolWrite && p.tool != ToolBash && p.tool != ToolEdit {
		return verdict{}
	}
	if p.dynamic {
		if v := e.dynamicWrite(p); v.ok || !p.members {
			return v
		}
		return membersVerdict(p)
	}
	if isDevSink(p.path) {
		return verdict{ok: true, effect: Allow, code: CodeSandboxDevNull, message: "writes to " + p.path + " discard or pass through output"}
	}
	if why := e.completesGitDir(p); why != "" {
		return verdict{ok: true, effect: Ask, code: pathguard.CodeProtected, message: why}
	}
	g := e.cfg.Guard
	if g == nil {
		return verdict{ok: true, effect: Deny, code: pathguard.CodeOutside, message: "no sandbox root is set, so " + p.path + " cannot be written"}
	}
	r := e.check(p.dir, p.path)
	if !r.Inside() {
		msg := fmt.Sprintf("%s is outside the sandbox roots (%s)", p.path, strings.Join(g.Roots(), ", "))
		if r.Real != "" && r.Real != r.Abs {
			msg = fmt.Sprintf("%s resolves to %s, outside the sandbox roots (%s)", p.path, r.Real, strings.Join(g.Roots(), ", "))
		}
		if r.Code != pathguard.CodeOutside {
			msg = fmt.Sprintf("%s cannot be resolved safely: %v", p.path, r.Err)
		}
		return verdict{ok: true, effect: Deny, code: r.Code, message: msg}
	}
	if why := g.ProtectedWith(&e.memo, r.Real); why != "" {
		return verdict{ok: true, effect: Ask, code: CodeSandboxProtected, message: why}
	}
	if p.members {
		return membersVerdict(p)
	}
	return verdict{}
}
