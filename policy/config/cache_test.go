package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

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
	if len(entries) != 1 { // the user file (the embedded default is built in, TestDefaultEntry)
		t.Fatalf("%d cache entries, want 1", len(entries))
	}
	hits := cacheHits.Load()
	second := load()
	if n := cacheHits.Load() - hits; n != 1 {
		t.Errorf("second load used %d cache entries, want 1", n)
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
	if len(entries) != 1 { // the user file
		t.Errorf("%d cache entries with a managed file, want 1", len(entries))
	}

	// No version, no cache.
	os.RemoveAll(cache)
	opts.Version = ""
	load()
	if _, err := os.Stat(cache); err == nil {
		t.Error("a cache was written without a version")
	}
}

// cacheSample is a file with a value in every setting an entry holds.
const cacheSample = `mode = "acceptEdits"
[sandbox]
allow_dirs = ["/opt/x"]
unconfined = ["Bash(ssh *)"]
writable = ["~/.cache/go-build"]
readable = ["~/.config/gh"]
bypass = "off"
allowed_hosts = ["pypi.org", "*.pythonhosted.org", "[::1]:8080"]
network = false
[plan]
file = "PLAN.md"
tools = ["Read"]
[audit]
file = "~/audit.jsonl"
[prompt]
timeout = "30s"
[hooks]
trust_agent_mode = true
[shell]
dialect = "zsh"
[[rule]]
deny = ["Bash(make *)", "Read(secrets/**)", "WebFetch(domain:example.com)"]
reason = "no make"
[[rule]]
allow = "Bash(git status)"
[[danger]]
pattern = "^frobnicate"
reason = "never"
[[test]]
tool = "Bash"
input = "make all"
expect = "deny"
`

// TestConfigCacheDamaged: an entry cut short at any length, with a byte
// changed anywhere, written for another key or by an older format, is
// ignored (its file decoded afresh, with the same answers) and never
// panics, even when its hash was made to verify.
func TestConfigCacheDamaged(t *testing.T) {
	v := newCfgEnv(t)
	text := cacheSample + someRules(1000)
	v.write(v.paths.User, text)
	opts := v.opts()
	opts.Version = "test"
	fresh, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	c := &compiler{root: v.root, home: v.home, rules: policy.NewCompiler(v.root, v.home)}
	sum := sha256.Sum256([]byte(text))
	hexSum := hex.EncodeToString(sum[:])
	key := c.cacheKey(opts, policy.SourceUser, v.paths.User)
	file := filepath.Join(opts.Paths.Cache, key)
	entry, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	body := entry[sha256.Size:]
	if f := c.decodeEntry(string(body), key, hexSum, policy.SourceUser, v.paths.User); f == nil {
		t.Fatal("the entry written does not decode")
	}
	write := func(body []byte, rehash bool) {
		t.Helper()
		sum := entry[:sha256.Size]
		if rehash {
			s := sha256.Sum256(body)
			sum = s[:]
		}
		if err := os.WriteFile(file, append(slices.Clone(sum), body...), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, used bool) {
		t.Helper()
		hits := cacheHits.Load()
		l, err := Load(opts)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if n := cacheHits.Load() - hits; n != 0 && !used {
			t.Fatalf("%s: %d entries used, want none", what, n)
		}
		if !used {
			for _, cmd := range []string{"make all", "git status", "frobnicate", "ls"} {
				a, b := v.bash(v.config(fresh, ""), cmd), v.bash(v.config(l, ""), cmd)
				if a.Effect != b.Effect || a.Code != b.Code {
					t.Fatalf("%s: %s: %v %s, decoded afresh %v %s", what, cmd, b.Effect, b.Code, a.Effect, a.Code)
				}
			}
		}
		write(body, false)
	}
	for n := 0; n < len(body); n += 1 + n/64 {
		write(body[:n], true)
		check(fmt.Sprintf("cut at %d", n), false)
	}
	write(append(slices.Clone(body), 0), true)
	check("a byte more", false)
	// A changed byte with the hash made to verify may still decode (to
	// other settings: the cache holds what gatekeep wrote), but never
	// panics; without the hash made to verify, it is ignored.
	for i := 0; i < len(body); i++ {
		b := slices.Clone(body)
		b[i] ^= 0x41
		if i%61 == 0 {
			write(b, false)
			check(fmt.Sprintf("byte %d changed", i), false)
		}
		if fc := c.decodeEntry(string(b), key, hexSum, policy.SourceUser, v.paths.User); fc != nil && i%5 == 0 {
			for _, r := range fc.rules {
				r.Trusted, r.Active = true, true
			}
			rs := &policy.RuleSet{}
			rs.Add(policy.SourceUser, fc.rules, fc.danger)
			policy.LintRules(rs) // compiles every rule
		}
	}
	// Another file's entry under this key.
	other := appendEntry(nil, strings.Repeat("0", 64), hexSum, &fileConfig{})
	write(other, true)
	check("another key", false)
	// The format before this one (gob, cacheFormat 1).
	write(append([]byte("\x1b\xff\x81\x03\x01\x01\ncachedFile\x01\xff\x82"), body[30:]...), true)
	check("an older format", false)
}

// FuzzDecodeEntry: no body, however damaged, makes decodeEntry panic, and
// a body that decodes gives rules that compile or fail closed.
func FuzzDecodeEntry(f *testing.F) {
	c := &compiler{root: "/proj", home: "/home/u", rules: policy.NewCompiler("/proj", "/home/u")}
	for _, text := range []string{cacheSample, string(defaultTOML), cacheSample + someRules(2000)} {
		fc, errs := c.parse(policy.SourceUser, "/u/config.toml", []byte(text))
		if len(errs) > 0 {
			f.Fatal(errs)
		}
		f.Add(appendEntry(nil, "k", "s", fc))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		fc := c.decodeEntry(string(body), "k", "s", policy.SourceUser, "/u/config.toml")
		if fc == nil {
			return
		}
		for _, r := range fc.rules {
			r.Trusted, r.Active = true, true
		}
		rs := &policy.RuleSet{}
		rs.Add(policy.SourceUser, fc.rules, fc.danger)
		policy.LintRules(rs) // compiles every rule
		cfg := &policy.Config{Mode: policy.ModeDefault, Rules: rs, Root: "/proj", Home: "/home/u"}
		for _, cmd := range []string{"make all", "git push --force x", "cat /proj/secrets/a"} {
			policy.Evaluate(cfg, policy.Request{Tool: policy.ToolBash, Command: cmd, Cwd: "/proj"})
		}
	})
}

// someRules is the first rules of thousandRules, up to n bytes.
func someRules(n int) string {
	r := thousandRules()[:n]
	return r[:strings.LastIndex(r, "[[rule]]")]
}

// TestCacheEntryRoundTrip: every setting of a file comes back from its
// entry as it was decoded, and a field added to fileConfig or
// enforceFile fails this test until appendEntry and decodeEntry carry it
// (and cacheFormat changes).
func TestCacheEntryRoundTrip(t *testing.T) {
	if n, m := reflect.TypeOf(fileConfig{}).NumField(), reflect.TypeOf(enforceFile{}).NumField(); n != 18 || m != 11 {
		t.Fatalf("fileConfig has %d fields, enforceFile %d: carry the new ones in appendEntry and decodeEntry, change cacheFormat, and update this count", n, m)
	}
	v := newCfgEnv(t)
	c := &compiler{root: v.root, home: v.home, rules: policy.NewCompiler(v.root, v.home)}
	want, errs := c.parse(policy.SourceUser, v.paths.User, []byte(cacheSample))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := c.decodeEntry(string(appendEntry(nil, "k", "s", want)), "k", "s", policy.SourceUser, v.paths.User)
	if got == nil {
		t.Fatal("the entry does not decode")
	}
	refs := func(rules []*policy.Rule) []policy.RuleRef {
		var out []policy.RuleRef
		for _, r := range rules {
			out = append(out, r.Ref)
		}
		return out
	}
	dangerRefs := func(rules []*policy.DangerRule) []policy.RuleRef {
		var out []policy.RuleRef
		for _, r := range rules {
			out = append(out, r.Ref)
		}
		return out
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"rules", refs(got.rules), refs(want.rules)},
		{"danger", dangerRefs(got.danger), dangerRefs(want.danger)},
		{"unconfined", refs(got.enforce.unconfined), refs(want.enforce.unconfined)},
	} {
		if !reflect.DeepEqual(c.got, c.want) || reflect.ValueOf(c.want).Len() == 0 {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, c.want)
		}
	}
	for i, r := range got.rules {
		w := want.rules[i]
		if r.Tool != w.Tool || r.Pattern != w.Pattern || string(r.AppendKeys(nil)) != string(w.AppendKeys(nil)) {
			t.Errorf("rule %d: %s(%s), want %s(%s)", i, r.Tool, r.Pattern, w.Tool, w.Pattern)
		}
	}
	got.rules, want.rules, got.danger, want.danger = nil, nil, nil, nil
	got.enforce.unconfined, want.enforce.unconfined = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("settings:\n%+v\nwant\n%+v", got, want)
	}
	if want.trustAgent == nil || want.enforce.network == nil || want.promptTimeout == 0 || len(want.tests) == 0 || want.planFile == "" ||
		want.dialect == "" || !want.planToolsSet || !want.enforce.writableSet || want.auditFile == "" || !want.modeSet ||
		want.enforce.bypassOff == nil {
		t.Errorf("cacheSample leaves a setting unset: %+v", want)
	}
}

// TestConfigCacheBoundToFile: an entry compiled from another config —
// copied into the file's place, or re-keyed to the file's key as a
// same-user writer could — is not used: the decision follows the file on
// disk.
func TestConfigCacheBoundToFile(t *testing.T) {
	v := newCfgEnv(t)
	opts := v.opts()
	opts.Version = "test"
	c := &compiler{root: v.root, home: v.home, rules: policy.NewCompiler(v.root, v.home)}
	key := c.cacheKey(opts, policy.SourceUser, v.paths.User)
	file := filepath.Join(opts.Paths.Cache, key)
	const bypass = "mode = \"bypassPermissions\"\n[[rule]]\nallow = \"Bash(make *)\"\n"
	const strict = "[[rule]]\ndeny = \"Bash(make *)\"\n"
	v.write(v.paths.User, bypass)
	if _, err := Load(opts); err != nil {
		t.Fatal(err)
	}
	bypassEntry, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v.write(v.paths.User, strict)
	if _, err := Load(opts); err != nil {
		t.Fatal(err)
	}
	// A re-keyed entry: the bypass config compiled and written under the
	// strict file's key, its check hash made to verify.
	fc, errs := c.parse(policy.SourceUser, v.paths.User, []byte(bypass))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	bypassSum := sha256.Sum256([]byte(bypass))
	rekeyed := appendEntry(nil, key, hex.EncodeToString(bypassSum[:]), fc)
	check := sha256.Sum256(rekeyed)
	for _, planted := range []struct {
		what  string
		entry []byte
	}{{"the bypass config's entry copied", bypassEntry}, {"a re-keyed entry", append(check[:], rekeyed...)}} {
		if err := os.WriteFile(file, planted.entry, 0o600); err != nil {
			t.Fatal(err)
		}
		hits := cacheHits.Load()
		l, err := Load(opts)
		if err != nil {
			t.Fatal(err)
		}
		if n := cacheHits.Load() - hits; n != 0 {
			t.Errorf("%s: %d entries used, want none", planted.what, n)
		}
		if l.Mode == policy.ModeBypass || v.bash(v.config(l, ""), "make all").Effect != policy.Deny {
			t.Errorf("%s: mode %s, make all %v; the file on disk denies it", planted.what, l.Mode, v.bash(v.config(l, ""), "make all").Effect)
		}
	}
	// The entry the strict file's load rewrote is used again.
	hits := cacheHits.Load()
	if _, err := Load(opts); err != nil || cacheHits.Load()-hits != 1 {
		t.Errorf("the rewritten entry was not used (err %v)", err)
	}
}

// TestSweepCache: a write removes the temp files a killed writer left
// (older than staleTemp; a fresh one may be a live writer's) and keeps at
// most maxCacheEntries entries, removing those written longest ago;
// files that are not the cache's are left alone.
func TestSweepCache(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	key := func(i int) string { return fmt.Sprintf("%064x", i) }
	put := func(name string, age time.Duration) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	// Entry i was written i minutes ago; the newest is the one written now.
	for i := range maxCacheEntries + 10 {
		put(key(i), time.Duration(i)*time.Minute)
	}
	put("."+key(1)+".tmp-123", 2*staleTemp)
	put("."+key(2)+".tmp-456", staleTemp/2)
	put("notes.txt", time.Hour*1000)
	put(".tmp-x", time.Hour*1000)
	sweepCache(dir, key(0), now)
	for name, want := range map[string]bool{
		key(0): true, key(maxCacheEntries - 1): true, key(maxCacheEntries): false, key(maxCacheEntries + 9): false,
		"." + key(1) + ".tmp-123": false, "." + key(2) + ".tmp-456": true, "notes.txt": true, ".tmp-x": true,
	} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s: present %v, want %v", name, err == nil, want)
		}
	}
	// The entry just written is kept even when it is the oldest.
	put(key(0), 1000*time.Hour)
	for i := range 5 {
		put(key(1000+i), 0)
	}
	sweepCache(dir, key(0), now)
	if _, err := os.Stat(filepath.Join(dir, key(0))); err != nil {
		t.Errorf("the entry just written was removed: %v", err)
	}
	n := 0
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if isCacheKey(e.Name()) {
			n++
		}
	}
	if n != maxCacheEntries {
		t.Errorf("%d entries left, want %d", n, maxCacheEntries)
	}
}
