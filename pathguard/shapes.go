package pathguard

import "path/filepath"

// The protected shapes: entries a later, unconfined program obeys
// wherever they stand in a project, by what they are rather than by a
// path known in advance. Protected asks before a judged write makes one;
// kernel enforcement cannot keep a confined command from making one in a
// writable directory, so the post-run sweep looks for the new ones by
// these same predicates and makes them harmless. One model, two users.

// Shape says what kind of protected shape an entry is.
type Shape string

const (
	// ShapeRepository is a `.git` entry (a directory, or a file or link
	// that points git elsewhere): git run below it follows its config.
	ShapeRepository Shape = "repository"
	// ShapeGitDir is a directory git takes for a git directory
	// (MaybeGitDir: HEAD with objects and refs, or a commondir):
	// `git -C DIR`, or git run inside it, follows its config.
	ShapeGitDir Shape = "git directory"
	// ShapeGitState is a git directory's sequencer state (rebase-merge,
	// rebase-apply, sequencer): `git rebase --continue` or `git
	// cherry-pick --continue` runs the exec lines of its todo list.
	ShapeGitState Shape = "git sequencer state"
	// ShapeAgent is a coding agent's or editor's settings directory or
	// file (.claude, .codex, .gemini, .agents, .vscode, .cursor,
	// .mcp.json): hooks, tasks and MCP servers run commands when it next
	// starts there.
	ShapeAgent Shape = "agent settings"
	// ShapeEnvrc is direnv's `.envrc`, run when a shell enters the
	// directory.
	ShapeEnvrc Shape = "direnv file"
	// ShapeToolConfig is a developer tool's project config that makes it
	// run a command (toolConfigs: mise, Yarn 1, pnpm, Bun, Cargo,
	// Mercurial, Jujutsu).
	ShapeToolConfig Shape = "tool config"
)

// GitStateDirs are the names of a git directory's sequencer state
// (git-rebase(1), git-cherry-pick(1), sequencer.c).
var GitStateDirs = []string{"rebase-merge", "rebase-apply", "sequencer"}

// ShapeOf reports what protected shape the entry at path is ("" for
// none): name is its base name, dir whether it is a directory (a link is
// not one: a link named like an agent dir or `.git` is a shape by its
// name, whatever it points to). inGitDir says the entry stands directly
// in a git directory, where the sequencer state names are shapes.
func ShapeOf(path string, dir, inGitDir bool) Shape {
	name := filepath.Base(path)
	switch {
	case sameName(name, ".git"):
		return ShapeRepository
	case inGitDir && dir && slicesContainsName(GitStateDirs, name):
		return ShapeGitState
	case IsAgentDir(name):
		return ShapeAgent
	case sameName(name, ".envrc"):
		return ShapeEnvrc
	}
	for _, f := range agentFiles {
		if sameName(name, f) {
			return ShapeAgent
		}
	}
	if toolConfigShape(path, dir) {
		return ShapeToolConfig
	}
	if dir && MaybeGitDir(path) {
		return ShapeGitDir
	}
	return ""
}

func slicesContainsName(list []string, name string) bool {
	for _, s := range list {
		if sameName(s, name) {
			return true
		}
	}
	return false
}
