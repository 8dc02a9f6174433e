package cmdmodel

import (
	"slices"
	"strings"
)

// This file is the command model: how a command gatekeep knows reads its
// command line, as the real tool parses it. The readers of options go
// through it: file effects (effects.go), the shell reader's unwrapping of
// wrappers (LookupSpec, Cmdline), the safe layer (ReadOnly), the danger
// layer's readers (system.go, device_table.go, through ReadLine), rule
// matching (rulematch.go) and git's destroyers (ReadGitLine, GitGlobal). The entries are in effects_table.go
// (commands), git_table.go (git) and wrapper_table.go (wrappers). Three
// readers are not getopt's and stand beside it: find's expression
// (find.go), sed's program (sed.go), and DeletesTree, which reads rm,
// rsync and rmdir from any word of a command gatekeep does not know, by
// prefix and toward yes. The read-only forms of a few tools with their
// own grammar (ps, date, hostname, go, pip, npm) are read in
// safe_table.go.
//
// The parser follows glibc getopt_long(3): short options cluster (`-rf`),
// a short option's argument is the rest of the word or the next word, an
// optional argument (getopt's `::`) is only ever attached (`-i.bak`,
// `--in-place=.bak`); a long option may be abbreviated to a prefix that
// names only one option (options that are aliases of each other count as
// one); `--` ends the options; GNU tools permute (options after operands)
// unless the entry stops at the first operand (getopt's leading `+`).

// optKind is how an option uses its argument.
type optKind uint8

const (
	flag     optKind = iota // no argument
	plain                   // an argument that is no file (or that ops handles)
	readArg                 // a file the command reads
	writeArg                // a file the command writes
	optional                // an argument only when attached (`-i.bak`, `--backup=x`)
	pair                    // two arguments that are no files (jq --arg NAME VALUE)
	pairRead                // two arguments, the second a file read (jq --rawfile NAME FILE)
)

// Spec says how a command reads its command line and which of its words
// are files. Option names are space-separated short letters and long names
// without dashes; names joined by "|" are one option spelled several ways
// (`color|colour`), which getopt_long does not count as ambiguous.
type Spec struct {
	kind kind
	// Options by what their argument is.
	args, reads, writes, optional, pairs, pairReads string
	// flags lists options without an argument. In a complete entry it
	// lists all of them; otherwise only those ops looks at, and an option
	// not listed anywhere is taken as a flag.
	flags string
	// complete: every option of the tool is listed (cite the version), so
	// an option not listed, or an ambiguous abbreviation, is an error the
	// tool refuses: the command line is not understood (cmdline.err).
	complete bool
	// exact: long options must be spelled whole (no getopt_long
	// abbreviations: jq, busybox).
	exact bool
	// acts lists options that run a program or act beyond files
	// (sort --compress-program, rg --pre, date -s). With one present, or
	// with a dynamic word that could be one, the command is not writesOnly
	// and not read-only.
	acts string
	// chdir lists the options whose argument is the directory the
	// command (or, for a wrapper, the wrapped command) runs in.
	chdir string
	// respFiles: a word `@FILE` is replaced by the words in FILE (binutils'
	// response files, libiberty expandargv): what they say is not known.
	respFiles bool
	// obsolete recognizes a word that is an option in an obsolete form
	// (`head -5`, `nice -10`): i is its index in the command's words.
	obsolete func(t string, i int) bool
	// env lists the tool's own environment variables that change what it
	// runs or loads (MAKEFLAGS for make, GIT_* with a trailing "*" for a
	// prefix). Allow rules do not match a command with one assigned.
	env string
	// loose lists options whose argument differs in another
	// implementation or version the command may be (BSD `grep -C` and
	// `fmt -p` take none, newer `cp --update[=WHEN]` an attached one):
	// they are read as taking an attached argument only, so the next
	// word counts as an operand too, which reads the more files.
	loose string
	// elsewhere lists options of another implementation or version the
	// command may be (BSD base64's --input, --output, --break; ripgrep
	// 14's --hyperlink-format), parsed like the rest but not expected of
	// the modelled version's binary.
	elsewhere string
	// stop: options end at the first operand (no GNU permutation).
	stop bool
	// raw: no option parsing; every word is an operand for ops.
	raw bool
	// flagFiles: only the option values ops reports name files; an
	// operand, or a word xargs appends, is never taken for one (go: its
	// operands are packages; a word that could be a writing flag keeps
	// allow rules off by CodeWords).
	flagFiles bool
	// bundle: a first word without a dash is a bundle of option letters
	// whose arguments follow in order (tar's old style, `tar czf a.tgz d`).
	bundle bool
	// wrapper: only the options are the command's own; the words after
	// them are the wrapped command's, which reports its own effects.
	wrapper bool
	// Wrappers only: assigns says NAME=value words may stand between the
	// options and the command (env, sudo); skip is the number of operands
	// before the command (timeout's DURATION); noRun lists options with
	// which the wrapper runs no command (`sudo -l`, `command -v`); split
	// lists options that make the wrapper split a string into a command
	// at run time (env -S).
	assigns bool
	// interleave: the assignments may stand among the options, up to
	// `--` (sudo).
	interleave bool
	Skip       int
	noRun      string
	split      string
	// fromInput: the wrapper appends words it reads from standard input
	// to the command (xargs).
	fromInput bool
	// shellUnless: the wrapper joins the command's words with spaces and
	// runs them with `sh -c`, unless one of these options is given
	// (watch without -x).
	shellUnless string
	// applets: the command is an applet of the wrapper's own, named by
	// its base name (`busybox /bin/ls` runs ls).
	applets bool
	// ops reports the effects of the operands and of the options it
	// handles itself. Nil: the operands are no files.
	ops func(l *Cmdline, out *effectList)

	opts  map[string]optKind // built from the strings above
	model map[string]optKind // the modelled version's kind of a loose option
	canon map[string]string  // every name to the first name of its option
	longs []string
	acted map[string]bool
}

// init builds the option maps of a spec from its strings.
func (s *Spec) init() {
	s.opts = map[string]optKind{}
	s.canon = map[string]string{}
	s.acted = map[string]bool{}
	add := func(names string, k optKind) {
		for _, group := range strings.Fields(names) {
			alias := strings.Split(group, "|")
			for _, n := range alias {
				s.opts[n] = k
				s.canon[n] = alias[0]
				if len(n) > 1 {
					s.longs = append(s.longs, n)
				}
			}
		}
	}
	add(s.flags, flag)
	add(s.args, plain)
	add(s.reads, readArg)
	add(s.writes, writeArg)
	add(s.optional, optional)
	add(s.pairs, pair)
	add(s.pairReads, pairRead)
	for _, list := range []struct {
		names string
		k     optKind
	}{{s.chdir, plain}, {s.split, plain}, {s.acts, flag}, {s.noRun, flag}} {
		for _, group := range strings.Fields(list.names) {
			for _, n := range strings.Split(group, "|") {
				if _, ok := s.opts[n]; !ok {
					add(n, list.k)
				}
			}
		}
	}
	for _, group := range strings.Fields(s.acts) {
		for _, n := range strings.Split(group, "|") {
			s.acted[n] = true
		}
	}
	if s.respFiles {
		s.opts["@"] = readArg
	}
	s.model = map[string]optKind{}
	for _, n := range strings.Fields(s.loose) {
		s.model[n] = s.opts[n]
		s.opts[n] = optional
	}
}

// resolve maps a long option as written to its name in the spec: itself,
// or the one option it abbreviates (getopt_long(3)). why is set when the
// name is not an option: "unknown" or "ambiguous".
func (s *Spec) resolve(name string) (string, string) {
	if _, ok := s.opts[name]; ok && len(name) > 1 {
		return name, ""
	}
	if name == "" || s.exact {
		return name, "unknown"
	}
	match := ""
	for _, n := range s.longs {
		if strings.HasPrefix(n, name) {
			if match != "" && s.canon[match] != s.canon[n] {
				return name, "ambiguous"
			}
			if match == "" {
				match = n
			}
		}
	}
	if match == "" {
		return name, "unknown"
	}
	return match, ""
}

// namesFiles reports whether any word of the command can be a file.
func (s *Spec) namesFiles() bool {
	return s.ops != nil || s.reads != "" || s.writes != "" || s.pairReads != "" || s.respFiles
}

// mayWrite reports whether some form of the command writes a file.
func (s *Spec) mayWrite() bool { return s.kind != prints || s.writes != "" }

// Arg is a word of a command line, or a part of one (`--output=F`, `of=F`),
// with the index in Command.Args of the word it comes from (-1: none).
type Arg struct {
	Word
	At int
}

// Item is an option with its argument, or an operand (opt ""). It holds
// no copy of a word: a command of many words has an Item for each, and at
// 32 bytes an Item costs less than the Word it stands for (cmdline.val
// reads the argument or operand from the command's words).
type Item struct {
	Opt string
	At  int32 // the index in Command.Args of the word that holds the option (or operand)
	// ValAt is the index in Command.Args of the word that holds the
	// argument (of a two-word option, the second), or the operand's.
	ValAt int32
	// cut is where an attached argument (`-oF`, `--out=F`, `@F`) starts
	// in its word's text, in bytes; 0 for an argument that is a whole word.
	cut int32
	Has bool // the option has an argument
}

// newItem is the option opt (or with opt "", the operand) in the word at
// index at, without an argument yet.
func newItem(opt string, at int) Item {
	return Item{Opt: opt, At: int32(at), ValAt: int32(at)}
}

// withVal is it with its argument: the word at index i from byte cut on.
func (it Item) withVal(i, cut int) Item {
	it.ValAt, it.cut, it.Has = int32(i), int32(cut), true
	return it
}

// Val is the argument of the option it (of a two-word option, the
// second), or the operand when it is one; the zero arg for an option
// without an argument. An attached argument keeps its word's offset and
// Dynamic mark, not its glob or SubstOnly.
func (l *Cmdline) Val(it Item) Arg {
	if it.Opt != "" && !it.Has {
		return Arg{}
	}
	w := l.Cmd.Args[it.ValAt]
	if it.cut > 0 {
		w = Word{Text: w.Text[it.cut:], Dynamic: w.Dynamic, Offset: w.Offset}
	}
	return Arg{Word: w, At: int(it.ValAt)}
}

// Cmdline is a command line split into options and operands, in order.
type Cmdline struct {
	Cmd   *Command
	Items []Item
	// Err says why the command line is not understood: an option the
	// model does not know, an ambiguous abbreviation, a missing argument,
	// a word only known at run time where an option may stand, a response
	// file. Empty when every word was read. The first reason is kept.
	Err string
	// End is the index in c.Args of the first word after the options and
	// (for a wrapper) its assignments: the wrapped command.
	End int
	// Assigns are a wrapper's NAME=value words.
	Assigns []Assign
	// buffers for the items of a short line and the first operands call
	itemBuf [3]Item
	opsBuf  [2]Arg
	opsLent bool
}

func (l *Cmdline) fail(why string) {
	if l.Err == "" {
		l.Err = why
	}
}

// mayBeOption reports whether a dynamic word can expand to something that
// starts with "-" (or to several words, one of which may): its static
// start does not rule it out.
func mayBeOption(w Word) bool {
	if !w.Dynamic {
		return false
	}
	t := w.Text
	return t == "" || t[0] == '-' || t[0] == '$' || t[0] == '`' || t[0] == '*' || t[0] == '?' || t[0] == '[' || t[0] == '{'
}

// Scan splits c's words after the name into options and operands: `--`
// ends the options, short letters combine (`-rf`, `-n5`), `--name=value`
// and `--name value` both give a value, and operands may come before
// options (GNU getopt permutes) unless the spec stops at the first.
func (s *Spec) Scan(c *Command) *Cmdline {
	return s.scanInto(new(Cmdline), c)
}

// scanInto is scan into l, which it resets.
func (s *Spec) scanInto(l *Cmdline, c *Command) *Cmdline {
	*l = Cmdline{Cmd: c}
	words := c.Args
	// One item per word is the common case; sized once, a command of many
	// words costs one slice, not a doubling series of them, and a command
	// of few words none (the line's own buffer).
	if n := max(0, len(words)-1); n <= len(l.itemBuf) {
		l.Items = l.itemBuf[:0]
	} else {
		l.Items = make([]Item, 0, n)
	}
	i := 1
	if s.bundle && i < len(words) && !words[i].Dynamic && words[i].Text != "" && !strings.HasPrefix(words[i].Text, "-") {
		w, at := words[i], i
		i++
		for j := 0; j < len(w.Text); j++ {
			name := w.Text[j : j+1] // option letters are ASCII bytes
			it := newItem(name, at)
			k, known := s.opts[name]
			if !known && s.complete {
				l.fail("unknown option -" + name)
			}
			if k != flag && k != optional && i < len(words) {
				it = it.withVal(i, 0)
				i++
			}
			l.Items = append(l.Items, it)
		}
	}
	done := s.raw
	l.End = len(words)
	for ; i < len(words); i++ {
		w := words[i]
		t := w.Text
		if !done && mayBeOption(w) {
			l.fail("a word only known at run time may be an option")
		}
		if !done && s.obsolete != nil && !w.Dynamic && s.obsolete(t, i) {
			l.Items = append(l.Items, newItem(t, i))
			continue
		}
		if done || len(t) < 2 || t[0] != '-' {
			if !done && s.respFiles && strings.HasPrefix(t, "@") && len(t) > 1 {
				l.fail("@" + t[1:] + " is a response file: its words are options only known at run time")
				l.Items = append(l.Items, newItem("@", i).withVal(i, 1))
				continue
			}
			if !done && s.wrapper && s.interleave {
				// sudo(8): NAME=value words may stand among the options
				// (one starting with "/" is a command).
				if !w.Dynamic && strings.Contains(t, "=") && t[0] != '/' {
					name, val, _ := strings.Cut(t, "=")
					l.Assigns = append(l.Assigns, Assign{Name: name, Value: val})
					continue
				}
				l.End = i
				return l
			}
			if !done && s.wrapper {
				l.End = s.wrapperOperands(l, i)
				return l
			}
			l.Items = append(l.Items, newItem("", i))
			done = done || s.stop
			continue
		}
		if t == "--" {
			done = true
			if s.wrapper && s.interleave {
				l.End = i + 1 // sudo: no assignment after `--`
				return l
			}
			if s.wrapper {
				l.End = s.wrapperOperands(l, i+1)
				return l
			}
			continue
		}
		if strings.HasPrefix(t, "--") {
			name, val, hasVal := strings.Cut(t[2:], "=")
			resolved, why := s.resolve(name)
			if why != "" && (s.complete || why == "ambiguous") {
				l.fail(why + " option --" + name)
			}
			name = resolved
			it := newItem(name, i)
			switch k := s.opts[name]; {
			case k == pair || k == pairRead:
				if i+2 < len(words) {
					it = it.withVal(i+2, 0) // (the first names, it is no file)
				} else {
					l.fail("option --" + name + " requires two arguments")
				}
				i += 2
			case hasVal:
				if k == flag && why == "" && s.complete {
					l.fail("option --" + name + " does not take an argument")
				}
				it = it.withVal(i, len(t)-len(val))
			case k == plain || k == readArg || k == writeArg:
				if i+1 < len(words) {
					it = it.withVal(i+1, 0)
					i++
				} else {
					l.fail("option --" + name + " requires an argument")
				}
			}
			l.Items = append(l.Items, it)
			continue
		}
		for j := 1; j < len(t); j++ {
			name := t[j : j+1] // option letters are ASCII bytes
			k, known := s.opts[name]
			if !known && s.complete {
				l.fail("unknown option -" + name)
			}
			if k == flag || k == pair || k == pairRead {
				l.Items = append(l.Items, newItem(name, i))
				continue
			}
			it := newItem(name, i)
			if j+1 < len(t) {
				it = it.withVal(i, j+1)
			} else if k != optional && i+1 < len(words) {
				it = it.withVal(i+1, 0)
				i++
			} else if k != optional {
				l.fail("option -" + name + " requires an argument")
			}
			l.Items = append(l.Items, it)
			break
		}
	}
	return l
}

// wrapperOperands reads the words after a wrapper's options, from index
// i: a lone `-` there is -i (env(1): "A mere - implies -i"), then every
// word holding "=" is an assignment (env and sudo test for the "=" only:
// `env -- --unset=X cmd` sets a variable named "--unset"). It returns the
// index of the wrapped command.
func (s *Spec) wrapperOperands(l *Cmdline, i int) int {
	words := l.Cmd.Args
	if !s.assigns {
		return i
	}
	if i < len(words) && !words[i].Dynamic && words[i].Text == "-" {
		l.Items = append(l.Items, newItem("i", i))
		i++
	}
	for ; i < len(words); i++ {
		w := words[i]
		if w.Dynamic && strings.Contains(w.Text, "$") {
			l.fail("a word only known at run time may be an assignment or the command")
			return i
		}
		name, val, ok := strings.Cut(w.Text, "=")
		if !ok {
			return i
		}
		l.Assigns = append(l.Assigns, Assign{Name: name, Value: val, Dynamic: w.Dynamic})
	}
	return i
}

// apply reports the effects of c by the spec and says whether the command
// only touches the files listed.
func (s *Spec) apply(c *Command, out *effectList) (edit bool) {
	if !s.namesFiles() && len(s.acted) == 0 && !s.wrapper {
		// No word can be a file and no option acts (echo, printf,
		// true): applyLine would find nothing in the command line, so
		// it is not read (500,000 words of echo are not scanned).
		return s.kind != beyond
	}
	l := s.scanInto(&out.line, c)
	if s.namesFiles() && !s.wrapper {
		// Most operands and option values of a command that names files
		// are files (cat, rm, grep): its list is sized once.
		out.list = slices.Grow(out.list, len(l.Items))
	}
	return s.applyLine(l, out)
}

// applyLine is apply on a command line already scanned.
func (s *Spec) applyLine(l *Cmdline, out *effectList) (edit bool) {
	c := l.Cmd
	out.seen = argSet{}
	for _, it := range l.Items {
		if it.Opt == "" || !it.Has {
			continue
		}
		switch v := l.Val(it); s.opts[it.Opt] {
		case readArg, pairRead:
			if v.Text != "-" {
				out.add(Read, v)
			}
		case writeArg:
			if v.Text != "-" {
				out.add(Write, v)
			}
		}
	}
	if s.ops != nil {
		s.ops(l, out)
	}
	if s.wrapper {
		return false
	}
	dyn := false
	if s.namesFiles() && !s.flagFiles {
		strong := Read
		if s.mayWrite() {
			strong = Write
		}
		for i := 1; i < len(c.Args); i++ {
			if c.Args[i].Dynamic && !out.seen.has(i) {
				out.add(strong, Arg{Word: c.Args[i], At: i})
				out.list[len(out.list)-1].Guess = true
			}
		}
		if c.TrailingArgs {
			out.add(strong, Arg{Word: Word{Text: XargsOperands, Dynamic: true, Offset: c.Offset}, At: -1})
		}
		for i := range out.list {
			dyn = dyn || out.list[i].Path.Dynamic
			if out.list[i].Path.Dynamic && strong == Write && out.list[i].Access != Write {
				out.list[i].Access = Write
				out.list[i].Guess = true
			}
		}
	}
	for _, it := range l.Items {
		if s.acted[it.Opt] {
			out.acted = true
		}
	}
	if len(s.acted) > 0 && (dyn || c.HasDynamic(1)) {
		out.acted = true // a dynamic word may be the option that acts
	}
	return s.kind != beyond && !out.acted
}

// ReadOnly reports whether the command model understands every word of c
// (c's name is a command of the table modelled complete, and no word is an
// unknown option, an ambiguous abbreviation or a missing argument) and
// finds nothing in it but reading files and printing: no option that
// writes a file, runs a program or acts beyond files, no operand that is
// written (`uniq IN OUT`). why says what is not read-only. The files it
// reads are Effects' to report.
func ReadOnly(c *Command) (ok bool, why string) {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return false, "the command name is not known"
	}
	s, found := LookupSpec(c.Name(), false)
	switch {
	case !found:
		return false, c.Name() + " is not in the command model"
	case !s.complete:
		return false, "the model of " + c.Name() + " does not list all its options"
	case s.kind == beyond:
		return false, c.Name() + " acts beyond the files it names"
	}
	out := getEffectList(c.Name())
	defer out.release()
	l := s.scanInto(&out.line, c)
	if l.Err != "" {
		return false, l.Err
	}
	for _, it := range l.Items {
		if it.Opt != "" && (s.acted[it.Opt] || s.opts[it.Opt] == writeArg) {
			return false, "option " + it.Opt + " writes or runs something"
		}
	}
	s.applyLine(l, out)
	if out.acted {
		return false, "an option acts beyond files"
	}
	for _, e := range out.list {
		if e.Access == Write {
			return false, "it writes " + e.Path.Text
		}
	}
	return true, ""
}

// Line is a command line as the command model reads it (ReadLine).
type Line struct {
	l *Cmdline
	s *Spec
}

// ReadLine reads c's words by the model of the command called name (the
// caller's spelling of c's name: the danger layer lowercases it). ok is
// false when the model has no complete entry for name; the Line is then
// empty and not Understood.
func ReadLine(c *Command, name string) (Line, bool) {
	s, found := LookupSpec(name, false)
	if !found || !s.complete || s.raw {
		return Line{}, false
	}
	return Line{l: s.Scan(c), s: s}, true
}

// Understood reports whether every word was read: no unknown option, no
// ambiguous abbreviation, no missing argument, no word only known at run
// time where an option may stand. What is not understood may be any
// option: a reader looking for danger assumes the worst.
func (x Line) Understood() bool { return x.l != nil && x.l.Err == "" }

// Has reports whether any of the options (short letters, long names as
// the model lists them) is given, in any spelling the tool accepts.
func (x Line) Has(names ...string) bool { return x.l != nil && x.l.Has(names...) }

// Operands returns the operands in order.
func (x Line) Operands() []Word {
	if x.l == nil {
		return nil
	}
	return words(x.l.Operands())
}

// Values returns the arguments given to any of the options, in order.
func (x Line) Values(names ...string) []Word {
	if x.l == nil {
		return nil
	}
	return words(x.l.Values(names...))
}

// Options returns the options given, in order, each named as the model
// lists it (a long option by its full name, however abbreviated).
func (x Line) Options() []string {
	if x.l == nil {
		return nil
	}
	var out []string
	for _, it := range x.l.Items {
		if it.Opt != "" {
			out = append(out, it.Opt)
		}
	}
	return out
}

// Written returns the files the command line writes by the model (the
// operands chmod or chown change, tee's files ...), in order.
func (x Line) Written() []Word {
	if x.l == nil {
		return nil
	}
	out := getEffectList("")
	defer out.release()
	x.s.applyLine(x.l, out)
	var ws []Word
	for _, e := range out.list {
		if e.Access == Write {
			ws = append(ws, e.Path)
		}
	}
	return ws
}

func words(as []Arg) []Word {
	out := make([]Word, len(as))
	for i, a := range as {
		out[i] = a.Word
	}
	return out
}
