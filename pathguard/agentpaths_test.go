package pathguard

import (
	"slices"
	"testing"
)

// TestAgentHomes: hook install, doctor and kernel enforcement find the
// person's agent settings in one place, moved by CLAUDE_CONFIG_DIR and
// CODEX_HOME as the agents move them; the plan keeps both the default
// dirs and the moved ones (a relative value moves nothing it can name).
func TestAgentHomes(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got, want := AgentHomesOf(getenv, "/h"), (AgentHomes{Claude: "/h/.claude", Codex: "/h/.codex", Gemini: "/h/.gemini"}); got != want {
		t.Errorf("defaults: %+v, want %+v", got, want)
	}
	env["CLAUDE_CONFIG_DIR"], env["CODEX_HOME"] = "/cfg/claude", "rel/codex"
	h := AgentHomesOf(getenv, "/h")
	if h.Claude != "/cfg/claude" || h.Codex != "rel/codex" {
		t.Errorf("moved: %+v", h)
	}
	got := UserAgentPaths(getenv, "/h")
	for _, want := range []string{"/h/.claude", "/h/.claude.json", "/h/.codex", "/h/.gemini", "/cfg/claude"} {
		if !slices.Contains(got, want) {
			t.Errorf("UserAgentPaths = %q, missing %s", got, want)
		}
	}
	if slices.Contains(got, "rel/codex") || UserAgentPaths(getenv, "") != nil {
		t.Errorf("UserAgentPaths = %q", got)
	}
}
