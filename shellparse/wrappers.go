package shellparse

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// optSpec describes a wrapper's command line: which options take an
// argument, and what stands between the options and the wrapped command.
type optSpec struct {
	// withArg lists short option letters and long option names that take
	// an argument ("u", "user").
	withArg []string
	// assigns: NAME=value words may stand before the command (env, sudo).
	assigns bool
	// skip is the number of operands before the command (timeout's DURATION).
	skip int
	// noRun lists options with which the wrapper runs no command
	// (`command -v`, `sudo -l`).
	noRun []string
}

// wrappers are the commands that run another command given as their
// arguments. Sources: the man pages of sudo(8), doas(1), env(1), nice(1),
// nohup(1), timeout(1), time(1), stdbuf(1), setsid(1), ionice(1),
// busybox(1), and bash(1) for `command`, `builtin` and `exec`.
var wrappers = map[string]optSpec{
	"sudo": {withArg: []string{"u", "g", "C", "D", "h", "p", "r", "t", "T", "U", "R",
		"user", "group", "close-from", "chdir", "host", "prompt", "role", "type",
		"command-timeout", "other-user", "chroot"}, assigns: true,
		noRun: []string{"l", "list", "v", "validate", "k", "K", "reset-timestamp", "remove-timestamp", "V", "version", "e", "edit"}},
	"doas":    {withArg: []string{"u", "C"}, noRun: []string{"C", "L"}},
	"env":     {withArg: []string{"u", "unset", "C", "chdir", "S", "split-string", "block-signal", "default-signal", "ignore-signal"}, assigns: true},
	"command": {noRun: []string{"v", "V"}},
	"builtin": {},
	"exec":    {withArg: []string{"a"}},
	"nice":    {withArg: []string{"n", "adjustment"}},
	"nohup":   {},
	"timeout": {withArg: []string{"s", "signal", "k", "kill-after"}, skip: 1},
	"time":    {withArg: []string{"f", "format", "o", "output"}},
	"stdbuf":  {withArg: []string{"i", "o", "e", "input", "output", "error"}},
	"setsid":  {},
	"ionice":  {withArg: []string{"c", "class", "n", "classdata"}, noRun: []string{"p", "pid", "P", "pgid", "u", "uid"}},
	"busybox": {},
	"xargs": {withArg: []string{"a", "arg-file", "d", "delimiter", "E", "eof", "I", "replace", "L", "max-lines",
		"n", "max-args", "P", "max-procs", "s", "max-chars", "process-slot-var"}},
	"watch": {withArg: []string{"n", "interval", "d", "differences", "q", "equexit", "s", "shell"}},
}

// Shells whose -c takes code (bash(1), dash(1), zsh(1), ksh(1)).
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true,
	"mksh": true, "ash": true, "yash": true, "rbash": true, "fish": true}

// Options of shells that take an argument (bash(1) INVOCATION).
var shellWithArg = []string{"o", "O", "rcfile", "init-file"}

// interpreters read a program from standard input when given no script.
var interpreterRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|Rscript|tclsh[0-9.]*|osascript|deno|bun)$`)
})

// interpreterCode lists each interpreter's options that take program text.
var interpreterCode = map[string][]string{"python": {"c"}, "perl": {"e", "E"}, "ruby": {"e"},
	"node": {"e", "p", "eval", "print"}, "php": {"r"}, "lua": {"e"}, "Rscript": {"e"}}

// IsShell reports whether name (a basename) is a POSIX-like shell.
func IsShell(name string) bool { return shells[name] }

// IsInterpreter reports whether name (a basename) runs programs in another
// language (python, perl, node ...).
func IsInterpreter(name string) bool { return interpreterRe().MatchString(name) }

// unwrap looks at the command at idx and, if it runs other code given in its
// arguments, emits that code's commands with idx as their parent.
func (p *parser) unwrap(idx int) {
	c := p.cmds[idx]
	if len(c.Args) == 0 || p.err != nil {
		return
	}
	if c.Args[0].Dynamic {
		p.cmds[idx].Unknown = "the command name is only known at run time"
		return
	}
	name := path.Base(c.Args[0].Text)
	switch {
	case name == "eval":
		p.evalCode(idx)
	case name == "trap":
		p.trapCode(idx)
	case (name == "source" || name == ".") && len(c.Args) > 1 && isStdinPath(c.Args[1]):
		p.stdinCode(idx, "sh") // `source /dev/stdin`
	case name == "source" || name == ".":
		p.cmds[idx].Unknown = "source runs a file's code, which is not checked"
		p.cmds[idx].Feeders = p.children(idx)
	case name == "find":
		p.findExec(idx)
	case shells[name]:
		p.shellCode(idx)
	case IsInterpreter(name):
		p.interpreterCode(idx, name)
	default:
		spec, ok := wrappers[name]
		if ok {
			p.wrapped(idx, name, spec)
		}
	}
}

// scanOpts walks the options of a wrapper starting at args[1]. It returns
// the index of the first word after the options, the assignments found, and
// the options seen (letters and long names).
func scanOpts(args []Word, spec optSpec) (int, []Assign, []string, bool) {
	var assigns []Assign
	var seen []string
	i := 1
	for i < len(args) {
		w := args[i]
		t := w.Text
		switch {
		case w.Dynamic && (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "$")):
			return i, assigns, seen, false // cannot tell option from command
		case t == "--":
			return i + 1, assigns, seen, true
		case strings.HasPrefix(t, "--"):
			name, _, hasVal := strings.Cut(t[2:], "=")
			seen = append(seen, name)
			i++
			if !hasVal && containsStr(spec.withArg, name) {
				i++
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			i++
			for j := 1; j < len(t); j++ {
				l := t[j : j+1]
				seen = append(seen, l)
				if containsStr(spec.withArg, l) {
					if j == len(t)-1 {
						i++ // argument is the next word
					}
					break
				}
			}
		case t == "-" && len(seen) == 0 && spec.assigns:
			seen = append(seen, "i") // `env -` is `env -i`
			i++
		case spec.assigns && isAssignWord(t):
			name, val, _ := strings.Cut(t, "=")
			assigns = append(assigns, Assign{Name: name, Value: val, Dynamic: w.Dynamic})
			i++
		default:
			return i, assigns, seen, true
		}
	}
	return i, assigns, seen, true
}

var assignRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

func isAssignWord(t string) bool { return assignRe().MatchString(t) }

// wrapped handles a wrapper from the table: its inner command is emitted as
// a command of its own.
func (p *parser) wrapped(idx int, name string, spec optSpec) {
	c := p.cmds[idx]
	i, assigns, seen, ok := scanOpts(c.Args, spec)
	if !ok {
		p.cmds[idx].Unknown = name + " is given an option that is only known at run time"
		return
	}
	for _, o := range seen {
		if containsStr(spec.noRun, o) {
			return
		}
		if name == "env" && (o == "S" || o == "split-string") {
			p.cmds[idx].Unknown = "env -S splits its argument into a command at run time"
			return
		}
	}
	optEnd := i
	i += spec.skip
	if name == "xargs" {
		p.xargs(idx, i, seen)
		return
	}
	if i >= len(c.Args) {
		return // `env`, `sudo -i`, `nohup`: no command given
	}
	if name == "watch" && !containsStr(seen, "x") && !containsStr(seen, "exec") {
		// watch passes its words joined by spaces to `sh -c`.
		p.reparse(idx, joinWords(c.Args[i:]), "watch", false)
		return
	}
	inner := Command{
		Args:    c.Args[i:],
		Assigns: append(append([]Assign(nil), c.Assigns...), assigns...),
		Offset:  c.Args[i].Offset, End: c.End, Text: c.Text,
		Parent: idx, Inner: -1, TrailingArgs: c.TrailingArgs,
	}
	if name == "busybox" && len(inner.Args) > 0 {
		inner.Args[0].Text = path.Base(inner.Args[0].Text)
	}
	if dir, ok := wrapperDir(name, spec, c.Args[1:optEnd]); ok {
		// The command runs in another directory: its relative paths
		// resolve there. The shell's own directory does not change.
		saved := p.state
		here := p.state.here()
		if dir.Dynamic {
			p.state.setDirs(here.withUnknown())
		} else {
			p.state.setDirs(here.moved(dir.Text))
		}
		p.emitInner(idx, inner, name)
		p.state.ok, p.state.fail, p.state.live = saved.ok, saved.fail, saved.live
		return
	}
	p.emitInner(idx, inner, name)
}

// wrapperDir returns the directory a wrapper's options make the wrapped
// command run in: `env -C DIR`/`--chdir=DIR` (env(1)), `sudo -D DIR`/
// `--chdir=DIR` (sudo(8)). `sudo -i` starts in the target user's home,
// which is not known here: the directory is dynamic.
func wrapperDir(name string, spec optSpec, opts []Word) (Word, bool) {
	var letter string
	switch name {
	case "env":
		letter = "C"
	case "sudo":
		letter = "D"
	default:
		return Word{}, false
	}
	var dir Word
	found := false
	for i := 0; i < len(opts); i++ {
		w := opts[i]
		t := w.Text
		switch {
		case strings.HasPrefix(t, "--"):
			long, val, hasVal := strings.Cut(t[2:], "=")
			switch {
			case long == "chdir" && hasVal:
				dir, found = Word{Text: val, Dynamic: w.Dynamic, Offset: w.Offset}, true
			case long == "chdir" && i+1 < len(opts):
				dir, found = opts[i+1], true
				i++
			case name == "sudo" && long == "login":
				dir, found = Word{Text: "~", Dynamic: true, Offset: w.Offset}, true
			case !hasVal && containsStr(spec.withArg, long):
				i++
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				l := t[j : j+1]
				if name == "sudo" && l == "i" {
					dir, found = Word{Text: "~", Dynamic: true, Offset: w.Offset}, true
					continue
				}
				if l != letter && !containsStr(spec.withArg, l) {
					continue
				}
				var val Word
				if j < len(t)-1 {
					val = Word{Text: t[j+1:], Dynamic: w.Dynamic, Offset: w.Offset}
				} else if i+1 < len(opts) {
					val = opts[i+1]
					i++
				}
				if l == letter {
					dir, found = val, true
				}
				break
			}
		}
	}
	return dir, found
}

// emitInner adds the command that the wrapper at idx runs. Each wrapper is
// a level of nesting (`sudo sudo ... ls`).
func (p *parser) emitInner(idx int, inner Command, via string) {
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	savedVia, savedParent := p.via, p.parent
	p.via = appendVia(p.cmds[idx].Via, via)
	p.parent = idx
	// Keep the wrapper's own context (directory, taint) for the inner one.
	inner.Via = nil
	at := len(p.cmds)
	p.cmds[idx].Inner = at
	p.emit(inner)
	p.via, p.parent = savedVia, savedParent
}

// reparse parses literal code held by the command at idx (`bash -c '...'`,
// `eval '...'`, `watch 'cmd'`) and emits its commands under idx. same says
// the code runs in the shell that walks it (`eval`), so what it changes
// (directory, variables) stays for later commands.
func (p *parser) reparse(idx int, code Word, via string, same bool) {
	if code.Dynamic {
		p.cmds[idx].Unknown = via + " runs code that is only known at run time"
		p.cmds[idx].Feeders = p.children(idx)
		return
	}
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	savedVia, savedParent, savedUp := p.via, p.parent, p.upstream
	p.via = appendVia(p.cmds[idx].Via, via)
	p.parent = idx
	at := len(p.cmds)
	if same {
		p.parseInto(code.Text, -1, &code)
	} else {
		p.subshell(func() { p.parseInto(code.Text, -1, &code) })
	}
	if len(p.cmds) > at {
		p.cmds[idx].Inner = at
	}
	p.via, p.parent, p.upstream = savedVia, savedParent, savedUp
}

// evalCode: `eval` joins its arguments with spaces and runs the result.
func (p *parser) evalCode(idx int) {
	args := p.cmds[idx].Args[1:]
	if len(args) == 0 {
		return
	}
	p.reparse(idx, joinWords(args), "eval", true)
}

// trapCode: `trap ARG SIGNAL...` runs ARG as code when a signal comes or
// the shell exits (bash(1) trap). `trap -l`, `trap -p`, `trap SIGNAL` and
// `trap - SIGNAL` run nothing.
func (p *parser) trapCode(idx int) {
	args := p.cmds[idx].Args[1:]
	if len(args) > 0 && !args[0].Dynamic && strings.HasPrefix(args[0].Text, "-") && args[0].Text != "-" {
		if args[0].Text != "--" {
			return
		}
		args = args[1:]
	}
	if len(args) < 2 || !args[0].Dynamic && (args[0].Text == "-" || args[0].Text == "") {
		return
	}
	p.reparse(idx, args[0], "trap", false)
}

func joinWords(ws []Word) Word {
	out := Word{Offset: ws[0].Offset}
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Text
		out.Dynamic = out.Dynamic || w.Dynamic
	}
	out.Text = strings.Join(parts, " ")
	return out
}

// shellCode handles `sh -c CODE`, `bash script`, `bash -s`, `... | sh`,
// `bash <<EOF`, `bash <<< CODE` (bash(1) INVOCATION).
func (p *parser) shellCode(idx int) {
	c := p.cmds[idx]
	hasC, stdin, noexec := false, false, false
	i := 1
	for i < len(c.Args) {
		w := c.Args[i]
		t := w.Text
		if w.Dynamic && strings.HasPrefix(t, "$") {
			p.cmds[idx].Unknown = "a shell is given an argument only known at run time"
			p.cmds[idx].Feeders = p.children(idx)
			return
		}
		if t == "--" || t == "-" {
			i++
			break
		}
		if strings.HasPrefix(t, "--") {
			name := strings.TrimPrefix(t, "--")
			i++
			if containsStr(shellWithArg, name) {
				i++
			}
			continue
		}
		if (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+")) && len(t) > 1 {
			i++
			for _, l := range t[1:] {
				switch {
				case l == 'c' && t[0] == '-':
					hasC = true
				case l == 's' && t[0] == '-':
					stdin = true
				case l == 'n' && t[0] == '-':
					noexec = true
				case l == 'o' || l == 'O':
					i++
				}
			}
			continue
		}
		break
	}
	switch {
	case noexec:
		// -n reads commands without running them.
	case hasC:
		if i < len(c.Args) {
			// The code is in that shell's dialect when it is bash or zsh.
			saved := p.dialect
			if d, ok := ParseDialect(c.Args[0].Text); ok && d != Sh {
				p.dialect = d
			}
			p.reparse(idx, c.Args[i], path.Base(c.Args[0].Text)+" -c", false)
			p.dialect = saved
		} else if c.TrailingArgs {
			// `... | xargs sh -c`: the code is what xargs reads.
			p.cmds[idx].Unknown = "a shell runs code that xargs reads from its input"
			p.cmds[idx].Feeders = p.upstream[:len(p.upstream):len(p.upstream)]
		}
	case i < len(c.Args) && isStdinPath(c.Args[i]):
		p.stdinCode(idx, "sh") // `bash /dev/stdin`
	case i < len(c.Args) && !stdin:
		p.cmds[idx].Unknown = "a shell runs the script " + c.Args[i].Text + ", which is not checked"
		p.cmds[idx].Feeders = p.children(idx)
	default:
		p.stdinCode(idx, "sh")
	}
}

// stdinCode marks a shell or interpreter that reads its program from
// standard input, and parses it when it is a literal here-document or
// here-string.
func (p *parser) stdinCode(idx int, kind string) {
	c := p.cmds[idx]
	for _, r := range c.Redirects {
		if r.Fd > 0 {
			continue
		}
		switch r.Op {
		case "<<", "<<-", "<<<":
			if kind == "sh" {
				p.reparse(idx, r.Target, "heredoc", false)
			} else if r.Target.Dynamic {
				p.cmds[idx].Unknown = "a program is fed from text only known at run time"
				p.cmds[idx].Feeders = p.children(idx)
			}
			return
		case "<", "<>":
			p.cmds[idx].Unknown = "a program is read from " + r.Target.Text + ", which is not checked"
			p.cmds[idx].Feeders = p.children(idx)
			return
		}
	}
	if kind == "sh" {
		// `echo 'rm -rf /' | sh`: a literal script, walked as code.
		if text, ok := p.literalOutput(p.upstream); ok {
			p.reparse(idx, Word{Text: text, Offset: c.Offset}, "pipe", false)
			return
		}
	}
	p.cmds[idx].StdinCode = true
	// Share the list: later stages only append past its end.
	p.cmds[idx].Feeders = p.upstream[:len(p.upstream):len(p.upstream)]
}

// interpreterCode handles python, perl, node ...: code from a dynamic -c/-e
// or from standard input can be remote content.
func (p *parser) interpreterCode(idx int, name string) {
	c := p.cmds[idx]
	family := strings.TrimRight(name, "0123456789.")
	codeOpts := interpreterCode[family]
	for i := 1; i < len(c.Args); i++ {
		t := c.Args[i].Text
		if !strings.HasPrefix(t, "-") || t == "-" {
			if t == "-" || isStdinPath(c.Args[i]) {
				p.stdinCode(idx, family)
				return
			}
			if c.Args[i].Dynamic {
				p.cmds[idx].Unknown = name + " runs a program only known at run time"
				p.cmds[idx].Feeders = p.children(idx)
			}
			return // a script file
		}
		opt := strings.TrimLeft(t, "-")
		for _, co := range codeOpts {
			if opt == co || (len(co) == 1 && strings.HasPrefix(opt, co) && !strings.HasPrefix(t, "--")) {
				if i+1 < len(c.Args) && c.Args[i+1].Dynamic {
					p.cmds[idx].Unknown = name + " runs code only known at run time"
					p.cmds[idx].Feeders = p.children(idx)
				}
				return
			}
		}
		if family == "python" && strings.HasPrefix(t, "-m") {
			return // python -m module
		}
	}
	p.stdinCode(idx, family)
}

// xargs: the command after the options runs with arguments read from
// standard input appended (or substituted for the -I string).
func (p *parser) xargs(idx, i int, seen []string) {
	c := p.cmds[idx]
	var args []Word
	if i < len(c.Args) {
		args = append([]Word(nil), c.Args[i:]...)
	} else {
		args = []Word{{Text: "echo", Offset: c.Offset}}
	}
	// Only xargs's own options (before i) can set the replace string.
	repl := xargsReplace(c.Args[:min(i, len(c.Args))])
	if repl != "" {
		for j := range args {
			if strings.Contains(args[j].Text, repl) {
				args[j].Dynamic = true
			}
		}
	}
	trailing := repl == ""
	if trailing {
		// `echo / | xargs rm -rf`: the input is known, so are the words.
		if more, ok := p.xargsLiteralArgs(seen, c.Offset); ok {
			args = append(args, more...)
			trailing = false
		}
	}
	// With -I/-i the input replaces the marked words and nothing is
	// appended (xargs(1)).
	inner := Command{Args: args, Offset: args[0].Offset, End: c.End, Text: c.Text, Parent: idx, Inner: -1, TrailingArgs: trailing}
	p.emitInner(idx, inner, "xargs")
}

func xargsReplace(args []Word) string {
	for i, w := range args {
		t := w.Text
		switch {
		case t == "-I" && i+1 < len(args):
			return args[i+1].Text
		case strings.HasPrefix(t, "-I"):
			return t[2:]
		case strings.HasPrefix(t, "--replace="):
			return strings.TrimPrefix(t, "--replace=")
		case t == "-i" || t == "--replace":
			return "{}"
		case strings.HasPrefix(t, "-i"):
			return t[2:]
		}
	}
	return ""
}

// findExec emits the commands of find's -exec, -execdir, -ok and -okdir
// (find(1) ACTIONS). `{}` stands for each file found.
func (p *parser) findExec(idx int) {
	c := p.cmds[idx]
	for i := 1; i < len(c.Args); i++ {
		switch c.Args[i].Text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(c.Args) && c.Args[j].Text != ";" && c.Args[j].Text != "+" {
			j++
		}
		if j == i+1 {
			continue
		}
		args := append([]Word(nil), c.Args[i+1:j]...)
		for k := range args {
			if strings.Contains(args[k].Text, "{}") {
				args[k].Dynamic = true
			}
		}
		via := "find " + c.Args[i].Text
		inner := Command{Args: args, Offset: args[0].Offset, End: c.End, Text: c.Text, Parent: idx, Inner: -1}
		savedVia, savedParent, savedState := p.via, p.parent, p.state
		p.via = appendVia(c.Via, via)
		p.parent = idx
		if c.Args[i].Text == "-execdir" || c.Args[i].Text == "-okdir" {
			// Runs in the directory of each file found.
			p.state.setDirs(p.state.here().withUnknown())
		}
		if p.enter() {
			p.emit(inner)
		}
		p.leave()
		p.via, p.parent = savedVia, savedParent
		p.state.ok, p.state.fail, p.state.live = savedState.ok, savedState.fail, savedState.live
		i = j
	}
}

// children lists the commands found in the words of the command at idx
// (its substitutions), for when those words are code it runs. It is called
// while idx is being completed, when every command after idx came from its
// words. For a command that a wrapper runs (`sudo sh -c "$(curl x)"`), the
// words are the wrapper's, so the wrapper's substitutions count too.
func (p *parser) children(idx int) []int {
	first := idx
	for {
		par := p.cmds[first].Parent
		if par < 0 || par >= first || p.cmds[par].Inner != first {
			break
		}
		first = par
	}
	var out []int
	for i := first + 1; i < len(p.cmds); i++ {
		if i != idx {
			out = append(out, i)
		}
	}
	return out
}
