package policy

// Calls is the answer to one tool call made of several requests (a hook's
// patch of several files, a multi-edit): each request's Decision, and the
// call's.
type Calls struct {
	// Decision is the strictest of Parts: deny over ask over allow, the
	// first of equals. With no requests it is the zero Decision, a deny.
	Decision Decision
	// Parts are the requests' own decisions, in order.
	Parts []Decision
	// Explicit is true when every request was allowed by a layer that
	// allows on its own authority (Decision.Explicit: the safe list, an
	// allow rule, the plan exception), not by the mode's fallback; false
	// with no requests.
	Explicit bool
}

// EvaluateAll decides every request of one tool call with Evaluate and
// combines the answers (see Calls).
func EvaluateAll(cfg *Config, reqs []Request) Calls {
	out := Calls{Parts: make([]Decision, 0, len(reqs)), Explicit: len(reqs) > 0}
	for i, r := range reqs {
		d := Evaluate(cfg, r)
		out.Parts = append(out.Parts, d)
		if d.Effect != Allow || !d.Explicit {
			out.Explicit = false
		}
		if i == 0 || d.Effect < out.Decision.Effect { // Deny < Ask < Allow
			out.Decision = d
		}
	}
	return out
}
