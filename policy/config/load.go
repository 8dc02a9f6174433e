package config

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// defaultTOML is the embedded default policy: secret files denied to reads
// and writes, the lowest layer of the rules. It is read by the same loader
// as every file.
//
//go:embed default.toml
var defaultTOML []byte

// MaxConfigSize is the largest config file Load reads, in bytes (4 MiB).
const MaxConfigSize = 4 << 20

// MaxConfigNesting is how deeply arrays and inline tables may nest in a
// config file. The TOML decoder recurses per level and is super-linear in
// the depth of inline tables (a 40 KB file of nested `{a=` takes tens of
// seconds and gigabytes; a 4 MiB nested array overflows the stack), so
// checkTOMLShape refuses deeper nesting before the decoder sees the file.
const MaxConfigNesting = 32

// LoadOptions says where Load finds the files and how it judges trust.
type LoadOptions struct {
	// Root is the project root (absolute), from FindRoot.
	Root string
	// Home is the home directory (absolute), for `~` in patterns and
	// paths. A `~` pattern with no Home is a config error.
	Home string
	// Paths are the managed and user files and the trust store, from
	// DefaultPaths. An empty path skips that file (or, for Trust, trusts
	// nothing).
	Paths Paths
	// NoDefault leaves out the embedded default policy (for tests).
	NoDefault bool
	// Version names the gatekeep that compiles the files: a file's
	// decoded form is cached under Paths.Cache only when it is set (see
	// cache.go).
	Version string
}

// Load reads every config layer (managed, user, project, local, then the
// embedded default), validates each, and merges them. Missing files are
// skipped. Every problem found in any file is returned at once, as
// *ConfigError values joined with errors.Join, and the Loaded is then nil:
// the caller must fail closed (exit 78). Other errors (an unreadable file)
// are wrapped in a *ConfigError naming the file as well.
func Load(opts LoadOptions) (*Loaded, error) {
	if !filepath.IsAbs(opts.Root) {
		return nil, &ConfigError{File: opts.Root, Msg: "the project root must be an absolute path"}
	}
	root := filepath.Clean(opts.Root)
	c := &compiler{root: root, home: opts.Home, rules: policy.NewCompiler(root, opts.Home)}
	l := &Loaded{Root: root, Rules: &policy.RuleSet{}}
	trust := lazyTrust{path: opts.Paths.Trust, l: l}
	var errs []error
	for _, src := range policy.Sources {
		fi := layerFile(src, root, opts)
		var data []byte
		if src == policy.SourceDefault {
			if opts.NoDefault {
				l.Files = append(l.Files, fi)
				continue
			}
			fi.Exists, fi.SHA256, fi.Trusted = true, defaultSHA256, true
			if f := c.builtinDefault(); f != nil {
				l.Files = append(l.Files, fi)
				l.merge(f, fi)
				continue
			}
			data = defaultTOML
		} else {
			if fi.Path == "" {
				l.Files = append(l.Files, fi)
				continue
			}
			b, err := readConfigFile(fi.Path)
			if err != nil {
				errs = append(errs, &ConfigError{File: fi.Path, Msg: err.Error()})
				l.Files = append(l.Files, fi)
				continue
			}
			if b == nil {
				l.Files = append(l.Files, fi)
				continue
			}
			fi.Exists, data = true, b
		}
		sum := sha256.Sum256(data)
		fi.SHA256, fi.Trusted = hex.EncodeToString(sum[:]), !fi.NeedsTrust
		if fi.NeedsTrust {
			fi.Trusted, fi.Changed = trust.store().check(fi.Path, fi.SHA256)
		}
		l.Files = append(l.Files, fi)
		f, ferrs := c.parseCached(opts, src, fi.Path, data, fi.SHA256)
		errs = append(errs, ferrs...)
		if f != nil {
			l.merge(f, fi)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if l.ModeSource == "" {
		l.Mode = policy.ModeDefault
	}
	return l, nil
}

// lazyTrust reads the trust store on the first file that needs trust.
// Most calls have no project or local file, and reading and decoding the
// store would cost each of them; a file that needs trust is still judged
// against the store as it is on disk, read before that file is merged.
type lazyTrust struct {
	path string
	l    *Loaded // where the warning about an unreadable store goes
	ts   *trustStore
}

func (t *lazyTrust) store() *trustStore {
	if t.ts == nil {
		ts := readTrustStore(t.path)
		t.ts = &ts
		if ts.err != nil {
			// First among the warnings, as when the store was read
			// before any file.
			t.l.Warnings = slices.Insert(t.l.Warnings, 0, fmt.Sprintf("trust store %s cannot be read (%v); every project file counts as untrusted", t.path, ts.err))
		}
	}
	return t.ts
}

// layerFile is where a layer's file is or would be, and whether it needs
// trust: the project file and the local file do. The local file is the
// person's own only by a fact the trust store records — gatekeep wrote it
// (`rules add`, "always") or the person ran `gatekeep trust` on it — never
// by inference: a file git does not track may have come with a submodule,
// a tarball or a patch.
func layerFile(src, root string, opts LoadOptions) FileInfo {
	fi := FileInfo{Source: src}
	switch src {
	case policy.SourceManaged:
		fi.Path = opts.Paths.Managed
	case policy.SourceUser:
		fi.Path = opts.Paths.User
	case policy.SourceProject:
		fi.Path = filepath.Join(root, ProjectConfigDir, ProjectConfigName)
		fi.NeedsTrust = true
	case policy.SourceLocal:
		fi.Path = filepath.Join(root, ProjectConfigDir, LocalConfigName)
		fi.NeedsTrust = true
	case policy.SourceDefault:
		fi.Path = DefaultConfigFile
	}
	return fi
}

// ConfigFiles lists where each layer's file is or would be, in Sources
// order, with existence and trust, without parsing them: `gatekeep config
// path` works even when a file is broken.
func ConfigFiles(opts LoadOptions) []FileInfo {
	root := filepath.Clean(opts.Root)
	trust := readTrustStore(opts.Paths.Trust)
	var out []FileInfo
	for _, src := range policy.Sources {
		fi := layerFile(src, root, opts)
		if src == policy.SourceDefault {
			fi.Exists = !opts.NoDefault
			fi.Trusted = fi.Exists
		}
		if src != policy.SourceDefault && fi.Path != "" {
			if b, err := readConfigFile(fi.Path); err == nil && b != nil {
				sum := sha256.Sum256(b)
				fi.Exists, fi.SHA256, fi.Trusted = true, hex.EncodeToString(sum[:]), !fi.NeedsTrust
				if fi.NeedsTrust {
					fi.Trusted, fi.Changed = trust.check(fi.Path, fi.SHA256)
				}
			}
		}
		out = append(out, fi)
	}
	return out
}

// readConfigFile returns the file's bytes, nil (and no error) when it does
// not exist.
func readConfigFile(path string) ([]byte, error) {
	// A FIFO or device would block or never end: opened without blocking
	// and refused (OpenRegular).
	f, err := policy.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		// A link to nothing may hide the person's deny rules: an error,
		// not an absent file.
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			return nil, errors.New("is a symbolic link to a file that does not exist")
		}
		return nil, nil
	}
	if errors.Is(err, policy.ErrNotRegular) {
		if st, serr := os.Stat(path); serr == nil && st.IsDir() {
			return nil, errors.New("is a directory, not a file")
		}
		return nil, errors.New("is not a regular file")
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the file: %w", err)
	}
	defer f.Close()
	b, err := policy.ReadOpened(f, MaxConfigSize)
	if err != nil {
		return nil, fmt.Errorf("cannot read the file: %w", err)
	}
	if len(b) > MaxConfigSize {
		return nil, fmt.Errorf("is over the %d-byte limit", MaxConfigSize)
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// fileConfig is one file, parsed and validated.
type fileConfig struct {
	source        string
	path          string
	mode          policy.Mode
	modeSet       bool
	disableBypass bool
	allowDirs     []string
	planFile      string
	planFileAbs   string // planFile before symlinks are resolved
	planTools     []string
	planToolsSet  bool
	auditFile     string
	promptTimeout time.Duration
	trustAgent    *bool // [hooks] trust_agent_mode, nil when not set
	dialect       shellparse.Dialect
	rules         []*policy.Rule
	danger        []*policy.DangerRule
	tests         []TestCase
	enforce       enforceFile
}

// merge adds one file to the effective configuration, leaving out what an
// untrusted file may not set.
func (l *Loaded) merge(f *fileConfig, fi FileInfo) {
	trusted := !fi.NeedsTrust || fi.Trusted
	var ignored []string
	nAllow := 0
	for _, r := range f.rules {
		r.Trusted = trusted
		r.Active = trusted || r.Ref.Effect != policy.Allow
		if !r.Active {
			nAllow++
		}
	}
	if nAllow > 0 {
		ignored = append(ignored, plural(nAllow, "allow rule", "allow rules"))
	}
	l.Rules.Add(f.source, f.rules, f.danger)
	l.Tests = append(l.Tests, f.tests...)
	if f.disableBypass {
		l.DisableBypass = true
	}
	if f.modeSet {
		switch {
		case !trusted:
			ignored = append(ignored, "mode")
		case f.mode == policy.ModeBypass && fi.NeedsTrust:
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s: mode = %q is ignored: a %s file cannot set bypassPermissions", f.path, f.mode, f.source))
		case l.ModeSource == "":
			l.Mode, l.ModeSource = f.mode, f.source
		}
	}
	if len(f.allowDirs) > 0 {
		if trusted {
			l.AllowDirs = append(l.AllowDirs, f.allowDirs...)
		} else {
			ignored = append(ignored, "sandbox.allow_dirs")
		}
	}
	l.mergeEnforce(f.enforce, trusted, &ignored)
	if f.planFile != "" || f.planToolsSet {
		switch {
		case !trusted:
			ignored = append(ignored, "[plan]")
		default:
			if f.planFile != "" && l.PlanFile == "" {
				l.PlanFile = f.planFile
			}
			if f.planToolsSet && l.PlanTools == nil {
				l.PlanTools = append([]string{}, f.planTools...)
			}
		}
	}
	if f.auditFile != "" {
		if !trusted {
			ignored = append(ignored, "[audit]")
		} else if l.AuditFile == "" {
			l.AuditFile = f.auditFile
		}
	}
	if f.promptTimeout != 0 {
		if !trusted {
			ignored = append(ignored, "[prompt]")
		} else if l.PromptTimeout == 0 {
			l.PromptTimeout = f.promptTimeout
		}
	}
	if f.trustAgent != nil {
		switch {
		case f.source != policy.SourceManaged && f.source != policy.SourceUser:
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s: [hooks] trust_agent_mode is ignored: only the managed and user files may let an agent's mode loosen gatekeep's", f.path))
		case !l.trustAgentSet:
			l.TrustAgentMode, l.trustAgentSet = *f.trustAgent, true
		}
	}
	if f.dialect != "" {
		// Judging in another dialect only adds strictness, but a
		// project file says nothing until it is trusted.
		if !trusted {
			ignored = append(ignored, "[shell]")
		} else if !slices.Contains(l.Dialects, f.dialect) {
			l.Dialects = append(l.Dialects, f.dialect)
		}
	}
	if len(ignored) > 0 {
		why := "is not trusted"
		if fi.Changed {
			why = "changed since it was trusted"
		}
		cmd := "gatekeep trust"
		if fi.Source == policy.SourceLocal {
			cmd += " " + f.path
		}
		l.Untrusted = append(l.Untrusted, Notice{File: f.path, SHA256: fi.SHA256,
			Text: fmt.Sprintf("%s %s, so its %s %s ignored (its deny and ask rules apply); run `%s` after reviewing it",
				f.path, why, strings.Join(ignored, ", "), isAre(len(ignored), nAllow), cmd)})
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func isAre(items, nAllow int) string {
	if items == 1 && nAllow <= 1 {
		return "is"
	}
	return "are"
}

// Raw TOML shapes. Every section is a Primitive, decoded on its own, so
// that one bad section does not hide the problems of the others.
type rawFile struct {
	Mode          toml.Primitive   `toml:"mode"`
	DisableBypass toml.Primitive   `toml:"disable_bypass"`
	Sandbox       toml.Primitive   `toml:"sandbox"`
	Plan          toml.Primitive   `toml:"plan"`
	Audit         toml.Primitive   `toml:"audit"`
	Prompt        toml.Primitive   `toml:"prompt"`
	Hooks         toml.Primitive   `toml:"hooks"`
	Shell         toml.Primitive   `toml:"shell"`
	Rule          []toml.Primitive `toml:"rule"`
	Danger        []toml.Primitive `toml:"danger"`
	Test          []toml.Primitive `toml:"test"`
}

type rawSandbox struct {
	AllowDirs tomlStrings `toml:"allow_dirs"`
	rawEnforce
}

type rawPlan struct {
	File  tomlString  `toml:"file"`
	Tools tomlStrings `toml:"tools"`
}

type rawAudit struct {
	File tomlString `toml:"file"`
}

type rawHooks struct {
	TrustAgentMode any `toml:"trust_agent_mode"`
}

type rawShell struct {
	Dialect tomlString `toml:"dialect"`
}

type rawPrompt struct {
	Timeout tomlDuration `toml:"timeout"`
}

type rawRule struct {
	Allow  tomlStrings `toml:"allow"`
	Deny   tomlStrings `toml:"deny"`
	Ask    tomlStrings `toml:"ask"`
	Reason tomlString  `toml:"reason"`
}

type rawDanger struct {
	Pattern tomlString `toml:"pattern"`
	Reason  tomlString `toml:"reason"`
}

type rawTest struct {
	Name   tomlString `toml:"name"`
	Tool   tomlString `toml:"tool"`
	Input  tomlString `toml:"input"`
	Mode   tomlString `toml:"mode"`
	Expect tomlString `toml:"expect"`
}

// tomlString accepts a TOML string; any other type is recorded in bad
// rather than failing the decode, so every problem is reported.
type tomlString struct {
	set bool
	s   string
	bad string
}

func (t *tomlString) UnmarshalTOML(v any) error {
	t.set = true
	s, ok := v.(string)
	if !ok {
		t.bad = "want a string, got " + tomlType(v)
		return nil
	}
	t.s = s
	return nil
}

// tomlStrings accepts a string or a list of strings.
type tomlStrings struct {
	set    bool
	single bool // written as one string, not a list
	list   []string
	bad    string
}

func (t *tomlStrings) UnmarshalTOML(v any) error {
	t.set = true
	switch x := v.(type) {
	case string:
		t.single, t.list = true, []string{x}
	case []any:
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				t.bad = fmt.Sprintf("item %d: want a string, got %s", i, tomlType(e))
				return nil
			}
			t.list = append(t.list, s)
		}
		if len(t.list) == 0 {
			t.bad = "the list is empty"
		}
	default:
		t.bad = "want a string or a list of strings, got " + tomlType(v)
	}
	return nil
}

// tomlDuration accepts a Go duration string ("30s", "2m") or a whole
// number of seconds.
type tomlDuration struct {
	set bool
	d   time.Duration
	bad string
}

func (t *tomlDuration) UnmarshalTOML(v any) error {
	t.set = true
	switch x := v.(type) {
	case string:
		d, err := time.ParseDuration(x)
		if err != nil {
			t.bad = fmt.Sprintf("want a duration such as \"30s\" or a number of seconds: %q does not parse", x)
			return nil
		}
		t.d = d
	case int64:
		t.d = time.Duration(x) * time.Second
	default:
		t.bad = "want a duration such as \"30s\" or a number of seconds, got " + tomlType(v)
		return nil
	}
	if t.d <= 0 {
		t.bad = "the timeout must be positive"
	}
	return nil
}

func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	case []map[string]any:
		return "a list of tables"
	case time.Time:
		return "a date-time"
	}
	return fmt.Sprintf("%T", v)
}

// compiler turns files into settings and rules: paths are resolved
// against root and home, patterns compiled by rules.
type compiler struct {
	root, home string
	rules      *policy.Compiler
}

// fileErrs collects the problems of one file.
type fileErrs struct {
	path  string
	lines []string
	errs  []error
}

func (fe *fileErrs) add(line int, key, format string, args ...any) {
	fe.errs = append(fe.errs, &ConfigError{File: fe.path, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

// arrays are the arrays of tables a file may hold.
var arrays = []string{"rule", "danger", "test"}

// parse reads one file. It returns the file's settings and rules, and every
// problem found. The file is checked for size and nesting before the TOML
// decoder sees it (checkTOMLShape); each section then has a decoder of its
// own, and keys no decoder took are reported as unknown.
func (c *compiler) parse(source, path string, data []byte) (*fileConfig, []error) {
	if ce := checkTOMLShape(path, data); ce != nil {
		return nil, []error{ce}
	}
	fe := &fileErrs{path: path, lines: strings.Split(string(data), "\n")}
	var raw rawFile
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&raw)
	if err != nil {
		fe.errs = append(fe.errs, tomlError(path, err))
		return nil, fe.errs
	}
	d := &fileDecoder{c: c, source: source, md: md, fe: fe, failed: map[string]bool{},
		f: &fileConfig{source: source, path: path}}
	d.top(&raw)
	d.sandbox(&raw)
	d.plan(&raw)
	d.audit(&raw)
	d.prompt(&raw)
	d.hooks(&raw)
	d.shell(&raw)
	d.tables(&raw)
	d.unknownKeys()
	if len(fe.errs) > 0 {
		// In the order of the file; problems without a line last.
		slices.SortStableFunc(fe.errs, func(a, b error) int {
			la, lb := a.(*ConfigError).Line, b.(*ConfigError).Line
			if la == 0 || lb == 0 {
				return lb - la
			}
			return la - lb
		})
		return d.f, fe.errs
	}
	return d.f, nil
}

// fileDecoder is the state of parsing one file: what the TOML decoder
// found, the settings decoded so far, and the problems.
type fileDecoder struct {
	c      *compiler
	source string
	md     toml.MetaData
	fe     *fileErrs
	f      *fileConfig
	failed map[string]bool // sections whose keys are not to be reported as unknown
	// The lines of the [[rule]], [[danger]] and [[test]] headers.
	ruleLines, dangerLines, testLines []int
}

// decode decodes p into v, recording a failure under key.
func (d *fileDecoder) decode(key string, p toml.Primitive, v any) bool {
	if err := d.md.PrimitiveDecode(p, v); err != nil {
		ce := tomlError(d.fe.path, err)
		ce.Key = key
		d.fe.errs = append(d.fe.errs, ce)
		d.failed[key] = true
		return false
	}
	return true
}

// top decodes the top-level keys: mode, disable_bypass.
func (d *fileDecoder) top(raw *rawFile) {
	fe, f := d.fe, d.f
	if d.md.IsDefined("mode") {
		var s tomlString
		if d.decode("mode", raw.Mode, &s) {
			line := fe.keyLine("", "mode")
			if s.bad != "" {
				fe.add(line, "mode", "%s", s.bad)
			} else if m, err := policy.ParseMode(s.s); err != nil {
				fe.add(line, "mode", "%v", err)
			} else {
				f.mode, f.modeSet = m, true
			}
		}
	}
	if d.md.IsDefined("disable_bypass") {
		var b any
		if d.decode("disable_bypass", raw.DisableBypass, &b) {
			line := fe.keyLine("", "disable_bypass")
			v, ok := b.(bool)
			switch {
			case !ok:
				fe.add(line, "disable_bypass", "want true or false, got %s", tomlType(b))
			case d.source != policy.SourceManaged:
				fe.add(line, "disable_bypass", "only the managed config (%s) may set this", ManagedConfigFile)
			default:
				f.disableBypass = v
			}
		}
	}
}

// sandbox decodes [sandbox]: allow_dirs and the enforcement keys.
func (d *fileDecoder) sandbox(raw *rawFile) {
	if !d.md.IsDefined("sandbox") {
		return
	}
	fe, f := d.fe, d.f
	var s rawSandbox
	if d.decode("sandbox", raw.Sandbox, &s) {
		f.enforce = d.c.enforceKeys(fe, d.source, s.rawEnforce)
	}
	if s.AllowDirs.set {
		line := fe.keyLine("sandbox", "allow_dirs")
		if s.AllowDirs.bad != "" {
			fe.add(line, "sandbox.allow_dirs", "%s", s.AllowDirs.bad)
		}
		for i, dir := range s.AllowDirs.list {
			abs, err := expandPath(dir, d.c.root, d.c.home)
			if err != nil {
				fe.add(line, fmt.Sprintf("sandbox.allow_dirs[%d]", i), "%v", err)
				continue
			}
			f.allowDirs = append(f.allowDirs, abs)
		}
	}
}

// plan decodes [plan]: file and tools.
func (d *fileDecoder) plan(raw *rawFile) {
	var p rawPlan
	if !d.md.IsDefined("plan") || !d.decode("plan", raw.Plan, &p) {
		return
	}
	fe, f := d.fe, d.f
	if p.File.set {
		if abs, ok := d.pathValue("plan", "file", p.File); ok {
			f.planFile, f.planFileAbs = realOrAbs(abs), abs
		}
	}
	if p.Tools.set {
		line := fe.keyLine("plan", "tools")
		if p.Tools.bad != "" && p.Tools.bad != "the list is empty" {
			fe.add(line, "plan.tools", "%s", p.Tools.bad)
		}
		f.planToolsSet = true
		f.planTools = []string{}
		for i, t := range p.Tools.list {
			if msg := policy.CheckToolName(t); msg != "" {
				fe.add(line, fmt.Sprintf("plan.tools[%d]", i), "%s", msg)
				continue
			}
			f.planTools = append(f.planTools, t)
		}
	}
}

// audit decodes [audit] file.
func (d *fileDecoder) audit(raw *rawFile) {
	var a rawAudit
	if !d.md.IsDefined("audit") || !d.decode("audit", raw.Audit, &a) || !a.File.set {
		return
	}
	if abs, ok := d.pathValue("audit", "file", a.File); ok {
		d.f.auditFile = abs
	}
}

// pathValue checks the path key section.key (plan.file, audit.file) and
// returns it expanded (`~`, relative to the project root); ok is false
// after an error was recorded.
func (d *fileDecoder) pathValue(section, key string, v tomlString) (string, bool) {
	line, name := d.fe.keyLine(section, key), section+"."+key
	switch {
	case v.bad != "":
		d.fe.add(line, name, "%s", v.bad)
	case v.s == "":
		d.fe.add(line, name, "the %s %s is empty", section, key)
	default:
		abs, err := expandPath(v.s, d.c.root, d.c.home)
		if err == nil {
			return abs, true
		}
		d.fe.add(line, name, "%v", err)
	}
	return "", false
}

// prompt decodes [prompt] timeout.
func (d *fileDecoder) prompt(raw *rawFile) {
	var p rawPrompt
	if !d.md.IsDefined("prompt") || !d.decode("prompt", raw.Prompt, &p) || !p.Timeout.set {
		return
	}
	if p.Timeout.bad != "" {
		d.fe.add(d.fe.keyLine("prompt", "timeout"), "prompt.timeout", "%s", p.Timeout.bad)
		return
	}
	d.f.promptTimeout = p.Timeout.d
}

// hooks decodes [hooks] trust_agent_mode.
func (d *fileDecoder) hooks(raw *rawFile) {
	var h rawHooks
	if !d.md.IsDefined("hooks") || !d.decode("hooks", raw.Hooks, &h) || h.TrustAgentMode == nil {
		return
	}
	if v, ok := h.TrustAgentMode.(bool); ok {
		d.f.trustAgent = &v
		return
	}
	d.fe.add(d.fe.keyLine("hooks", "trust_agent_mode"), "hooks.trust_agent_mode", "want true or false, got %s", tomlType(h.TrustAgentMode))
}

// shell decodes [shell] dialect.
func (d *fileDecoder) shell(raw *rawFile) {
	var sh rawShell
	if !d.md.IsDefined("shell") || !d.decode("shell", raw.Shell, &sh) || !sh.Dialect.set {
		return
	}
	dialect, ok := shellparse.ParseDialect(sh.Dialect.s)
	switch {
	case sh.Dialect.bad != "":
		d.fe.add(d.fe.keyLine("shell", "dialect"), "shell.dialect", "%s", sh.Dialect.bad)
	case !ok || sh.Dialect.s != string(dialect):
		d.fe.add(d.fe.keyLine("shell", "dialect"), "shell.dialect", "unknown dialect %q (want bash, zsh or sh)", sh.Dialect.s)
	default:
		d.f.dialect = dialect
	}
}

// tables decodes the arrays of tables: [[rule]], [[danger]], [[test]].
func (d *fileDecoder) tables(raw *rawFile) {
	fe, f, c := d.fe, d.f, d.c
	d.ruleLines = fe.headerLines("rule", len(raw.Rule))
	for i, p := range raw.Rule {
		var r rawRule
		if d.decode(fmt.Sprintf("rule[%d]", i), p, &r) {
			f.rules = append(f.rules, c.rule(fe, d.source, i, d.ruleLines[i], r)...)
		}
	}
	d.dangerLines = fe.headerLines("danger", len(raw.Danger))
	for i, p := range raw.Danger {
		var r rawDanger
		if !d.decode(fmt.Sprintf("danger[%d]", i), p, &r) {
			continue
		}
		if dr := c.danger(fe, d.source, i, d.dangerLines[i], r); dr != nil {
			f.danger = append(f.danger, dr)
		}
	}
	d.testLines = fe.headerLines("test", len(raw.Test))
	for i, p := range raw.Test {
		var r rawTest
		if !d.decode(fmt.Sprintf("test[%d]", i), p, &r) {
			continue
		}
		if t, ok := testCase(fe, d.source, i, d.testLines[i], r); ok {
			f.tests = append(f.tests, t)
		}
	}
}

// unknownKeys reports the keys no decoder took, named with the index of
// the table they are in. Only the outermost unknown key is reported
// (`[foo] bar = 1`: "foo").
func (d *fileDecoder) unknownKeys() {
	fe := d.fe
	undecoded := map[string]bool{}
	for _, k := range d.md.Undecoded() {
		undecoded[k.String()] = true
	}
	count := map[string]int{}
	for _, k := range d.md.Keys() {
		if len(k) == 1 && isArray(k[0]) {
			count[k[0]]++
		}
		if !undecoded[k.String()] || d.failed[k[0]] {
			continue
		}
		if len(k) > 1 && undecoded[k[:len(k)-1].String()] {
			continue
		}
		name := k[len(k)-1]
		key, line := "", 0
		switch {
		case len(k) == 1:
			line = fe.keyLine("", name)
		case isArray(k[0]):
			idx := max(count[k[0]]-1, 0)
			section := fmt.Sprintf("%s[%d]", k[0], idx)
			if d.failed[section] {
				continue
			}
			key = section + keySuffix(k[1:len(k)-1])
			switch k[0] {
			case "rule":
				line = lineAt(d.ruleLines, idx)
			case "danger":
				line = lineAt(d.dangerLines, idx)
			case "test":
				line = lineAt(d.testLines, idx)
			}
		default:
			key = strings.Join(k[:len(k)-1], ".")
			line = fe.keyLine(key, name)
		}
		fe.add(line, key, "unknown key %q%s", name, suggest(k))
	}
}

var knownSection = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"":        {"mode", "disable_bypass", "sandbox", "plan", "audit", "prompt", "hooks", "shell", "rule", "danger", "test"},
		"hooks":   {"trust_agent_mode"},
		"shell":   {"dialect"},
		"sandbox": {"allow_dirs", "enforce", "network", "writable", "readable", "auto_allow", "unconfined", "bypass", "allowed_hosts"},
		"plan":    {"file", "tools"},
		"audit":   {"file"},
		"prompt":  {"timeout"},
		"rule":    {"allow", "deny", "ask", "reason"},
		"danger":  {"pattern", "reason"},
		"test":    {"name", "tool", "input", "mode", "expect"},
	}
})

// suggest names the known key closest to an unknown one, when one is
// close: ` (did you mean "reason"?)`.
func suggest(k toml.Key) string {
	section := ""
	if len(k) > 1 {
		section = k[0]
	}
	name := k[len(k)-1]
	best, bestD := "", 3
	for _, known := range knownSection()[section] {
		if d := editDistance(name, known); d < bestD {
			best, bestD = known, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func isArray(name string) bool {
	for _, a := range arrays {
		if a == name {
			return true
		}
	}
	return false
}

func keySuffix(k []string) string {
	if len(k) == 0 {
		return ""
	}
	return "." + strings.Join(k, ".")
}

func lineAt(lines []int, i int) int {
	if i < len(lines) {
		return lines[i]
	}
	return 0
}

var tomlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^toml: line (\d+)(?: \(last key "[^"]*"\))?: `) })

// tomlError turns an error of the TOML library into a *ConfigError with
// the line it reports.
func tomlError(path string, err error) *ConfigError {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &ConfigError{File: path, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
	}
	msg := err.Error()
	ce := &ConfigError{File: path}
	if m := tomlLineRe().FindStringSubmatch(msg); m != nil {
		ce.Line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	ce.Msg = strings.TrimPrefix(msg, "toml: ")
	return ce
}

var headerRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]\s*(#.*)?$`) })
var tableRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?$`) })

// headerLines returns the 1-based lines of the `[[name]]` headers, found
// by scanning the lines (TOML, not shell: a header is a line of its own).
// When the count does not agree with the decoded tables (a header inside a
// multi-line string, an inline array of tables), it returns zeros.
func (fe *fileErrs) headerLines(name string, n int) []int {
	out := make([]int, 0, n)
	for i, l := range fe.lines {
		t := strings.TrimLeft(l, " \t")
		if !strings.HasPrefix(t, "[[") || !strings.Contains(t, name) {
			continue
		}
		if m := headerRe().FindStringSubmatch(t); m != nil && m[1] == name {
			out = append(out, i+1)
		}
	}
	if len(out) != n {
		return make([]int, n)
	}
	return out
}

// keyLine finds the line of `key = ...` in table section ("" for the top
// level), best effort; 0 when not found.
func (fe *fileErrs) keyLine(section, key string) int {
	in := section == ""
	re := regexp.MustCompile(`^\s*("?)` + regexp.QuoteMeta(key) + `("?)\s*=`)
	for i, l := range fe.lines {
		if m := tableRe().FindStringSubmatch(l); m != nil {
			in = m[1] == section
			continue
		}
		if headerRe().MatchString(l) {
			in = false
			continue
		}
		if in && re.MatchString(l) {
			return i + 1
		}
	}
	// A table of that name: `[section]`, or `[key]` at the top level.
	want := section
	if want == "" {
		want = key
	}
	for i, l := range fe.lines {
		if m := tableRe().FindStringSubmatch(l); m != nil && (m[1] == want || strings.HasPrefix(m[1], want+".")) {
			return i + 1
		}
		if m := headerRe().FindStringSubmatch(l); m != nil && m[1] == want {
			return i + 1
		}
	}
	return 0
}

// rule validates one [[rule]] table and returns one Rule per pattern.
func (c *compiler) rule(fe *fileErrs, source string, idx, line int, r rawRule) []*policy.Rule {
	key := fmt.Sprintf("rule[%d]", idx)
	type eff struct {
		name   string
		effect policy.Effect
		v      tomlStrings
	}
	var set []eff
	for _, e := range []eff{{"allow", policy.Allow, r.Allow}, {"deny", policy.Deny, r.Deny}, {"ask", policy.Ask, r.Ask}} {
		if e.v.set {
			set = append(set, e)
		}
	}
	reason := ""
	if r.Reason.set {
		if r.Reason.bad != "" {
			fe.add(line, key+".reason", "%s", r.Reason.bad)
		}
		reason = strings.TrimSpace(r.Reason.s)
	}
	switch len(set) {
	case 0:
		fe.add(line, key, "the rule has no effect: set one of allow, deny or ask")
		return nil
	case 1:
	default:
		names := make([]string, len(set))
		for i, e := range set {
			names[i] = e.name
		}
		fe.add(line, key, "the rule sets %s: a rule has exactly one of allow, deny or ask", strings.Join(names, " and "))
		return nil
	}
	e := set[0]
	if e.v.bad != "" {
		fe.add(line, key+"."+e.name, "%s", e.v.bad)
		return nil
	}
	var out []*policy.Rule
	for j, text := range e.v.list {
		k := fmt.Sprintf("%s.%s[%d]", key, e.name, j)
		if e.v.single {
			k = key + "." + e.name
		}
		r, err := c.rules.Rule(text, policy.RuleRef{Rule: strings.TrimSpace(text), Effect: e.effect, Source: source, File: fe.path, Line: line, Index: idx, Reason: reason})
		if err != nil {
			fe.add(line, k, "%s: %v", strconv.Quote(text), err)
			continue
		}
		out = append(out, r)
	}
	return out
}

// danger validates one [[danger]] table.
func (c *compiler) danger(fe *fileErrs, source string, idx, line int, r rawDanger) *policy.DangerRule {
	key := fmt.Sprintf("danger[%d]", idx)
	ok := true
	if r.Reason.bad != "" {
		fe.add(line, key+".reason", "%s", r.Reason.bad)
		ok = false
	}
	switch {
	case !r.Pattern.set:
		fe.add(line, key, "pattern is missing")
		return nil
	case r.Pattern.bad != "":
		fe.add(line, key+".pattern", "%s", r.Pattern.bad)
		return nil
	case r.Pattern.s == "":
		fe.add(line, key+".pattern", "the pattern is empty")
		return nil
	}
	re, err := regexp.Compile(r.Pattern.s)
	if err != nil {
		fe.add(line, key+".pattern", "%v", err)
		return nil
	}
	if re.MatchString("") {
		fe.add(line, key+".pattern", "the pattern %q matches every command", r.Pattern.s)
		return nil
	}
	if !ok {
		return nil
	}
	return policy.NewDangerRule(policy.RuleRef{Rule: r.Pattern.s, Effect: policy.Deny, Source: source, File: fe.path, Line: line, Index: idx, Reason: strings.TrimSpace(r.Reason.s)}, re)
}

// testCase validates one [[test]] table.
func testCase(fe *fileErrs, source string, idx, line int, r rawTest) (TestCase, bool) {
	key := fmt.Sprintf("test[%d]", idx)
	t := TestCase{Source: source, File: fe.path, Line: line, Index: idx}
	ok := true
	str := func(name string, v tomlString, required bool) string {
		switch {
		case v.bad != "":
			fe.add(line, key+"."+name, "%s", v.bad)
			ok = false
		case required && (!v.set || v.s == ""):
			fe.add(line, key, "%s is missing", name)
			ok = false
		}
		return v.s
	}
	t.Name = str("name", r.Name, false)
	t.Tool = str("tool", r.Tool, true)
	t.Input = str("input", r.Input, true)
	mode := str("mode", r.Mode, false)
	expect := str("expect", r.Expect, true)
	if t.Tool != "" {
		if msg := policy.CheckToolName(t.Tool); msg != "" {
			fe.add(line, key+".tool", "%s", msg)
			ok = false
		}
	}
	if r.Mode.set && r.Mode.bad == "" {
		m, err := policy.ParseMode(mode)
		if err != nil || mode == "" {
			if err == nil {
				err = errors.New("the mode is empty")
			}
			fe.add(line, key+".mode", "%v", err)
			ok = false
		}
		t.Mode = m
	}
	if expect != "" {
		e, err := policy.ParseEffect(expect)
		if err != nil {
			fe.add(line, key+".expect", "%v", err)
			ok = false
		}
		t.Expect = e
	}
	return t, ok
}

// expandPath makes a path from a config file absolute: `~` and `~/x`
// against home, a relative path against root. `~user` is refused.
func expandPath(p, root, home string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("the path is empty")
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return "", fmt.Errorf("%q needs the home directory, which is not known", p)
		}
		return filepath.Join(home, p[1:]), nil
	case strings.HasPrefix(p, "~"):
		return "", fmt.Errorf("%q: ~user is not supported; write the path out", p)
	case filepath.IsAbs(p):
		return filepath.Clean(p), nil
	}
	return filepath.Join(root, p), nil
}

// CheckTOMLShape is checkTOMLShape for callers outside the package that
// decode a config file themselves: nil, or a *ConfigError naming the line.
func CheckTOMLShape(path string, data []byte) error {
	if ce := checkTOMLShape(path, data); ce != nil {
		return ce
	}
	return nil
}

// checkTOMLShape is a linear scan of a config file run before it is
// decoded: it refuses a file over MaxConfigSize, or whose arrays and inline
// tables (`[`, `{` outside strings and comments; a `[table]` header counts
// as one level) nest deeper than MaxConfigNesting, naming the line. It is
// not a TOML parser: what it lets through is still decoded and checked.
func checkTOMLShape(path string, data []byte) *ConfigError {
	if len(data) > MaxConfigSize {
		return &ConfigError{File: path, Msg: fmt.Sprintf("is over the %d-byte limit", MaxConfigSize)}
	}
	line, depth := 1, 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			// A string: basic ("...", with escapes), literal ('...'), or
			// multi-line (three quotes, newlines counted).
			delim, multi := []byte{c}, i+2 < len(data) && data[i+1] == c && data[i+2] == c
			if multi {
				delim = []byte{c, c, c}
			}
			j := i + len(delim)
			for ; j < len(data); j++ {
				if data[j] == '\\' && c == '"' {
					if j+1 < len(data) && data[j+1] == '\n' {
						line++
					}
					j++
					continue
				}
				if data[j] == '\n' {
					if !multi {
						break // an unterminated string: the decoder says so
					}
					line++
				}
				if bytes.HasPrefix(data[j:], delim) {
					break
				}
			}
			if j < len(data) && data[j] == '\n' && !multi {
				i = j - 1 // the newline is counted by the loop
				continue
			}
			i = j + len(delim) - 1
			if multi {
				// A closing run of four or five quotes ends with the last three.
				for i+1 < len(data) && data[i+1] == c {
					i++
				}
			}
		case '[', '{':
			depth++
			if depth > MaxConfigNesting {
				return &ConfigError{File: path, Line: line, Msg: fmt.Sprintf("arrays and inline tables nest deeper than %d levels", MaxConfigNesting)}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}
