// Package pathguard decides whether a path lies inside the sandbox roots.
//
// A Guard holds the allowed roots, each resolved to its real location. Check
// expands `~` and `$HOME`, makes a path absolute, resolves its symlinks
// (Windows: and junctions) component by component the way the kernel does
// (for a path that does not exist yet, those of its nearest existing
// ancestor) and tests containment component by component; Protected names
// the paths inside the roots whose writes must be asked about (gatekeep's
// own config, .git/hooks ...). It does not decide allow or deny: that is
// the policy package's business. It judges a path at one moment; guarding
// the write itself against a later swap (O_NOFOLLOW, writing in the checked
// directory) is the file tools' job.
package pathguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Result codes of Check. Every code but "" means the path is not inside;
// the policy turns each into a deny with that code.
const (
	// CodeOutside: the real location lies outside every root.
	CodeOutside = "sandbox.outside_root"
	// CodeDangling: a symlink on the way (the last component included)
	// points to something that does not exist. Writing through it would
	// create its target, wherever that is.
	CodeDangling = "sandbox.dangling_symlink"
	// CodeLoop: symlinks on the way form a loop (more than 255 followed).
	CodeLoop = "sandbox.symlink_loop"
	// CodePermission: a directory on the way cannot be searched.
	CodePermission = "sandbox.permission_denied"
	// CodeUnresolvable: any other resolution failure (a component that is
	// not a directory, a name too long, an I/O error).
	CodeUnresolvable = "sandbox.unresolvable"
	// CodeInvalid: the request itself is malformed: an empty path, a NUL
	// byte, a relative or missing working directory for a relative path,
	// `~user`, or `~` with no known home.
	CodeInvalid = "sandbox.invalid_path"
)

// CodeProtected is the code for a write to a path Protected names. Check
// never returns it; it is here so that callers share one spelling.
const CodeProtected = "sandbox.protected"

// Guard holds the sandbox roots. Its methods are safe for concurrent use.
// A nil Guard has no roots (and no home): Check still resolves, and calls
// every path that resolves CodeOutside.
type Guard struct {
	roots      []string // real, clean, absolute; never `/` nor home
	home       string   // absolute, clean, as given (not resolved)
	realHome   string   // its real location, "" when unknown
	configDirs *configDirSet
	homeLinks  *homeLinkSet
	hooks      *hooksCache
}

// configDirSet is gatekeep's config dirs, resolved on their first use
// (Protected): most calls judge no write, and resolving the four dirs
// costs a dozen lstats in every process. A Guard that is copied shares it.
type configDirSet struct {
	once sync.Once
	abs  []string // absolute, `~` expanded, as New found them
	real []string // their real locations, once resolved
	// above are the real locations of the directories a dir's path
	// passes through on its way to a symlink (XDG_CONFIG_HOME=/tmp/p/c
	// with c a link: /tmp/p), which are not above its real location:
	// moving one away moves where the dir resolves, as moving a
	// directory above it would. Empty when no dir's path holds a link.
	above []string
}

// resolved returns the real locations of the dirs (none for a nil set),
// resolving them on the first call: where each dir is, or would be once
// created (through a dangling ~/.config link too).
func (c *configDirSet) resolved() []string {
	if c == nil {
		return nil
	}
	c.once.Do(func() {
		for _, abs := range c.abs {
			real, err := resolve(nil, abs, true)
			if err != nil {
				real = filepath.Clean(abs) // a loop: judge it as spelled
			}
			c.real = append(c.real, normalize(real))
			if spelled := filepath.Clean(abs); err == nil && real != spelled {
				// A link on the way: each directory the path names is
				// where it is, resolved (only then: without a link they
				// all lie above real already).
				for p := filepath.Dir(spelled); p != filepath.Dir(p); p = filepath.Dir(p) {
					if r, err := resolve(nil, p, true); err == nil && !within(r, real) {
						c.above = append(c.above, normalize(r))
					}
				}
			}
		}
	})
	return c.real
}

// pathDirs returns above (none for a nil set), resolving the dirs first.
func (c *configDirSet) pathDirs() []string {
	if c == nil {
		return nil
	}
	c.resolved()
	return c.above
}

// Options for New.
type Options struct {
	// Home is what `~` and `$HOME` expand to. A root that resolves to it
	// is refused, and a root that holds it (/home, or /tmp when HOME is
	// below /tmp) does not hold what is in it: home stays outside, except
	// for roots inside it (a project under ~/src). Empty means
	// os.UserHomeDir(); when that fails too, `~` is not expanded (such a
	// path gets CodeInvalid) and home gets no special treatment.
	Home string
	// ConfigDirs are gatekeep's configuration and state directories
	// outside the project; writes into them are protected when a root
	// holds them. Nil means DefaultConfigDirs(Home); empty means none.
	ConfigDirs []string
}

// RootError is the error New returns for a root it refuses.
type RootError struct {
	Root   string // as given
	Real   string // its real location
	Reason string // lowercase, no trailing period
}

func (e *RootError) Error() string {
	return fmt.Sprintf("refuse sandbox root %s: %s", e.Root, e.Reason)
}

// DefaultRoots returns the sandbox roots every run has besides the
// configured ones: project (when not empty), os.TempDir() (which follows
// $TMPDIR), and on Unix /tmp and /var/tmp. Pass the result, plus any
// extra dirs, to New; New resolves them, drops duplicates and missing
// ones, and refuses `/`.
func DefaultRoots(project string) []string {
	var roots []string
	if project != "" {
		roots = append(roots, project)
	}
	roots = append(roots, os.TempDir())
	return append(roots, systemTempDirs...)
}

// DefaultConfigDirs returns gatekeep's configuration, state and cache
// directories outside a project, per the XDG Base Directory specification
// (a variable that is not an absolute path is ignored):
// $XDG_CONFIG_HOME/gatekeep (home/.config/gatekeep), $XDG_STATE_HOME/gatekeep
// (home/.local/state/gatekeep, where `gatekeep trust` records hashes),
// $XDG_CACHE_HOME/gatekeep (home/.cache/gatekeep, the decoded config
// files) and, on Unix, the managed /etc/gatekeep.
func DefaultConfigDirs(home string) []string {
	var dirs []string
	for _, d := range []struct{ env, fallback string }{
		{"XDG_CONFIG_HOME", ".config"},
		{"XDG_STATE_HOME", filepath.Join(".local", "state")},
		{"XDG_CACHE_HOME", ".cache"},
	} {
		if x := os.Getenv(d.env); filepath.IsAbs(x) {
			dirs = append(dirs, filepath.Join(x, "gatekeep"))
		} else if home != "" {
			dirs = append(dirs, filepath.Join(home, d.fallback, "gatekeep"))
		}
	}
	return append(dirs, managedConfigDirs...)
}

// New builds a Guard from roots (absolute, or relative to the process's
// working directory; `~` is expanded). Each root is resolved to its real
// path. A root that does not exist (or is a dangling symlink) is skipped
// silently. A root that resolves to a file system root (`/`, `C:\`) or to
// Home is refused with a *RootError: it would open the whole disk or every
// dotfile (a dotfiles repo, TMPDIR=/). A root that holds Home is kept, but
// Home's contents stay outside it (see Options.Home).
// Every refusal and resolution failure is returned, one error each, for
// the caller to print on stderr; the Guard is usable regardless.
func New(roots []string, opt Options) (*Guard, []error) {
	g := &Guard{hooks: new(hooksCache), configDirs: new(configDirSet), homeLinks: new(homeLinkSet)}
	home := opt.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home != "" {
		if abs, err := filepath.Abs(home); err == nil {
			g.home = abs
		}
	}
	if g.home != "" {
		if r, err := realPath(g.home); err == nil {
			g.realHome = r
		} else {
			g.realHome = g.home
		}
	}
	realHome := g.realHome
	var errs []error
	for i, r := range roots {
		if r == "" || slices.Contains(roots[:i], r) {
			continue // (os.TempDir() is most often /tmp, a system temp dir too)
		}
		real, err := g.resolveRoot(r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if real == "" {
			continue // missing
		}
		switch {
		case real == filepath.Dir(real):
			err = &RootError{Root: r, Real: real, Reason: "it resolves to " + real + ", the whole file system"}
		case realHome != "" && real == realHome:
			err = &RootError{Root: r, Real: real, Reason: "it resolves to the home directory " + real}
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !contains(g.roots, real) {
			g.roots = append(g.roots, real)
		}
	}
	dirs := opt.ConfigDirs
	if dirs == nil {
		dirs = DefaultConfigDirs(g.home)
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p, err := g.expand(d)
		if err != nil {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		g.configDirs.abs = append(g.configDirs.abs, abs)
	}
	return g, errs
}

// resolveRoot returns the real location of root r, "" when it does not
// exist.
func (g *Guard) resolveRoot(r string) (string, error) {
	p, err := g.expand(r)
	if err != nil {
		return "", fmt.Errorf("resolve sandbox root %s: %w", r, err)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("resolve sandbox root %s: %w", r, err)
	}
	real, err := realPath(abs)
	if errors.Is(err, errDangling) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("resolve sandbox root %s: %w", r, err)
	}
	fi, err := os.Stat(real)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("resolve sandbox root %s: %w", r, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("resolve sandbox root %s: %s is not a directory", r, real)
	}
	return real, nil
}

// Roots returns the real paths of the roots, in the order given to New.
func (g *Guard) Roots() []string {
	if g == nil {
		return nil
	}
	return append([]string(nil), g.roots...)
}

// Result is what Check found about one path.
type Result struct {
	// Abs is the path expanded, made absolute and cleaned lexically,
	// symlinks not resolved: what to show a person. It is "" for
	// CodeInvalid. Because it is lexical, `link/../x` is `x` here even
	// where Real says otherwise.
	Abs string
	// Real is the resolved location: symlinks followed as the kernel
	// would, the missing tail (if any) re-joined. It is set only when the
	// path resolved, that is when Code is "" or CodeOutside.
	Real string
	// Root is the root that holds Real (the longest, when roots nest),
	// or "".
	//
	// A root holds a path below it unless the path is in the home
	// directory and the root is not (see Options.Home).
	Root string
	// Code is "" when Real is inside a root, else one of the Code*
	// values.
	Code string
	// Err is the failure behind a Code other than CodeOutside. With
	// CodeOutside it is nil, or says that Real is in the home directory
	// and no root inside home holds it.
	Err error
}

// Inside reports whether the path lies in a root.
func (r Result) Inside() bool { return r.Code == "" }

// Check resolves path against cwd and tests it against the roots.
//
// path may start with `~`, `~/`, `$HOME`, `${HOME}` (expanded to Options.Home;
// `~user` is not expanded and gets CodeInvalid). A relative path needs an
// absolute cwd; a non-empty relative cwd is always CodeInvalid. The path is
// then resolved component by component from cwd, so `..` after a symlink
// leaves the link's target, as in the kernel (not the lexical
// filepath.Clean). When a component does not exist, the rest is the missing
// tail: the real location of the existing part plus the tail, cleaned
// (creating `new/dir/f` under a symlinked dir is judged at the target).
// A missing component inside a symlink's target makes the path dangling.
// Check never writes, and never panics on any input.
func (g *Guard) Check(cwd, path string) Result {
	return g.CheckWith(nil, cwd, path)
}

// CheckWith is Check with its stats remembered in m (Memo), for a
// decision that checks several paths.
func (g *Guard) CheckWith(m *Memo, cwd, path string) Result {
	if g == nil {
		g = &Guard{}
	}
	raw, err := g.absolute(cwd, path)
	if err != nil {
		return Result{Code: CodeInvalid, Err: err}
	}
	res := Result{Abs: filepath.Clean(raw)}
	if cwd != "" && len(raw) > len(cwd) && within(cwd, raw) {
		m.useWd(cwd)
	}
	real, err := m.realPath(raw)
	if err != nil {
		res.Code, res.Err = classify(err), err
		return res
	}
	res.Real = real
	if root := g.rootOf(real); root != "" {
		res.Root = root
	} else {
		res.Code = CodeOutside
		if g.realHome != "" && within(g.realHome, real) {
			res.Err = fmt.Errorf("%s is in the home directory %s, which no root opens", real, g.realHome)
		}
	}
	return res
}

// Resolve returns the real location of the absolute path abs as Check
// resolves it (symlinks followed component by component, a missing tail
// re-joined), without judging it. The error is one Check would give a
// code for; use Check to get the code.
func Resolve(abs string) (string, error) {
	return (*Memo)(nil).ResolveFrom("", abs)
}

// ResolveFrom is Resolve with its lookups remembered in m, for a decision
// whose working directory is cwd: as in CheckWith, when cwd is the
// process's working directory and abs is it or lies below it, the
// components of cwd are not looked up one by one (Memo).
func (m *Memo) ResolveFrom(cwd, abs string) (string, error) {
	if !filepath.IsAbs(abs) || strings.IndexByte(abs, 0) >= 0 {
		return "", fmt.Errorf("resolve %q: not an absolute path", abs)
	}
	if cwd != "" && within(cwd, abs) {
		m.useWd(cwd)
	}
	return m.realPath(abs)
}

// Inside reports whether a real (already resolved, clean, absolute) path
// lies in a root.
func (g *Guard) Inside(real string) bool { return g.rootOf(real) != "" }

func (g *Guard) rootOf(real string) string {
	if g == nil {
		return ""
	}
	inHome := g.realHome != "" && within(g.realHome, real)
	best := ""
	for _, r := range g.roots {
		if len(r) > len(best) && within(r, real) && (!inHome || within(g.realHome, r)) {
			best = r
		}
	}
	return best
}

// within reports whether p is root or below it, by whole path components:
// /work/project-evil is not within /work/project. Both must be clean and
// absolute. The comparison is byte for byte: on a case-insensitive file
// system (macOS by default, Windows) a path spelled in another case than
// the root is judged outside, which fails closed; a false "inside" cannot
// come from case. (On Windows the resolution normalizes the case of the
// existing part, so roots and paths agree there.)
func within(root, p string) bool {
	if !strings.HasPrefix(p, root) {
		return false
	}
	if len(p) == len(root) {
		return true
	}
	return os.IsPathSeparator(p[len(root)]) || os.IsPathSeparator(root[len(root)-1])
}

// absolute expands path and makes it absolute against cwd, without
// cleaning it: `..` must be resolved physically, after symlinks.
func (g *Guard) absolute(cwd, path string) (string, error) {
	switch {
	case path == "":
		return "", errors.New("empty path")
	case strings.IndexByte(path, 0) >= 0:
		return "", errors.New("path holds a NUL byte")
	case strings.IndexByte(cwd, 0) >= 0:
		return "", errors.New("working directory holds a NUL byte")
	case cwd != "" && !filepath.IsAbs(cwd):
		return "", fmt.Errorf("working directory %s is not absolute", cwd)
	}
	p, err := g.expand(path)
	if err != nil {
		return "", err
	}
	if filepath.IsAbs(p) {
		return selfCwd(p, cwd)
	}
	if vol := filepath.VolumeName(p); vol != "" {
		return "", fmt.Errorf("%s is relative to the current directory of drive %s", path, vol)
	}
	if cwd == "" {
		return "", fmt.Errorf("relative path %s needs a working directory", path)
	}
	if os.IsPathSeparator(p[0]) { // Windows: `\x` is rooted on cwd's volume
		return filepath.VolumeName(cwd) + p, nil
	}
	return cwd + string(filepath.Separator) + p, nil
}

// selfCwd maps Linux's /proc/self/cwd and /proc/thread-self/cwd (proc(5))
// at the start of p to cwd, the directory of the process that opens p:
// resolved here they would name gatekeep's own. A path below an open file
// descriptor (/proc/self/fd/N/..., /dev/fd/N/...) names a file of the
// command's own descriptors, which is not known here: an error.
func selfCwd(p, cwd string) (string, error) {
	if runtime.GOOS != "linux" {
		return p, nil
	}
	for _, pre := range []string{"/proc/self/cwd", "/proc/thread-self/cwd"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && (rest == "" || rest[0] == '/') {
			if cwd == "" {
				return "", fmt.Errorf("%s names the working directory, which is not known", p)
			}
			return cwd + rest, nil
		}
	}
	for _, pre := range []string{"/proc/self/fd/", "/proc/thread-self/fd/", "/dev/fd/"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && strings.Contains(strings.TrimRight(rest, "/"), "/") {
			return "", fmt.Errorf("%s names a file below an open descriptor of the command, which is not known", p)
		}
	}
	return p, nil
}

// expand replaces a leading `~`, `$HOME` or `${HOME}` (alone or followed by
// a separator) with the home directory. `~user` is refused: whether a tool
// expands it is not known, so neither reading is safe to assume.
func (g *Guard) expand(p string) (string, error) {
	var rest string
	switch {
	case p == "~" || p == "$HOME" || p == "${HOME}":
	case len(p) > 1 && p[0] == '~' && os.IsPathSeparator(p[1]):
		rest = p[1:]
	case len(p) > 5 && strings.HasPrefix(p, "$HOME") && os.IsPathSeparator(p[5]):
		rest = p[5:]
	case len(p) > 7 && strings.HasPrefix(p, "${HOME}") && os.IsPathSeparator(p[7]):
		rest = p[7:]
	case p[0] == '~':
		return "", fmt.Errorf("%s names another user's home directory, which is not expanded", p)
	default:
		return p, nil
	}
	if g.home == "" {
		return "", fmt.Errorf("%s needs the home directory, which is not known", p)
	}
	return g.home + rest, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fallbackSystemDirs are the system directories a project root is never
// guessed in (FHS 3.0): configuration, the installed system, boot files,
// variable state. Their temp dirs (/var/tmp, os.TempDir()) are not refused.
var fallbackSystemDirs = []string{"/etc", "/usr", "/boot", "/var"}

// RefuseFallbackRoot says why dir may not be a sandbox root that is only
// guessed (no .git or .gatekeep marks a project there, and no --root or
// GATEKEEP_ROOT names it): dir, by its own path or its real one, lies in a
// hidden directory of home (a path component below home starting with
// '.': ~/.ssh, ~/.config/x), in a hidden directory of /root, or in /etc,
// /usr, /boot or /var outside their temp dirs. "" when it may be one.
// The roots of New (/, home) are refused for every root, this one only
// for a guessed one: `cd ~/.ssh && gatekeep bash -c 'echo k >>
// authorized_keys'` must not make ~/.ssh writable.
func RefuseFallbackRoot(dir, home string) string {
	forms := []string{filepath.Clean(dir)}
	if r, err := realPath(dir); err == nil && r != forms[0] {
		forms = append(forms, r)
	}
	homes := []string{"/root"}
	if home != "" {
		homes = append(homes, filepath.Clean(home))
		if r, err := realPath(home); err == nil {
			homes = append(homes, r)
		}
	}
	temps := []string{os.TempDir()}
	temps = append(temps, systemTempDirs...)
	for i := range temps {
		if r, err := realPath(temps[i]); err == nil {
			temps = append(temps, r)
		}
	}
	for _, d := range forms {
		for _, h := range homes {
			rel, ok := below(h, d)
			if !ok {
				continue
			}
			for _, c := range strings.Split(rel, string(filepath.Separator)) {
				if strings.HasPrefix(c, ".") {
					return d + " is inside a hidden directory of " + h
				}
			}
		}
		inTemp := false
		for _, t := range temps {
			if _, ok := below(filepath.Clean(t), d); ok || filepath.Clean(t) == d {
				inTemp = true
			}
		}
		for _, s := range fallbackSystemDirs {
			if _, ok := below(s, d); (ok || d == s) && !inTemp {
				return d + " is a system directory (" + s + ")"
			}
		}
	}
	return ""
}

// below returns d relative to dir when d lies strictly below dir.
func below(dir, d string) (string, bool) {
	if dir == "" || d == dir {
		return "", false
	}
	dir = strings.TrimSuffix(dir, string(filepath.Separator))
	if len(d) <= len(dir) || d[len(dir)] != filepath.Separator || !strings.HasPrefix(d, dir) {
		return "", false
	}
	return d[len(dir)+1:], true
}
