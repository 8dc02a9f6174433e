package policy

import (
	"path/filepath"
	"strings"
)

// nestedRepo reports whether the project root's repository, whose git
// directory is want, is nested in another repository's work tree with a
// git directory of its own: a package directory holding a .git that a
// confined run may have made (node_modules/pkg/.git), whose config runs
// code when git runs there (core.fsmonitor). The root was found as the
// nearest .git above the working directory; from the outer project the
// same git is not the project's (`git -C node_modules/pkg status`), and
// the working directory must not make it so. A submodule or a worktree
// whose git directory lies in the outer repository's (.git/modules/NAME,
// .git/worktrees/NAME) is that repository's, and not nested; so is every
// project under a repository of the home directory itself (a dotfiles
// repository: ~/.git), which no confined run can make. true when the disk
// leaves it unclear.
func (e *evaluation) nestedRepo(root, want string) bool {
	real, err := e.memo.ResolveFrom(e.cwd, root)
	if err != nil {
		return true
	}
	parent := filepath.Dir(real)
	if parent == real {
		return false
	}
	outer, ok := e.gitDirOf(parent)
	switch {
	case !ok:
		return true
	case outer == "" || outer == want:
		return false
	case e.dotfilesRepo(outer):
		return false
	}
	return !strings.HasPrefix(want, outer+string(filepath.Separator))
}

// dotfilesRepo reports whether outer, a git directory, is the .git of the
// home directory or of a directory above it.
func (e *evaluation) dotfilesRepo(outer string) bool {
	home := e.cfg.Home
	if home == "" || filepath.Base(outer) != ".git" {
		return false
	}
	top := filepath.Dir(outer)
	return top == home || strings.HasPrefix(home, top+string(filepath.Separator)) || top == string(filepath.Separator)
}
