package config

import (
	"path/filepath"

	"github.com/gatekeep/gatekeep/policy"
)

// The embedded default policy is decoded and validated when gatekeep is
// built, not when it runs: defaultEntry (default_entry.go) is
// default.toml in the config cache's entry form (appendEntry), written
// by `go test ./policy/config -run TestDefaultEntry -update` and checked
// by the same test against default.toml, so the two cannot drift apart.
// A call whose only config is the default reads no cache file, hashes
// nothing and compiles no rule until a decision needs it: every agent
// tool call starts gatekeep afresh, so what it does before deciding is
// paid on every call.

// defaultKey names defaultEntry in place of a cache key.
const defaultKey = DefaultConfigFile

// builtinDefault is the embedded default policy from defaultEntry, its
// rules compiled on first use; nil when the home directory is not a
// clean absolute path, the only homes whose rule keys are known to be
// those defaultEntry holds (TestDefaultEntry), so the caller decodes
// default.toml instead.
func (c *compiler) builtinDefault() *fileConfig {
	if !filepath.IsAbs(c.home) || filepath.Clean(c.home) != c.home {
		return nil
	}
	return c.decodeEntry(defaultEntry, defaultKey, defaultSHA256, policy.SourceDefault, DefaultConfigFile)
}
