package pathguard

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"
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

// toolPattern is a toolConfigs pattern split into its components, with
// the literal end every name its last component matches has.
type toolPattern struct {
	pat    string
	parts  []string
	suffix string
}

// toolPatterns are toolConfigs, split once: the sweep asks about every
// entry of the project, dependency dirs included.
var toolPatterns = sync.OnceValue(func() []toolPattern {
	out := make([]toolPattern, 0, len(toolConfigs))
	for _, pat := range toolConfigs {
		parts := strings.Split(pat, "/")
		last := parts[len(parts)-1]
		out = append(out, toolPattern{pat: pat, parts: parts, suffix: last[strings.LastIndexAny(last, "*?]")+1:]})
	}
	return out
})

// toolConfig returns the toolConfigs pattern the path whose components
// are names matches, or "".
func toolConfig(names []string) string {
	if len(names) == 0 {
		return ""
	}
	last := strings.ToLower(names[len(names)-1])
	for _, tp := range toolPatterns() {
		n := len(tp.parts)
		if n > len(names) || !strings.HasSuffix(last, tp.suffix) {
			continue
		}
		ok := true
		for i, p := range tp.parts {
			name := last
			if i < n-1 {
				name = strings.ToLower(names[len(names)-n+i])
			}
			if m, err := path.Match(p, name); err != nil || !m {
				ok = false
				break
			}
		}
		if ok {
			return tp.pat
		}
	}
	return ""
}

// mayBeToolConfig reports whether base, a last path component, ends as
// some toolConfigs pattern's last component must: the cheap test before
// toolConfig.
func mayBeToolConfig(base string) bool {
	base = strings.ToLower(base)
	for _, tp := range toolPatterns() {
		if strings.HasSuffix(base, tp.suffix) {
			return true
		}
	}
	return false
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
	return !dir && mayBeToolConfig(filepath.Base(p)) && toolConfig(strings.Split(filepath.ToSlash(p), "/")) != ""
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
