package policy

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// maxCopyEntries bounds the walk of a directory a command copies or moves
// whole; a larger tree is judged as names only known at run time.
var maxCopyEntries = 10000 // a variable for tests

// treeWrites appends the parts for the entries a write puts below its
// path under names the command does not give (cmdmodel.FileEffect.Tree:
// `cp -r SRC/. DEST` writes DEST/.envrc, DEST/.git/hooks/pre-commit):
//
//   - for a source directory that exists now, every entry below it
//     (walked without following symlinks, unless the command follows
//     them), and every static write the script makes below it before this
//     command, each a write of DEST/REL judged like any other write
//     (protected paths, rules, sandbox);
//   - for a source that does not exist now, only the script's own writes
//     below it (nothing else can be there when the command runs, or the
//     command that put it there is judged on its own);
//   - for names only known at run time (an archive's members, a remote
//     or dynamic source, a tree over maxCopyEntries, a walk that fails,
//     no Config.Disk to read) one part stands for them (part.members),
//     which asks.
//
// A link made earlier in the script (afterLink) may have replaced the
// source or a directory above it with a link to anywhere: when the script
// writes the source or a directory above it, the names are unknown.
//
// before are the parts of the script made so far; fp is the write of DEST,
// destDynamic whether DEST's word is only known at run time.
func (e *evaluation) treeWrites(parts, before []part, fp part, t *cmdmodel.Tree, destDynamic, afterLink bool) []part {
	unknown := func() []part {
		u := fp
		u.members = true
		return append(parts, u)
	}
	disk := e.cfg.Disk
	if destDynamic || t.From.Dynamic || t.From.Text == "" || !filepath.IsAbs(fp.dir) || e.cfg.Guard == nil || disk == nil {
		return unknown()
	}
	src := e.check(fp.dir, t.From.Text)
	if src.Real == "" {
		return unknown()
	}
	var rels []string
	for i := range before {
		q := &before[i]
		if q.access != cmdmodel.Write || q.cmd != nil || q.path == "" {
			continue
		}
		if q.dynamic && !q.literal {
			if e.dynamicBelow(q, src.Real) {
				return unknown()
			}
			continue
		}
		qr := e.check(q.dir, q.path).Real
		if rel, ok := belowDir(src.Real, qr); ok {
			rels = append(rels, rel)
		} else if afterLink && (qr == src.Real || qr == "" || strings.HasPrefix(src.Real, qr+string(filepath.Separator))) {
			return unknown()
		}
	}
	fi, err := disk.Stat(src.Real)
	switch {
	case err != nil && !os.IsNotExist(err):
		return unknown()
	case err == nil && fi.IsDir():
		walked, ok := walkTree(disk, src.Real, t.Follow)
		if !ok {
			return unknown()
		}
		rels = append(rels, walked...)
	}
	for _, rel := range rels {
		m := fp
		m.path = strings.TrimSuffix(fp.path, "/") + "/" + rel
		m.subject = m.path
		m.literal = true
		parts = append(parts, m)
	}
	return parts
}

// dynamicBelow: a dynamic write before the command may land below dir
// (its static directory is dir or below it, or it has none).
func (e *evaluation) dynamicBelow(q *part, dir string) bool {
	if q.guess {
		return false
	}
	for _, t := range e.pathForms(q, q.path) {
		d, known := staticDir(t, q.literal)
		if !known || !filepath.IsAbs(d) && q.inDynamicDir() || !filepath.IsAbs(q.dir) {
			return true
		}
		r := e.check(q.dir, d)
		if r.Real == "" || r.Real == dir || strings.HasPrefix(r.Real, dir+string(filepath.Separator)) ||
			strings.HasPrefix(dir, r.Real+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// belowDir returns p relative to dir, slash-separated, when p lies
// strictly below dir.
func belowDir(dir, p string) (string, bool) {
	if p == "" || !strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator)) {
		return "", false
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// walkTree lists every entry below dir (relative, slash-separated), at
// most maxCopyEntries; ok is false when there are more or an entry cannot
// be read. With follow, a symlink to a directory is walked too, to the
// same bound (a loop ends there).
func walkTree(disk Disk, dir string, follow bool) (rels []string, ok bool) {
	var walk func(abs, rel string) bool
	walk = func(abs, rel string) bool {
		entries, err := disk.ReadDir(abs)
		if err != nil {
			return false
		}
		for _, de := range entries {
			r := de.Name()
			if rel != "" {
				r = rel + "/" + r
			}
			if len(rels) >= maxCopyEntries {
				return false
			}
			rels = append(rels, r)
			sub := filepath.Join(abs, de.Name())
			isDir := de.IsDir()
			if !isDir && follow && de.Type()&fs.ModeSymlink != 0 {
				if fi, err := disk.Stat(sub); err == nil && fi.IsDir() {
					isDir = true
				}
			}
			if isDir && !walk(sub, r) {
				return false
			}
		}
		return true
	}
	if !walk(dir, "") {
		return nil, false
	}
	return rels, true
}
