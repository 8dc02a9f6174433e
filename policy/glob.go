package policy

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// Globs as bash expands them, so that a glob is judged by the files it
// names on disk rather than as a word only known at run time.
//
// A command whose only dynamic words are glob words (shellparse.Word.Glob)
// is expanded against the disk in every directory it may run in, under
// every combination of the glob options its shell may have
// (shellparse.Command.Glob: known in `gatekeep bash -c`, unknown in an
// agent's shell, whose rc files may set dotglob). Each combination gives
// one argv, an alternative. The safe layer allows the command only when
// every alternative is safe; the files each alternative reads and writes
// are parts of their own. An alternative that needs an option other than
// the expected one (bash's default, or what the script set) is "maybe":
// a deny rule that matches only there asks instead
// (CodeRuleDenyShellOption), while a deny in the expected alternative
// stays a deny. A command that cannot be expanded (a directory only known
// at run time, a link made earlier, too many names, a component that can
// match `.` or `..`) is judged as before: its glob words are dynamic.

// globAlt is one alternative of a command with glob words.
type globAlt struct {
	cmd   *shellparse.Command
	dir   string   // the absolute directory it runs in
	maybe bool     // needs a glob option other than the expected one
	spans [][2]int // the names of each glob word: [start, end) in cmd.Args
	words []string // each glob word as written, quotes removed
}

// maxGlobNames bounds the names of all alternatives of one command.
const maxGlobNames = 1024

// globAlts returns the alternatives of c, or ok false when c has no glob
// word or cannot be expanded.
func (e *evaluation) globAlts(s *shellparse.Script, c *shellparse.Command) ([]globAlt, bool) {
	if len(c.Args) < 1 || c.Args[0].Dynamic || c.Unknown != "" || c.DirDynamic || c.AfterLink || e.cfg.Disk == nil {
		return nil, false
	}
	if e.createsFiles(s, c) {
		return nil, false
	}
	var feed []string
	words, trailing := c.Args, c.TrailingArgs
	if paths, ok := e.findExecPaths(s, c); ok {
		// find's `{}`: the paths it passes stand in its place, as the
		// paths xargs appends do.
		feed, words, trailing = paths, c.Args[:len(c.Args)-1], true
	} else if c.TrailingArgs {
		paths, ok := e.feedPaths(s, c)
		if !ok {
			return nil, false
		}
		feed = paths
	}
	var relevant shellparse.GlobOpt = shellparse.DotGlob | shellparse.NullGlob | shellparse.NoCaseGlob | shellparse.NoGlob
	globs := 0
	var tracked map[int][]string // words that are `$(git ls-files)`: the names they become
	for k, w := range words[1:] {
		if names, ok := e.lsFilesNames(s, c, k+1); ok {
			if tracked == nil {
				tracked = map[int][]string{}
			}
			tracked[k+1] = names
			globs++
			continue
		}
		switch {
		case shellparse.IsGlob(w):
			globs++
			if shellparse.HasGlobStar(w) {
				relevant |= shellparse.GlobStar
			}
		case shellparse.IsLoopVar(w):
			items, dir, ok := s.LoopItems(w)
			if !ok || len(c.OtherDirs) > 0 || dir != c.Dir {
				return nil, false // the loop's words were expanded elsewhere
			}
			globs++
			for _, it := range items {
				if shellparse.HasGlobStar(it) {
					relevant |= shellparse.GlobStar
				}
			}
		case w.Dynamic:
			return nil, false
		}
	}
	if globs == 0 && !trailing {
		return nil, false
	}
	if tracked != nil || slices.ContainsFunc(words, shellparse.IsLoopVar) {
		// A loop's variable and `$(git ls-files)` are followed for
		// reading: a command that writes keeps its run-time target
		// (`for d in ~; do rm -rf "$d"; done` stays a run-time delete).
		if effects, _ := shellparse.Effects(c); slices.ContainsFunc(effects, func(fe cmdmodel.FileEffect) bool {
			return fe.Access == cmdmodel.Write
		}) {
			return nil, false
		}
	}
	var dirs []string
	for _, d := range c.Dirs() {
		a, ok := commandDir(e.cwd, d)
		if !ok || !filepath.IsAbs(a) {
			return nil, false
		}
		dirs = append(dirs, a)
	}
	var alts []globAlt
	seen := map[string]bool{}
	names := 0
	for _, dir := range dirs {
		for i, on := range c.Glob.Configs(relevant) {
			// Each pass of a loop gives its variable one value: one
			// alternative for each choice of the loop words' values.
			vals, ok := e.loopValues(s, words, dir, on)
			if !ok {
				return nil, false
			}
			for _, choice := range vals {
				if names += len(choice); names > maxGlobNames {
					return nil, false
				}
			}
			for _, choice := range loopChoices(vals) {
				alt := globAlt{dir: dir, maybe: i > 0}
				args := make([]shellparse.Word, 0, len(words))
				var key strings.Builder
				key.WriteString(dir)
				loop := 0
				for k, w := range words {
					if names, ok := tracked[k]; ok {
						// A name starting with `-` is refused (globSafe):
						// the written word is "".
						start := len(args)
						for _, n := range names {
							args = append(args, shellparse.Word{Text: n, Offset: w.Offset})
							key.WriteString("\x00" + n)
						}
						key.WriteString("\x00\x01")
						alt.spans = append(alt.spans, [2]int{start, len(args)})
						alt.words = append(alt.words, "")
						continue
					}
					if shellparse.IsLoopVar(w) {
						// A name a glob gives that starts with `-` is refused
						// (globSafe): the written word is "".
						v := choice[loop]
						loop++
						alt.spans = append(alt.spans, [2]int{len(args), len(args) + 1})
						alt.words = append(alt.words, "")
						args = append(args, shellparse.Word{Text: v, Offset: w.Offset})
						key.WriteString("\x00" + v + "\x00\x01")
						continue
					}
					if !shellparse.IsGlob(w) {
						args = append(args, w)
						key.WriteString("\x00" + w.Text)
						continue
					}
					fields, err := s.Expand(w, dir, on, e.cfg.Disk.ReadDir)
					if err != nil {
						return nil, false
					}
					if names += len(fields); names > maxGlobNames {
						return nil, false
					}
					start := len(args)
					for _, f := range fields {
						args = append(args, shellparse.Word{Text: f, Offset: w.Offset})
						key.WriteString("\x00" + f)
					}
					key.WriteString("\x00\x01")
					alt.spans = append(alt.spans, [2]int{start, len(args)})
					alt.words = append(alt.words, w.Text)
				}
				if !trailing {
					if !seen[key.String()] {
						seen[key.String()] = true
						ac := *c
						ac.Args = args
						alt.cmd = &ac
						alts = append(alts, alt)
					}
					continue
				}
				// The paths xargs appends: all of them in one run, or the
				// first one or two (xargs -n, or a long list, runs the
				// command several times).
				for _, n := range []int{len(feed), 1, 2} {
					if n > len(feed) || n < len(feed) && seen[key.String()] {
						continue
					}
					a := alt
					a.spans = append(append([][2]int(nil), alt.spans...), [2]int{len(args), len(args) + n})
					a.words = append(append([]string(nil), alt.words...), "")
					ac := *c
					ac.Args = append(append([]shellparse.Word(nil), args...), feedWords(feed[:n], c)...)
					ac.TrailingArgs = false
					a.cmd = &ac
					alts = append(alts, a)
				}
				seen[key.String()] = true
			}
		}
	}
	return alts, true
}

// loopValues lists, for each loop word of words (shellparse.IsLoopVar)
// in order, the values its variable takes: each static word of the loop,
// and what each glob word of it expands to in dir under on.
func (e *evaluation) loopValues(s *shellparse.Script, words []shellparse.Word, dir string, on shellparse.GlobOpt) ([][]string, bool) {
	var out [][]string
	for _, w := range words {
		if !shellparse.IsLoopVar(w) {
			continue
		}
		items, _, _ := s.LoopItems(w)
		var vals []string
		for _, it := range items {
			if !shellparse.IsGlob(it) {
				vals = append(vals, it.Text)
				continue
			}
			fields, err := s.Expand(it, dir, on, e.cfg.Disk.ReadDir)
			if err != nil {
				return nil, false
			}
			vals = append(vals, fields...)
		}
		if len(vals) == 0 {
			return nil, false // the loop does not run: nothing to judge by
		}
		out = append(out, vals)
	}
	return out, true
}

// loopChoices is every way to pick one value of each list (one empty
// choice when there is none), at most maxGlobNames of them.
func loopChoices(vals [][]string) [][]string {
	out := [][]string{nil}
	for _, vs := range vals {
		var next [][]string
		for _, c := range out {
			for _, v := range vs {
				if len(next) >= maxGlobNames {
					return next
				}
				next = append(next, append(append([]string(nil), c...), v))
			}
		}
		out = next
	}
	return out
}

// createsFiles reports whether a command of s other than c may create,
// rename or remove files: what a glob matches (or what a find prints)
// when the script runs may then differ from what is on the disk now
// (`touch -- -o.envrc; sort *`). Such a command writes a file by its
// effects, is not seen (Unknown, a dynamic name, code on its standard
// input, a function of the script), or is neither in the effects table
// nor on the safe list (a program that may do anything). Wrappers are
// judged by what they run.
func (e *evaluation) createsFiles(s *shellparse.Script, c *shellparse.Command) bool {
	if s == nil {
		return true
	}
	if e.creatorsOf != s {
		e.creatorsOf, e.creators = s, nil
		for i := range s.Commands {
			if mayCreate(&s.Commands[i]) {
				e.creators = append(e.creators, i)
			}
		}
	}
	for _, i := range e.creators {
		if &s.Commands[i] != c {
			return true
		}
	}
	return false
}

func mayCreate(o *shellparse.Command) bool {
	if o.IsWrapper() {
		return false
	}
	if o.Unknown != "" || o.StdinCode || o.UserFunc || len(o.Args) > 0 && o.Args[0].Dynamic {
		return true
	}
	effects, _ := shellparse.Effects(o)
	for _, fe := range effects {
		if fe.Access == cmdmodel.Write && !isDevSink(fe.Path.Text) {
			return true
		}
	}
	return len(o.Args) > 0 && !cmdmodel.HasEffectSpec(o.Name()) && !safeCommand(o) && !stateBuiltin(o)
}

// stateBuiltin: a bash builtin that changes only the shell's own state
// (options, variables, positional parameters), never a file (bash(1)
// SHELL BUILTIN COMMANDS).
func stateBuiltin(c *shellparse.Command) bool {
	switch c.Args[0].Text {
	case "shopt", "set", "export", "declare", "typeset", "local", "readonly", "unset", "shift":
		return true
	}
	return false
}

// feedWords are the paths xargs appends, as words at the end of c.
func feedWords(paths []string, c *shellparse.Command) []shellparse.Word {
	out := make([]shellparse.Word, len(paths))
	for i, p := range paths {
		out[i] = shellparse.Word{Text: p, Offset: c.End}
	}
	return out
}

// globSafe reports whether every alternative of a command is safe by
// safe: no name a glob matches starts with `-` (it would be read as an
// option; the word as written, when nothing matches, is judged as it
// is), and the verdict holds whatever order bash sorts the names in
// (the locale's): each rotation of a glob's names is judged too, so that
// each name is once the first and once the last.
func globSafe(alts []globAlt, safe func(c *shellparse.Command) bool) bool {
	for _, a := range alts {
		for i, sp := range a.spans {
			for _, w := range a.cmd.Args[sp[0]:sp[1]] {
				if strings.HasPrefix(w.Text, "-") && w.Text != a.words[i] {
					return false
				}
			}
		}
		if !safe(a.cmd) {
			return false
		}
		for _, sp := range a.spans {
			n := sp[1] - sp[0]
			for k := 1; k < n; k++ {
				rc := *a.cmd
				rc.Args = append([]shellparse.Word(nil), a.cmd.Args...)
				names := rc.Args[sp[0]:sp[1]]
				for j := range names {
					names[j] = a.cmd.Args[sp[0]+(j+k)%n]
				}
				if !safe(&rc) {
					return false
				}
			}
		}
	}
	return true
}

// globEffects are the files an alternative reads and writes. When some
// but not all names of one glob are files to the command (`grep *`: the
// first is the pattern), which ones depends on the order bash sorts them
// in, so each of its names counts as read.
func globEffects(a globAlt) []cmdmodel.FileEffect {
	effects, _ := shellparse.Effects(a.cmd)
	for _, sp := range a.spans {
		names := a.cmd.Args[sp[0]:sp[1]]
		var missing []shellparse.Word
		for _, w := range names {
			found := false
			for _, fe := range effects {
				found = found || fe.Path.Text == w.Text && fe.Path.Offset == w.Offset
			}
			if !found {
				missing = append(missing, w)
			}
		}
		if len(missing) > 0 && len(missing) < len(names) {
			for _, w := range missing {
				effects = append(effects, cmdmodel.FileEffect{Access: cmdmodel.Read, Path: w, Via: a.cmd.Name()})
			}
		}
	}
	return effects
}

// globNames are the names a dynamic path may stand for on disk now, for
// the checks that expand a pattern (deny rules on reads, writes through
// links): for a glob word, what bash gives under every combination of
// the options its shell may have (the union); for any other pattern, what
// filepath.Glob gives (which lets `*` match a leading dot, so it errs
// toward more names). At most maxGlobMatches names; ok is false when the
// word cannot be expanded.
func (e *evaluation) globNames(p *part, pat string) ([]string, bool) {
	if shellparse.IsGlob(p.word) && p.word.Text == p.path && pat == p.path && filepath.IsAbs(p.dir) {
		if out, ok := e.bashNames(p); ok {
			return out, true
		}
	}
	if !filepath.IsAbs(pat) {
		if !filepath.IsAbs(p.dir) {
			return nil, false
		}
		pat = filepath.Join(p.dir, pat)
	}
	matches, err := filepath.Glob(pat)
	if err != nil {
		return nil, false
	}
	if len(matches) > maxGlobMatches {
		matches = matches[:maxGlobMatches]
	}
	return matches, true
}

// bashNames is the union of what the part's glob word expands to in its
// directory under the options its command's shell may have, absolute.
func (e *evaluation) bashNames(p *part) ([]string, bool) {
	if p.script == nil || p.index < 0 || p.index >= len(p.script.Commands) {
		return nil, false
	}
	st := p.script.Commands[p.index].Glob
	var readDir func(string) ([]fs.DirEntry, error) // nil: the disk itself, toward more names
	if e.cfg.Disk != nil {
		readDir = e.cfg.Disk.ReadDir
	}
	var out []string
	for _, on := range st.Configs(shellparse.DotGlob | shellparse.NoCaseGlob | shellparse.GlobStar) {
		fields, err := p.script.Expand(p.word, p.dir, on&^(shellparse.NullGlob|shellparse.NoGlob), readDir)
		if err != nil {
			return nil, false
		}
		for _, f := range fields {
			if !filepath.IsAbs(f) {
				f = filepath.Join(p.dir, f)
			}
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
		if len(out) > maxGlobMatches {
			return out[:maxGlobMatches], true
		}
	}
	return out, true
}
