package pathguard

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// shellStartupFiles are run by a later shell: bash(1) INVOCATION, zsh(1)
// STARTUP/SHUTDOWN FILES, and .bash_aliases, which Debian's and Ubuntu's
// default .bashrc sources. Matched by base name anywhere in a root (a
// dotfiles repo, a ZDOTDIR).
var shellStartupFiles = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile",
	".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout",
}

// Protected reports why a write to real, a path Check resolved to inside
// a root, must be asked about, or "" when it need not. The reason is
// lowercase and names the rule. Paths outside every root get "" (the
// sandbox denies those anyway). What is protected, because a later
// command runs code from it or it governs gatekeep itself:
//
//   - a `.gatekeep` component anywhere (a project's config, any
//     subdirectory that could become a project root) and gatekeep's
//     configuration dirs (Options.ConfigDirs) when a root holds them,
//     with every directory above them in the root (a link or a move
//     there places the whole dir);
//   - every path with a `.git` component: the `.git` entry itself
//     (replacing it can point git at another git dir) and everything
//     below it. Git obeys far more there than config and hooks: HEAD,
//     commondir, gitdir, info/ (attributes, exclude), worktrees/*/gitdir,
//     objects/info/alternates, packed-refs, refs, modules/*. No exception
//     is made: a write an agent needs inside .git is rare, and asking
//     about it costs little;
//   - a directory git may take for a git directory, which `git -C DIR`,
//     `git --git-dir=DIR` or a git run inside it uses, running what its
//     config says (core.fsmonitor, core.pager, diff.external): anything
//     written below one (MaybeGitDir, as wide as git's is_git_directory)
//     or below a directory holding objects and refs (a common directory),
//     a `commondir` file, and a HEAD, objects or refs (also made as a
//     parent by `mkdir -p`) that would complete either shape (gitDirShape).
//     A call that builds the whole shape at once is judged with all its
//     writes by GitShapeReason;
//   - `.envrc` (direnv), the shell startup files, `.gitconfig`, and
//     where the home directory's own (and its git config and agent
//     settings dirs) lead when they are links into a root (homeLinkSet);
//   - the coding agents' and editors' own settings (agentSettings), which
//     define hooks, tasks and MCP servers that run commands, unconfined,
//     the next time the agent or editor starts in the directory;
//   - an existing non-directory with more than one hard link: its other
//     names may lie outside the roots.
//
// Names are compared case-insensitively on every system: on macOS and
// Windows `.GIT/Hooks` is `.git/hooks`, and on Linux asking about it costs
// little. On Windows a trailing run of dots and spaces and an NTFS stream
// suffix (`config::$DATA`) are ignored too, as the file system does.
// Unicode normalization (macOS NFD) is not handled: the names are ASCII.
func (g *Guard) Protected(real string) string {
	return g.ProtectedWith(nil, real)
}

// ProtectedWith is Protected with its stats remembered in m (Memo).
func (g *Guard) ProtectedWith(m *Memo, real string) string {
	if g.rootOf(real) == "" {
		return ""
	}
	for _, d := range g.configDirs.resolved() {
		if within(d, real) {
			return fmt.Sprintf("%s is in gatekeep's configuration directory %s", real, d)
		}
		// Creating, moving, linking or removing a directory above one
		// (XDG_CONFIG_HOME itself, not there yet) places the whole dir:
		// `ln -s staging $XDG_CONFIG_HOME` would make every file below
		// it the agent's.
		if within(real, d) {
			return fmt.Sprintf("%s would hold gatekeep's configuration directory %s", real, d)
		}
	}
	for _, a := range g.configDirs.pathDirs() {
		if within(real, a) {
			return fmt.Sprintf("%s is on the path to one of gatekeep's configuration directories: moving it moves where that dir is", real)
		}
	}
	if why := g.homeLinkReason(real); why != "" {
		return why
	}
	var buf [32]string
	names := splitNames(buf[:0], real[len(filepath.VolumeName(real)):])
	for i, n := range names {
		switch {
		case sameName(n, ".gatekeep"):
			return fmt.Sprintf("%s is gatekeep's own configuration (.gatekeep)", real)
		case sameName(n, ".git"):
			if why := gitReason(real, names[i+1:]); why != "" {
				return why
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	if why := gitDirShape(m, g.rootOf(real), real, nil); why != "" {
		return why
	}
	if why := g.hooksPathReason(m, g.rootOf(real), real); why != "" {
		return why
	}
	base := names[len(names)-1]
	if why := agentSettings(real, names); why != "" {
		return why
	}
	if why := toolConfigReason(real, names); why != "" {
		return why
	}
	switch {
	case sameName(base, ".envrc"):
		return fmt.Sprintf("%s is run by direnv when a shell enters its directory", real)
	case sameName(base, ".gitconfig"):
		return fmt.Sprintf("%s is a git configuration file, which can make git run commands", real)
	}
	for _, f := range shellStartupFiles {
		if sameName(base, f) {
			return fmt.Sprintf("%s is a shell startup file, run by later shells", real)
		}
	}
	if st, err := m.stat(real, "", true); err == nil && !st.isDir() {
		if n := st.nlink; n > 1 {
			return fmt.Sprintf("%s has %d hard links, and its other names may lie outside the sandbox", real, n)
		}
	}
	return ""
}

// splitNames appends the non-empty components of p to names.
func splitNames(names []string, p string) []string {
	for p != "" {
		i := strings.IndexFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
		if i < 0 {
			return append(names, p)
		}
		if i > 0 {
			names = append(names, p[:i])
		}
		p = p[i+1:]
	}
	return names
}

// agentDirs are the directories, in any root and at any depth (a
// subdirectory can be where the agent is started), whose named files
// configure a coding agent or an editor to run commands: Claude Code's
// .claude/settings.json and settings.local.json (hooks, statusLine,
// apiKeyHelper), .claude/hooks/ (the scripts those hooks usually run)
// and .claude/commands/, agents/, skills/ (prompts and code the agent
// follows), Gemini CLI's .gemini/extensions/, commands/, skills/ and
// agents/ (Gemini CLI 0.61 loads all four), the shared .agents/skills/
// (Codex and Gemini CLI load skills from it), all of Codex's .codex/
// (config.toml: hooks, MCP servers, notify), Gemini CLI's .gemini/settings.json (hooks, MCP servers,
// tools.discoveryCommand) and .gemini/.env, VS Code's (and its forks')
// .vscode/settings.json, tasks.json (runOn: folderOpen), launch.json and
// mcp.json, Cursor's .cursor/mcp.json. An empty list protects everything
// below the directory; a name ending in "/" everything below that
// subdirectory. The directory entry itself is protected as well:
// replacing it replaces the files.
var agentDirs = []struct {
	dir   string
	files []string
}{
	{".claude", []string{"settings.json", "settings.local.json", "hooks/", "commands/", "agents/", "skills/"}},
	{".codex", nil},
	{".gemini", []string{"settings.json", ".env", "extensions/", "commands/", "skills/", "agents/"}},
	{".agents", []string{"skills/"}},
	{".vscode", []string{"settings.json", "tasks.json", "launch.json", "mcp.json"}},
	{".cursor", []string{"mcp.json"}},
	// Other agents and editors that start MCP servers, hooks, tasks or
	// plugins from their project dir when they open it: Zed (.zed/
	// settings.json context_servers, tasks.json), opencode (.opencode/
	// plugins and commands), Kiro (.kiro/ hooks and MCP settings), Roo
	// Code (.roo/mcp.json), Qwen Code (.qwen/settings.json, Gemini CLI's
	// format), Continue (.continue/ mcpServers), Amp (.amp/), Windsurf
	// (.windsurf/), JetBrains IDEs (.idea/ run configurations and
	// startup tasks) and dev containers (.devcontainer/devcontainer.json
	// postCreateCommand).
	{".zed", nil},
	{".opencode", nil},
	{".kiro", nil},
	{".roo", nil},
	{".qwen", nil},
	{".continue", nil},
	{".amp", nil},
	{".windsurf", nil},
	{".idea", nil},
	{".devcontainer", nil},
}

// agentFiles are files at any depth that configure an agent or a tool it
// starts to run commands: the project MCP server list of Claude Code
// (.mcp.json), opencode's and Crush's configs (opencode.json[c],
// crush.json, .crush.json: MCP servers, LSP commands), aider's
// (.aider.conf.yml: lint-cmd, test-cmd), a dev container's
// (.devcontainer.json), Yarn's (.yarnrc.yml: yarnPath runs a file),
// mise's (mise.toml, .mise.toml: tasks and hooks run on cd) and npm's
// (.npmrc: script-shell, a registry URL that expands ${VAR}, the cache and
// logs dirs — npm-config(7)).
var agentFiles = []string{".mcp.json", "opencode.json", "opencode.jsonc", "crush.json", ".crush.json",
	".aider.conf.yml", ".devcontainer.json", ".yarnrc.yml", "mise.toml", ".mise.toml", ".npmrc"}

// agentSettings returns why a path is an agent's or editor's settings, or
// "". names are the components of real.
func agentSettings(real string, names []string) string {
	const msg = "%s is a coding agent's or editor's settings (%s), whose hooks, tasks or servers run commands when it next starts"
	last := len(names) - 1
	for i, n := range names {
		for _, a := range agentDirs {
			if !sameName(n, a.dir) {
				continue
			}
			if i == last || a.files == nil {
				return fmt.Sprintf(msg, real, a.dir)
			}
			for _, f := range a.files {
				if d, ok := strings.CutSuffix(f, "/"); ok && i < last && sameName(names[i+1], d) {
					return fmt.Sprintf(msg, real, a.dir+"/"+f) // everything below it
				}
				if i == last-1 && sameName(names[last], f) {
					return fmt.Sprintf(msg, real, a.dir+"/"+f)
				}
			}
		}
	}
	for _, f := range agentFiles {
		if sameName(names[last], f) {
			return fmt.Sprintf(msg, real, f)
		}
	}
	return ""
}

// gitReason judges the names below a `.git` component: all of them are
// protected, and the reason names the most telling.
func gitReason(real string, below []string) string {
	if len(below) == 0 {
		return fmt.Sprintf("%s is a git directory or gitdir file; replacing it can point git at other hooks and config", real)
	}
	for _, n := range below {
		if sameName(n, "hooks") {
			return fmt.Sprintf("%s is in git hooks, which run code on later git commands", real)
		}
	}
	if last := below[len(below)-1]; sameName(last, "config") || sameName(last, "config.worktree") {
		return fmt.Sprintf("%s is a git config file, which can make git run commands", real)
	}
	return fmt.Sprintf("%s is inside a git directory, whose files (HEAD, refs, commondir, info/, objects/info/alternates) steer what git reads and runs", real)
}

// sameName compares a path component with a protected name the way a
// case-insensitive file system would.
func sameName(n, name string) bool {
	if runtime.GOOS == "windows" {
		if i := strings.IndexByte(n, ':'); i >= 0 {
			n = n[:i]
		}
		n = strings.TrimRight(n, ". ")
	}
	return strings.EqualFold(n, name)
}
