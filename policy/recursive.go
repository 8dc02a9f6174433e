package policy

import (
	"bufio"
	"errors"
	"fmt"
	"slices"

	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// A recursive read of a directory D (`grep -r x D`, `rg x D`, `diff -r
// D E`, cmdmodel.FileEffect.Recursive) is a read of every file below D.
// Read rules judge it by the files there on disk now: D's walk looks for
// files that a deny or ask Read rule decides (each file judged as a Read
// of its own would be: first layer with a matching rule, last matching
// rule in it), and the rules that decide them with the strictest effect
// then match the read of D. A tree holding none of them is judged as D
// alone, so `grep -rn foo .` in a project without secrets stays a plain
// read.
//
// The walk skips nothing the command reads: .git, node_modules and
// hidden files are walked, and only what the command's own options
// certainly leave out is skipped (cmdmodel.Filter: grep --exclude,
// rg's hidden files). A symlink below D is judged by where it points: one
// to a file as a read of its path and its target, one to a directory by
// walking the target too (grep -R, rg -L and diff follow them), each real
// directory once, so no link loop walks forever. A walk longer than
// maxTreeEntries, or a directory it cannot list, leaves the read unknown:
// when no decided file was found in what was walked, it asks (never
// allowed, not denied for lack of time).

// maxTreeEntries bounds the entries one recursive read's walk visits (a
// variable for tests).
var maxTreeEntries = 20000

// maxIgnoreFile bounds the size of an ignore file read for `!` lines.
const maxIgnoreFile = 1 << 20

// treeReport says, for the message, why a recursive read was matched.
type treeReport struct {
	via     string // the command that reads, "grep"
	dir     string // the directory as written
	found   string // a decided file, relative to dir, or ""
	cut     string // why the walk was cut short, or ""
	hidden  bool   // the command skips hidden files unless told otherwise (rg)
	dotFile bool   // found has a component starting with "."
}

// advice tells the model what the read covers and how to leave the file
// out.
func (t *treeReport) advice() string {
	if t.found == "" {
		return fmt.Sprintf("%s reads everything under %s, and %s; name the files to read, or a smaller directory", t.via, t.dir, t.cut)
	}
	what := fmt.Sprintf("%s reads everything under %s, including %s", t.via, t.dir, t.found)
	return cmdmodel.LeaveOutAdvice(t.via, what, t.found, t.dotFile, t.hidden)
}

// candidate is a deny or ask Read rule, which a file of the tree may
// meet.
type candidate struct {
	rule *Rule
	m    *fileMatcher
}

// treeCandidates are the rules a tree walk checks each file against:
// every active deny and ask Read rule, wherever it points (a symlink
// below the tree may lead anywhere), in the order of the layers. Built
// once per rule set; callers only read the list.
func (rs *RuleSet) treeCandidates() []candidate {
	if c := rs.treeCands.Load(); c != nil {
		return *c
	}
	var cands []candidate
	for _, layer := range rs.layers {
		for _, r := range layer {
			if m, ok := r.matcher().(*fileMatcher); ok && r.Active && m.kind == kindRead && r.Ref.Effect != Allow {
				cands = append(cands, candidate{rule: r, m: m})
			}
		}
	}
	cands = slices.Clip(cands)
	rs.treeCands.Store(&cands)
	return cands
}

// treeWalk is the state of one recursive read's walk.
type treeWalk struct {
	e       *evaluation
	filter  *cmdmodel.Filter
	cands   []candidate
	budget  int
	visited map[string]bool // real directories walked
	allow   []whitelist     // `!` lines of ignore files (filter.Hidden)
	above   map[string]bool // directories above a root whose ignore files were read
	hits    map[matcher]bool
	effect  Effect
	report  treeReport
	stop    bool
}

// dirItem is a directory or file of the walk: the path the command sees
// (through any symlink), its real location, its path below the tree's
// top, and how the message names the top.
type dirItem struct {
	walk, real, rel, show string
}

// walkTree judges a recursive read: it walks the directories at roots
// (each a path made absolute and its real location, slash-separated) and
// sets s.treeHits and s.tree when files below them are decided by deny or
// ask rules (see the comment at the top of this file). show is how the
// message names the one root ("" names each by its path).
func (e *evaluation) walkTree(p *part, s *subject, roots [][2]string, show string) {
	rs := e.cfg.Rules
	if rs == nil {
		return
	}
	w := &treeWalk{e: e, filter: p.tree.Filter, budget: maxTreeEntries, visited: map[string]bool{},
		report: treeReport{via: p.tree.Via, dir: p.path}}
	if w.filter != nil {
		w.report.hidden = w.filter.Hidden
	}
	w.cands = rs.treeCandidates()
	if len(w.cands) == 0 {
		return
	}
	disk := e.cfg.Disk
	if disk == nil {
		p.dynamic = true
		p.why = "it reads a whole tree, and the disk is not available to check its files against the rules"
		return
	}
	for _, root := range roots {
		if w.stop || root[0] == "" {
			continue
		}
		abs := filepath.FromSlash(root[0])
		real := filepath.FromSlash(root[1])
		if root[1] == "" {
			// The path does not resolve: a missing directory holds
			// nothing, one that cannot be resolved is not known.
			if _, err := disk.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			real = abs
		}
		top := dirItem{walk: abs, real: real, show: show}
		if show == "" {
			top.show = root[0]
		}
		fi, err := disk.Stat(real)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // nothing there to read (a dangling symlink reads nothing either)
		case err != nil:
			w.cutShort(fmt.Sprintf("%s cannot be listed", top.show))
			continue
		case !fi.IsDir():
			if show == "" {
				w.check(top, root[0], root[1]) // a file the glob named
			}
			continue // a file named alone is judged as itself
		}
		if w.filter != nil && w.filter.Hidden {
			w.ancestorIgnores(abs)
		}
		w.walk(top)
	}
	if w.report.found == "" && w.report.cut != "" {
		// Nothing decided was found, but not all of the tree was seen: the
		// read is not known well enough to allow, nor shown to reach a
		// denied file. It asks.
		p.dynamic = true
		p.why = w.report.advice()
		return
	}
	if len(w.hits) > 0 {
		s.treeHits = w.hits
		s.tree = &w.report
	}
}

// trackedFiles judges a read of what git tracks (`git show`, `git log -p`,
// `git diff`, `git grep` with no path named): every path in the index of
// the work tree holding the part's directory is judged as a read of that
// file, so a committed .env meets `deny Read(.env)` though the command
// names no file. Files committed once and deleted since are not in the
// index, and are not seen. An index that cannot be read leaves the read
// unknown: it asks.
func (e *evaluation) trackedFiles(p *part, s *subject) {
	rs := e.cfg.Rules
	if rs == nil || s.real == "" {
		return
	}
	w := &treeWalk{e: e, report: treeReport{via: cmdmodel.TrackedReader, dir: p.path}}
	w.cands = rs.treeCandidates()
	if len(w.cands) == 0 {
		return
	}
	disk := e.cfg.Disk
	if disk == nil {
		p.dynamic = true
		p.why = "git prints the files it tracks, and the disk is not available to check them against the rules"
		return
	}
	top := filepath.FromSlash(s.real)
	for {
		if fi, err := disk.Lstat(filepath.Join(top, ".git")); err == nil {
			if !fi.IsDir() {
				top = "" // a worktree or submodule: its index is elsewhere
			}
			break
		}
		if filepath.Dir(top) == top {
			return // not in a work tree: git prints nothing tracked
		}
		top = filepath.Dir(top)
	}
	var paths []string
	ok := false
	if top != "" {
		if _, err := disk.Stat(filepath.Join(top, ".git", "index")); errors.Is(err, fs.ErrNotExist) {
			return // nothing tracked yet
		}
		paths, ok = disk.TrackedPaths(filepath.Join(top, ".git"))
	}
	if !ok {
		p.dynamic = true
		p.why = "git prints the files it tracks, and its index cannot be read to check them against the rules"
		return
	}
	base := filepath.ToSlash(top) + "/"
	for _, rel := range paths {
		abs := base + rel
		lower := strings.ToLower(abs)
		for _, c := range w.cands {
			if c.m.all || c.m.matchFold(abs, lower) {
				w.check(dirItem{rel: rel, show: "."}, abs, abs)
				break
			}
		}
	}
	if len(w.hits) > 0 {
		s.treeHits = w.hits
		s.tree = &w.report
	}
}

// walk visits the tree breadth first until the budget runs out.
func (w *treeWalk) walk(top dirItem) {
	queue := []dirItem{top}
	for len(queue) > 0 && !w.stop {
		d := queue[0]
		queue = queue[1:]
		if w.visited[d.real] {
			continue
		}
		w.visited[d.real] = true
		entries, err := w.e.cfg.Disk.ReadDir(d.real)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				w.cutShort(fmt.Sprintf("%s cannot be listed", relName(d.show, d.rel)))
			}
			continue
		}
		if w.filter != nil && w.filter.Hidden {
			w.dirIgnores(d, entries)
		}
		for _, ent := range entries {
			if w.budget--; w.budget < 0 {
				w.cutShort(fmt.Sprintf("it holds more than %d entries to check", maxTreeEntries))
				w.stop = true
				return
			}
			name := ent.Name()
			item := dirItem{walk: filepath.Join(d.walk, name), real: filepath.Join(d.real, name), rel: path.Join(d.rel, name), show: d.show}
			target := item.real
			isDir := ent.IsDir()
			if ent.Type()&fs.ModeSymlink != 0 {
				if t, err := w.e.cfg.Disk.EvalSymlinks(item.real); err == nil {
					target = t
					if fi, err := w.e.cfg.Disk.Stat(t); err == nil && fi.IsDir() {
						isDir = true
					}
				}
			}
			if w.skipped(item, name, isDir) {
				continue
			}
			if isDir {
				queue = append(queue, dirItem{walk: item.walk, real: target, rel: item.rel, show: d.show})
				continue
			}
			w.check(item, filepath.ToSlash(item.walk), filepath.ToSlash(target))
		}
	}
}

// skipped reports whether the command certainly leaves the entry out.
func (w *treeWalk) skipped(item dirItem, name string, isDir bool) bool {
	f := w.filter
	if f == nil {
		return false
	}
	v := cmdmodel.EntryDefault
	if f.Entry != nil {
		v = f.Entry(item.rel, isDir)
	}
	switch {
	case v == cmdmodel.EntrySkip:
		return true
	case v == cmdmodel.EntryListed || !f.Hidden || !strings.HasPrefix(name, "."):
		return false
	}
	return !w.whitelisted(filepath.ToSlash(item.walk))
}

// check judges one file of the tree: abs is its path as the command
// sees it, real where it is (a symlink's target).
func (w *treeWalk) check(it dirItem, abs, real string) {
	hit := false
	// matchPath(p, true) for each candidate, p lowercased once (and real
	// not again when it is abs).
	labs, lreal := strings.ToLower(abs), ""
	if real != abs {
		lreal = strings.ToLower(real)
	}
	for _, c := range w.cands {
		if c.m.all || c.m.matchFold(abs, labs) || real != abs && c.m.matchFold(real, lreal) {
			hit = true
			break
		}
	}
	if !hit {
		return
	}
	r := w.e.cfg.Rules.decidingRule(&subject{kind: kindRead, abs: abs, real: real})
	if r == nil || r.Ref.Effect == Allow {
		return
	}
	w.record(r, it, "")
}

// record notes a rule that decides a file of the tree (it), or one that
// could match in a part not walked (why); only the rules of the
// strictest effect found are kept.
func (w *treeWalk) record(r *Rule, it dirItem, why string) {
	eff := r.Ref.Effect
	if w.hits == nil || stricter(eff, w.effect) {
		w.hits = map[matcher]bool{}
		w.effect = eff
		w.report.found, w.report.cut, w.report.dotFile = "", "", false
	} else if eff != w.effect {
		return
	}
	w.hits[r.matcher()] = true
	switch {
	case why == "" && w.report.found == "":
		w.report.found = relName(it.show, it.rel)
		for _, c := range strings.Split(it.rel, "/") {
			w.report.dotFile = w.report.dotFile || strings.HasPrefix(c, ".")
		}
	case why != "" && w.report.cut == "":
		w.report.cut = why
	}
}

// cutShort counts a part of the tree that was not walked as holding a
// file for every candidate rule: what it holds, and where its symlinks
// lead, is not known.
func (w *treeWalk) cutShort(why string) {
	for _, c := range w.cands {
		w.record(c.rule, dirItem{}, why)
	}
}

// relName shows a path below a tree's top for the message.
func relName(top, rel string) string {
	switch {
	case rel == "":
		return top
	case top == "." || top == "./":
		return rel
	}
	return strings.TrimSuffix(top, "/") + "/" + rel
}

// --- ignore files that bring hidden files back (ripgrep) ---

// whitelist is one `!PATTERN` line of an ignore file: it may bring back
// an entry the command would skip as hidden.
type whitelist struct {
	base     string // directory the file applies to, slash-separated; "" anywhere
	pat      string // lower case, without the "!" and the slashes around it
	anchored bool   // the pattern holds a "/" (it names a path below base)
	any      bool   // not understood: it may name anything
}

// whitelisted reports whether some `!` line may name the hidden entry at
// p (a path as the command sees it): a pattern without "/" by its base
// name, one with "/" by its path below the line's file (gitignore(5)).
// It errs toward yes: case is ignored, a pattern for directories only
// counts for files too, and any `!` line counts, whatever lines follow.
func (w *treeWalk) whitelisted(p string) bool {
	lp := strings.ToLower(p)
	for _, wl := range w.allow {
		rel := lp
		if wl.base != "" {
			b := strings.ToLower(strings.TrimSuffix(wl.base, "/")) + "/"
			if !strings.HasPrefix(lp, b) {
				continue
			}
			rel = lp[len(b):]
		}
		if wl.any || wl.anchored && wl.base == "" {
			return true
		}
		subject := strings.Trim(rel, "/")
		if !wl.anchored {
			subject = path.Base(subject)
		}
		if doublestar.MatchUnvalidated(wl.pat, subject) {
			return true
		}
	}
	return false
}

// ancestorIgnores reads the ignore files rg applies to the tree from
// above it: .gitignore, .ignore, .rgignore and .git/info/exclude in
// every directory up to the root, and the global git excludes file
// (core.excludesFile in ~/.gitconfig or ~/.config/git/config, else
// ~/.config/git/ignore; an $XDG_CONFIG_HOME elsewhere is not seen).
func (w *treeWalk) ancestorIgnores(dir string) {
	first := w.above == nil
	if first {
		w.above = map[string]bool{}
	}
	for d := filepath.Dir(dir); !w.above[d]; d = filepath.Dir(d) {
		w.above[d] = true
		for _, n := range []string{".gitignore", ".ignore", ".rgignore"} {
			w.readIgnore(filepath.Join(d, n), filepath.ToSlash(d))
		}
		w.gitExclude(d, filepath.ToSlash(d))
		if filepath.Dir(d) == d {
			break
		}
	}
	home := w.e.cfg.Home
	if home == "" || !first {
		return
	}
	global := filepath.Join(home, ".config", "git", "ignore")
	for _, cfg := range []string{filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config")} {
		if f := w.excludesFile(cfg, home); f != "" {
			global = f
		}
	}
	w.readIgnore(global, "")
}

// dirIgnores reads the ignore files of a directory being walked.
func (w *treeWalk) dirIgnores(d dirItem, entries []fs.DirEntry) {
	for _, ent := range entries {
		switch ent.Name() {
		case ".gitignore", ".ignore", ".rgignore":
			w.readIgnore(filepath.Join(d.real, ent.Name()), filepath.ToSlash(d.walk))
		case ".git":
			w.gitExclude(d.real, filepath.ToSlash(d.walk))
		}
	}
}

// gitExclude reads dir/.git/info/exclude, following a gitdir file
// (`gitdir: PATH`, a worktree or submodule) and its commondir; its lines
// apply below base (dir as the command sees it).
func (w *treeWalk) gitExclude(dir, base string) {
	gd := filepath.Join(dir, ".git")
	fi, err := w.e.cfg.Disk.Stat(gd)
	if err != nil {
		return
	}
	if !fi.IsDir() {
		b, err := w.readSmall(gd)
		if err != nil {
			w.allow = append(w.allow, whitelist{base: base, any: true})
			return
		}
		t, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return
		}
		gd = strings.TrimSpace(t)
		if !filepath.IsAbs(gd) {
			gd = filepath.Join(dir, gd)
		}
		if c, err := w.readSmall(filepath.Join(gd, "commondir")); err == nil {
			common := strings.TrimSpace(string(c))
			if !filepath.IsAbs(common) {
				common = filepath.Join(gd, common)
			}
			w.readIgnore(filepath.Join(common, "info", "exclude"), base)
		}
	}
	w.readIgnore(filepath.Join(gd, "info", "exclude"), base)
}

// readIgnore collects the `!` lines of an ignore file (gitignore(5)). A
// file that exists but cannot be read whole may say anything.
func (w *treeWalk) readIgnore(file, base string) {
	b, err := w.readSmall(file)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		return
	}
	if err != nil {
		w.allow = append(w.allow, whitelist{base: base, any: true})
		return
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(nil, maxIgnoreFile)
	for sc.Scan() {
		line := strings.TrimRight(strings.TrimSuffix(sc.Text(), "\r"), " \t")
		if !strings.HasPrefix(line, "!") {
			continue
		}
		pat := strings.TrimSuffix(line[1:], "/")
		wl := whitelist{base: base, anchored: strings.Contains(pat, "/"), pat: strings.ToLower(strings.TrimPrefix(pat, "/"))}
		if wl.pat == "" || !doublestar.ValidatePattern(wl.pat) {
			wl.any = true
		}
		w.allow = append(w.allow, wl)
	}
}

// readSmall reads a file of at most maxIgnoreFile bytes without blocking
// (OpenRegular): a directory is fs.ErrInvalid; a FIFO, a device or a larger
// file is another error, never a hang.
func (w *treeWalk) readSmall(name string) ([]byte, error) {
	b, err := w.e.cfg.Disk.ReadFile(name, maxIgnoreFile)
	if errors.Is(err, ErrNotRegular) {
		if fi, serr := w.e.cfg.Disk.Stat(name); serr == nil && fi.IsDir() {
			return nil, fs.ErrInvalid
		}
	}
	return b, err
}

// excludesFile returns core.excludesFile from a git config file, "" when
// it sets none. Only the plain `excludesfile = PATH` form is read, with
// `~/` expanded.
func (w *treeWalk) excludesFile(cfg, home string) string {
	b, err := w.readSmall(cfg)
	if err != nil {
		return ""
	}
	found := ""
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "excludesfile") {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"`)
		if rest, ok := strings.CutPrefix(v, "~/"); ok {
			v = filepath.Join(home, rest)
		}
		found = v
	}
	return found
}
