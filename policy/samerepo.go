package policy

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// plainGit returns git as it runs in the call's own directory when a git
// command points at another directory that belongs to the same repository:
// `cd DIR && git diff`, `git -C DIR status`, where DIR's git
// directory (found the way git finds it, without running git) is the one
// of the call's working directory. That repository's config is already
// the one plain `git` obeys, so the command is judged as plain `git` in
// the project: the `-C DIR` words are dropped and the directory is the
// call's. nil when the command is not such a git command.
func (e *evaluation) plainGit(c *shellparse.Command) *shellparse.Command {
	g, _ := e.plainGitIn(c)
	return g
}

// plainGitIn is plainGit, with every absolute directory git may run in
// (where its relative paths resolve): the -C operands applied to each
// directory the shell may be in.
func (e *evaluation) plainGitIn(c *shellparse.Command) (*shellparse.Command, []string) {
	if len(c.Args) < 2 || c.Args[0].Dynamic || !cmdmodel.IsGit(c.Args[0].Text) || c.DirDynamic || !filepath.IsAbs(e.cwd) {
		return nil, nil
	}
	dir, ok := commandDir(e.cwd, c.Dir)
	if !ok {
		return nil, nil
	}
	moved := c.Dir != ""
	var cs []string // the -C operands
	args := []shellparse.Word{c.Args[0]}
	chdirs, i, ok := cmdmodel.GitLeadingChdirs(c.Args)
	if !ok {
		return nil, nil
	}
	for _, w := range chdirs {
		if t := w.Text; t != "" {
			if dir, ok = gitChdir(dir, t); !ok {
				return nil, nil
			}
			moved = true
			cs = append(cs, t)
		}
	}
	if !moved {
		return nil, nil
	}
	here, ok := e.gitDirOf(e.cwd)
	if !ok || here == "" {
		return nil, nil
	}
	if there, ok := e.gitDirOf(dir); !ok || there != here {
		return nil, nil
	}
	dirs := []string{dir}
	for _, d := range c.OtherDirs {
		// A cd before it may not have run: every directory git may run
		// in must be of the same repository.
		od, ok := commandDir(e.cwd, d)
		for _, t := range cs {
			if ok {
				od, ok = gitChdir(od, t)
			}
		}
		if !ok {
			return nil, nil
		}
		if there, ok := e.gitDirOf(od); !ok || there != here {
			return nil, nil
		}
		dirs = append(dirs, od)
	}
	out := *c
	out.Args = append(args, c.Args[i:]...)
	out.Dir, out.OtherDirs = "", nil
	return &out, dirs
}

// gitDirOf returns the real path of the git directory that git run in dir
// would use (pathguard.FindGitDir: as wide as git's setup.c), "" for none.
// ok is false when the disk leaves it unclear. Answers are kept for the
// evaluation, and so are the lookups that resolve dir (the project root and
// the call's directory are often one).
func (e *evaluation) gitDirOf(dir string) (string, bool) {
	real, err := e.memo.ResolveFrom(e.cwd, dir)
	if err != nil {
		return "", false
	}
	if g, ok := e.gitDirs[real]; ok {
		return g.dir, g.ok
	}
	g, ok := pathguard.FindGitDir(real)
	if e.gitDirs == nil {
		e.gitDirs = map[string]gitDirAnswer{}
	}
	e.gitDirs[real] = gitDirAnswer{g, ok}
	return g, ok
}

// gitDirAnswer is one kept answer of gitDirOf.
type gitDirAnswer struct {
	dir string
	ok  bool
}

// gitChdir is where `git -C t` goes from dir: git calls chdir(2), which
// follows a link before a `..` (`git -C link/.. ...`), so a path with
// `..` is resolved on the disk; ok is false when it cannot be.
func gitChdir(dir, t string) (string, bool) {
	p := joinPath(dir, t)
	if !slices.Contains(strings.Split(filepath.ToSlash(t), "/"), "..") {
		return p, true
	}
	if !filepath.IsAbs(t) {
		p = dir + string(filepath.Separator) + t
	}
	r, err := pathguard.Resolve(p)
	return r, err == nil
}

// projectGit reports whether git, run in every directory c may run in
// (dirs from plainGitIn, else the command's directories), finds the
// project root's own git directory, or no repository where the project
// has none either, and the root's repository is not one nested in
// another's work tree (nestedRepo). A directory inside the project shaped like a git
// directory (HEAD, objects/, refs/ and a config with core.fsmonitor or
// core.worktree) is a repository of its own, whose config runs code on
// `git status`; such a git is not safe.
func (e *evaluation) projectGit(c *shellparse.Command, dirs []string) bool {
	root := e.cfg.Root
	if root == "" && e.cfg.Guard != nil && len(e.cfg.Guard.Roots()) > 0 {
		root = e.cfg.Guard.Roots()[0]
	}
	if root == "" || c.DirDynamic || !filepath.IsAbs(e.cwd) {
		return false
	}
	want, wantOK := e.gitDirOf(root)
	if !wantOK || want != "" && e.nestedRepo(root, want) {
		return false
	}
	if dirs == nil {
		for _, d := range c.Dirs() {
			a, ok := commandDir(e.cwd, d)
			if !ok {
				return false
			}
			dirs = append(dirs, a)
		}
	}
	for _, d := range dirs {
		got, ok := e.gitDirOf(d)
		if !ok || got != want {
			return false
		}
	}
	return len(dirs) > 0
}

// completesGitDir returns why a write of the call could make or change a
// git directory once every static write of the call is made
// (pathguard.Guard.GitShapeReason: `mkdir -p d/objects d/refs && echo ...
// > d/HEAD`), or "". Such a directory is a repository of its own; its
// config runs code when git runs there (core.fsmonitor, diff.external).
func (e *evaluation) completesGitDir(p *part) string {
	g := e.cfg.Guard
	if g == nil || p.dynamic || p.path == "" || !filepath.IsAbs(p.dir) {
		return ""
	}
	if e.callWrites == nil {
		e.callWrites = []string{}
		for i := range e.callParts {
			q := &e.callParts[i]
			if q.access != cmdmodel.Write || q.dynamic || q.path == "" || !filepath.IsAbs(q.dir) {
				continue
			}
			if r := e.check(q.dir, q.path); r.Real != "" {
				e.callWrites = append(e.callWrites, r.Real)
			}
		}
	}
	if len(e.callWrites) < 2 {
		return "" // one write: Protected judges it alone
	}
	r := e.check(p.dir, p.path)
	if r.Real == "" {
		return ""
	}
	return g.GitShapeReasonWith(&e.memo, r.Real, e.callWrites)
}
