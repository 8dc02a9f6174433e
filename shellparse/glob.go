package shellparse

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// Pathname expansion as bash does it (bash(1) Pathname Expansion).
//
// A word whose only dynamic part is an unquoted `*`, `?` or `[...]` keeps
// its parsed form (Word.Glob), so that the names it expands to can be
// worked out against the disk: with mvdan.cc/sh/v3/expand, which follows
// bash's rules (a leading `.` of a name is matched only by a literal `.`
// unless dotglob is set, per path component; `**` crosses directories only
// with globstar; a pattern that matches nothing stays as it is written, or
// disappears under nullglob). Which of those options hold is shell state:
// GlobState says what is known of them when a command runs.
// TestGlobAgainstBash checks the expansion against the real bash.

// GlobOpt is a set of bash's options that change pathname expansion.
type GlobOpt uint8

const (
	// DotGlob: `*` and `?` match a leading `.` (shopt dotglob; a
	// non-empty GLOBIGNORE sets it too).
	DotGlob GlobOpt = 1 << iota
	// NullGlob: a pattern that matches nothing expands to nothing.
	NullGlob
	// FailGlob: a pattern that matches nothing is an error and the
	// command does not run.
	FailGlob
	// NoCaseGlob: matching ignores case.
	NoCaseGlob
	// GlobStar: `**` as a whole component matches any depth.
	GlobStar
	// NoGlob: no pathname expansion at all (set -f).
	NoGlob

	// globAll are the options a script can change that matter here.
	globAll = DotGlob | NullGlob | FailGlob | NoCaseGlob | GlobStar | NoGlob
)

// GlobState is what is known of the glob options when a command runs.
// Known holds the options whose value is certain; On holds the value of
// each option: for a known one the value, for an unknown one the value it
// is expected to have (bash's default, or the last value the script set).
// The zero value knows nothing and expects bash's defaults: the state of
// an agent's shell, whose rc files may set any option.
type GlobState struct {
	Known, On GlobOpt
}

// BashDefaults is the state of a bash that gatekeep starts itself with no
// option set in its environment: every option known and off.
var BashDefaults = GlobState{Known: globAll}

// GlobStateFromEnv is the state of a non-interactive bash started with the
// environment getenv reads (bash(1) BASHOPTS, SHELLOPTS, GLOBIGNORE): bash
// turns on the shopt options BASHOPTS lists and the set options SHELLOPTS
// lists before it reads anything, and a non-empty GLOBIGNORE sets dotglob
// (the names it leaves out only make the expansion smaller).
func GlobStateFromEnv(getenv func(string) string) GlobState {
	st := BashDefaults
	for _, o := range strings.Split(getenv("BASHOPTS"), ":") {
		st.On |= shoptBit(o)
	}
	for _, o := range strings.Split(getenv("SHELLOPTS"), ":") {
		if o == "noglob" {
			st.On |= NoGlob
		}
	}
	if getenv("GLOBIGNORE") != "" {
		st.On |= DotGlob
	}
	return st
}

// shoptBit is the option a shopt name stands for, or 0.
func shoptBit(name string) GlobOpt {
	switch name {
	case "dotglob":
		return DotGlob
	case "nullglob":
		return NullGlob
	case "failglob":
		return FailGlob
	case "nocaseglob":
		return NoCaseGlob
	case "globstar":
		return GlobStar
	}
	return 0
}

// unknown is s with the options of o no longer known; expect are the
// values expected for them now.
func (s GlobState) unknown(o, expect GlobOpt) GlobState {
	return GlobState{Known: s.Known &^ o, On: s.On&^o | expect&o}
}

// Configs lists every combination of the glob options the state allows,
// the expected one first. relevant limits the options that are varied:
// the others keep their expected value.
func (s GlobState) Configs(relevant GlobOpt) []GlobOpt {
	out := []GlobOpt{s.On}
	vary := relevant &^ s.Known & globAll
	for bit := GlobOpt(1); bit != 0 && bit <= globAll; bit <<= 1 {
		if vary&bit == 0 {
			continue
		}
		for _, c := range out {
			out = append(out, c^bit)
		}
	}
	return out
}

// globChange is what a command that runs in the shell does to the glob
// options: which it sets (to the value in on), and all of them when what
// it runs cannot be seen (eval of unknown text, source, a dynamic name).
func globChange(c *Command) (changed, on GlobOpt) {
	if len(c.Args) == 0 {
		return 0, 0
	}
	if c.Args[0].Dynamic {
		return globAll, 0
	}
	switch c.Args[0].Text {
	case "eval":
		if c.HasDynamic(1) {
			return globAll, 0 // literal code is walked as commands of its own
		}
	case ".", "source":
		return globAll, 0
	case "shopt":
		set, opt := byte(0), false
		var names []string
		for _, w := range c.Args[1:] {
			switch {
			case w.Dynamic:
				return globAll, 0
			case strings.HasPrefix(w.Text, "-") && len(w.Text) > 1 && len(names) == 0:
				for _, f := range w.Text[1:] {
					switch f {
					case 's', 'u':
						set = byte(f)
					case 'o':
						opt = true
					}
				}
			default:
				names = append(names, w.Text)
			}
		}
		if set == 0 {
			return 0, 0 // prints or tests the options
		}
		for _, n := range names {
			b := shoptBit(n)
			if opt {
				b = 0
				if n == "noglob" {
					b = NoGlob
				}
			}
			changed |= b
			if set == 's' {
				on |= b
			}
		}
		return changed, on
	case "set":
		noglob := func(set bool) {
			changed |= NoGlob
			on = on&^NoGlob | boolOpt(set, NoGlob)
		}
		for i := 1; i < len(c.Args); i++ {
			w := c.Args[i]
			t := w.Text
			switch {
			case w.Dynamic:
				return globAll, 0
			case t == "--" || t == "-":
				return changed, on
			case (t == "-o" || t == "+o") && i+1 < len(c.Args):
				i++
				if c.Args[i].Dynamic {
					return globAll, 0
				}
				if c.Args[i].Text == "noglob" {
					noglob(t[0] == '-')
				}
			case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
				if strings.ContainsRune(t[1:], 'f') {
					noglob(t[0] == '-')
				}
				if strings.ContainsRune(t[1:], 'o') && i+1 < len(c.Args) {
					// `set -euo noglob`: the o takes the next word.
					i++
					if c.Args[i].Dynamic {
						return globAll, 0
					}
					if c.Args[i].Text == "noglob" {
						noglob(t[0] == '-')
					}
				}
			default:
				return changed, on // positional parameters follow
			}
		}
		return changed, on
	}
	return 0, 0
}

func boolOpt(b bool, o GlobOpt) GlobOpt {
	if b {
		return o
	}
	return 0
}

// noteGlobChange applies what the command at idx does to the glob
// options to the commands after it. An option a command changes is no
// longer known, whether the command surely ran or not; its expected value
// is the one set.
func (p *parser) noteGlobChange(idx int) {
	changed, on := globChange(&p.cmds[idx])
	if changed == 0 {
		return
	}
	p.glob = p.glob.unknown(changed, on)
	p.globChanged |= changed
	p.globChangers = append(p.globChangers, idx)
}

// settleGlob makes the options a command changes unknown in the spans it
// can come before out of the script's order (links.go's spans): the rest
// of a loop, a background job, a function body.
func (p *parser) settleGlob() {
	p.forSpansHit(p.globChangers, func(i int) {
		p.cmds[i].Glob = p.cmds[i].Glob.unknown(p.globChanged, p.cmds[i].Glob.On)
	})
}

// globWord returns the word to expand for w when its only dynamic part is
// pathname expansion, else nil: every part a literal or quoted text, with
// a leading `~` already resolved to home (put back as quoted text).
func globWord(w *syntax.Word, home string, tilde bool) *syntax.Word {
	for i, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			if strings.Contains(part.Value, "\\\n") {
				return nil
			}
		case *syntax.SglQuoted:
			if part.Dollar {
				return nil
			}
		case *syntax.DblQuoted:
			if part.Dollar {
				return nil
			}
			for _, dp := range part.Parts {
				if _, ok := dp.(*syntax.Lit); !ok {
					return nil
				}
			}
		default:
			return nil
		}
		if i == 0 && tilde {
			lit := part.(*syntax.Lit)
			parts := append([]syntax.WordPart{&syntax.SglQuoted{Value: home}, &syntax.Lit{Value: lit.Value[1:]}}, w.Parts[1:]...)
			return &syntax.Word{Parts: parts}
		}
	}
	return w
}

// ErrGlobTooLarge is returned by Expand when an expansion reads more
// directory entries than it may.
var ErrGlobTooLarge = errors.New("the pattern matches too many names to check")

// MaxGlobEntries bounds the directory entries one expansion reads.
const MaxGlobEntries = 20000

// ErrGlobDots is returned by Expand for a pattern with a component that
// can match `.` or `..`: bash before 5.2, or with globskipdots off,
// expands `.*` to them, and gatekeep does not know which bash runs.
var ErrGlobDots = errors.New("the pattern can match . or .., which depends on the bash version")

// Expand returns the words a glob word of s (Word.Glob) expands to in dir (an
// absolute directory) under the options on, as bash would: the names that
// match, sorted bytewise; the word as written (quotes removed) when none
// matches; nothing under NullGlob then. readDir reads a directory (nil:
// os.ReadDir). It fails when the word is no glob word, the expansion reads
// more than MaxGlobEntries entries, a directory cannot be read, or a
// component can match `.` or `..`.
func (s *Script) Expand(w Word, dir string, on GlobOpt, readDir func(string) ([]fs.DirEntry, error)) ([]string, error) {
	if w.Shell <= 0 || int(w.Shell) > len(s.globs) {
		return nil, errors.New("not a glob word of this script")
	}
	node := s.globs[w.Shell-1]
	if !path.IsAbs(dir) {
		return nil, errors.New("no absolute directory to expand in")
	}
	cfg := &expand.Config{Env: expand.ListEnviron("PWD=" + dir)}
	if on&NoGlob == 0 {
		pat, err := expand.Pattern(cfg, node)
		if err != nil {
			return nil, err
		}
		if dotsMatch(pat) {
			return nil, ErrGlobDots
		}
		if readDir == nil {
			readDir = os.ReadDir
		}
		n := 0
		cfg.ReadDir2 = func(d string) ([]fs.DirEntry, error) {
			es, err := readDir(d)
			if n += len(es) + 1; n > MaxGlobEntries {
				return nil, ErrGlobTooLarge
			}
			return es, err
		}
		cfg.DotGlob, cfg.NullGlob, cfg.NoCaseGlob, cfg.GlobStar = on&DotGlob != 0, on&NullGlob != 0, on&NoCaseGlob != 0, on&GlobStar != 0
		out, err := expand.Fields(cfg, node)
		if err != nil || on&DotGlob != 0 {
			return out, err
		}
		return dropHidden(out, strings.Split(pat, "/"), w.Text, on), nil
	}
	return expand.Fields(cfg, node)
}

// dropHidden removes the names whose component starts with `.` where the
// pattern's component does not start with a literal `.`: bash matches a
// leading dot only explicitly (without dotglob), while expand lets `?` and
// `[.]` match it. With nothing left, the word stays as written (nothing
// under nullglob). Components are paired from the start up to a `**`
// under globstar and from the end after it; expand's `**` itself skips
// hidden names.
func dropHidden(names, pat []string, literal string, on GlobOpt) []string {
	first, last := len(pat), -1
	if on&GlobStar != 0 {
		for i, c := range pat {
			if c == "**" {
				first, last = min(first, i), i
			}
		}
	}
	explicit := func(c string) bool { return strings.HasPrefix(c, ".") || strings.HasPrefix(c, `\.`) }
	var out []string
	for _, n := range names {
		if n == literal {
			out = append(out, n)
			continue
		}
		comps := strings.Split(n, "/")
		keep := true
		for i, c := range comps {
			var pc string
			switch {
			case i < first && i < len(pat):
				pc = pat[i]
			case last >= 0 && len(comps)-i <= len(pat)-1-last:
				pc = pat[len(pat)-(len(comps)-i)]
			default:
				continue
			}
			if strings.HasPrefix(c, ".") && !explicit(pc) {
				keep = false
			}
		}
		if keep {
			out = append(out, n)
		}
	}
	if len(out) == 0 && len(names) > 0 && on&NullGlob == 0 {
		return []string{literal}
	}
	return out
}

// dotsMatch reports a component of the escaped pattern pat that matches
// `.` or `..`.
func dotsMatch(pat string) bool {
	for _, comp := range strings.Split(pat, "/") {
		if !pattern.HasMeta(comp, 0) {
			continue
		}
		rx, err := pattern.Regexp(comp, pattern.Filenames|pattern.EntireString)
		if err != nil {
			return true
		}
		re, err := regexp.Compile(rx)
		if err != nil || re.MatchString(".") || re.MatchString("..") {
			return true
		}
	}
	return false
}

// HasGlobStar reports a glob word with a `**` component, which globstar
// changes.
func HasGlobStar(w Word) bool {
	return w.Shell > 0 && strings.Contains(w.Text, "**")
}
