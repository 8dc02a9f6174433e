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

// homeReadableNames are what a confined command may read in the home
// directory besides the project and the writable dirs: the toolchains'
// installs and caches and the settings they read that hold no secrets.
// Left out on purpose: ~/.ssh, ~/.aws, ~/.config (but git's, go's and
// gatekeep's), ~/.cache (but cacheNames), ~/.npmrc, ~/.pypirc, ~/.netrc,
// ~/.docker, ~/.kube, the shell rc files (tokens are exported there),
// ~/.cargo/credentials*, the agents' dirs.
var homeReadableNames = []string{"go", ".npm", ".cargo/bin", ".cargo/registry", ".cargo/git", ".cargo/env",
	".cargo/config.toml", ".cargo/config", ".rustup", ".local/bin", ".local/lib", ".local/share/uv", ".local/share/pnpm",
	".local/pipx", ".nvm", ".pyenv", ".rbenv", ".rye", ".bun", ".deno", ".volta", ".sdkman", ".m2/repository",
	".gradle/caches", ".gradle/wrapper", ".gem", ".dotnet", ".nuget/packages", ".gitconfig", ".config/git", ".config/go",
	".gitignore_global", ".terminfo"}

// cacheNames are the tools' own dirs in the user cache dir
// ($XDG_CACHE_HOME, else ~/.cache) a confined command may read: pip, uv,
// poetry, pipenv, go build (GOCACHE), gopls, golangci-lint, staticcheck,
// yarn, pnpm, node-gyp, Playwright's and Puppeteer's browsers, Cypress,
// electron, pre-commit, bazel, deno, sccache. The rest of the cache dir
// is not readable: tools keep tokens there too
// (~/.cache/huggingface/stored_tokens). npm's _cacache is ~/.npm and
// cargo's is ~/.cargo (homeReadableNames).
var cacheNames = []string{"pip", "uv", "pypoetry", "pipenv", "go-build", "gopls", "golangci-lint", "staticcheck",
	"yarn", "pnpm", "node-gyp", "ms-playwright", "puppeteer", "Cypress", "electron", "pre-commit", "bazel", "deno", "sccache"}

// ToolchainReadable is what a confined command may read in the home
// directory home besides the project and the writable dirs (the kernel
// plan, policy/confine): homeReadableNames in home, cacheNames in the user
// cache dir, and the toolchains' own places where their environment
// variables move them.
func ToolchainReadable(getenv func(string) string, home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, n := range homeReadableNames {
		out = append(out, filepath.Join(home, n))
	}
	cache := filepath.Join(home, ".cache")
	if v := getenv("XDG_CACHE_HOME"); filepath.IsAbs(v) {
		cache = filepath.Clean(v)
	}
	for _, n := range cacheNames {
		out = append(out, filepath.Join(cache, n))
	}
	for _, env := range []string{"GOPATH", "GOROOT", "GOCACHE", "GOMODCACHE", "CARGO_HOME", "RUSTUP_HOME",
		"PYENV_ROOT", "NVM_DIR", "VOLTA_HOME", "BUN_INSTALL", "npm_config_cache", "npm_config_prefix", "PIP_CACHE_DIR", "UV_CACHE_DIR"} {
		for _, v := range filepath.SplitList(getenv(env)) {
			if filepath.IsAbs(v) {
				out = append(out, filepath.Clean(v))
			}
		}
	}
	if v := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(v) {
		out = append(out, filepath.Join(v, "git"), filepath.Join(v, "go"))
	}
	return out
}
