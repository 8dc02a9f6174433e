package shellparse

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
	"mvdan.cc/sh/v3/syntax"
)

// IsShell reports whether name (a basename) is a POSIX-like shell: the
// shells whose -c takes code (bash(1), dash(1), zsh(1), ksh(1)).
func IsShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "rbash", "fish":
		return true
	}
	return false
}

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
	if len(c.Assigns) > 0 && p.readsCodeInEnv(&c) {
		p.checkLocale(c.Assigns, c.Offset) // `LC_ALL=zh_CN.GBK bash -c ...`
	}
	name := path.Base(c.Args[0].Text)
	reader := cmdmodel.CodeReaderOf(name)
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
	case reader == cmdmodel.FindCode:
		p.findExec(idx)
	case reader == cmdmodel.GitCode:
		p.gitCode(idx)
	case reader == cmdmodel.MakeCode:
		p.makeCode(idx)
	case reader == cmdmodel.AtCode:
		p.atCode(idx)
	case reader == cmdmodel.CrontabCode:
		p.crontabCode(idx)
	case IsShell(name):
		p.shellCode(idx)
	case cmdmodel.IsInterpreter(name):
		p.interpreterCode(idx, name)
	case cmdmodel.IsAwk(name):
		p.awkCode(idx)
	default:
		if s, ok := cmdmodel.LookupSpec(name, true); ok {
			p.wrapped(idx, name, s)
		}
	}
}

var assignRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

func isAssignWord(t string) bool { return assignRe().MatchString(t) }

// wrapped handles a wrapper from the table: its inner command is emitted as
// a command of its own. A command line the model does not understand (an
// unknown option, an ambiguous abbreviation, a word only known at run
// time) makes the wrapper Unknown: it is not transparent, and the danger
// layer sees every word that could start the wrapped command (readings).
func (p *parser) wrapped(idx int, name string, s *cmdmodel.Spec) {
	c := p.cmds[idx]
	l := s.Scan(&c.Command)
	for _, it := range l.Items {
		// env -S: the words after the string are read again, as env
		// reads them, after the split (envSplitCommand); what the scan
		// made of them here does not count.
		if s.SplitsWith(it.Opt) {
			p.envSplitCommand(idx, l, it)
			return
		}
		if l.Err == "" && s.RunsNothingWith(it.Opt) {
			return
		}
	}
	if l.Err != "" {
		p.cmds[idx].Unknown = name + ": " + l.Err
		p.readings(idx, name, l)
		return
	}
	i := l.End + s.Skip
	if s.ArgsFromInput() {
		p.xargs(idx, i, name, l)
		return
	}
	if i >= len(c.Args) {
		return // `env`, `sudo -i`, `nohup`: no command given
	}
	if s.RunsJoinedByShell(l) {
		// watch passes its words joined by spaces to `sh -c`.
		p.reparse(idx, joinWords(c.Args[i:]), name, false)
		return
	}
	inner := Command{Command: cmdmodel.Command{Args: c.Args[i:], Assigns: append(append([]cmdmodel.Assign(nil), c.Assigns...), l.Assigns...), Offset: c.Args[i].Offset, TrailingArgs: c.TrailingArgs}, End: c.End, Text: c.Text, Parent: idx, Inner: -1}
	if s.RunsApplets() && len(inner.Args) > 0 {
		inner.Args[0].Text = path.Base(inner.Args[0].Text)
	}
	if dir, ok := cmdmodel.WrapperDir(name, s, l); ok {
		// The command runs in another directory: its relative paths
		// resolve there. The shell's own directory does not change.
		saved := p.state
		here := p.state.here()
		if dir.Dynamic {
			p.state.setDirs(here.withUnknown())
		} else {
			p.state.setDirs(here.chdir(dir.Text))
		}
		p.emitInner(idx, inner, name)
		p.state.ok, p.state.fail, p.state.live = saved.ok, saved.fail, saved.live
		return
	}
	p.emitInner(idx, inner, name)
}

// readings emits, for a wrapper whose command line is not understood,
// each word after its name that could start the wrapped command under
// some reading of the options, as a command of its own marked Unknown:
// the danger layer judges every one (`env --frob rm -rf ~` may run
// `rm -rf ~`), and none of them can be allowed.
func (p *parser) readings(idx int, name string, l *cmdmodel.Cmdline) {
	c := p.cmds[idx]
	for i := 2; i < len(c.Args); i++ {
		t := c.Args[i].Text
		if c.Args[i].Dynamic || t == "" || t[0] == '-' || isAssignWord(t) {
			continue
		}
		inner := Command{Command: cmdmodel.Command{Args: c.Args[i:], Assigns: c.Assigns, Offset: c.Args[i].Offset, TrailingArgs: c.TrailingArgs}, End: c.End, Text: c.Text, Parent: idx, Inner: -1, Unknown: "one reading of " + name + "'s options runs it"}
		if !p.enter() {
			p.leave()
			return
		}
		savedVia, savedParent := p.via, p.parent
		p.via = appendVia(p.cmds[idx].Via, name)
		p.parent = idx
		p.emit(inner)
		p.via, p.parent = savedVia, savedParent
		p.leave()
	}
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
		// Another shell, or code run later (trap): its glob options are
		// not this shell's.
		p.otherShell++
		p.subshell(func() { p.parseInto(code.Text, -1, &code) })
		p.otherShell--
	}
	if len(p.cmds) > at {
		p.cmds[idx].Inner = at
	}
	p.via, p.parent, p.upstream = savedVia, savedParent, savedUp
}

// shellDialects are the dialects code given to the shell named name is
// judged in: its own, and for a shell that is not bash or zsh, bash's
// too (the strictest reading wins). /bin/sh is dash on Debian and bash
// elsewhere, and a word such as `time` is a keyword in one and a program
// in the other (`sh -c 'time -o FILE true'` writes FILE under dash).
// nil for a shell whose language is not parsed (fish); `source` and `.`
// run code in the current shell, cur.
func shellDialects(name string, cur Dialect) []Dialect {
	switch path.Base(name) {
	case "fish":
		return nil
	case "bash", "rbash":
		return []Dialect{Bash}
	case "zsh":
		return []Dialect{Zsh}
	case "sh", "dash", "ash", "yash", "posix":
		return []Dialect{Sh, Bash}
	case "ksh", "mksh", "ksh93", "pdksh", "oksh", "lksh":
		return []Dialect{korn, Bash}
	}
	return []Dialect{cur}
}

// reparseShell parses code a shell runs (`sh -c CODE`, a here-document or
// a literal script piped into it) in each of the shell's dialects
// (shellDialects); the command's Inner is the first reading's. Code that
// does not parse in one of them is a parse error of the script: an ask.
func (p *parser) reparseShell(idx int, code Word, via string) {
	c := &p.cmds[idx]
	ds := shellDialects(c.Args[0].Text, p.dialect)
	if len(ds) == 0 {
		c.Unknown = "the shell " + path.Base(c.Args[0].Text) + " runs code in a language that is not analysed"
		c.Feeders = p.children(idx)
		return
	}
	p.reparseDialects(idx, code, via, ds)
}

// reparseDialects parses code in each of the dialects ds, as reparseShell
// does; a program that runs code with /bin/sh -c (awk's system()) passes
// shellDialects("sh", ...).
func (p *parser) reparseDialects(idx int, code Word, via string, ds []Dialect) {
	if len(ds) > 1 && !code.Dynamic && sameTree(ds[0], ds[1], code.Text) {
		ds = ds[:1] // one reading: the dialects parse the code alike
	}
	saved := p.dialect
	inner := -1
	for _, d := range ds {
		p.dialect = d
		p.reparse(idx, code, via, false)
		if inner < 0 {
			inner = p.cmds[idx].Inner
		}
	}
	p.dialect = saved
	p.cmds[idx].Inner = inner
}

// sameTree reports whether text parses to the same syntax tree in the
// dialects a and b (both without error).
func sameTree(a, b Dialect, text string) bool {
	if checkNesting(text) != nil {
		return false
	}
	pa, pb := &parser{dialect: a}, &parser{dialect: b}
	fa, err := parseFile(pa.lang(), text)
	if err != nil {
		return false
	}
	fb, err := parseFile(pb.lang(), text)
	if err != nil {
		return false
	}
	var da, db strings.Builder
	if syntax.DebugPrint(&da, fa) != nil || syntax.DebugPrint(&db, fb) != nil {
		return false
	}
	return da.String() == db.String()
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
	// The code runs later, at exit, on a signal or around each later
	// command (ERR, DEBUG, RETURN): in whatever directory the shell is in
	// then, and after whatever links the script made.
	start := len(p.cmds)
	p.reparse(idx, args[0], "trap", false)
	for i := start; i < len(p.cmds); i++ {
		p.cmds[i].DirDynamic = true
	}
	p.spans = append(p.spans, span{start, len(p.cmds), spanAnytime})
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
// `bash <<EOF`, `bash <<< CODE`, as the command model reads a shell's
// start (cmdmodel.ReadShellStart).
func (p *parser) shellCode(idx int) {
	c := p.cmds[idx]
	st := cmdmodel.ReadShellStart(c.Args)
	if st.Dynamic {
		p.cmds[idx].Unknown = "a shell is given an argument only known at run time"
		p.cmds[idx].Feeders = p.children(idx)
		return
	}
	i, hasC, stdin, noexec, startup := st.Operand, st.Code, st.Stdin, st.NoExec, st.Startup
	if startup != "" && !noexec {
		defer func() {
			p.cmds[idx].Unknown = "the shell runs start-up files (" + startup + "), which are not checked"
		}()
	}
	switch {
	case noexec:
		// -n reads commands without running them.
	case hasC:
		if i < len(c.Args) {
			p.reparseShell(idx, c.Args[i], path.Base(c.Args[0].Text)+" -c")
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
	if r, found := stdinRedirect(c.Redirects); found {
		switch {
		case r.Op == "<" || r.Op == "<>":
			p.cmds[idx].Unknown = "a program is read from " + r.Target.Text + ", which is not checked"
			p.cmds[idx].Feeders = p.children(idx)
		case kind == "sh":
			p.reparseShell(idx, r.Target, "heredoc")
		case r.Target.Dynamic:
			p.cmds[idx].Unknown = "a program is fed from text only known at run time"
			p.cmds[idx].Feeders = p.children(idx)
		}
		return
	}
	if kind == "sh" {
		// `echo 'rm -rf /' | sh`: a literal script, walked as code.
		if texts, ok := p.stdinLiteral(); ok {
			// Each reading is parsed on its own: a quote one of them
			// opens must not hide what another runs.
			inner := -1
			for _, text := range texts {
				p.reparseShell(idx, Word{Text: text, Offset: c.Offset}, "pipe")
				if inner < 0 {
					inner = p.cmds[idx].Inner
				}
			}
			p.cmds[idx].Inner = inner
			return
		}
		// Only part of the input is literal (`{ cat f; echo 'rm -rf /'; }
		// | sh`): the shell's code is not known, but each literal piece
		// is some of it, and is judged as code too.
		for _, i := range p.upstream {
			texts, ok := p.literalOutput([]int{i})
			for _, text := range texts {
				if ok && strings.TrimSpace(text) != "" {
					p.reparseShell(idx, Word{Text: text, Offset: c.Offset}, "pipe")
				}
			}
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
	if cmdmodel.VersionOnly(&c.Command) {
		return // prints its version and exits (version_table.go)
	}
	family := cmdmodel.InterpreterFamily(name)
	codeOpts := cmdmodel.InterpreterCodeOpts(family)
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
				} else if code, ok := interpCodeWord(c.Args, i, co); ok {
					p.interpShellCode(idx, family, code)
				}
				return
			}
		}
		if cmdmodel.RunsModule(family, t) {
			return // python -m module
		}
		if cmdmodel.InterpreterOptTakesValue(c.Args, t) {
			i++ // python -W ARG, perl -I DIR: no script
		}
	}
	p.stdinCode(idx, family)
}

// xargs: the command after the options runs with arguments read from
// standard input appended (or substituted for the -I string).
func (p *parser) xargs(idx, i int, name string, l *cmdmodel.Cmdline) {
	c := p.cmds[idx]
	var args []Word
	if i < len(c.Args) {
		args = append([]Word(nil), c.Args[i:]...)
	} else {
		args = []Word{{Text: "echo", Offset: c.Offset}}
	}
	// Only xargs's own options can set the replace string (xargs(1):
	// -I STR, -i[STR] and --replace[=STR], "{}" by default).
	repl := ""
	for _, it := range l.Items {
		switch it.Opt {
		case "I", "i", "replace":
			repl = "{}"
			if it.Has {
				repl = l.Val(it).Text
			}
		}
	}
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
		var seen []string
		for _, it := range l.Items {
			seen = append(seen, it.Opt)
		}
		if more, ok := p.xargsLiteralArgs(seen, c.Offset); ok {
			args = append(args, more...)
			trailing = false
		}
	}
	// With -I/-i the input replaces the marked words and nothing is
	// appended (xargs(1)).
	inner := Command{Command: cmdmodel.Command{Args: args, Offset: args[0].Offset, TrailingArgs: trailing}, End: c.End, Text: c.Text, Parent: idx, Inner: -1}
	if trailing {
		p.xargsFeed(&inner, l)
	}
	p.emitInner(idx, inner, name)
}

// findExec emits the commands of find's -exec, -execdir, -ok and -okdir
// (find(1) ACTIONS). `{}` stands for each file found.
func (p *parser) findExec(idx int) {
	c := p.cmds[idx]
	for _, x := range cmdmodel.FindExecs(c.Args[1:]) {
		args := append([]Word(nil), c.Args[x.From+1:x.To+1]...) // (From, To count from c.Args[1])
		for k := range args {
			if strings.Contains(args[k].Text, "{}") {
				args[k].Dynamic = true
			}
		}
		via := "find " + x.Action
		inner := Command{Command: cmdmodel.Command{Args: args, Offset: args[0].Offset}, End: c.End, Text: c.Text, Parent: idx, Inner: -1}
		savedVia, savedParent, savedState := p.via, p.parent, p.state
		p.via = appendVia(c.Via, via)
		p.parent = idx
		if x.Action == "-execdir" || x.Action == "-okdir" {
			// Runs in the directory of each file found.
			p.state.setDirs(p.state.here().withUnknown())
		}
		if p.enter() {
			p.emit(inner)
		}
		p.leave()
		p.via, p.parent = savedVia, savedParent
		p.state.ok, p.state.fail, p.state.live = savedState.ok, savedState.fail, savedState.live
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
