package policy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// A file rule sees every spelling of a path that the danger and sandbox
// layers see, so that a secret a deny rule names cannot be read under a
// spelling the rule was never matched against: the forms pathForms gives a path only known at
// run time (the script's literal values, for lists, arrays and read from
// a here-string among them, $PWD and ~+, brace lists) and the paths find
// selects for the `{}` of its -exec, -execdir, -ok and -okdir commands.
// Each is a file a deny or ask rule is matched against (subject.expanded);
// no allow rule matches a dynamic path.

// spelledFiles adds to s.expanded the files the spellings of the dynamic
// path of p name now: a static form made absolute, a glob form as it
// matches on disk. A form that still holds an expansion is left to
// runtimeName.
func (e *evaluation) spelledFiles(p *part, s *subject, kind ruleKind) {
	if p.script == nil {
		return
	}
	add := func(abs, real string) {
		if e.ruledAlone(kind, abs) || real != "" && real != abs && e.ruledAlone(kind, real) {
			s.expanded = append(s.expanded, [2]string{abs, real})
		}
	}
	forms := e.pathForms(p, p.path)
	forms = append(forms, e.findExecForms(p)...)
	for _, t := range forms {
		if strings.ContainsAny(t, "$`") || strings.Contains(t, "<(") || t == p.path && !strings.Contains(t, "{") {
			continue // (the path as written is matched on its own)
		}
		if rest, ok := strings.CutPrefix(t, "~/"); ok && e.cfg.Home != "" {
			t = filepath.Join(e.cfg.Home, rest)
		}
		if !filepath.IsAbs(t) && !filepath.IsAbs(p.dir) {
			continue
		}
		if !hasGlob(t) {
			add(e.resolveFile(p.dir, t))
			continue
		}
		matches, ok := e.globNames(p, t)
		if !ok {
			continue
		}
		for _, m := range matches {
			add(e.resolveFile(p.dir, m))
		}
	}
}

// ruledAlone reports whether a deny or ask rule decides the file path
// (absolute) when a call names it as it is: a spelling of
// `~/.ssh/known_hosts` meets the default exception for it, as the plain
// path does, rather than the deny of `~/.ssh/*` alone. (Its own
// evaluation: subjectOf's subject is p's.)
func (e *evaluation) ruledAlone(kind ruleKind, path string) bool {
	if path == "" {
		return false
	}
	tool, access, cat := ToolRead, cmdmodel.Read, CatRead
	if kind == kindWrite {
		tool, access, cat = ToolWrite, cmdmodel.Write, CatWrite
	}
	x := &evaluation{cfg: e.cfg, req: Request{Tool: tool, Path: path}, cwd: filepath.Dir(path)}
	q := &part{subject: path, category: cat, access: access, path: path, dir: x.cwd, tool: tool, offset: -1}
	return x.ruleVerdict(q, Deny, Ask).ok
}

// findExecForms are the texts the `{}` of p's word stands for when p's
// command is run by a find's -exec, -execdir, -ok or -okdir
// (cmdmodel.FindSelects): each path find selects on the disk now,
// and for each literal -name, that name below each start point (a file
// an earlier command may still create).
func (e *evaluation) findExecForms(p *part) []string {
	if !strings.Contains(p.word.Text, "{}") || p.index < 0 || p.index >= len(p.script.Commands) {
		return nil
	}
	c := &p.script.Commands[p.index]
	if c.Parent < 0 || c.Parent >= len(p.script.Commands) || len(c.Via) == 0 || !strings.HasPrefix(c.Via[len(c.Via)-1], "find -") {
		return nil
	}
	f := &p.script.Commands[c.Parent]
	fo, ok := cmdmodel.FindSelects(&f.Command)
	ok = ok && f.Unknown == "" // code not seen may be what find runs or prints
	if !ok || f.DirDynamic {
		return nil
	}
	dir, ok := commandDir(e.cwd, f.Dir)
	if !ok || !filepath.IsAbs(dir) {
		return nil
	}
	var paths []string
	for _, start := range fo.Starts {
		for _, n := range fo.Names {
			if !hasGlob(n.Pattern) && !strings.Contains(n.Pattern, "/") {
				paths = append(paths, filepath.Join(start, n.Pattern))
			}
		}
	}
	if e.cfg.Disk != nil {
		found, _ := findPaths(e.cfg.Disk, fo, dir, true)
		paths = append(paths, found...)
	}
	var out []string
	for _, path := range paths {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if t := strings.ReplaceAll(p.word.Text, "{}", path); !slices.Contains(out, t) && len(out) < maxGlobMatches {
			out = append(out, t)
		}
	}
	return out
}

// runtimeNameProbe stands for a name only known at run time when
// runtimeName asks the rules about the directory it is in.
const runtimeNameProbe = "gatekeep-run-time-name"

// runtimeName judges a read whose path is only known at run time but lies
// in a static directory (`cat ~/.ssh/$x`): when the rules deny reading a
// file of any name there, it is a final ask (CodeRuleDenyRuntimeName) that
// no mode turns into allow, since the name may be the secret's.
func (e *evaluation) runtimeName(p *part) verdict {
	if p.access != cmdmodel.Read || p.cmd != nil || !p.dynamic || p.guess || p.script == nil || e.cfg.Rules == nil {
		return verdict{}
	}
	for _, t := range e.pathForms(p, p.path) {
		if !strings.ContainsAny(t, "$`") {
			continue // known now, or a glob matched on the disk
		}
		if rest, ok := strings.CutPrefix(t, "~/"); ok && e.cfg.Home != "" {
			t = filepath.Join(e.cfg.Home, rest)
		}
		dir, known := staticDir(t, false)
		if !known {
			continue
		}
		if !filepath.IsAbs(dir) {
			if !filepath.IsAbs(p.dir) {
				continue
			}
			dir = filepath.Join(p.dir, dir)
		}
		probe := part{subject: p.subject, category: CatRead, access: cmdmodel.Read, path: filepath.Join(dir, runtimeNameProbe),
			dir: dir, tool: ToolRead, offset: p.offset}
		v := e.ruleVerdict(&probe, Deny)
		if !v.ok {
			continue
		}
		return verdict{ok: true, effect: Ask, final: true, code: CodeRuleDenyRuntimeName, rule: v.rule,
			message: fmt.Sprintf("%s reads a file only known at run time in %s, where %s; name the file in the command", p.path, dir, v.message)}
	}
	return verdict{}
}
