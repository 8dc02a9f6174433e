package policy

import "testing"

// TestAgentMode: an agent's permission mode only tightens gatekeep's own,
// unless trusted to replace it.
func TestAgentMode(t *testing.T) {
	// To tighten, an unknown mode is the loosest.
	for in, want := range map[string]Mode{
		"default": ModeDefault, "acceptEdits": ModeAcceptEdits, "plan": ModePlan,
		"bypassPermissions": ModeBypass, "dontAsk": ModeBypass, "auto": ModeBypass,
		"yolo": ModeBypass,
	} {
		if got := AgentMode(in); got != want {
			t.Errorf("agentMode(%q) = %s, want %s", in, got, want)
		}
	}
	// Trusted to replace gatekeep's own, an unknown mode is default.
	for in, want := range map[string]Mode{
		"default": ModeDefault, "acceptEdits": ModeAcceptEdits, "plan": ModePlan,
		"bypassPermissions": ModeBypass, "dontAsk": ModeDefault, "auto": ModeDefault,
		"": ModeDefault, "yolo": ModeDefault,
	} {
		if got := TrustedAgentMode(in); got != want {
			t.Errorf("trustedAgentMode(%q) = %s, want %s", in, got, want)
		}
	}
}
