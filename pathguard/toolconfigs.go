package pathguard

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// toolConfigs are the configs, at any depth, that make a developer tool
// run a command or a file when it next runs in (or below) their directory,
// as slash patterns matched component by component against the end of a
// path (path.Match, case folded): mise's project configs (mise.toml,
// mise.local.toml, mise.<env>.toml and their dotted, .mise/, mise/ and
// .config/ forms and conf.d dirs — mise's "configuration" docs; tasks,
// hooks and env templates run), Yarn 1's .yarnrc (yarn-path runs a file),
// pnpm's .pnpmfile.cjs/.mjs (hooks run on install), Bun's bunfig.toml
// (preload scripts), Cargo's .cargo/config.toml and .cargo/config (build
// target runners, rustc wrappers, [alias]), Mercurial's .hg/hgrc (hooks,
// extensions) and Jujutsu's .jj/repo/config.toml (aliases, fix tools).
var toolConfigs = []string{
	"mise.*.toml", ".mise.*.toml", // mise.toml and .mise.toml: agentFiles
	".mise/config.toml", ".mise/config.*.toml", ".mise/conf.d/*.toml",
	"mise/config.toml", "mise/config.*.toml", "mise/conf.d/*.toml",
	".config/mise.toml", ".config/mise.*.toml",
	".config/mise/config.toml", ".config/mise/config.*.toml", ".config/mise/conf.d/*.toml",
	".yarnrc", ".pnpmfile.cjs", ".pnpmfile.mjs", "bunfig.toml", ".bunfig.toml",
	".cargo/config.toml", ".cargo/config", ".hg/hgrc", ".jj/repo/config.toml",
}

// toolConfigDirs are the directories of toolConfigs that a link could
// stand for (a link named .cargo to a dir holding config.toml): an entry
// of such a name that is not a directory is a shape by its name.
var toolConfigDirs = []string{".mise", ".cargo", ".hg", ".jj"}

// toolConfig returns the toolConfigs pattern the path whose components
// are names matches, or "".
func toolConfig(names []string) string {
	for _, pat := range toolConfigs {
		parts := strings.Split(pat, "/")
		if len(parts) > len(names) {
			continue
		}
		tail := names[len(names)-len(parts):]
		ok := true
		for i, p := range parts {
			if m, err := path.Match(p, strings.ToLower(tail[i])); err != nil || !m {
				ok = false
				break
			}
		}
		if ok {
			return pat
		}
	}
	return ""
}

// toolConfigReason says why the path real (with components names) is a
// tool's config, or "".
func toolConfigReason(real string, names []string) string {
	if pat := toolConfig(names); pat != "" {
		return fmt.Sprintf("%s is a developer tool's config (%s), which can make the tool run commands when it next runs there", real, pat)
	}
	return ""
}

// toolConfigShape reports whether the entry at p is a tool's config, or
// (not a directory) stands where one of their directories would.
func toolConfigShape(p string, dir bool) bool {
	if !dir && slicesContainsName(toolConfigDirs, filepath.Base(p)) {
		return true
	}
	return !dir && toolConfig(strings.Split(filepath.ToSlash(p), "/")) != ""
}

// ToolConfigPaths are the literal toolConfigs directly below dir (the
// patterns with a wildcard left out): kernel enforcement keeps those that
// exist read-only.
func ToolConfigPaths(dir string) []string {
	var out []string
	for _, pat := range toolConfigs {
		if !strings.Contains(pat, "*") {
			out = append(out, filepath.Join(dir, filepath.FromSlash(pat)))
		}
	}
	return out
}
