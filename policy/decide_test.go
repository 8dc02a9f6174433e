package policy

import (
	"testing"
)

// TestDecideRequests: the strictest request answers for the call (the first
// of equals), and the call is explicit only when every request was allowed
// on gatekeep's own authority.
func TestDecideRequests(t *testing.T) {
	v := newCfgEnv(t)
	cfg := v.config(v.load(), ModeAcceptEdits)
	bash := func(c string) Request { return Request{Tool: ToolBash, Command: c, Cwd: v.root} }
	for _, tc := range []struct {
		name     string
		reqs     []Request
		want     Effect
		subject  string // the deciding request's command
		explicit bool
	}{
		{"none", nil, Deny, "", false},
		{"safe", []Request{bash("ls"), bash("pwd")}, Allow, "ls", true},
		{"mode allow", []Request{bash("ls"), bash("mkdir -p x")}, Allow, "ls", false},
		{"ask", []Request{bash("ls"), bash("make"), bash("make all")}, Ask, "make", false},
		{"deny wins", []Request{bash("make"), bash("rm -rf /"), bash("ls")}, Deny, "rm -rf /", false},
	} {
		got := Decide(cfg, Query{Requests: tc.reqs})
		if got.Decision.Effect != tc.want || got.Explicit != tc.explicit || len(got.Parts) != len(tc.reqs) {
			t.Errorf("%s: %v explicit=%v parts=%d", tc.name, got.Decision, got.Explicit, len(got.Parts))
			continue
		}
		for i, r := range tc.reqs {
			if d := Evaluate(cfg, r); d.Effect != got.Parts[i].Effect || d.Code != got.Parts[i].Code {
				t.Errorf("%s: part %d = %v, alone %v", tc.name, i, got.Parts[i], d)
			}
		}
		if tc.subject != "" && got.Decision.Code != Evaluate(cfg, bash(tc.subject)).Code {
			t.Errorf("%s: decided by %v, want the decision of %q", tc.name, got.Decision, tc.subject)
		}
	}
}
