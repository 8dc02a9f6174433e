package pathguard

import "path/filepath"

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
