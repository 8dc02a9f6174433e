package policy

import "github.com/gatekeep/gatekeep/shellparse"

// finding is one dangerous form found in a script.
type finding struct {
	code    string // "danger.rm_root"
	message string // names a safer alternative
}

// dangerLayer (3) denies the forms of the danger table. Nothing later in
// the chain can turn it into allow.
func dangerLayer(e *evaluation, p *part) verdict {
	if p.cmd == nil {
		return verdict{}
	}
	if f := findDanger(p.script, p.index, e.cfg.Home); f != nil {
		return verdict{ok: true, effect: Deny, code: f.code, message: f.message}
	}
	return verdict{}
}

// findDanger checks the command at index i of script against the danger
// table.
func findDanger(s *shellparse.Script, i int, home string) *finding {
	return nil
}
