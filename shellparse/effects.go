package shellparse

import "strings"

// Access is how a command uses a file.
type Access uint8

const (
	Read Access = iota
	Write
)

func (a Access) String() string {
	if a == Write {
		return "write"
	}
	return "read"
}

// FileEffect is one file a command reads or writes.
type FileEffect struct {
	Access Access
	// Path is the file as written, relative to the command's Dir unless
	// absolute. A Dynamic path is not known statically: the policy can only
	// ask about it. A few paths are made up and always dynamic:
	// "(operands from xargs)", "(files named in the patch)" ...
	Path Word
	// Via says what makes the effect: "redirect", or the command name.
	Via string
	// Recursive is set on a read of Path as a whole: when it is a
	// directory, every file below it is read (grep -r, rg, diff, cp -r,
	// git grep --no-index). A reader of Read rules judges the files found
	// below it on disk.
	Recursive bool
	// Filter, on a Recursive read, says which entries below Path the
	// command leaves out; nil when it leaves out none.
	Filter *Filter
	// Tracked is set on a read of every file git tracks in the work tree
	// holding Path, at some revision: `git show`, `git log -p`, `git diff`,
	// `git grep` print them (a committed .env too) with no path named.
	Tracked bool
	// Guess is set on a dynamic word that is only taken for a write
	// toward denial: a word the command's table does not place (it may
	// expand to a file the command writes, or shift the operands), or an
	// operand read that a dynamic word could turn into a write. Such a
	// word may be no path at all (`sed -n "/$a/p" f`, `git commit -m
	// "$(...)"`), so its text says nothing certain about where a write
	// lands.
	Guess bool
}

// Filter describes the entries below a directory read recursively that a
// command leaves out by its options: grep's --include, --exclude and
// --exclude-dir, ripgrep's --glob and its rule of skipping hidden files.
// It errs toward reading: an entry is left out only when every
// implementation of the command would leave it out.
type Filter struct {
	// Hidden is set when entries whose name starts with "." are left out
	// unless Entry lists them (ripgrep's default). An ignore file can
	// still bring them back with a `!` line (.gitignore, .ignore,
	// .rgignore, .git/info/exclude, the global git excludes file); the
	// caller checks those on disk.
	Hidden bool
	// Entry judges one entry by the command's options: rel is its path
	// below the directory read, slash-separated; dir is set for a
	// directory. Nil judges every entry EntryDefault.
	Entry func(rel string, dir bool) EntryVerdict
}

// EntryVerdict is what a command's options say about one entry below a
// directory it reads recursively.
type EntryVerdict uint8

const (
	// EntryDefault: the options say nothing certain; the entry is read
	// (unless Filter.Hidden leaves it out).
	EntryDefault EntryVerdict = iota
	// EntrySkip: the command certainly does not read the entry (nor,
	// for a directory, anything below it).
	EntrySkip
	// EntryListed: an option may name the entry, so it is read even when
	// hidden (ripgrep's positive --glob).
	EntryListed
)

// HasEffectSpec reports whether the effects table lists the command name,
// so that Effects knows which of its words are files.
func HasEffectSpec(name string) bool {
	_, ok := effectTable[name]
	return ok
}

// XargsOperands is the made-up path of the operands xargs appends to a
// command from its standard input.
const XargsOperands = "(operands from xargs)"

// Effects lists the files a command reads and writes: the operands and
// option arguments of the commands in the effects table (effects_table.go),
// then its redirects. A command outside the table reports only its
// redirects. A wrapper (`sudo X`, `time X`) reports its own options'
// files and its redirects; what it runs reports its own effects.
//
// Every dynamic word of a command in the table is reported: one that could
// be an option or several words (`"$X"` may be `-t /etc`) is reported with
// the strongest access the command has, so in a command that can write,
// a dynamic word counts as a write.
//
// writesOnly is true when the command does nothing but read and write the
// files listed, and writes at least one: a file-changing command of the
// table (`mkdir -p x`, `sed -i ... f`, `cp a b`), a command that reads
// named files or prints with a write redirect (`echo hi > f`), or a bare
// redirect (`> f`). It is false for wrappers, for a command name that is
// not a bare word, for code that is not seen (Unknown, StdinCode), and when
// an option that runs a program or acts beyond files is or may be present.
// It says nothing about assignments (`LD_PRELOAD=x mkdir d`): the caller
// judges those.
func Effects(c *Command) (effects []FileEffect, writesOnly bool) {
	out := effectList{via: c.Name()}
	edit := false
	switch {
	case len(c.Args) == 0:
		edit = true // `> f`, or a compound command's redirects
	case c.IsWrapper():
		if s, ok := lookupSpec(c.Name(), true); ok && !c.Args[0].Dynamic {
			s.apply(c, &out)
		}
	case c.Args[0].Dynamic:
	default:
		if s, ok := lookupSpec(c.Name(), false); ok {
			edit = s.apply(c, &out) && c.Bare() && c.Unknown == "" && !c.StdinCode
		}
	}
	out.via = "redirect"
	for _, r := range c.Redirects {
		switch {
		case r.Writes():
			// `<>` opens for reading too; the write is the stronger check.
			out.add(Write, arg{Word: r.Target, at: -1})
		case r.Reads():
			out.add(Read, arg{Word: r.Target, at: -1})
		}
	}
	wrote := false
	for _, e := range out.list {
		wrote = wrote || e.Access == Write
	}
	return out.list, edit && wrote
}

// kind is what a command of the table can do besides its file effects.
type kind uint8

const (
	// prints: reads the files named and prints; no option makes it write
	// (unless listed in writes) or run anything (unless listed in acts).
	prints kind = iota
	// edits: reads and writes only the files named.
	edits
	// acts: does more than touch the files named (network, archives,
	// running code, paging): never writesOnly.
	acts
)

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

// spec says how a command reads its command line and which of its words
// are files. Option names are space-separated short letters and long names
// without dashes. A long option may be abbreviated to a unique prefix of
// the names listed (getopt_long(3)).
type spec struct {
	kind kind
	// Options by what their argument is. Options not listed are flags.
	args, reads, writes, optional, pairs, pairReads string
	// flags lists long flags that ops looks at, so that their
	// abbreviations are understood.
	flags string
	// acts lists options that run a program or act beyond files
	// (sort --compress-program, rg --pre, date -s). With one present, or
	// with a dynamic word that could be one, the command is not writesOnly.
	acts string
	// stop: options end at the first operand (no GNU permutation).
	stop bool
	// raw: no option parsing; every word is an operand for ops.
	raw bool
	// bundle: a first word without a dash is a bundle of option letters
	// whose arguments follow in order (tar's old style, `tar czf a.tgz d`).
	bundle bool
	// wrapper: only the options are the command's own; the words after
	// them are the wrapped command's, which reports its own effects.
	wrapper bool
	// ops reports the effects of the operands and of the options it
	// handles itself. Nil: the operands are no files.
	ops func(l *cmdline, out *effectList)

	opts  map[string]optKind // built from the strings above
	longs []string
	acted map[string]bool
}

// init builds the option maps of a spec from its strings.
func (s *spec) init() {
	s.opts = map[string]optKind{}
	s.acted = map[string]bool{}
	for _, f := range []struct {
		names string
		k     optKind
	}{{s.flags, flag}, {s.args, plain}, {s.reads, readArg}, {s.writes, writeArg},
		{s.optional, optional}, {s.pairs, pair}, {s.pairReads, pairRead}} {
		for _, n := range strings.Fields(f.names) {
			s.opts[n] = f.k
			if len(n) > 1 {
				s.longs = append(s.longs, n)
			}
		}
	}
	for _, n := range strings.Fields(s.acts) {
		s.acted[n] = true
		if _, ok := s.opts[n]; !ok && len(n) > 1 {
			s.longs = append(s.longs, n)
		}
	}
}

// resolve maps a long option as written to its name in the spec: itself,
// or the one listed name it abbreviates.
func (s *spec) resolve(name string) string {
	if _, ok := s.opts[name]; ok || s.acted[name] {
		return name
	}
	match := ""
	for _, n := range s.longs {
		if strings.HasPrefix(n, name) {
			if match != "" {
				return name // ambiguous: getopt refuses it
			}
			match = n
		}
	}
	if match == "" || name == "" {
		return name
	}
	return match
}

// namesFiles reports whether any word of the command can be a file.
func (s *spec) namesFiles() bool {
	return s.ops != nil || s.reads != "" || s.writes != "" || s.pairReads != ""
}

// mayWrite reports whether some form of the command writes a file.
func (s *spec) mayWrite() bool { return s.kind != prints || s.writes != "" }

// apply reports the effects of c by the spec and says whether the command
// only touches the files listed.
func (s *spec) apply(c *Command, out *effectList) (edit bool) {
	l := s.scan(c)
	out.seen = map[int]bool{}
	for _, it := range l.items {
		if it.opt == "" || !it.has {
			continue
		}
		switch s.opts[it.opt] {
		case readArg, pairRead:
			if it.val.Text != "-" {
				out.add(Read, it.val)
			}
		case writeArg:
			if it.val.Text != "-" {
				out.add(Write, it.val)
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
	if s.namesFiles() {
		strong := Read
		if s.mayWrite() {
			strong = Write
		}
		for i := 1; i < len(c.Args); i++ {
			if c.Args[i].Dynamic && !out.seen[i] {
				out.add(strong, arg{Word: c.Args[i], at: i})
				out.list[len(out.list)-1].Guess = true
			}
		}
		if c.TrailingArgs {
			out.add(strong, arg{Word: Word{Text: XargsOperands, Dynamic: true, Offset: c.Offset}, at: -1})
		}
		for i := range out.list {
			dyn = dyn || out.list[i].Path.Dynamic
			if out.list[i].Path.Dynamic && strong == Write && out.list[i].Access != Write {
				out.list[i].Access = Write
				out.list[i].Guess = true
			}
		}
	}
	for _, it := range l.items {
		if s.acted[it.opt] {
			out.acted = true
		}
	}
	if len(s.acted) > 0 && (dyn || c.HasDynamic(1)) {
		out.acted = true // a dynamic word may be the option that acts
	}
	return s.kind != acts && !out.acted
}

// arg is a word of a command line, or a part of one (`--output=F`, `of=F`),
// with the index in Command.Args of the word it comes from (-1: none).
type arg struct {
	Word
	at int
}

// item is an option with its argument, or an operand (opt "").
type item struct {
	opt   string
	has   bool // the option has an argument
	val   arg  // the argument, or the operand
	first arg  // the first argument of a two-word option
}

// cmdline is a command line split into options and operands, in order.
type cmdline struct {
	c     *Command
	items []item
}

// scan splits c's words after the name into options and operands: `--`
// ends the options, short letters combine (`-rf`, `-n5`), `--name=value`
// and `--name value` both give a value, and operands may come before
// options (GNU getopt permutes) unless the spec stops at the first.
func (s *spec) scan(c *Command) *cmdline {
	l := &cmdline{c: c}
	words := c.Args
	i := 1
	if s.bundle && i < len(words) && !words[i].Dynamic && words[i].Text != "" && !strings.HasPrefix(words[i].Text, "-") {
		w := words[i]
		i++
		for j := 0; j < len(w.Text); j++ {
			name := w.Text[j : j+1] // option letters are ASCII bytes
			it := item{opt: name}
			if k := s.opts[name]; k != flag && k != optional && i < len(words) {
				it.val, it.has = arg{Word: words[i], at: i}, true
				i++
			}
			l.items = append(l.items, it)
		}
	}
	done := s.raw
	for ; i < len(words); i++ {
		w := words[i]
		t := w.Text
		if done || len(t) < 2 || t[0] != '-' {
			l.items = append(l.items, item{val: arg{Word: w, at: i}})
			done = done || s.stop
			continue
		}
		if t == "--" {
			done = true
			continue
		}
		if strings.HasPrefix(t, "--") {
			name, val, hasVal := strings.Cut(t[2:], "=")
			name = s.resolve(name)
			it := item{opt: name}
			switch k := s.opts[name]; {
			case k == pair || k == pairRead:
				if i+2 < len(words) {
					it.first, it.val, it.has = arg{Word: words[i+1], at: i + 1}, arg{Word: words[i+2], at: i + 2}, true
				}
				i += 2
			case hasVal:
				it.val, it.has = arg{Word: Word{Text: val, Dynamic: w.Dynamic, Offset: w.Offset}, at: i}, true
			case k == plain || k == readArg || k == writeArg:
				if i+1 < len(words) {
					it.val, it.has = arg{Word: words[i+1], at: i + 1}, true
					i++
				}
			}
			l.items = append(l.items, it)
			continue
		}
		for j := 1; j < len(t); j++ {
			name := t[j : j+1] // option letters are ASCII bytes
			k := s.opts[name]
			if k == flag || k == pair || k == pairRead {
				l.items = append(l.items, item{opt: name})
				continue
			}
			it := item{opt: name}
			if rest := t[j+1:]; rest != "" {
				it.val, it.has = arg{Word: Word{Text: rest, Dynamic: w.Dynamic, Offset: w.Offset}, at: i}, true
			} else if k != optional && i+1 < len(words) {
				it.val, it.has = arg{Word: words[i+1], at: i + 1}, true
				i++
			}
			l.items = append(l.items, it)
			break
		}
	}
	return l
}

// has reports whether any of the options is given.
func (l *cmdline) has(names ...string) bool {
	for _, it := range l.items {
		if it.opt != "" && containsStr(names, it.opt) {
			return true
		}
	}
	return false
}

// values returns the arguments given to any of the options, in order.
func (l *cmdline) values(names ...string) []arg {
	var out []arg
	for _, it := range l.items {
		if it.opt != "" && it.has && containsStr(names, it.opt) {
			out = append(out, it.val)
		}
	}
	return out
}

// operands returns the operands in order.
func (l *cmdline) operands() []arg {
	var out []arg
	for _, it := range l.items {
		if it.opt == "" {
			out = append(out, it.val)
		}
	}
	return out
}

// effectList collects the effects of one command.
type effectList struct {
	via   string
	list  []FileEffect
	seen  map[int]bool // Command.Args indices already reported
	acted bool         // an option that acts beyond files is present
}

// add reports one effect. An empty static path is no file.
func (e *effectList) add(a Access, x arg) {
	if x.Text == "" && !x.Dynamic {
		return
	}
	if x.at >= 0 && e.seen != nil {
		e.seen[x.at] = true
	}
	e.list = append(e.list, FileEffect{Access: a, Path: x.Word, Via: e.via})
}

// read reports files read; "-" is standard input.
func (e *effectList) read(xs ...arg) {
	for _, x := range xs {
		if x.Text != "-" || x.Dynamic {
			e.add(Read, x)
		}
	}
}

// readTree reports directories read as a whole (grep -r), each with the
// filter f; "-" is standard input.
func (e *effectList) readTree(f *Filter, xs ...arg) {
	for _, x := range xs {
		if x.Text == "-" && !x.Dynamic || x.Text == "" && !x.Dynamic {
			continue
		}
		e.add(Read, x)
		e.list[len(e.list)-1].Recursive = true
		e.list[len(e.list)-1].Filter = f
	}
}

// readTracked reports a read of the files git tracks in the work tree
// holding x.
func (e *effectList) readTracked(x arg) {
	e.add(Read, x)
	e.list[len(e.list)-1].Tracked = true
}

// write reports files written.
func (e *effectList) write(xs ...arg) {
	for _, x := range xs {
		e.add(Write, x)
	}
}

// made is a path that is not a word of the command (a default directory,
// a made-up name), placed at the word at.
func made(text string, at arg, dynamic bool) arg {
	return arg{Word: Word{Text: text, Dynamic: dynamic || at.Dynamic, Offset: at.Offset}, at: at.at}
}

// joinArg resolves p against dir when p is relative (`git -C dir`,
// `tar -C dir`, `patch -d dir`). A zero dir leaves p as it is. The join
// is not cleaned: `dir/../x` must be resolved with dir's symlinks.
func joinArg(dir, p arg) arg {
	if dir.Text == "" && !dir.Dynamic || strings.HasPrefix(p.Text, "/") {
		return p
	}
	return arg{Word: Word{Text: strings.TrimSuffix(dir.Text, "/") + "/" + p.Text, Dynamic: dir.Dynamic || p.Dynamic, Offset: p.Offset}, at: p.at}
}
