package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gatekeep/gatekeep/cmd/enforce"
	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy/confine"
)

// Links in a git dir: git opens COMMIT_EDITMSG, MERGE_MSG, FETCH_HEAD,
// ORIG_HEAD, the reflogs in logs/ and more for writing following a
// symbolic link, so a link a confined command leaves there turns the
// person's next unconfined git commit or checkout into a write wherever
// it leads (~/.bashrc), with text the command chose (a branch name, a
// commit message). Git itself makes no links in a git dir, so every link
// the command made or changed there is removed after the run (a link is
// only a pointer: nothing is lost) and reported. Those that were there
// before, under the same identity, are the person's and stay.

// gitLinks are the symbolic links in the git dirs a run is swept for, by
// path, with their identity before the run.
type gitLinks struct {
	dirs   []string
	before map[string]enforce.FileID
}

// gitLinkDirs are the git dirs whose links are swept: the project's and
// those the plan's walk found (nested repositories, submodules' git dirs).
func gitLinkDirs(p enforce.Plan) []string {
	var dirs []string
	if p.GitDir != "" {
		dirs = append(dirs, p.GitDir)
	}
	for _, s := range p.Shapes {
		if fi, err := os.Lstat(s); err != nil || !fi.IsDir() {
			continue
		}
		if strings.EqualFold(filepath.Base(s), ".git") || pathguard.MaybeGitDir(s) {
			if p.GitDir == "" || !confine.Within(p.GitDir, s) {
				dirs = append(dirs, s)
			}
		}
	}
	return dirs
}

// eachGitLink calls fn for each symbolic link below the git dir, leaving
// out the object stores (objects/ of a git dir, lfs/): git reads objects
// by name and writes them anew, and they are the bulk of a git dir.
func eachGitLink(dir string, fn func(path string)) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && path != dir && (d.Name() == "objects" && pathguard.MaybeGitDir(filepath.Dir(path)) || path == filepath.Join(dir, "lfs")) {
			return filepath.SkipDir
		}
		if d.Type()&fs.ModeSymlink != 0 {
			fn(path)
		}
		return nil
	})
}

// recordGitLinks notes, before the run, the links in the git dirs.
func recordGitLinks(p enforce.Plan) *gitLinks {
	g := &gitLinks{dirs: gitLinkDirs(p), before: map[string]enforce.FileID{}}
	for _, d := range g.dirs {
		eachGitLink(d, func(path string) {
			if id, ok := enforce.IDOf(path); ok {
				g.before[path] = id
			}
		})
	}
	return g
}

// sweepGitLinks removes, after the run, the links in the git dirs that
// were not there before under the same identity: through the git dir's
// handle (git) for the project's, else through the project's (root),
// taken before the run; it reports each.
func (a *app) sweepGitLinks(g *gitLinks, root, git *enforce.Anchor) {
	realRoot := confine.RealOrSelf(a.loaded.Root)
	for _, d := range g.dirs {
		eachGitLink(d, func(path string) {
			if was, ok := g.before[path]; ok {
				if id, ok := enforce.IDOf(path); ok && id == was {
					return
				}
			}
			target, _ := os.Readlink(path)
			an, base := root, realRoot
			if git != nil && confine.Within(a.enf.plan.GitDir, path) {
				an, base = git, a.enf.plan.GitDir
			}
			rel, err := filepath.Rel(base, path)
			if an == nil || err != nil || !filepath.IsLocal(rel) {
				fmt.Fprintf(a.stderr, "gatekeep: the confined command left the link %s -> %s in a git dir, where git would write through it; it was not removed (no handle of its directory)\n", path, target)
				return
			}
			switch err := an.RemoveLink(rel); {
			case err == nil:
				fmt.Fprintf(a.stderr, "gatekeep: removed the link %s -> %s: the confined command left it in a git dir, where git would write through it\n", path, target)
			case errors.Is(err, os.ErrNotExist):
			default:
				fmt.Fprintf(a.stderr, "gatekeep: the confined command left the link %s -> %s in a git dir, where git would write through it; it could not be removed: %v\n", path, target, err)
			}
		})
	}
	a.checkHeadName()
}

// shellMeta are the characters that make a branch name a command when
// some tool pastes it into a shell line (a prompt, a hook, a reflog line
// that lands in an rc file): valid in a ref name, rare in a real one.
const shellMeta = "$`;|&<>"

// checkHeadName reports a HEAD that names a branch with shell
// metacharacters: git accepts it, but it is a payload waiting for a shell.
// It is only reported: the branch and HEAD are the person's to judge.
func (a *app) checkHeadName() {
	d := a.enf.plan.GitDir
	if d == "" {
		return
	}
	b, err := os.ReadFile(filepath.Join(d, "HEAD"))
	if err != nil {
		return
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: ")
	if ok && strings.ContainsAny(ref, shellMeta) {
		fmt.Fprintf(a.stderr, "gatekeep: HEAD now names the branch %q, whose name holds shell metacharacters: check it before a tool pastes it into a shell\n", ref)
	}
}

// unheadQuarantined makes a quarantined git dir (at rel below root) no
// git dir, so that git run in it or pointed at it finds no repository.
func unheadQuarantined(root *enforce.Anchor, rel string, kind pathguard.Shape) {
	if kind == pathguard.ShapeRepository || kind == pathguard.ShapeGitDir {
		_ = root.Unhead(rel)
	}
}
