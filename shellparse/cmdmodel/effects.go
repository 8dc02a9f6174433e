package cmdmodel

import (
	"path"
	"slices"
	"strings"
	"sync"
)

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
	// Tree, on a write, is set when the command also writes entries below
	// Path under names it does not give: a recursive copy or a move of a
	// directory writes Path/REL for every REL below Tree.From (`cp -r
	// SRC/. DEST`, `cp -rT`, `rsync -r SRC/ DEST`, `mv DIR DEST`); an
	// archive extraction writes its members (Tree.From is empty: the
	// names are only known at run time).
	Tree *Tree
}

// Tree is the source of the entries a write puts below its path.
type Tree struct {
	// From is the directory copied or moved, relative to the command's
	// directory unless absolute; empty when the names come from elsewhere
	// (an archive, a remote host) and are only known at run time.
	From Word
	// Follow: symlinks in From are copied as what they point to (cp -L,
	// rsync -L), so the names below a linked directory are written too.
	Follow bool
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
	return effectTable.has(name)
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
// redirect (`> f`). It is false for wrappers (wrapper: c runs a command
// the caller found), for a command name that is not a bare word, and when
// an option that runs a program or acts beyond files is or may be present.
// It says nothing about assignments (`LD_PRELOAD=x mkdir d`): the caller
// judges those.
func Effects(c *Command, wrapper bool) (effects []FileEffect, writesOnly bool) {
	out := getEffectList(c.Name())
	defer out.release()
	edit := false
	switch {
	case len(c.Args) == 0:
		edit = true // `> f`, or a compound command's redirects
	case wrapper:
		if s, ok := LookupSpec(c.Name(), true); ok && !c.Args[0].Dynamic {
			s.apply(c, out)
		}
	case c.Args[0].Dynamic:
	default:
		if s, ok := LookupSpec(c.Name(), false); ok {
			edit = s.apply(c, out) && c.Bare()
		}
	}
	out.via = "redirect"
	for _, r := range c.Redirects {
		switch {
		case r.Writes():
			// `<>` opens for reading too; the write is the stronger check.
			out.add(Write, Arg{Word: r.Target, At: -1})
		case r.Reads():
			out.add(Read, Arg{Word: r.Target, At: -1})
		}
	}
	wrote := false
	for _, e := range out.list {
		wrote = wrote || e.Access == Write
	}
	return out.result(), edit && wrote
}

// kind is what a command of the table can do besides its file effects.
type kind uint8

const (
	// prints: reads the files named and prints; no option makes it write
	// (unless listed in writes) or run anything (unless listed in acts).
	prints kind = iota
	// edits: reads and writes only the files named.
	edits
	// beyond: does more than touch the files named (network, archives,
	// running code, paging): never writesOnly.
	beyond
)

// Has reports whether any of the options is given.
func (l *Cmdline) Has(names ...string) bool {
	for _, it := range l.Items {
		if it.Opt != "" && slices.Contains(names, it.Opt) {
			return true
		}
	}
	return false
}

// Values returns the arguments given to any of the options, in order.
func (l *Cmdline) Values(names ...string) []Arg {
	var out []Arg
	for _, it := range l.Items {
		if it.Opt != "" && it.Has && slices.Contains(names, it.Opt) {
			out = append(out, l.Val(it))
		}
	}
	return out
}

// Operands returns the Operands in order. The first call's slice is the
// line's own buffer when the Operands fit in it (a command is usually read
// once); the slice's capacity is its length, so an append to it copies.
func (l *Cmdline) Operands() []Arg {
	n := 0
	for _, it := range l.Items {
		if it.Opt == "" {
			n++
		}
	}
	var out []Arg
	if !l.opsLent && n <= len(l.opsBuf) {
		out, l.opsLent = l.opsBuf[:0:n], true
	} else {
		out = make([]Arg, 0, n)
	}
	for _, it := range l.Items {
		if it.Opt == "" {
			out = append(out, l.Val(it))
		}
	}
	return out
}

// effectList collects the effects of one command. It is scratch: taken
// from effectLists and given back when the command is read (release), so
// a decision that asks for the effects of each of its commands allocates
// only the list it keeps (result).
type effectList struct {
	via   string
	list  []FileEffect
	seen  argSet // Command.Args indices already reported
	acted bool   // an option that acts beyond files is present
	// The command line apply reads.
	line Cmdline
}

var effectLists = sync.Pool{New: func() any { return new(effectList) }}

func getEffectList(via string) *effectList {
	out := effectLists.Get().(*effectList)
	out.via = via
	return out
}

// release gives e back to effectLists, keeping only the capacity of its
// list, when short: nothing read from a command stays reachable from the
// pool, nor a long array.
func (e *effectList) release() {
	clear(e.list)
	if cap(e.list) > maxPooledEffects {
		e.list = nil
	}
	*e = effectList{list: e.list[:0]}
	effectLists.Put(e)
}

// result is the effects for the caller to keep, the size of them (empty,
// not nil, when there are none: nothing is allocated). A short list is
// copied, so the pool keeps its array for the next command; a long one
// (a command of many files) is handed over whole instead of copied, and
// the pool does not keep it.
func (e *effectList) result() []FileEffect {
	if n := len(e.list); n > maxPooledEffects {
		out := e.list[:n:n]
		e.list = nil
		return out
	}
	out := make([]FileEffect, len(e.list))
	copy(out, e.list)
	return out
}

// maxPooledEffects is the longest list of effects an effectList keeps for
// reuse.
const maxPooledEffects = 64

// argSet is a set of Command.Args indices.
type argSet struct {
	small uint64   // indices below 64
	big   []uint64 // the others: index i is bit i%64 of big[i/64-1]
}

func (s *argSet) add(i int) {
	switch {
	case i < 0:
	case i < 64:
		s.small |= 1 << i
	default:
		w := i/64 - 1
		for w >= len(s.big) {
			s.big = append(s.big, 0)
		}
		s.big[w] |= 1 << (i % 64)
	}
}

func (s *argSet) has(i int) bool {
	switch {
	case i < 0:
		return false
	case i < 64:
		return s.small&(1<<i) != 0
	}
	w := i/64 - 1
	return w < len(s.big) && s.big[w]&(1<<(i%64)) != 0
}

// add reports one effect. An empty static path is no file.
func (e *effectList) add(a Access, x Arg) {
	if x.Text == "" && !x.Dynamic {
		return
	}
	e.seen.add(x.At)
	if len(e.list) == cap(e.list) {
		// Doubled, not grown by append's quarter past 256 entries: a
		// command of many files allocates at most twice its list.
		e.list = slices.Grow(e.list, max(len(e.list), 4))
	}
	e.list = append(e.list, FileEffect{Access: a, Path: x.Word, Via: e.via})
}

// read reports files read; "-" is standard input.
func (e *effectList) read(xs ...Arg) {
	for _, x := range xs {
		if x.Text != "-" || x.Dynamic {
			e.add(Read, x)
		}
	}
}

// readTree reports directories read as a whole (grep -r), each with the
// filter f; "-" is standard input.
func (e *effectList) readTree(f *Filter, xs ...Arg) {
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
func (e *effectList) readTracked(x Arg) {
	e.add(Read, x)
	e.list[len(e.list)-1].Tracked = true
}

// write reports files written.
func (e *effectList) write(xs ...Arg) {
	for _, x := range xs {
		e.add(Write, x)
	}
}

// writeTree reports a write of dest that also writes the entries below
// src under their own names (FileEffect.Tree); a zero src means names only
// known at run time.
func (e *effectList) writeTree(dest, src Arg, follow bool) {
	if dest.Text == "" && !dest.Dynamic {
		return
	}
	t := &Tree{From: src.Word, Follow: follow}
	for i := range e.list {
		if f := &e.list[i]; f.Access == Write && f.Tree == nil && f.Path == dest.Word {
			f.Tree = t // the write already reported
			return
		}
	}
	e.add(Write, dest)
	e.list[len(e.list)-1].Tree = t
}

// treeInto reports the trees a recursive copy or move of srcs writes into
// dest (cp(1), mv(1)): dest itself with -T (noTarget) or for `SRC/.`;
// dest/basename(SRC) when dest is a directory (several sources, -t); for
// one source both, since whether dest is a directory is known only at run
// time.
func (e *effectList) treeInto(dest Arg, srcs []Arg, noTarget, follow bool) {
	for _, src := range srcs {
		if src.Text == "-" && !src.Dynamic {
			continue
		}
		base := path.Base(strings.TrimRight(src.Text, "/"))
		intoDest := noTarget || len(srcs) == 1 || !src.Dynamic && (base == "." || base == ".." || base == "/")
		if intoDest {
			e.writeTree(dest, src, follow)
		}
		if noTarget {
			continue
		}
		if src.Dynamic || dest.Dynamic {
			e.writeTree(made(strings.TrimSuffix(dest.Text, "/")+"/"+base, dest, true), src, follow)
			continue
		}
		if base == "/" || base == "." || base == ".." {
			continue
		}
		e.writeTree(joinArg(dest, made(base, dest, false)), src, follow)
	}
}

// made is a path that is not a word of the command (a default directory,
// a made-up name), placed at the word at.
func made(text string, at Arg, dynamic bool) Arg {
	return Arg{Word: Word{Text: text, Dynamic: dynamic || at.Dynamic, Offset: at.Offset}, At: at.At}
}

// joinArg resolves p against dir when p is relative (`git -C dir`,
// `tar -C dir`, `patch -d dir`). A zero dir leaves p as it is. The join
// is not cleaned: `dir/../x` must be resolved with dir's symlinks.
func joinArg(dir, p Arg) Arg {
	if dir.Text == "" && !dir.Dynamic || strings.HasPrefix(p.Text, "/") {
		return p
	}
	return Arg{Word: Word{Text: strings.TrimSuffix(dir.Text, "/") + "/" + p.Text, Dynamic: dir.Dynamic || p.Dynamic, Offset: p.Offset}, At: p.At}
}
