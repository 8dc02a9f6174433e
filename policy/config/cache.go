package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// The cache of decoded config files (issue 16, item 2). A file's TOML
// decoding and validation are kept, once they succeed, under
// Paths.Cache in a file named by a key over the file's content hash, its
// layer and path, the project root and home it was read against, and the
// gatekeep that wrote it (LoadOptions.Version and the binary's build
// information). The rules' patterns are compiled again from their text on
// every load, and a plan file's symlinks resolved again, so nothing the
// disk may have changed since is taken from the cache.
//
// An entry is its body's SHA-256 followed by the body (gob); one that
// does not verify, does not decode, names another key or holds a rule
// that does not compile is ignored and the file is decoded afresh. The
// cache is never a source of trust: trust is judged from the file's own
// bytes (FileInfo.SHA256) before the cache is looked at, and the managed
// file, whose rules bind the person too, is never cached. The directory is
// one of gatekeep's protected paths (pathguard.DefaultConfigDirs): a write
// to it asks, and enforcement keeps it read-only.

// cacheFormat changes whenever cachedFile does.
const cacheFormat = "gatekeep-config-cache-1"

// maxCacheEntry bounds an entry read (a decoded file is smaller than the
// file itself, which is at most MaxConfigSize).
const maxCacheEntry = 4 * MaxConfigSize

// cacheHits counts entries used, for the tests.
var cacheHits atomic.Int64

// cachedFile is a fileConfig as plain values.
type cachedFile struct {
	Key           string
	Mode          policy.Mode
	ModeSet       bool
	DisableBypass bool
	AllowDirs     []string
	PlanFileAbs   string
	PlanTools     []string
	PlanToolsSet  bool
	AuditFile     string
	PromptTimeout time.Duration
	TrustAgent    *bool
	Dialect       shellparse.Dialect
	Rules         []cachedRule
	Danger        []cachedRule
	Tests         []TestCase
	Enforce       cachedEnforce
}

// cachedRule is a rule, a [[danger]] entry or an unconfined pattern: its
// text and where it was written.
type cachedRule struct {
	Text        string
	Effect      policy.Effect
	Line, Index int
	Reason      string
}

type cachedEnforce struct {
	Level              policy.EnforceLevel
	Set                bool
	Network, AutoAllow *bool
	Writable           []string
	WritableSet        bool
	Unconfined         []cachedRule
}

// buildStamp names this binary for the cache key beyond its version: the
// module's version and sum and the VCS revision it was built from, when
// the build recorded them.
var buildStamp = func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	parts := []string{bi.GoVersion, bi.Main.Version, bi.Main.Sum}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			parts = append(parts, s.Key+"="+s.Value)
		}
	}
	return strings.Join(parts, " ")
}()

// cacheKey is the key of a file's entry; "" when nothing is cached. The
// managed file is never cached: its rules bind the person too, and the
// cache is the person's to write.
func (c *compiler) cacheKey(opts LoadOptions, source, path, sum string) string {
	if opts.Version == "" || opts.Paths.Cache == "" || !filepath.IsAbs(opts.Paths.Cache) || source == policy.SourceManaged {
		return ""
	}
	h := sha256.Sum256([]byte(strings.Join([]string{cacheFormat, opts.Version, buildStamp, source, path, c.root, c.home, sum}, "\x00")))
	return hex.EncodeToString(h[:])
}

// parseCached is parse, through the cache.
func (c *compiler) parseCached(opts LoadOptions, source, path string, data []byte, sum string) (*fileConfig, []error) {
	key := c.cacheKey(opts, source, path, sum)
	if key == "" {
		return c.parse(source, path, data)
	}
	file := filepath.Join(opts.Paths.Cache, key)
	if f := c.fromCache(file, key, source, path); f != nil {
		cacheHits.Add(1)
		return f, nil
	}
	f, errs := c.parse(source, path, data)
	if len(errs) == 0 && f != nil {
		c.toCache(file, key, f) // best effort
	}
	return f, errs
}

// fromCache reads and checks an entry; nil when it cannot be used.
func (c *compiler) fromCache(file, key, source, path string) *fileConfig {
	b, err := policy.ReadRegular(file, maxCacheEntry)
	if err != nil || len(b) < sha256.Size {
		return nil
	}
	body := b[sha256.Size:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], b[:sha256.Size]) {
		return nil
	}
	var cf cachedFile
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&cf); err != nil || cf.Key != key {
		return nil
	}
	f := &fileConfig{source: source, path: path, mode: cf.Mode, modeSet: cf.ModeSet, disableBypass: cf.DisableBypass,
		allowDirs: cf.AllowDirs, planFileAbs: cf.PlanFileAbs, planTools: cf.PlanTools, planToolsSet: cf.PlanToolsSet,
		auditFile: cf.AuditFile, promptTimeout: cf.PromptTimeout, trustAgent: cf.TrustAgent, dialect: cf.Dialect,
		tests: cf.Tests}
	if cf.PlanFileAbs != "" {
		f.planFile = realOrAbs(cf.PlanFileAbs)
	}
	ref := func(r cachedRule, effect policy.Effect) policy.RuleRef {
		return policy.RuleRef{Rule: r.Text, Effect: effect, Source: source, File: path, Line: r.Line, Index: r.Index, Reason: r.Reason}
	}
	for _, r := range cf.Rules {
		rule, err := c.rules.Rule(r.Text, ref(r, r.Effect))
		if err != nil {
			return nil
		}
		f.rules = append(f.rules, rule)
	}
	for _, r := range cf.Danger {
		re, err := regexp.Compile(r.Text)
		if err != nil {
			return nil
		}
		f.danger = append(f.danger, policy.NewDangerRule(ref(r, policy.Deny), re))
	}
	e := cf.Enforce
	f.enforce = enforceFile{enforce: e.Level, enforceSet: e.Set, network: e.Network, autoAllow: e.AutoAllow,
		writable: e.Writable, writableSet: e.WritableSet}
	for _, r := range e.Unconfined {
		rule, err := c.rules.Rule(r.Text, ref(r, policy.Ask))
		if err != nil || rule.Tool != policy.ToolBash {
			return nil
		}
		rule.Trusted, rule.Active = true, true
		f.enforce.unconfined = append(f.enforce.unconfined, rule)
	}
	return f
}

// toCache writes f's entry atomically; errors are ignored (the next load
// decodes the file again).
func (c *compiler) toCache(file, key string, f *fileConfig) {
	cr := func(r policy.RuleRef) cachedRule {
		return cachedRule{Text: r.Rule, Effect: r.Effect, Line: r.Line, Index: r.Index, Reason: r.Reason}
	}
	cf := cachedFile{Key: key, Mode: f.mode, ModeSet: f.modeSet, DisableBypass: f.disableBypass, AllowDirs: f.allowDirs,
		PlanFileAbs: f.planFileAbs, PlanTools: f.planTools, PlanToolsSet: f.planToolsSet, AuditFile: f.auditFile,
		PromptTimeout: f.promptTimeout, TrustAgent: f.trustAgent, Dialect: f.dialect, Tests: f.tests,
		Enforce: cachedEnforce{Level: f.enforce.enforce, Set: f.enforce.enforceSet, Network: f.enforce.network,
			AutoAllow: f.enforce.autoAllow, Writable: f.enforce.writable, WritableSet: f.enforce.writableSet}}
	for _, r := range f.rules {
		cf.Rules = append(cf.Rules, cr(r.Ref))
	}
	for _, d := range f.danger {
		cf.Danger = append(cf.Danger, cr(d.Ref))
	}
	for _, r := range f.enforce.unconfined {
		cf.Enforce.Unconfined = append(cf.Enforce.Unconfined, cr(r.Ref))
	}
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode(&cf); err != nil {
		return
	}
	sum := sha256.Sum256(body.Bytes())
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return
	}
	WriteFileAtomic(file, append(sum[:], body.Bytes()...), 0o600)
}
