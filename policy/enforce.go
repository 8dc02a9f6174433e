package policy

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// EnforceLevel is `[sandbox] enforce`: whether what gatekeep
// runs is confined by the kernel.
type EnforceLevel int

const (
	// EnforceOff runs commands unconfined.
	EnforceOff EnforceLevel = iota
	// EnforceBestEffort confines where the machine can, and otherwise runs
	// unconfined, saying so once on stderr.
	EnforceBestEffort
	// EnforceRequired confines, or denies with sandbox.unavailable.
	EnforceRequired
)

func (l EnforceLevel) String() string {
	switch l {
	case EnforceBestEffort:
		return "best-effort"
	case EnforceRequired:
		return "required"
	}
	return "off"
}

// ParseEnforceLevel reads "off", "best-effort" or "required".
func ParseEnforceLevel(s string) (EnforceLevel, error) {
	switch s {
	case "off":
		return EnforceOff, nil
	case "best-effort":
		return EnforceBestEffort, nil
	case "required":
		return EnforceRequired, nil
	}
	return EnforceOff, fmt.Errorf("unknown enforcement %q (want off, best-effort or required)", s)
}

// EnforceSettings are the `[sandbox]` keys of kernel enforcement, merged
// over the layers. Settings that loosen (network, writable, auto_allow,
// unconfined) count only from the managed and user files and trusted
// project and local files; a stricter value counts from any file.
type EnforceSettings struct {
	// Enforce is the strictest `enforce` of any file (off when none sets
	// it): a file can always make enforcement stricter, and "off" never
	// loosens what another file asks for.
	Enforce EnforceLevel
	// Network is true when a trusted file sets `network = true` and no
	// file sets false.
	Network bool
	// Writable are the `writable` dirs of every trusted file that sets
	// the key, made absolute (`~` expanded); WritableSet is false when no
	// trusted file sets it, and the default cache set applies.
	Writable    []string
	WritableSet bool
	// Readable are the `readable` dirs of every trusted file, made
	// absolute (`~` expanded): in the home directory a confined command
	// may read them besides the toolchains' dirs.
	Readable []string
	// AutoAllow is true when a trusted file sets `auto_allow = true` and
	// no file sets false.
	AutoAllow bool
	// Unconfined are the `unconfined` Bash patterns of trusted files:
	// commands that never run confined (they ask as usual).
	Unconfined []*Rule
	// BypassOff is true when a trusted file sets `bypass = "off"` and no
	// file sets "confine": bypassPermissions then runs what the text
	// cannot show unconfined, as before. By default (false) such a call
	// runs confined wherever the kernel can (Decision.Opaque).
	BypassOff bool
	// AllowedHosts are the hosts a confined command reaches through
	// gatekeep's proxy (`allowed_hosts`, network.go).
	AllowedHosts AllowedHosts
}

// SecretGlobs are the globs of the active Read deny rules of every layer,
// as the matcher holds them: absolute, `~` expanded, a bare name as
// `**/name`. Kernel enforcement hides the files they match that ReadDenied
// confirms.
func (rs *RuleSet) SecretGlobs() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rs.Rules() {
		if !r.Active || r.Ref.Effect != Deny || toolKind(r.Tool) != kindRead {
			continue
		}
		fm, ok := r.matcher().(*fileMatcher)
		if !ok {
			continue
		}
		for _, g := range fm.globs {
			if !seen[g.glob] {
				seen[g.glob] = true
				out = append(out, g.glob)
			}
		}
	}
	return out
}

// ReadDenied reports whether the rules layer denies reading path (absolute)
// in cfg, as it would for a Read call: allow rules, the order of the
// layers and the last-match-wins order inside one apply, the sandbox
// roots and the mode do not.
func ReadDenied(cfg *Config, path string) bool {
	if cfg == nil || !filepath.IsAbs(path) {
		return false
	}
	e := &evaluation{cfg: cfg, req: Request{Tool: ToolRead, Path: path}, cwd: filepath.Dir(path)}
	p := &part{subject: path, category: CatRead, access: cmdmodel.Read, path: path, dir: e.cwd, tool: ToolRead, offset: -1}
	v := e.ruleVerdict(p, Deny)
	return v.ok && v.effect == Deny
}

// commandDirs are the directories c may run in, absolute ("" for one
// only known at run time): its Dir and OtherDirs resolved against cwd.
func commandDirs(cwd string, c *shellparse.Command) []string {
	var out []string
	for _, d := range c.Dirs() {
		r, ok := commandDir(cwd, d)
		if !ok || c.DirDynamic {
			r = ""
		}
		out = append(out, r)
	}
	return out
}

// pathIn reports whether name exists in one of dirs (absolute), or when
// a dir is unknown.
func pathIn(dirs []string, name string) bool {
	for _, d := range dirs {
		if d == "" || !filepath.IsAbs(d) {
			return true
		}
		if _, err := os.Lstat(filepath.Join(d, name)); err == nil {
			return true
		}
	}
	return false
}

// needsNetwork reports whether a simple command is a known network tool
// (cmdmodel.NeedsNetwork).
func needsNetwork(c *shellparse.Command) bool {
	return c != nil && cmdmodel.NeedsNetwork(&c.Command)
}

// destroysProjectWork reports a command that throws away the project's
// uncommitted work or history (cmdmodel.DestroysProjectWork). dirs are the
// directories the command may run in ("" for one only known at run time).
func destroysProjectWork(c *shellparse.Command, dirs []string) bool {
	return c != nil && cmdmodel.DestroysProjectWork(&c.Command, func(name string) bool { return pathIn(dirs, name) })
}
