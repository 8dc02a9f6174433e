package cmdmodel

import "path/filepath"

// ToolCache is a toolchain's cache dir and the programs that write it.
type ToolCache struct {
	Dir   string
	Tools []string
}

// ToolCaches are the toolchain caches a confined command may write when
// `[sandbox] writable` is not set (docs/enforcement.md, "Caches"): each is the
// tool's own environment variable when set, else its default place. A
// missing one is created before confining only when one of its tools is
// on PATH (policy/confine's usedCaches): a user without npm gets no ~/.npm.
func ToolCaches(getenv func(string) string, home string) []ToolCache {
	if home == "" {
		return nil
	}
	or := func(env, def string) string {
		if v := getenv(env); filepath.IsAbs(v) {
			return v
		}
		return def
	}
	cache := or("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	gopath := filepath.Join(home, "go")
	if v := getenv("GOPATH"); v != "" {
		if first := filepath.SplitList(v)[0]; filepath.IsAbs(first) {
			gopath = first
		}
	}
	cargo := or("CARGO_HOME", filepath.Join(home, ".cargo"))
	pip := []string{"pip", "pip3", "python3", "python"}
	return []ToolCache{
		{or("GOCACHE", filepath.Join(cache, "go-build")), []string{"go"}},
		{or("GOMODCACHE", filepath.Join(gopath, "pkg", "mod")), []string{"go"}},
		{or("npm_config_cache", filepath.Join(home, ".npm")), []string{"npm", "npx"}},
		{filepath.Join(cargo, "registry"), []string{"cargo"}},
		{filepath.Join(cargo, "git"), []string{"cargo"}},
		{or("PIP_CACHE_DIR", filepath.Join(cache, "pip")), pip},
		{or("UV_CACHE_DIR", filepath.Join(cache, "uv")), []string{"uv", "uvx"}},
	}
}
