package policy

import (
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// Danger by shape, not by name, so that a spelling the table does not list
// is caught as well: a command whose name is only known at run time is
// judged as every command of the danger table; a variable the script
// assigns a literal is followed into the words that use it (`X=/; rm -rf "$X"` is `rm -rf /`); block devices are known by what
// they are (LVM's /dev/VG/LV, a device node on disk) and through
// /proc/PID/root; content from the network or from a command only known at
// run time is remote code.

// findDangerShapes runs the danger table over the other forms the command
// at x can take: with the literal values the script assigns to its
// variables, and for a name only known at run time, as each command the
// table names.
func findDangerShapes(x *dangerCtx) *finding {
	orig, origName := x.c, x.name
	defer func() { x.c, x.name, x.seen = orig, origName, nil }()
	forms := x.facts.valueForms(orig)
	if orig.Args != nil && orig.Args[0].Dynamic {
		forms = append(forms, *orig)
	}
	if inner, ok := dynamicInner(orig); ok {
		// `sudo $(which rm) -rf ~`: the wrapper could not tell what it
		// runs; from the first word only known at run time on, it is a
		// command of its own.
		forms = append(forms, inner)
		forms = append(forms, x.facts.valueForms(&inner)...)
	}
	if sfx := unknownSuffixes(orig); len(forms) == 0 {
		forms = sfx // no copy: most commands have no other form
	} else {
		forms = append(forms, sfx...)
	}
	if f := codeArgDanger(x, orig); f != nil {
		return f
	}
	for i := range forms {
		x.c, x.seen = &forms[i], nil
		x.name = commandName(x.c)
		if len(x.c.Args) > 0 && x.c.Args[0].Dynamic {
			if f := anyNameDanger(x); f != nil {
				return f
			}
			continue
		}
		if f := tableDanger(x); f != nil {
			return f
		}
	}
	return nil
}

// maxSuffixes bounds the argument suffixes of one unknown command that
// are judged as commands.
const maxSuffixes = 64

// unknownSuffixes returns, for a command gatekeep does not know (neither
// the command model nor the wrappers list it, its name is static), every
// suffix of its words that starts with a word that could be a command
// name (static, not an option): `flock /tmp/l rm -rf ~`, `taskset 1 rm
// -rf ~` and `chrt 1 rm -rf ~` may run `rm -rf ~`. Judged toward denial,
// the way a name only known at run time is judged as any command.
func unknownSuffixes(c *shellparse.Command) []shellparse.Command {
	if !unknownCommand(c) {
		return nil
	}
	n := 0
	for k := 1; k < len(c.Args) && n < maxSuffixes; k++ {
		if suffixStart(c.Args[k]) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]shellparse.Command, 0, n)
	// One Via for every suffix, full (an append copies it).
	via := slices.Clip(append(slices.Clip(c.Via), c.Name()))
	for k := 1; k < len(c.Args) && len(out) < n; k++ {
		if !suffixStart(c.Args[k]) {
			continue
		}
		inner := *c
		inner.Args = c.Args[k:]
		inner.Inner, inner.Parent, inner.Via = -1, -1, via
		out = append(out, inner)
	}
	return out
}

// suffixStart: w could be a command name (static, not an option).
func suffixStart(w shellparse.Word) bool {
	return !w.Dynamic && w.Text != "" && !strings.HasPrefix(w.Text, "-")
}

// unknownCommand: a command with a static name and arguments that the
// command model (cmdmodel.HasEffectSpec) and the wrappers do not know,
// and whose code is not already unknown.
func unknownCommand(c *shellparse.Command) bool {
	if len(c.Args) < 2 || c.Args[0].Dynamic || c.Inner >= 0 || c.Unknown != "" {
		return false
	}
	name := commandName(c)
	return !cmdmodel.RunsCommand(name) && !cmdmodel.HasEffectSpec(name) && !cmdmodel.HasEffectSpec(c.Name())
}

// maxCodeDepth bounds how deeply words given to unknown commands are
// read as code (a string in a string in a string).
const maxCodeDepth = 3

// maxCodeWord is the longest word read as code.
const maxCodeWord = 64 << 10

// codeArgs returns, for a command gatekeep does not know, the scripts its
// static argument words make when read as shell code: many programs run
// a word with `sh -c` (`flock /tmp/l -c 'rm -rf ~'`, `su -c '...'`,
// util-linux script(1) `-c`, `sg group '...'`, `tmux new '...'`). Only
// a word that could be more than a name (it holds a blank or an
// operator) and parses is taken; like the suffixes, these are judged
// toward denial only.
func codeArgs(c *shellparse.Command, home string, depth int) []*shellparse.Script {
	if depth >= maxCodeDepth || !unknownCommand(c) {
		return nil
	}
	var out []*shellparse.Script
	for _, w := range c.Args[1:] {
		if w.Dynamic || len(w.Text) > maxCodeWord || !strings.ContainsAny(w.Text, " \t\n;&|<>()`$") {
			continue
		}
		if s, err := shellparse.Parse(w.Text, shellparse.Options{Home: home}); err == nil {
			out = append(out, s)
		}
		if len(out) == maxSuffixes {
			break
		}
	}
	return out
}

// codeArgDanger judges the code an unknown command's words make
// (codeArgs) with the whole danger table, in the directory the command
// runs in.
func codeArgDanger(x *dangerCtx, c *shellparse.Command) *finding {
	depth := 0
	if x.facts != nil {
		depth = x.facts.depth
	}
	for _, sub := range codeArgs(c, x.home, depth) {
		facts := newScriptFacts(sub)
		facts.depth = depth + 1
		for j := range sub.Commands {
			if f := findDangerIn(sub, j, x.home, x.dir, facts); f != nil {
				return f
			}
		}
	}
	return nil
}

// codeArgCommands returns every command of the code an unknown command's
// words make (codeArgs), to depth maxCodeDepth: the files they open are
// judged like the suffixes' (only a deny counts).
func codeArgCommands(c *shellparse.Command, home string) []shellparse.Command {
	var out []shellparse.Command
	var walk func(c *shellparse.Command, depth int)
	walk = func(c *shellparse.Command, depth int) {
		for _, sub := range codeArgs(c, home, depth) {
			for j := range sub.Commands {
				sc := sub.Commands[j]
				out = append(out, sc)
				walk(&sc, depth+1)
			}
		}
	}
	walk(c, 0)
	return out
}

// dynamicInner returns, for a wrapper whose command the parser could not
// find because a word only known at run time stands among its options or
// as its command (`sudo $(which rm) -rf ~`, `env $r -rf /`), the words
// from that word on as a command of their own.
func dynamicInner(c *shellparse.Command) (shellparse.Command, bool) {
	if c.Inner >= 0 || len(c.Args) < 2 || c.Args[0].Dynamic || !cmdmodel.RunsCommand(commandName(c)) {
		return shellparse.Command{}, false
	}
	for k := 1; k < len(c.Args); k++ {
		if w := c.Args[k]; w.Dynamic && (strings.HasPrefix(w.Text, "$") || strings.HasPrefix(w.Text, "`")) {
			inner := *c
			inner.Args = c.Args[k:]
			inner.Inner, inner.Parent = -1, -1
			return inner, true
		}
	}
	return shellparse.Command{}, false
}

// tableDanger checks x against the danger table.
func tableDanger(x *dangerCtx) *finding {
	for _, r := range dangerTable {
		if !r.appliesTo(x.name) {
			continue
		}
		if what, ok := r.check(x); ok {
			return &finding{code: r.code, message: fmt.Sprintf(r.msg, what)}
		}
	}
	return nil
}

// anyNameDanger judges a command whose name is only known at run time
// (`$(which rm) -rf ~`, `$CMD /dev/sda`) by its arguments, as if it were
// each command the danger table names.
func anyNameDanger(x *dangerCtx) *finding {
	for _, r := range dangerTable {
		for _, n := range r.names {
			x.name, x.seen = strings.TrimSuffix(n, "*"), nil
			if what, ok := r.check(x); ok {
				return &finding{code: r.code, message: fmt.Sprintf(r.msg, what)}
			}
		}
	}
	return nil
}

// maxValueForms bounds how many forms variable values make of one command.
const maxValueForms = 16

// scriptValues collects the literal values a script assigns to each
// variable: a bare `NAME=value`, and `export`, `declare`, `local`,
// `readonly`, `typeset` of `NAME=value`. Every assignment counts, wherever
// it stands (a branch, a loop, a function), since any of them may be the
// value a later word reads.
func scriptValues(s *shellparse.Script) map[string][]string {
	var vals map[string][]string
	add := func(name, val string) {
		if vals == nil {
			vals = map[string][]string{}
		}
		if len(vals[name]) < maxValueForms && !slices.Contains(vals[name], val) {
			vals[name] = append(vals[name], val)
		}
	}
	// for lists, arrays and read from a here-string (Script.Values).
	for name, vs := range s.Values {
		for _, v := range vs {
			add(name, v)
		}
	}
	for j := range s.Commands {
		c := &s.Commands[j]
		if len(c.Args) == 0 {
			for _, a := range c.Assigns {
				if !a.Dynamic {
					add(a.Name, a.Value)
					continue
				}
				// `Y=$X`, `D="$X/sub"`: through the values known so far.
				for _, v := range substitute(a.Value, vals) {
					if !strings.ContainsAny(v, "$`") {
						add(a.Name, v)
					}
				}
			}
			continue
		}
		switch c.Args[0].Text {
		case "export", "declare", "local", "readonly", "typeset":
			for _, w := range c.Args[1:] {
				name, val, ok := strings.Cut(w.Text, "=")
				if ok && !w.Dynamic && isVarName(name) {
					add(name, val)
				}
			}
		}
	}
	return vals
}

func isVarName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// varRefRe matches a reference to a variable: `$NAME`, `${NAME}`, an
// array's element or elements `${NAME[i]}`, `${NAME[@]}` (each element
// of the array is a value of NAME), or `${NAME:-WORD}` (also `-`, `:=`,
// `=`) with a WORD that holds no expansion, which is the value when NAME
// is unset or empty.
var varRefRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)(?:\\[[^]}$`]*\\])?(?:(:?[-=])([^}$`]*))?\\}|([A-Za-z_][A-Za-z0-9_]*))")
})

// valueForms returns the forms of c with the script's literal values put
// in for the variables its dynamic words read, or nil when none applies.
func (f *scriptFacts) valueForms(c *shellparse.Command) []shellparse.Command {
	var out []shellparse.Command
	for wi, w := range c.Args {
		if !w.Dynamic || !strings.Contains(w.Text, "$") {
			continue
		}
		texts := substitute(w.Text, f.vals)
		if len(texts) == 0 {
			continue
		}
		if out == nil {
			out = []shellparse.Command{*c}
		}
		var next []shellparse.Command
		for _, base := range out {
			for _, t := range texts {
				if len(next) >= maxValueForms {
					break
				}
				nc := base
				nc.Args = append([]shellparse.Word(nil), base.Args...)
				nc.Args[wi] = shellparse.Word{Text: t, Offset: w.Offset, Dynamic: stillDynamic(t)}
				next = append(next, nc)
			}
		}
		out = next
	}
	// A whole word `$X` whose value holds blanks is split by the shell
	// (unquoted) into several: give that reading too, toward denial.
	for i, n := 0, len(out); i < n && len(out) < maxValueForms; i++ {
		var words []shellparse.Word
		split := false
		for _, w := range out[i].Args {
			if fs := strings.Fields(w.Text); len(fs) > 1 && !w.Dynamic {
				split = true
				for _, t := range fs {
					words = append(words, shellparse.Word{Text: t, Offset: w.Offset, Dynamic: stillDynamic(t)})
				}
				continue
			}
			words = append(words, w)
		}
		if split {
			nc := out[i]
			nc.Args = words
			out = append(out, nc)
		}
	}
	return out
}

// substitute returns text with each known variable replaced by each of
// its values (at most maxValueForms results), or nil when it reads no
// known variable.
func substitute(text string, vals map[string][]string) []string {
	locs := varRefRe().FindAllStringSubmatchIndex(text, -1)
	out := []string{""}
	last, known := 0, false
	for _, m := range locs {
		var name string
		if m[2] >= 0 {
			name = text[m[2]:m[3]]
		} else {
			name = text[m[8]:m[9]]
		}
		vs := vals[name]
		if m[4] >= 0 {
			// `${X:-/}`: the default word is a value too.
			vs = append(vs[:len(vs):len(vs)], text[m[6]:m[7]])
		}
		if len(vs) == 0 {
			continue
		}
		known = true
		lit := text[last:m[0]]
		var next []string
		for _, o := range out {
			for _, v := range vs {
				if len(next) < maxValueForms {
					next = append(next, o+lit+v)
				}
			}
		}
		out, last = next, m[1]
	}
	if !known {
		return nil
	}
	for i := range out {
		out[i] += text[last:]
	}
	return out
}

// stillDynamic: a word whose text still holds an expansion or a glob.
func stillDynamic(t string) bool {
	return strings.ContainsAny(t, "$`*?[{") || strings.HasPrefix(t, "~")
}

// procRootRe: a path through a process's root directory
// (/proc/PID/root, /proc/self/root: proc(5)), which is `/` for the
// processes of this machine's root file system.
var procRootRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:/+proc/+[^/]+/+root)+(/|$)`)
})

// stripProcRoot removes leading /proc/PID/root prefixes.
func stripProcRoot(p string) string {
	if !strings.HasPrefix(p, "/proc/") && !strings.HasPrefix(p, "//") {
		return p
	}
	if m := procRootRe().FindStringIndex(p); m != nil {
		return "/" + strings.TrimLeft(p[m[1]:], "/")
	}
	return p
}

// devNotBlock are the directories of /dev that hold no block devices
// (devices.txt, the kernel's devtmpfs and udev's layout): paths in them
// are not taken for LVM's /dev/VG/LV.
// Built on first use (start-up: most calls never look it up).
var devNotBlock = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"pts": true, "shm": true, "fd": true, "net": true, "input": true, "snd": true, "dri": true,
		"bus": true, "char": true, "cpu": true, "hugepages": true, "mqueue": true, "tcp": true,
		"udp": true, "vfio": true, "usb": true, "serial": true, "v4l": true, "dma_heap": true,
		"virtio-ports": true, "vhost": true, "hidraw": true, "gpiochip": true, "stdin": true,
		"stdout": true, "stderr": true, "null": true, "full": true, "zero": true, "random": true,
		"urandom": true, "tty": true, "console": true, "ptmx": true, "log": true, "core": true,
	}
})

// blockDeviceShape reports a block device by its shape or by what it is
// on disk: /dev/VG/LV (LVM's two-level names; vg_name/lv_name), the RAM,
// persistent-memory, DRBD and zram devices, and an existing path that is a
// block device node. p is absolute and clean; prefix says it is the
// literal start of a longer dynamic word.
func blockDeviceShape(p string, prefix bool) bool {
	rest, ok := strings.CutPrefix(p, "/dev/")
	if !ok {
		return !prefix && isBlockNode(p)
	}
	if devMoreRe().MatchString(rest) {
		return true
	}
	dir, name, two := strings.Cut(rest, "/")
	if two && !devNotBlock()[dir] && dir != "" && (prefix || name != "" && !strings.Contains(name, "/")) {
		return true
	}
	return !prefix && isBlockNode(p)
}

var devMoreRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(zram|pmem|drbd|ram[0-9]|nbd|loop|md|mapper/)`)
})

// isBlockNodeAt is isBlockNode of dir joined with rel (relative, no ".."),
// its stats remembered in memo (nil: not).
func isBlockNodeAt(memo *pathguard.Memo, dir, rel string) bool {
	m, err := memo.ModeAt(dir, rel)
	return err == nil && m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0
}

// isBlockNode reports an existing block device node (symlinks followed).
func isBlockNode(p string) bool {
	m, err := pathguard.Mode(p)
	return err == nil && m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0
}

// nvmeVerb: nvme-cli's erasing subcommands (cmdmodel.NVMeErasingVerb).
func nvmeVerb(x *dangerCtx) (string, bool) { return cmdmodel.NVMeErasingVerb(&x.c.Command) }

// remoteSource reports a command whose output is content from the network
// or only known at run time: one cmdmodel.PrintsRemote names, and a
// command whose name is only known at run time (`$(echo curl) URL`).
func remoteSource(c *shellparse.Command) bool {
	if len(c.Args) == 0 {
		return false
	}
	return c.Args[0].Dynamic || cmdmodel.PrintsRemote(commandName(c), &c.Command)
}
