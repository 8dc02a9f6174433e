package pathguard

import (
	"path/filepath"
	"slices"
)

// AgentSettingsPaths lists the agent and editor settings that Protected
// names directly below dir: the named files of each agent directory
// (dir/.claude/settings.json ...), an agent directory protected whole
// (dir/.codex), and the agent files (dir/.mcp.json). Kernel enforcement
// keeps those that exist read-only.
func AgentSettingsPaths(dir string) []string {
	var out []string
	for _, a := range agentDirs {
		if a.files == nil {
			out = append(out, filepath.Join(dir, a.dir))
			continue
		}
		for _, f := range a.files {
			out = append(out, filepath.Join(dir, a.dir, f))
		}
	}
	for _, f := range agentFiles {
		out = append(out, filepath.Join(dir, f))
	}
	return out
}

// IsAgentDir reports whether a directory's name is one of the agent and
// editor directories Protected knows (.claude, .codex, .gemini, .vscode,
// .cursor).
func IsAgentDir(name string) bool {
	for _, a := range agentDirs {
		if sameName(name, a.dir) {
			return true
		}
	}
	return false
}

// AgentHomes are the directories where the agents gatekeep serves keep the
// person's own settings (hooks, MCP servers): Claude Code's
// $CLAUDE_CONFIG_DIR, else ~/.claude
// (https://code.claude.com/docs/en/settings); Codex's $CODEX_HOME, else
// ~/.codex (https://developers.openai.com/codex/config-reference); Gemini
// CLI's ~/.gemini. hook install writes there, doctor reads there, and
// kernel enforcement keeps them read-only (UserAgentPaths).
type AgentHomes struct {
	Claude, Codex, Gemini string
}

// AgentHomesOf is AgentHomes for the home directory home and the
// environment getenv.
func AgentHomesOf(getenv func(string) string, home string) AgentHomes {
	or := func(env, def string) string {
		if v := getenv(env); v != "" {
			return v
		}
		return filepath.Join(home, def)
	}
	return AgentHomes{Claude: or("CLAUDE_CONFIG_DIR", ".claude"), Codex: or("CODEX_HOME", ".codex"),
		Gemini: filepath.Join(home, ".gemini")}
}

// UserAgentPaths are the person's own agent settings a confined command
// must not change: the default dirs in home (~/.claude, ~/.codex,
// ~/.gemini) and Claude Code's ~/.claude.json, and the dirs the
// environment moves them to (AgentHomesOf) when those are absolute. None
// without a home directory.
func UserAgentPaths(getenv func(string) string, home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, n := range []string{".claude", ".claude.json", ".codex", ".gemini"} {
		out = append(out, filepath.Join(home, n))
	}
	h := AgentHomesOf(getenv, home)
	for _, d := range []string{h.Claude, h.Codex} {
		if d = filepath.Clean(d); filepath.IsAbs(d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}
