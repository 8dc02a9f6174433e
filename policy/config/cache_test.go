package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gatekeep/gatekeep/policy"
)

// TestConfigCache: a file's decoded form is kept under Paths.Cache and
// used while the file is unchanged; an edit between two loads is seen by
// the second; an entry that does not verify is ignored; nothing is cached
// without a version.
func TestConfigCache(t *testing.T) {
	v := newCfgEnv(t)
	opts := v.opts()
	opts.Version = "test"
	cache := opts.Paths.Cache
	if !filepath.IsAbs(cache) {
		t.Fatalf("cache dir %q", cache)
	}
	load := func() *Loaded {
		t.Helper()
		l, err := Load(opts)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	decide := func(l *Loaded, cmd string) policy.Effect {
		return v.bash(v.config(l, policy.ModeDefault), cmd).Effect
	}
	v.write(v.paths.User, "[[rule]]\ndeny = \"Bash(make *)\"\nreason = \"no make\"\n[[danger]]\npattern = \"^frobnicate\"\n[sandbox]\nunconfined = [\"Bash(ssh *)\"]\n[plan]\nfile = \"PLAN.md\"\n")
	first := load()
	entries, _ := os.ReadDir(cache)
	if len(entries) != 2 { // the user file and the embedded default
		t.Fatalf("%d cache entries, want 2", len(entries))
	}
	hits := cacheHits.Load()
	second := load()
	if n := cacheHits.Load() - hits; n != 2 {
		t.Errorf("second load used %d cache entries, want 2", n)
	}
	for _, c := range []struct {
		cmd  string
		want policy.Effect
	}{{"make all", policy.Deny}, {"frobnicate x", policy.Deny}, {"cat .env", policy.Deny}, {"ls", policy.Allow}} {
		if a, b := decide(first, c.cmd), decide(second, c.cmd); a != c.want || b != c.want {
			t.Errorf("%s: decoded %v, cached %v, want %v", c.cmd, a, b, c.want)
		}
	}
	if first.PlanFile != second.PlanFile || len(second.Enforce.Unconfined) != 1 || second.Rules.Rules()[0].Ref != first.Rules.Rules()[0].Ref {
		t.Errorf("cached form differs: plan %q/%q, unconfined %d", first.PlanFile, second.PlanFile, len(second.Enforce.Unconfined))
	}

	// An edit between two calls is seen by the second.
	v.write(v.paths.User, "[[rule]]\ndeny = \"Bash(rm *)\"\n")
	edited := load()
	if decide(edited, "make all") == policy.Deny || decide(edited, "rm x") != policy.Deny {
		t.Errorf("after the edit: make %v, rm %v", decide(edited, "make all"), decide(edited, "rm x"))
	}

	// A damaged entry is ignored.
	entries, _ = os.ReadDir(cache)
	for _, e := range entries {
		p := filepath.Join(cache, e.Name())
		b, _ := os.ReadFile(p)
		b[len(b)-1] ^= 0xff
		os.WriteFile(p, b, 0o600)
	}
	hits = cacheHits.Load()
	if decide(load(), "rm x") != policy.Deny || cacheHits.Load() != hits {
		t.Error("a damaged entry was used")
	}

	// The managed file binds the person, who can write the cache: it is
	// never cached.
	os.RemoveAll(cache)
	v.write(v.paths.Managed, "[[rule]]\ndeny = \"Bash(curl *)\"\n")
	load()
	entries, _ = os.ReadDir(cache)
	if len(entries) != 2 { // the user file and the embedded default
		t.Errorf("%d cache entries with a managed file, want 2", len(entries))
	}

	// No version, no cache.
	os.RemoveAll(cache)
	opts.Version = ""
	load()
	if _, err := os.Stat(cache); err == nil {
		t.Error("a cache was written without a version")
	}
}
