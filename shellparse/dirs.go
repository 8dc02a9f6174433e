package shellparse

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
	"mvdan.cc/sh/v3/syntax"
)

// Directories as bash moves (bash(1) cd, SHELL GRAMMAR Lists).
//
// The walk keeps, for the shell it is in, the set of directories the shell
// may be in, and after each statement the set it may be in when that
// statement succeeded and when it failed. A `cd X` moves the shell only on
// success, so after `cd X && cmd` cmd runs in X (judged lexically, as bash's
// logical cd does, even when X does not exist yet), while after `cd X; cmd`
// it may run in X or where the shell was. A cd that is skipped (the other
// side of `&&`/`||`, a branch of `if`/`case`), runs elsewhere (`&`, a
// subshell, a pipeline stage) or repeats (a loop body) is followed the same
// way. A command then runs in every directory of the set, and its relative
// paths are judged in each, toward denial.

// maxDirs bounds a set of directories; past it the directory is unknown.
const maxDirs = 16

// maxDirLen bounds the text of one directory (Linux's PATH_MAX); a longer
// one is unknown, so a script of many `cd a` costs linear time.
const maxDirLen = 4096

// dirSet is where the shell may be: directories as the shell names them
// (logical, cleaned: relative to the directory the script starts in, ""
// for that one, or absolute), and whether it may be somewhere not known
// statically. The zero value is the empty set: no way to get here.
type dirSet struct {
	dirs    []string
	unknown bool
}

// startDirs is where a script starts.
var startDirs = dirSet{dirs: []string{""}}

func (s dirSet) empty() bool { return len(s.dirs) == 0 && !s.unknown }

func (s dirSet) has(d string) bool { return slices.Contains(s.dirs, d) }

// union is a set holding the directories of both, a's first. Neither
// argument is changed.
func union(a, b dirSet) dirSet {
	out := dirSet{unknown: a.unknown || b.unknown}
	if len(b.dirs) == 0 {
		out.dirs = a.dirs
		return out.bounded()
	}
	if len(a.dirs) == 0 {
		out.dirs = b.dirs
		return out.bounded()
	}
	if !slices.ContainsFunc(b.dirs, func(d string) bool { return !slices.Contains(a.dirs, d) }) {
		out.dirs = a.dirs // b adds nothing (most often the same one directory)
		return out.bounded()
	}
	out.dirs = append(make([]string, 0, len(a.dirs)+len(b.dirs)), a.dirs...)
	for _, d := range b.dirs {
		if !slices.Contains(out.dirs, d) {
			out.dirs = append(out.dirs, d)
		}
	}
	return out.bounded()
}

func (s dirSet) bounded() dirSet {
	if len(s.dirs) > maxDirs {
		return dirSet{dirs: s.dirs[:1:1], unknown: true}
	}
	return s
}

func (s dirSet) same(o dirSet) bool {
	if s.unknown != o.unknown || len(s.dirs) != len(o.dirs) {
		return false
	}
	for _, d := range s.dirs {
		if !o.has(d) {
			return false
		}
	}
	return true
}

// moved is where the shell is after a successful `cd target` from each
// directory of s; physical for `cd -P`.
//
// A logical cd whose `..` removes a component may land physically
// instead: bash's cd canonicalises the path lexically, and when that
// directory does not exist it tries chdir(2) on the path as written,
// which follows a link before the `..` (`cd /proc/self/cwd/../x`,
// `cd link/../.ssh`; bash's builtins/cd.def change_to_directory). Both
// directories are kept; the walk judges the command in each.
func (s dirSet) moved(target string, physical bool) dirSet {
	out := dirSet{unknown: s.unknown}
	add := func(n string) {
		if len(n) > maxDirLen || selfProc(n) {
			out.unknown = true
			return
		}
		if !slices.Contains(out.dirs, n) {
			out.dirs = append(out.dirs, n)
		}
	}
	for _, d := range s.dirs {
		if !physical {
			l := joinDir(d, target)
			add(l)
			if !upRemoves(d, target) || within(l, d) {
				continue // the logical directory exists: bash goes there
			}
		}
		// chdir follows the path as written, `..` after a link
		// included: nothing is cleaned before the disk is asked.
		n := d + "/" + target
		if strings.HasPrefix(target, "/") || d == "" {
			n = target
		}
		add(n + PhysicalMark)
	}
	return out.bounded()
}

// chdir is where a program that calls chdir(2) on target lands from each
// directory of s (`env -C`, `sudo -D`): the path as written, links
// before a `..` followed. Without such a `..` that is the logical
// directory (links are resolved when paths in it are judged).
func (s dirSet) chdir(target string) dirSet {
	out := dirSet{unknown: s.unknown}
	for _, d := range s.dirs {
		n := dirSet{dirs: []string{d}}.moved(target, upRemoves(d, target))
		out.unknown = out.unknown || n.unknown
		for _, x := range n.dirs {
			if !slices.Contains(out.dirs, x) {
				out.dirs = append(out.dirs, x)
			}
		}
	}
	return out.bounded()
}

// selfProc reports a directory through /proc/self, /proc/thread-self
// or /dev/fd (proc(5)): links that name the process looking them up, here
// the shell (its own directory, its descriptors), which the walk cannot
// resolve on the disk (gatekeep would see its own). It is unknown.
func selfProc(n string) bool {
	for _, pre := range []string{"/proc/self", "/proc/thread-self", "/dev/fd"} {
		if rest, ok := strings.CutPrefix(n, pre); ok && (rest == "" || rest[0] == '/' || rest[0] == PhysicalMark[0]) {
			return true
		}
	}
	return false
}

// within reports whether directory d is l or below it (l is then one of
// the directories the shell passed through to d, which exists).
func within(l, d string) bool {
	if strings.Contains(l, PhysicalMark) || strings.Contains(d, PhysicalMark) {
		return false
	}
	return l == "" && !strings.HasPrefix(d, "/") || l == d || strings.HasPrefix(d, l+"/") || l == "/" && strings.HasPrefix(d, "/")
}

// upRemoves reports whether `cd target` from d has a `..` that lexical
// canonicalisation resolves by dropping a component of the path (one
// that may be a link), rather than going above where the path starts.
func upRemoves(d, target string) bool {
	if !strings.Contains(target, "..") {
		return false
	}
	full := target
	if !strings.HasPrefix(target, "/") {
		if i := strings.LastIndex(d, PhysicalMark); i >= 0 {
			d = d[i+1:]
		}
		full = d + "/" + target
	}
	named := false
	for full != "" {
		var c string
		c, full, _ = strings.Cut(full, "/")
		switch c {
		case "", ".":
		case "..":
			if named {
				return true
			}
		default:
			named = true
		}
	}
	return false
}

// withUnknown is s, and somewhere unknown.
func (s dirSet) withUnknown() dirSet {
	return dirSet{dirs: s.dirs, unknown: true}
}

// PhysicalMark ends the part of a directory of Command.Dirs that bash
// resolved on the disk (`cd -P`, `set -P`): "up" + PhysicalMark + "/.."
// is the parent of where the link up leads. No path holds a NUL. See
// ResolveDir.
const PhysicalMark = "\x00"

// joinDir is the logical directory of `cd rel` from dir: bash canonicalises
// the new directory lexically (`..` removes the component before it), but
// never across a place cd -P resolved on the disk.
func joinDir(dir, rel string) string {
	if i := strings.LastIndex(dir, PhysicalMark); i >= 0 && !strings.HasPrefix(rel, "/") {
		head, tail := dir[:i+1], dir[i+1:]
		if tail == "" {
			tail = "."
		}
		return head + path.Clean(tail+"/"+rel)
	}
	if dir != "" && cleanName(rel) {
		return dir + "/" + rel // the common `cd name` from a clean dir
	}
	var n string
	if strings.HasPrefix(rel, "/") || dir == "" {
		n = path.Clean(rel)
	} else {
		n = path.Clean(dir + "/" + rel)
	}
	if n == "." {
		return ""
	}
	if strings.HasPrefix(rel, "//") && !strings.HasPrefix(rel, "///") {
		// POSIX leaves `//` implementation-defined and bash keeps it.
		return "/" + n
	}
	return n
}

// cleanName reports a relative path that path.Clean leaves as it is and
// that names no `.` or `..`: `src`, `a/b`.
func cleanName(rel string) bool {
	return rel != "" && rel[0] != '/' && rel[len(rel)-1] != '/' && !strings.Contains(rel, "//") &&
		rel != "." && rel != ".." && !strings.HasPrefix(rel, "./") && !strings.HasPrefix(rel, "../") &&
		!strings.Contains(rel, "/./") && !strings.Contains(rel, "/../") &&
		!strings.HasSuffix(rel, "/.") && !strings.HasSuffix(rel, "/..")
}

// here is where the shell may be now. In code that cannot be reached (after
// `exit`), it is where the shell last could be, so the code is still judged.
func (st *shellState) here() dirSet {
	u := union(st.ok, st.fail)
	if u.empty() {
		return st.live
	}
	return u
}

// setDirs puts the shell in s, whatever the last statement did.
func (st *shellState) setDirs(s dirSet) { st.ok, st.fail = s, s }

// enterStmt starts a statement: what the one before it did no longer matters
// but for where the shell may be.
func (p *parser) enterStmt() dirSet {
	d := p.state.here()
	p.state.live = d
	p.state.setDirs(d)
	return d
}

// afterCommand updates the shell state with what the command at idx changes
// for the commands after it: the directory (cd, pushd, popd, set -P, a call
// of a function that may change it) and where the shell goes when it fails
// or exits.
func (p *parser) afterCommand(idx int) {
	c := &p.cmds[idx]
	if len(c.Args) == 0 || c.Args[0].Dynamic || !p.sameShell(c) {
		return
	}
	d := p.state.here()
	switch name := c.Args[0].Text; name {
	case "cd", "pushd":
		ok := p.cd(c, d)
		p.state.ok, p.state.fail = ok, d
	case "popd":
		// The directory stack is not followed: popd changes the
		// directory unless -n (by the command model; a line it does not
		// understand may).
		if line, _ := cmdmodel.ReadLine(&c.Command, "popd"); !line.Understood() || !line.Has("n") {
			p.state.ok, p.state.fail = d.withUnknown(), d
		}
	case "exit":
		p.state.ok, p.state.fail = dirSet{}, dirSet{}
	case "return":
		// Outside a function bash refuses `return` and goes on.
		if p.inFunc > 0 {
			p.state.ok, p.state.fail = dirSet{}, dirSet{}
		}
	case "set":
		for i, a := range c.Args[1:] {
			if a.Dynamic || strings.HasPrefix(a.Text, "-") && !strings.HasPrefix(a.Text, "--") && strings.Contains(a.Text, "P") ||
				a.Text == "-o" && i+2 < len(c.Args) && (c.Args[i+2].Dynamic || c.Args[i+2].Text == "physical") {
				// Every cd after `set -P` is physical.
				p.state.physical = true
			}
		}
	default:
		if slices.Contains(p.dirFuncs, name) {
			// A function of the script that may change directory.
			p.state.ok, p.state.fail = d.withUnknown(), d.withUnknown()
		}
	}
}

// cd is where a successful `cd`/`pushd` of c leaves the shell from d.
func (p *parser) cd(c *Command, d dirSet) dirSet {
	name := c.Args[0].Text
	args := c.Args[1:]
	physical := p.state.physical
	for len(args) > 0 && !args[0].Dynamic && strings.HasPrefix(args[0].Text, "-") && args[0].Text != "-" {
		a := args[0].Text
		args = args[1:]
		if a == "--" {
			break
		}
		for _, f := range a[1:] {
			switch f {
			case 'P':
				physical = true
			case 'L':
				physical = false
			case 'n':
				if name == "pushd" {
					return d // only the stack changes
				}
			}
		}
	}
	if len(args) == 0 {
		if name == "pushd" || p.opt.Home == "" || p.homeAssigned || assigns(c, "HOME") {
			return d.withUnknown()
		}
		return d.moved(p.opt.Home, physical)
	}
	dir := args[0]
	if p.zsh() {
		switch {
		case len(args) > 1:
			return d.withUnknown() // `cd old new` replaces text in $PWD
		case !strings.HasPrefix(dir.Text, "/") && !dotted(dir.Text):
			// cdpath and CDABLE_VARS, from the user's configuration,
			// apply when ./X does not exist.
			return d.moved(dir.Text, physical).withUnknown()
		case slices.Contains(strings.Split(dir.Text, "/"), ".."):
			// CHASE_LINKS makes every cd physical.
			return d.withUnknown()
		}
	}
	switch {
	case dir.Dynamic || dir.Text == "-" || strings.HasPrefix(dir.Text, "+") && name == "pushd":
		return d.withUnknown()
	case !strings.HasPrefix(dir.Text, "/") && !dotted(dir.Text) &&
		(p.opt.CDPATH || slices.Contains(p.state.tainted, "CDPATH") || assigns(c, "CDPATH")):
		// CDPATH set by the script or in the environment: bash's cd
		// searches its directories before the working directory.
		return d.withUnknown()
	}
	return d.moved(dir.Text, physical)
}

// ResolveDir makes dir, one of Command.Dirs, absolute against cwd (itself
// absolute): the part before each PhysicalMark is resolved with real (the
// real location of an absolute path, symlinks followed), the rest joined
// lexically, as bash's cd -P and cd -L move. ok is false when real fails.
func ResolveDir(cwd, dir string, real func(string) (string, bool)) (string, bool) {
	parts := strings.Split(dir, PhysicalMark)
	cur := cwd
	for i, p := range parts {
		last := i == len(parts)-1
		switch {
		case last && path.IsAbs(p):
			cur = path.Clean(p)
		case last && p != "":
			cur = path.Join(cur, p)
		case path.IsAbs(p):
			cur = p
		case p != "":
			cur += "/" + p // as written: real follows `..` on the disk
		}
		if !last {
			r, ok := real(cur)
			if !ok {
				return "", false
			}
			cur = r
		}
	}
	return cur, true
}

// dotted reports a cd operand bash never looks up in CDPATH: `.`, `..`,
// or one starting with `./` or `../`.
func dotted(s string) bool {
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")
}

func assigns(c *Command, name string) bool {
	for _, a := range c.Assigns {
		if a.Name == name {
			return true
		}
	}
	return false
}

// andOr walks `x && y` and `x || y`: y runs only when x succeeded (&&) or
// failed (||). A list `a && b || c && d` is one left-nested tree to the
// parser, as deep as it is long; it is walked as the flat list it is, so
// its length never counts as nesting.
func (p *parser) andOr(c *syntax.BinaryCmd) {
	chain := []*syntax.BinaryCmd{c}
	for {
		x := chain[len(chain)-1].X
		b, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.AndStmt && b.Op != syntax.OrStmt || plainStmt(x) != nil {
			break
		}
		chain = append(chain, b)
		if len(chain) > MaxCommands {
			p.fail(CodeTooLarge, -1, fmt.Sprintf("script holds more than %d commands", MaxCommands))
			return
		}
	}
	p.stmt(chain[len(chain)-1].X)
	for i := len(chain) - 1; i >= 0; i-- {
		b := chain[i]
		okX, failX := p.state.ok, p.state.fail
		if b.Op == syntax.AndStmt {
			p.state.setDirs(okX)
			p.stmt(b.Y)
			p.state.fail = union(failX, p.state.fail)
			continue
		}
		p.state.setDirs(failX)
		p.stmt(b.Y)
		p.state.ok = union(okX, p.state.ok)
	}
}

// plainStmt returns nil for a statement that only wraps its command (no
// redirects, no `!`, not in the background or a coprocess), and s itself
// otherwise.
func plainStmt(s *syntax.Stmt) *syntax.Stmt {
	if len(s.Redirs) == 0 && !s.Negated && !s.Background && !s.Coprocess {
		return nil
	}
	return s
}

// ifClause walks `if`/`elif`/`else`: each branch starts where its condition
// left the shell; with no `else` the shell may go on from a failed
// condition.
func (p *parser) ifClause(ic *syntax.IfClause) {
	if !ic.ThenPos.IsValid() {
		p.stmts(ic.Then) // else
		return
	}
	p.stmts(ic.Cond)
	okC, failC := p.state.ok, p.state.fail
	p.state.setDirs(okC)
	p.stmts(ic.Then)
	okT, failT := p.state.ok, p.state.fail
	okE, failE := failC, dirSet{}
	if ic.Else != nil {
		p.state.setDirs(failC)
		p.ifClause(ic.Else)
		okE, failE = p.state.ok, p.state.fail
	}
	p.state.ok, p.state.fail = union(okT, okE), union(failT, failE)
}

// repeated walks a loop's code, which may run any number of times, from d:
// when one pass can leave the shell elsewhere, every pass after the first
// starts somewhere else, so the directory of the commands in the loop and
// after it is unknown.
//
// fn returns the sets the shell passed through that the end of the walk
// does not show (where a loop's condition left it).
func (p *parser) repeated(d dirSet, fn func() []dirSet) {
	start := len(p.cmds)
	var seen []dirSet
	p.loop(func() { seen = fn() })
	all := union(d, p.state.here())
	for _, s := range seen {
		all = union(all, s)
	}
	if !all.same(d) {
		for i := start; i < len(p.cmds); i++ {
			p.cmds[i].DirDynamic = true
		}
		p.state.setDirs(all.withUnknown())
		return
	}
	p.state.setDirs(d)
}

// caseClause walks `case`: one item runs (from d), or none; `;&` and `;;&`
// go on into the next item from where the item left the shell.
func (p *parser) caseClause(c *syntax.CaseClause, d dirSet) {
	res := d
	var prev dirSet
	prevOp := syntax.Break
	for _, item := range c.Items {
		for _, pat := range item.Patterns {
			p.nested(pat, p.parent)
		}
		entry := d
		if prevOp != syntax.Break {
			entry = union(d, prev)
		}
		p.state.setDirs(entry)
		p.stmts(item.Stmts)
		prev = p.state.here()
		prevOp = item.Op
		res = union(res, prev)
	}
	p.state.setDirs(res)
}

// noteDirFuncs records the functions defined in a file (funcs, in the
// order checkTree met them) whose body may change
// the directory of the shell that calls them: one that runs cd, pushd,
// popd, set, eval, source, `.`, builtin, command, a command whose name is
// not a plain word, or any function of f. A call of one makes the
// directory unknown.
func (p *parser) noteDirFuncs(funcs []*syntax.FuncDecl) {
	// The map is made only when there is a function: most scripts define
	// none.
	if len(funcs) == 0 {
		return
	}
	names := map[string]bool{}
	for _, fd := range funcs {
		if fd.Name != nil {
			names[fd.Name.Value] = true
		}
		for _, n := range fd.Names {
			names[n.Value] = true
		}
	}
	for _, fd := range funcs {
		moves := false
		syntax.Walk(fd.Body, func(n syntax.Node) bool {
			if call, ok := n.(*syntax.CallExpr); ok && len(call.Args) > 0 {
				name := call.Args[0].Lit()
				switch name {
				case "", "cd", "pushd", "popd", "set", "eval", "source", ".", "builtin", "command":
					moves = true
				}
				if names[name] {
					moves = true
				}
			}
			return !moves
		})
		if !moves {
			continue
		}
		if fd.Name != nil && !slices.Contains(p.dirFuncs, fd.Name.Value) {
			p.dirFuncs = append(p.dirFuncs, fd.Name.Value)
		}
		for _, n := range fd.Names {
			if !slices.Contains(p.dirFuncs, n.Value) {
				p.dirFuncs = append(p.dirFuncs, n.Value)
			}
		}
	}
}
