package policy

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// lsFilesNames returns the words an unquoted `$(git ls-files)` in c
// (c.Args[k], the only word of the substitution's one command) becomes
// when the script runs, read from the git index through Config.Disk:
// git prints the tracked paths below the directory c runs in, relative to
// it, and bash splits them at blanks and globs each. The names are only
// taken when every one is printed as it is and stays one word: none holds
// a blank, a glob character, a quote, a backslash or a byte git would
// quote (core.quotePath), and IFS was not set. Otherwise ok is false and
// the word stays a path only known at run time, as `cat "$F"` is: the
// Read rules cannot see what it names.
func (e *evaluation) lsFilesNames(s *shellparse.Script, c *shellparse.Command, k int) ([]string, bool) {
	w := c.Args[k]
	disk := e.cfg.Disk
	if s == nil || disk == nil || !w.Dynamic || w.SubstOnly || w.Text != "$(git ls-files)" ||
		slices.Contains(c.Tainted, "IFS") || c.DirDynamic || len(c.OtherDirs) > 0 {
		return nil, false
	}
	idx := -1
	for i := range s.Commands {
		if &s.Commands[i] == c {
			idx = i
		}
	}
	inner := 0
	for i := range s.Commands {
		sc := &s.Commands[i]
		if sc.Parent == idx && sc.Offset >= w.Offset && sc.Offset < w.Offset+len(w.Text) {
			inner++
			if !cmdmodel.ListsTrackedFiles(sc.Args) {
				return nil, false
			}
		}
	}
	if inner != 1 {
		return nil, false
	}
	dir, ok := commandDir(e.cwd, c.Dir)
	if !ok || !filepath.IsAbs(dir) {
		return nil, false
	}
	top := dir
	for {
		fi, err := disk.Lstat(filepath.Join(top, ".git"))
		if err == nil {
			if !fi.IsDir() {
				return nil, false // a worktree or submodule: its index is elsewhere
			}
			break
		}
		if filepath.Dir(top) == top {
			return nil, false
		}
		top = filepath.Dir(top)
	}
	if _, err := disk.Stat(filepath.Join(top, ".git", "index")); errors.Is(err, fs.ErrNotExist) {
		return []string{}, true // nothing tracked: git prints nothing
	}
	paths, ok := disk.TrackedPaths(filepath.Join(top, ".git"))
	if !ok {
		return nil, false
	}
	var out []string
	for _, p := range paths {
		rel, err := filepath.Rel(dir, filepath.Join(top, filepath.FromSlash(p)))
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue // not below the directory: git does not print it
		}
		for _, r := range p {
			if r <= ' ' || r >= 0x7f || strings.ContainsRune("*?[\"\\'", r) {
				return nil, false
			}
		}
		if len(out) == maxGlobNames {
			return nil, false
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out, true
}
