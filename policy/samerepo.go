package policy

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse"
)

// plainGit returns git as it runs in the call's own directory when a git
// command points at another directory that belongs to the same repository
// (issue 12): `cd DIR && git diff`, `git -C DIR status`, where DIR's git
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
	if len(c.Args) < 2 || c.Args[0].Dynamic || c.Args[0].Text != "git" || c.DirDynamic || !filepath.IsAbs(e.cwd) {
		return nil, nil
	}
	dir := joinPath(e.cwd, c.Dir)
	moved := c.Dir != ""
	var cs []string // the -C operands
	args := []shellparse.Word{c.Args[0]}
	i := 1
	for ; i < len(c.Args); i++ {
		w := c.Args[i]
		if w.Text != "-C" || w.Dynamic {
			break
		}
		if i+1 >= len(c.Args) || c.Args[i+1].Dynamic {
			return nil, nil
		}
		i++
		if t := c.Args[i].Text; t != "" {
			dir = joinPath(dir, t)
			moved = true
			cs = append(cs, t)
		}
	}
	if !moved {
		return nil, nil
	}
	here, ok := e.gitDirOf(e.cwd)
	if !ok {
		return nil, nil
	}
	if there, ok := e.gitDirOf(dir); !ok || there != here {
		return nil, nil
	}
	dirs := []string{dir}
	for _, d := range c.OtherDirs {
		// A cd before it may not have run: every directory git may run
		// in must be of the same repository (issue 11).
		od := joinPath(e.cwd, d)
		for _, t := range cs {
			od = joinPath(od, t)
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
// would use, found as git's setup does (setup.c
// setup_git_directory_gently): from dir upwards, a `.git` directory, a
// `.git` file naming one (`gitdir: PATH`, worktrees and submodules), or
// the directory itself when it is shaped like a git directory (HEAD,
// objects/, refs/). ok is false when none is found or anything is unclear.
// Answers are kept for the evaluation.
func (e *evaluation) gitDirOf(dir string) (string, bool) {
	real, err := pathguard.Resolve(dir)
	if err != nil {
		return "", false
	}
	if g, ok := e.gitDirs[real]; ok {
		return g, g != ""
	}
	g := findGitDir(real)
	if e.gitDirs == nil {
		e.gitDirs = map[string]string{}
	}
	e.gitDirs[real] = g
	return g, g != ""
}

func findGitDir(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		dot := filepath.Join(d, ".git")
		if fi, err := os.Lstat(dot); err == nil {
			switch {
			case fi.IsDir():
				if r, err := pathguard.Resolve(dot); err == nil {
					return r
				}
				return ""
			case fi.Mode().IsRegular():
				return gitFileTarget(d, dot)
			default:
				return "" // a link or something else: not judged
			}
		}
		if isGitDirShape(d) {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// gitFileTarget reads a `.git` file: one line `gitdir: PATH`, relative to
// the directory holding it (gitrepository-layout(5)).
func gitFileTarget(d, file string) string {
	f, err := OpenRegular(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" {
		return ""
	}
	p, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "gitdir: ")
	if !ok || p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(d, p)
	}
	r, err := pathguard.Resolve(p)
	if err != nil || !isGitDirShape(r) {
		return ""
	}
	return r
}

// isGitDirShape: HEAD, objects/ and refs/ (setup.c is_git_directory).
func isGitDirShape(d string) bool {
	h, err := os.Stat(filepath.Join(d, "HEAD"))
	if err != nil || !h.Mode().IsRegular() {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(d, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// projectGit reports whether git, run in every directory c may run in
// (dirs from plainGitIn, else the command's directories), finds the
// project root's own git directory, or no repository where the project
// has none either. A directory inside the project shaped like a git
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
	if dirs == nil {
		for _, d := range c.Dirs() {
			dirs = append(dirs, joinPath(e.cwd, d))
		}
	}
	for _, d := range dirs {
		got, ok := e.gitDirOf(d)
		if ok != wantOK || got != want {
			return false
		}
	}
	return len(dirs) > 0
}

// completesGitDir returns the directory a write of the call would make
// shaped like a git directory (HEAD, objects/, refs/: isGitDirShape) when
// it holds them with what the call's other static writes create in the
// same directory (`mkdir -p d/objects d/refs && echo ... > d/HEAD`), or "".
// Such a directory is a repository of its own; its config runs code when
// git runs there (core.fsmonitor), so the writes are protected.
func (e *evaluation) completesGitDir(p *part) string {
	if e.gitShape == nil {
		e.gitShape = map[string]bool{}
		made := map[string]map[string]bool{}
		for i := range e.callParts {
			q := &e.callParts[i]
			if q.access != shellparse.Write || q.dynamic || q.path == "" || !filepath.IsAbs(q.dir) {
				continue
			}
			abs := joinPath(q.dir, q.path)
			dir, name := filepath.Dir(abs), filepath.Base(abs)
			switch name {
			case "HEAD", "objects", "refs", "config":
			default:
				continue
			}
			if made[dir] == nil {
				made[dir] = map[string]bool{}
			}
			made[dir][name] = true
		}
		for dir, names := range made {
			has := func(n string, wantDir bool) bool {
				if names[n] {
					return true
				}
				fi, err := os.Stat(filepath.Join(dir, n))
				return err == nil && fi.IsDir() == wantDir
			}
			if has("HEAD", false) && has("objects", true) && has("refs", true) {
				e.gitShape[dir] = true
			}
		}
	}
	if p.dynamic || p.path == "" || !filepath.IsAbs(p.dir) {
		return ""
	}
	if dir := filepath.Dir(joinPath(p.dir, p.path)); e.gitShape[dir] {
		return dir
	}
	return ""
}
