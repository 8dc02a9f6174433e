package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// The cache of decoded config files: every agent tool call starts
// gatekeep afresh, so decoding and validating the config files would
// otherwise be paid on every call. A file's TOML decoding and
// validation are kept, once they succeed, under
// Paths.Cache in a file named by a key over the file's layer and path,
// the project root and home it was read against, and the gatekeep that
// wrote it (LoadOptions.Version and the binary's build information, see
// buildStamp): one entry per file, replaced when the file changes. Each
// rule is kept as its text with what the rule index needs
// (policy.Rule.AppendKeys): a loaded rule is compiled from its text the
// first time a decision needs it, so a call pays only for the rules that
// can match it, and a plan file's symlinks are resolved again: nothing
// the disk may have changed since is taken from the cache.
//
// An entry is bound to its file, so that only the file's own bytes say
// which entry stands for it: it records the SHA-256 of the bytes it was compiled from, and is used only when the
// file read now has that hash, so an entry of another config moved,
// copied or re-keyed into this file's place is ignored and the file is
// decoded afresh. An entry is its body's SHA-256 followed by the body
// (appendEntry); one that does not verify, does not decode, names another
// key or another file's hash, or holds a pattern that does not compile
// is ignored too. The cache is never a source of trust: trust is judged
// from the file's own bytes (FileInfo.SHA256) before the cache is looked
// at, and the managed file, whose rules bind the person too, is never
// cached (nor is the embedded default, decoded when gatekeep is built:
// default.go). A writer who forges a whole entry for the file's current
// hash decides as the file would with the forged settings, so the
// directory is as sensitive as the config: it is one of gatekeep's
// protected paths (pathguard.DefaultConfigDirs), a write to it asks, and
// enforcement keeps it read-only.
//
// The cache is bounded (sweepCache): each write removes the temp files a
// killed writer left and, beyond maxCacheEntries entries or
// maxCacheBytes bytes, the entries written longest ago.

// cacheFormat changes whenever the entry's form does (appendEntry).
const cacheFormat = "gatekeep-config-cache-6"

// maxCacheEntry bounds an entry read (an entry is about the size of the
// file it stands for, which is at most MaxConfigSize).
const maxCacheEntry = 4 * MaxConfigSize

// cacheHits counts entries used, for the tests.
var cacheHits atomic.Int64

// buildStamp names this binary for the cache key beyond its version: the
// module's version and sum and the VCS revision it was built from, when
// the build recorded them. A build that names no clean revision and no
// module sum (a build of modified sources, a test binary) adds its
// executable's identity (path, size, modification time), so that two
// builds of different sources never share entries. Computed on first use.
var buildStamp = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return exeStamp()
	}
	parts := []string{bi.GoVersion, bi.Main.Version, bi.Main.Sum}
	clean := false
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			parts = append(parts, s.Key+"="+s.Value)
		}
		clean = clean || s.Key == "vcs.modified" && s.Value == "false"
	}
	if !clean && bi.Main.Sum == "" {
		parts = append(parts, exeStamp())
	}
	return strings.Join(parts, " ")
})

// exeStamp is the running executable's path, size and modification
// time, "" when it cannot be read.
func exeStamp() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("exe %s %d %d", exe, fi.Size(), fi.ModTime().UnixNano())
}

// cacheKey is the key of a file's entry; "" when nothing is cached. The
// managed file is never cached: its rules bind the person too, and the
// cache is the person's to write. The key does not depend on the file's
// content: an edit replaces the file's entry, and the entry's recorded
// hash says which content it stands for.
func (c *compiler) cacheKey(opts LoadOptions, source, path string) string {
	if opts.Version == "" || opts.Paths.Cache == "" || !filepath.IsAbs(opts.Paths.Cache) || source == policy.SourceManaged {
		return ""
	}
	h := sha256.Sum256([]byte(strings.Join([]string{cacheFormat, opts.Version, buildStamp(), source, path, c.root, c.home}, "\x00")))
	return hex.EncodeToString(h[:])
}

// parseCached is parse, through the cache; sum is the SHA-256 of data,
// in hex (FileInfo.SHA256).
func (c *compiler) parseCached(opts LoadOptions, source, path string, data []byte, sum string) (*fileConfig, []error) {
	key := c.cacheKey(opts, source, path)
	if key == "" {
		return c.parse(source, path, data)
	}
	file := filepath.Join(opts.Paths.Cache, key)
	if f := c.fromCache(file, key, sum, source, path); f != nil {
		cacheHits.Add(1)
		return f, nil
	}
	f, errs := c.parse(source, path, data)
	if len(errs) == 0 && f != nil {
		c.toCache(file, key, sum, f) // best effort
	}
	return f, errs
}

// fromCache reads and checks the entry of the file whose content has the
// hash sum; nil when it cannot be used.
func (c *compiler) fromCache(file, key, sum, source, path string) *fileConfig {
	b, err := policy.ReadRegular(file, maxCacheEntry)
	if err != nil || len(b) < sha256.Size {
		return nil
	}
	body := b[sha256.Size:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], b[:sha256.Size]) {
		return nil
	}
	// The settings and rules decoded keep substrings of the body, which
	// nothing writes after this point: a string over its bytes saves a
	// copy of the entry.
	return c.decodeEntry(unsafe.String(unsafe.SliceData(body), len(body)), key, sum, source, path)
}

// toCache writes f's entry, compiled from the content whose hash is sum,
// atomically, then bounds the cache (sweepCache); errors are ignored (the
// next load decodes the file again).
func (c *compiler) toCache(file, key, sum string, f *fileConfig) {
	body := appendEntry(make([]byte, 0, 4096), key, sum, f)
	check := sha256.Sum256(body)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return
	}
	if WriteFileAtomic(file, append(check[:], body...), 0o600) == nil {
		sweepCache(filepath.Dir(file), filepath.Base(file), time.Now())
	}
}

// maxCacheEntries and maxCacheBytes bound the cache directory: after a
// write, the entries written longest ago (by modification time) are
// removed until at most maxCacheEntries entries of at most maxCacheBytes
// in all are left. An entry is about the size of its file (a 3,000-rule
// file's is about 300 KB), and there is one per config file, project
// root and gatekeep build, so the bound holds the files of some sixty
// projects; an entry removed costs its next load a decoding.
const (
	maxCacheEntries = 128
	maxCacheBytes   = 64 << 20
)

// staleTemp is how old a temp file in the cache directory must be for
// sweepCache to take it as left by a killed writer: a live writer
// renames its temp file within a moment of creating it.
const staleTemp = time.Minute

// sweepCache bounds the cache directory dir after the entry named keep
// was written at now: it removes the temp files of WriteFileAtomic
// (".KEY.tmp-*") older than staleTemp, then the oldest entries beyond
// maxCacheEntries and maxCacheBytes, never keep. Files that are not
// entries or temp files are left alone; errors are ignored.
func sweepCache(dir, keep string, now time.Time) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		name string
		size int64
		mod  time.Time
	}
	var entries []entry
	var total int64
	for _, de := range list {
		name := de.Name()
		if !de.Type().IsRegular() {
			continue
		}
		base, _, tmp := strings.Cut(strings.TrimPrefix(name, "."), ".tmp-")
		tmp = tmp && strings.HasPrefix(name, ".") && isCacheKey(base)
		if !tmp && !isCacheKey(name) {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		switch {
		case tmp:
			if now.Sub(info.ModTime()) > staleTemp {
				os.Remove(filepath.Join(dir, name))
			}
		case name == keep:
			total += info.Size()
		default:
			entries = append(entries, entry{name, info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	// Newest first: the entries kept are a prefix.
	slices.SortFunc(entries, func(a, b entry) int { return b.mod.Compare(a.mod) })
	for n := len(entries); n > 0 && (n+1 > maxCacheEntries || total > maxCacheBytes); n-- {
		e := entries[n-1]
		if os.Remove(filepath.Join(dir, e.name)) == nil {
			total -= e.size
		}
	}
}

// isCacheKey reports whether name is a cache key: 64 lowercase hex
// digits (cacheKey).
func isCacheKey(name string) bool {
	if len(name) != 2*sha256.Size {
		return false
	}
	for _, r := range name {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// An entry's body is a sequence of values: unsigned and signed varints
// (encoding/binary), booleans as one byte 0 or 1, an optional boolean as
// 0 (unset), 1 (false) or 2 (true), strings and lists as a length and
// their items. In order: cacheFormat, the key, the SHA-256 (hex) of the
// file's content it was compiled from, the file's settings, its
// rules (each with what policy.Rule.AppendKeys writes), [[danger]]
// entries, [[test]] entries and enforcement keys, as appendEntry writes
// them and decodeEntry reads them.

// appendEntry appends the body of f's entry under key, compiled from the
// content whose hash is sum.
func appendEntry(b []byte, key, sum string, f *fileConfig) []byte {
	w := entryWriter{b: b}
	w.string(cacheFormat)
	w.string(key)
	w.string(sum)
	w.string(string(f.mode))
	w.bool(f.modeSet)
	w.bool(f.disableBypass)
	w.strings(f.allowDirs)
	w.string(f.planFileAbs)
	w.strings(f.planTools)
	w.bool(f.planToolsSet)
	w.string(f.auditFile)
	w.varint(int64(f.promptTimeout))
	w.optBool(f.trustAgent)
	w.string(string(f.dialect))
	w.uvarint(uint64(len(f.rules)))
	var keys []byte
	for _, r := range f.rules {
		w.ref(r.Ref)
		keys = r.AppendKeys(keys[:0])
		w.string(string(keys))
	}
	w.uvarint(uint64(len(f.danger)))
	for _, d := range f.danger {
		w.ref(d.Ref)
	}
	w.uvarint(uint64(len(f.tests)))
	for _, t := range f.tests {
		w.string(t.Name)
		w.string(t.Tool)
		w.string(t.Input)
		w.string(string(t.Mode))
		w.uvarint(uint64(t.Expect))
		w.varint(int64(t.Line))
		w.varint(int64(t.Index))
	}
	e := f.enforce
	w.varint(int64(e.enforce))
	w.bool(e.enforceSet)
	w.optBool(e.network)
	w.optBool(e.autoAllow)
	w.strings(e.writable)
	w.bool(e.writableSet)
	w.strings(e.readable)
	w.uvarint(uint64(len(e.unconfined)))
	for _, r := range e.unconfined {
		w.ref(r.Ref)
	}
	w.optBool(e.bypassOff)
	w.bool(e.hostsSet)
	hosts := make([]string, len(e.hosts))
	for i, h := range e.hosts {
		hosts[i] = h.String()
	}
	w.strings(hosts)
	return w.b
}

// decodeEntry reads an entry's body written by appendEntry for key and
// the content hash sum, as the file's settings: rules stand on their
// cached keys and are compiled on first use (policy.Compiler.LazyRule),
// [[danger]] patterns and unconfined patterns are compiled now, and the
// plan file's symlinks are resolved now. Nil when the body does not
// decode, names another key, was compiled from other content than sum
// or holds a pattern that does not compile.
func (c *compiler) decodeEntry(body, key, sum, source, path string) *fileConfig {
	d := entryReader{s: body}
	if d.string() != cacheFormat || d.string() != key || sum == "" || d.string() != sum {
		return nil
	}
	f := &fileConfig{source: source, path: path}
	f.mode = policy.Mode(d.string())
	f.modeSet = d.bool()
	f.disableBypass = d.bool()
	f.allowDirs = d.strings()
	f.planFileAbs = d.string()
	f.planTools = d.strings()
	f.planToolsSet = d.bool()
	f.auditFile = d.string()
	f.promptTimeout = time.Duration(d.varint())
	f.trustAgent = d.optBool()
	f.dialect = shellparse.Dialect(d.string())
	// A damaged count allocates no more rules than the bytes left hold.
	if n := d.countOf(minRuleBytes); n > 0 {
		f.rules = make([]*policy.Rule, n)
		block := make([]policy.Rule, n)
		for i := range block {
			ref := d.ref(source, path)
			keys := d.string()
			if d.bad || c.rules.SetLazy(&block[i], ref, keys) != nil {
				return nil
			}
			f.rules[i] = &block[i]
		}
	}
	for range d.count() {
		ref := d.ref(source, path)
		if d.bad {
			return nil
		}
		re, err := regexp.Compile(ref.Rule)
		if err != nil {
			return nil
		}
		ref.Effect = policy.Deny
		f.danger = append(f.danger, policy.NewDangerRule(ref, re))
	}
	for range d.count() {
		t := TestCase{Source: source, File: path}
		t.Name, t.Tool, t.Input, t.Mode = d.string(), d.string(), d.string(), policy.Mode(d.string())
		t.Expect = policy.Effect(d.uvarint())
		t.Line, t.Index = d.int(), d.int()
		f.tests = append(f.tests, t)
	}
	e := &f.enforce
	e.enforce = policy.EnforceLevel(d.int())
	e.enforceSet = d.bool()
	e.network, e.autoAllow = d.optBool(), d.optBool()
	e.writable = d.strings()
	e.writableSet = d.bool()
	e.readable = d.strings()
	for range d.count() {
		ref := d.ref(source, path)
		if d.bad {
			return nil
		}
		ref.Effect = policy.Ask
		r, err := c.rules.Rule(ref.Rule, ref)
		if err != nil || r.Tool != policy.ToolBash {
			return nil
		}
		r.Trusted, r.Active = true, true
		e.unconfined = append(e.unconfined, r)
	}
	e.bypassOff = d.optBool()
	e.hostsSet = d.bool()
	for _, h := range d.strings() {
		he, err := policy.ParseHostEntry(h)
		if err != nil {
			return nil
		}
		e.hosts = append(e.hosts, he)
	}
	if e.hostsSet && e.hosts == nil {
		e.hosts = []policy.HostEntry{}
	}
	if d.bad || d.s != "" {
		return nil
	}
	if f.planFileAbs != "" {
		f.planFile = realOrAbs(f.planFileAbs)
	}
	return f
}

// minRuleBytes is the fewest bytes a rule takes in an entry: its text,
// effect, line, index, reason and keys, each at least one byte.
const minRuleBytes = 6

// entryWriter appends values to an entry's body.
type entryWriter struct{ b []byte }

func (w *entryWriter) uvarint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *entryWriter) varint(v int64)   { w.b = binary.AppendVarint(w.b, v) }

func (w *entryWriter) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *entryWriter) optBool(v *bool) {
	switch {
	case v == nil:
		w.b = append(w.b, 0)
	case *v:
		w.b = append(w.b, 2)
	default:
		w.b = append(w.b, 1)
	}
}

func (w *entryWriter) string(s string) {
	w.uvarint(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *entryWriter) strings(list []string) {
	w.uvarint(uint64(len(list)))
	for _, s := range list {
		w.string(s)
	}
}

// ref writes what a RuleRef holds beyond its file: the text, the effect,
// the line, the index and the reason.
func (w *entryWriter) ref(r policy.RuleRef) {
	w.string(r.Rule)
	w.uvarint(uint64(r.Effect))
	w.varint(int64(r.Line))
	w.varint(int64(r.Index))
	w.string(r.Reason)
}

// entryReader reads an entry's body. On the first value that does not
// decode it sets bad, and every later read returns a zero value. Strings
// are substrings of the body (no copies); a count is at most the bytes
// left, so a damaged length never allocates more than the entry's size.
type entryReader struct {
	s   string
	bad bool
}

func (d *entryReader) uvarint() uint64 {
	if d.bad {
		return 0
	}
	v, rest, ok := policy.ReadUvarint(d.s)
	d.s, d.bad = rest, !ok
	return v
}

func (d *entryReader) varint() int64 {
	u := d.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// int is a varint that fits an int.
func (d *entryReader) int() int {
	v := d.varint()
	if int64(int(v)) != v {
		d.bad = true
		return 0
	}
	return int(v)
}

// count is a list's length: at most the bytes left.
func (d *entryReader) count() int { return d.countOf(1) }

// countOf is a list's length when each item takes at least size bytes:
// at most the bytes left hold.
func (d *entryReader) countOf(size int) int {
	n := d.uvarint()
	if n > uint64(len(d.s)/size) {
		d.bad = true
		return 0
	}
	return int(n)
}

func (d *entryReader) byte() byte {
	if d.bad || d.s == "" {
		d.bad = true
		return 0
	}
	b := d.s[0]
	d.s = d.s[1:]
	return b
}

func (d *entryReader) bool() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.bad = true
	return false
}

func (d *entryReader) optBool() *bool {
	switch d.byte() {
	case 0:
		return nil
	case 1:
		v := false
		return &v
	case 2:
		v := true
		return &v
	}
	d.bad = true
	return nil
}

func (d *entryReader) string() string {
	n := d.count()
	if d.bad {
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

func (d *entryReader) strings() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	list := make([]string, n)
	for i := range list {
		list[i] = d.string()
	}
	return list
}

// ref reads what entryWriter.ref wrote, for a rule of source's file path.
func (d *entryReader) ref(source, path string) policy.RuleRef {
	r := policy.RuleRef{Rule: d.string(), Source: source, File: path}
	eff := d.uvarint()
	if eff > uint64(policy.Allow) {
		d.bad = true
	}
	r.Effect = policy.Effect(eff)
	r.Line, r.Index = d.int(), d.int()
	r.Reason = d.string()
	return r
}
