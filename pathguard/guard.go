// Package pathguard decides whether a path lies inside the sandbox roots.
//
// A Guard holds the allowed roots, each resolved to its real location. Check
// expands `~`, makes a path absolute, cleans it, resolves symlinks (for a path
// that does not exist yet, those of its nearest existing ancestor) and tests
// containment component by component. It also marks protected paths inside
// the roots (gatekeep's own config, .git/hooks ...). It does not decide allow
// or deny: that is the policy package's business.
package pathguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Result codes of Check.
const (
	CodeOutside      = "sandbox.outside_root"
	CodeDangling     = "sandbox.dangling_symlink"
	CodeLoop         = "sandbox.symlink_loop"
	CodeUnresolvable = "sandbox.unresolvable"
)

// Guard holds the sandbox roots.
type Guard struct {
	roots []string // real, clean, absolute
	home  string
}

// Options for New.
type Options struct {
	// Home is what `~` and `$HOME` expand to; a root that resolves to it is
	// refused.
	Home string
}

// New builds a Guard from roots. Each root is resolved to its real path;
// a root that does not exist is skipped, and one that resolves to `/` or to
// Home is refused. The refusals are returned, one error each, for the caller
// to report.
func New(roots []string, opt Options) (*Guard, []error) {
	g := &Guard{home: opt.Home}
	var errs []error
	realHome := ""
	if opt.Home != "" {
		realHome, _ = filepath.EvalSymlinks(opt.Home)
	}
	for _, r := range roots {
		if r == "" {
			continue
		}
		abs, err := filepath.Abs(g.expand(r))
		if err != nil {
			errs = append(errs, fmt.Errorf("root %s: %w", r, err))
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("root %s: %w", r, err))
			}
			continue
		}
		if real == filepath.Dir(real) || (realHome != "" && real == realHome) {
			errs = append(errs, fmt.Errorf("root %s resolves to %s, which would open the whole disk or home directory; refused", r, real))
			continue
		}
		if !contains(g.roots, real) {
			g.roots = append(g.roots, real)
		}
	}
	return g, errs
}

// Roots returns the real paths of the roots.
func (g *Guard) Roots() []string { return append([]string(nil), g.roots...) }

// Result is what Check found about one path.
type Result struct {
	// Abs is the path made absolute and cleaned, symlinks not resolved.
	Abs string
	// Real is the resolved location: symlinks of the existing part
	// resolved, the missing tail re-joined.
	Real string
	// Root is the root that holds Real, or "".
	Root string
	// Code is "" when Real is inside a root, else one of the Code* values.
	Code string
	// Err is the resolution error behind a Code other than CodeOutside.
	Err error
}

// Inside reports whether the path lies in a root.
func (r Result) Inside() bool { return r.Code == "" }

// Check resolves path (relative to cwd) and tests it against the roots.
func (g *Guard) Check(cwd, path string) Result {
	p := g.expand(path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	res := Result{Abs: filepath.Clean(p)}
	real, err := resolve(res.Abs)
	if err != nil {
		res.Err = err
		res.Code = CodeUnresolvable
		if errors.Is(err, errLoop) {
			res.Code = CodeLoop
		} else if errors.Is(err, errDangling) {
			res.Code = CodeDangling
		}
		return res
	}
	res.Real = real
	if root := g.rootOf(real); root != "" {
		res.Root = root
	} else {
		res.Code = CodeOutside
	}
	return res
}

// Inside reports whether a real (already resolved) path lies in a root.
func (g *Guard) Inside(real string) bool { return g.rootOf(real) != "" }

func (g *Guard) rootOf(real string) string {
	for _, r := range g.roots {
		if within(r, real) {
			return r
		}
	}
	return ""
}

// within reports whether p is root or below it, by path components.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}

func (g *Guard) expand(p string) string {
	if g.home == "" {
		return p
	}
	switch {
	case p == "~" || p == "$HOME" || p == "${HOME}":
		return g.home
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(g.home, p[2:])
	case strings.HasPrefix(p, "$HOME/"):
		return filepath.Join(g.home, p[6:])
	case strings.HasPrefix(p, "${HOME}/"):
		return filepath.Join(g.home, p[8:])
	}
	return p
}

var (
	errLoop     = errors.New("too many levels of symbolic links")
	errDangling = errors.New("symbolic link points to nothing")
)

// resolve returns the real location of an absolute clean path. For a path
// that does not exist, the nearest existing ancestor is resolved and the
// missing tail re-joined; a dangling symlink on the way is an error.
func resolve(abs string) (string, error) {
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		if strings.Contains(err.Error(), "too many links") || strings.Contains(err.Error(), "too many levels") {
			return "", fmt.Errorf("%s: %w", abs, errLoop)
		}
		return "", err
	}
	// Walk up to the nearest ancestor that exists.
	dir, tail := abs, []string{}
	for {
		if fi, lerr := os.Lstat(dir); lerr == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				// The path exists as a link but its target does not.
				return "", fmt.Errorf("%s: %w", dir, errDangling)
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		tail = append([]string{filepath.Base(dir)}, tail...)
		dir = parent
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{realDir}, tail...)...), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Protected reports why a real path inside a root must not be written
// without asking, or "" when it may be.
func (g *Guard) Protected(real string) string {
	root := g.rootOf(real)
	if root == "" {
		return ""
	}
	rel, _ := filepath.Rel(root, real)
	rel = filepath.ToSlash(rel)
	switch {
	case rel == ".gatekeep" || strings.HasPrefix(rel, ".gatekeep/"):
		return "gatekeep's own configuration is protected"
	case rel == ".git/config" || rel == ".git/hooks" || strings.HasPrefix(rel, ".git/hooks/"):
		return "git configuration and hooks run code later and are protected"
	}
	return ""
}
