package policy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// factsFor returns the danger checks' facts about the part's script,
// worked out once per script.
func (e *evaluation) factsFor(s *shellparse.Script) *scriptFacts {
	if e.facts == nil || e.factsOf != s {
		e.facts, e.factsOf = newScriptFacts(s), s
	}
	return e.facts
}

// pathForms are the texts a path word can stand for, as far as the script
// tells: the word itself, with the literal values the script assigns to
// its variables, and with $PWD (and ${PWD}) as the directory it runs in;
// each with its brace lists expanded. At most maxValueForms*4 forms.
func (e *evaluation) pathForms(p *part, text string) []string {
	texts := []string{text}
	if p.script != nil {
		texts = append(texts, substitute(text, e.factsFor(p.script).vals)...)
	}
	if !p.inDynamicDir() {
		pwd := map[string][]string{"PWD": {p.dir}}
		for _, t := range texts {
			texts = append(texts, substitute(t, pwd)...)
		}
		// `~+` is $PWD (bash's tilde expansion); `~-` ($OLDPWD) stays
		// only known at run time.
		if rest, ok := strings.CutPrefix(text, "~+"); ok && (rest == "" || rest[0] == '/') && filepath.IsAbs(p.dir) {
			texts = append(texts, p.dir+rest)
		}
	}
	var out []string
	for _, t := range texts {
		for _, a := range expandBraces(t) {
			if !slices.Contains(out, a) && len(out) < maxValueForms*4 {
				out = append(out, a)
			}
		}
	}
	return out
}

// inDynamicDir: the command runs in a directory only known at run time.
func (p *part) inDynamicDir() bool {
	if p.script == nil || p.index < 0 || p.index >= len(p.script.Commands) {
		return false
	}
	return p.script.Commands[p.index].DirDynamic
}

// dynamicWrite judges a write whose target is only known at run time
// (a variable, a substitution, a glob): its static part still has to lie
// inside a root. Each form
// of the target (pathForms) is judged: a form that is static now is
// checked as it is; a pattern or a partly dynamic form by its longest
// literal directory prefix (`~/Documents/*` → ~/Documents, `/etc/*.conf`
// → /etc, `build/$X/o` → build), climbed once per `..` after it, and by
// what its glob matches on disk now. Outside: deny with the sandbox code.
// A target with no static directory (`"$T"`, `$(mktemp)`, a relative path
// after `cd "$D"`) asks with CodeSandboxRuntimeTarget; bypassPermissions lets
// that ask through. A word only guessed to be a target (FileEffect.Guess:
// `sed -n "/$a/p" f`) is left to the mode, which asks about it. A
// recursive delete of such a target (cmdmodel.DeletesTree) is a final ask
// with CodeSandboxRuntimeDelete: nothing turns it into allow, since
// `rm -rf "$(echo ~)"` deletes the home directory.
func (e *evaluation) dynamicWrite(p *part) verdict {
	if p.guess || isNetworkPath(p.path) {
		return verdict{}
	}
	g := e.cfg.Guard
	runtime := ""
	forms := e.pathForms(p, p.path)
	for i, t := range forms {
		dir, known := staticDir(t, p.literal)
		if !known || !filepath.IsAbs(dir) && p.inDynamicDir() {
			// The word as written, when the script gives its variables
			// values, is judged through those values.
			if i > 0 || len(forms) == 1 || !strings.Contains(t, "$") && !strings.HasPrefix(t, "~+") {
				runtime = t
			}
			continue
		}
		if g == nil {
			return verdict{ok: true, effect: Deny, code: pathguard.CodeOutside, message: "no sandbox root is set, so " + p.path + " cannot be written"}
		}
		r := e.check(p.dir, dir)
		if !r.Inside() {
			return outsideVerdict(g, p.path, dir, r)
		}
		if dir == t {
			if why := g.ProtectedWith(&e.memo, r.Real); why != "" {
				return verdict{ok: true, effect: Ask, code: pathguard.CodeProtected, message: why}
			}
			continue
		}
		if v := e.globMatchesOutside(p, t); v.ok {
			return v
		}
	}
	if runtime != "" && ModeEffect(e.cfg.Mode, CatWrite) != Deny {
		// (Plan mode denies the write outright.)
		if p.script != nil && p.index >= 0 && p.index < len(p.script.Commands) && cmdmodel.DeletesTree(p.script.Commands[p.index].Args) {
			return verdict{ok: true, effect: Ask, final: true, code: CodeSandboxRuntimeDelete,
				message: fmt.Sprintf("a recursive delete of %s, which is only known at run time (it may be the home directory or /), always needs approval; name the directory in the command", runtime)}
		}
		return verdict{ok: true, effect: Ask, code: CodeSandboxRuntimeTarget,
			message: fmt.Sprintf("where %s writes is only known at run time, so it needs approval; name the file in the command", runtime)}
	}
	return verdict{}
}

// outsideVerdict is the deny for a target whose static part dir is
// outside the roots.
func outsideVerdict(g *pathguard.Guard, target, dir string, r pathguard.Result) verdict {
	where := "writes inside " + dir
	if !hasGlob(dir) && !strings.ContainsAny(target, "*?[") && filepath.Base(dir) == filepath.Base(strings.TrimRight(target, "/")) {
		where = "can be " + dir
	}
	msg := fmt.Sprintf("%s %s, which is outside the sandbox roots (%s)", target, where, strings.Join(g.Roots(), ", "))
	if r.Code != pathguard.CodeOutside {
		msg = fmt.Sprintf("%s %s, which cannot be resolved safely: %v", target, where, r.Err)
	}
	return verdict{ok: true, effect: Deny, code: r.Code, message: msg}
}

// globMatchesOutside checks what a pattern target matches on disk now
// (at most maxGlobMatches names): a match that resolves outside the roots
// (a symlink in the directory) is denied like a static path.
func (e *evaluation) globMatchesOutside(p *part, t string) verdict {
	if strings.ContainsAny(t, "$`") || !hasGlob(t) {
		return verdict{}
	}
	pat := t
	if !filepath.IsAbs(pat) {
		if !filepath.IsAbs(p.dir) {
			return verdict{}
		}
		pat = filepath.Join(p.dir, pat)
	}
	// The pattern up to its first component with a glob, and the whole
	// pattern: a directory the glob matches may be a link out. The whole
	// pattern as the command's glob word has it when it is one (every
	// option the shell may have), the prefix as filepath.Glob takes it.
	pats := []string{t}
	if i := strings.IndexAny(pat, "*?["); i >= 0 {
		if j := strings.IndexByte(pat[i:], '/'); j >= 0 {
			pats = append(pats, pat[:i+j])
		}
	}
	n := 0
	for _, pt := range pats {
		matches, ok := e.globNames(p, pt)
		if !ok {
			continue
		}
		for _, m := range matches {
			if n++; n > maxGlobMatches {
				return verdict{}
			}
			if r := e.check(p.dir, m); !r.Inside() {
				return outsideVerdict(e.cfg.Guard, t, m, r)
			}
		}
	}
	return verdict{}
}

// staticDir returns the directory a target surely writes in: the whole
// target when it is static now (literal), else its longest literal
// directory prefix, climbed once for each `..` after it. known is false
// when the target has no static directory: it starts with an expansion
// (`$T`, `$(...)`, `~user`), or is a made-up path for operands only known
// at run time (`(operands from xargs)`).
func staticDir(t string, literal bool) (string, bool) {
	if literal || !stillDynamic(t) {
		if !literal && strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
			return "", false // cmdmodel.XargsOperands and its kin
		}
		return t, true
	}
	if strings.HasPrefix(t, "~") {
		return "", false // `~user`, or no home known
	}
	cut := max(strings.IndexAny(t, "$`*?[{"), 0)
	dir, rest := ".", t
	if slash := strings.LastIndexByte(t[:cut], '/'); slash >= 0 {
		dir, rest = t[:slash+1], t[slash+1:]
	} else if cut == 0 && strings.IndexByte("*?[", t[0]) < 0 {
		return "", false // `$T`, `$(...)`: it may name any directory
	}
	for _, c := range strings.Split(rest, "/") {
		if c == ".." {
			dir = filepath.Join(dir, "..")
		}
	}
	return filepath.Clean(dir), true
}

// rootDelete asks before a recursive delete (rm -r) of a sandbox root
// itself, of a directory holding one, or of a .git directory, in every
// mode (bypassPermissions lets the ask through): the roots are where the
// agent may write, not what it may throw away whole. `rm -rf .`,
// `rm -rf "$PWD"`, `rm -rf ../project`, `rm -rf .git` ask.
func (e *evaluation) rootDelete(p *part) verdict {
	c := p.cmd
	if len(c.Args) < 2 || c.Args[0].Dynamic || e.cfg.Guard == nil || ModeEffect(e.cfg.Mode, CatWrite) == Deny {
		return verdict{} // (plan mode denies it outright)
	}
	if !slices.Contains(cmdmodel.TreeRemovers, commandName(c)) {
		return verdict{}
	}
	recursive, ops := cmdmodel.RmOperands(c.Args[1:])
	if !recursive {
		return verdict{}
	}
	roots := e.cfg.Guard.Roots()
	for _, w := range ops {
		for _, t := range e.pathForms(p, w.Text) {
			if stillDynamic(t) || !filepath.IsAbs(t) && p.inDynamicDir() {
				continue
			}
			r := e.check(p.dir, t)
			if r.Real == "" {
				continue
			}
			if strings.EqualFold(filepath.Base(r.Real), ".git") {
				return verdict{ok: true, effect: Ask, code: CodeSandboxRootDelete,
					message: fmt.Sprintf("rm -r of %s deletes the repository's history (.git), which needs approval", w.Text)}
			}
			for _, root := range roots {
				if root == r.Real || strings.HasPrefix(root, strings.TrimSuffix(r.Real, string(filepath.Separator))+string(filepath.Separator)) {
					return verdict{ok: true, effect: Ask, code: CodeSandboxRootDelete,
						message: fmt.Sprintf("rm -r of %s deletes the sandbox root %s whole, which needs approval; remove what is inside it by name", w.Text, root)}
				}
			}
		}
	}
	return verdict{}
}
