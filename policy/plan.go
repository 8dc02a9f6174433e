package policy

import (
	"slices"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// planLayer (1): in plan mode, writes to the plan file and the planning
// tools pass early.
func planLayer(e *evaluation, p *part) verdict {
	if !e.cfg.planning() {
		return verdict{}
	}
	if p.cmd == nil && p.tool != ToolBash && slices.Contains(e.cfg.PlanTools, p.tool) {
		return verdict{ok: true, effect: Allow, code: CodePlanTool, message: p.tool + " is a planning tool"}
	}
	if p.cmd == nil && p.access == cmdmodel.Write && e.cfg.PlanFile != "" && !p.dynamic && e.cfg.Guard != nil {
		r := e.check(p.dir, p.path)
		if r.Inside() && r.Real == e.cfg.PlanFile && e.cfg.Guard.ProtectedWith(&e.memo, r.Real) == "" {
			return verdict{ok: true, effect: Allow, code: CodePlanFile, message: "the plan file is writable in plan mode"}
		}
	}
	return verdict{}
}
