package shellparse

import (
	"path"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// Programs that read shell code from a string or from standard input:
// make's makefile text (recipes and `$(shell ...)` are shell lines), and
// at, batch and crontab, which keep what they read to run later.

// stdinRedirect is the redirect that gives a command its standard input:
// the first of a here-document, a here-string or a file (`<`, `<>`) on
// fd 0 (`< /dev/stdin` is no redirect of the input).
func stdinRedirect(rs []cmdmodel.Redirect) (cmdmodel.Redirect, bool) {
	for _, r := range rs {
		if r.Fd > 0 {
			continue
		}
		switch r.Op {
		case "<<", "<<-", "<<<":
			return r, true
		case "<", "<>":
			if !isStdinPath(r.Target) {
				return r, true
			}
		}
	}
	return cmdmodel.Redirect{}, false
}

// stdinTexts is the text a command at idx reads on standard input, in
// each reading the shell may give it: a literal here-document or
// here-string, or the output of literal commands piped in. ok is false
// when the input is not known; why then says what it is.
func (p *parser) stdinTexts(idx int) (texts []string, ok bool, why string) {
	if r, found := stdinRedirect(p.cmds[idx].Redirects); found {
		switch {
		case r.Op == "<" || r.Op == "<>":
			return nil, false, r.Target.Text + ", which is not checked"
		case r.Target.Dynamic:
			return nil, false, "text only known at run time"
		case r.Op == "<<<":
			return []string{r.Target.Text + "\n"}, true, "" // bash adds a newline to a here-string
		}
		return []string{r.Target.Text}, true, ""
	}
	if texts, ok := p.stdinLiteral(); ok {
		return texts, true, ""
	}
	if len(p.upstream) > 0 {
		return nil, false, "the output of commands only known at run time"
	}
	return nil, false, "the standard input of the call"
}

// makeCode handles make and gmake given makefile text on the command
// line: `-f -`, `-f /dev/stdin` (and --file, --makefile) with a literal
// here-document, here-string or pipe, and `--eval=TEXT`/`-E TEXT` (GNU
// make 4.4, make(1)). The recipes in that text and its `$(shell ...)`
// calls are shell lines (GNU make manual, "Recipe Syntax", "The shell
// Function"), judged like `sh -c` code. A makefile read from a file is
// the project's code, as before: make is not safe, and what it runs is
// not in the text.
func (p *parser) makeCode(idx int) {
	c := p.cmds[idx]
	s, ok := cmdmodel.MakeSpec()
	if !ok {
		return
	}
	l := s.Scan(&c.Command)
	for _, it := range l.Items {
		if it.Opt == "" {
			// A variable given on the command line that changes how
			// recipes run (.RECIPEPREFIX, SHELL, .SHELLFLAGS).
			if v := l.Val(it); v.Dynamic || strings.Contains(v.Text, "=") && (strings.Contains(v.Text, ".RECIPEPREFIX") ||
				strings.HasPrefix(v.Text, "SHELL") || strings.Contains(v.Text, ".SHELLFLAGS")) {
				p.cmds[idx].Unknown = "make is given a variable that changes how recipes run"
			}
			continue
		}
		switch {
		case cmdmodel.MakefileOpt(it.Opt):
			v := l.Val(it)
			if v.Dynamic || !(v.Text == "-" || isStdinPath(v.Word)) {
				continue
			}
			texts, ok, why := p.stdinTexts(idx)
			if !ok {
				p.cmds[idx].Unknown = "make reads a makefile from " + why
				p.cmds[idx].Feeders = p.children(idx)
				continue
			}
			for _, t := range texts {
				p.makefileCode(idx, Word{Text: t, Offset: c.Offset}, "make -f -")
			}
		case cmdmodel.MakeEvalOpt(it.Opt):
			p.makefileCode(idx, l.Val(it).Word, "make --eval")
		}
	}
}

// makefileCode judges the shell code in makefile text: each recipe line
// (a line that starts with a tab, or the text after `;` on a rule line)
// and each `$(shell ...)` or `!=` assignment, with make's own `$$` read as
// `$` and a variable reference `$(NAME)`/`${NAME}` read as the shell's
// `${NAME}` (make takes its variables from the environment: `$(HOME)` is
// the home directory). What make would read from elsewhere (include,
// .RECIPEPREFIX, define, $(eval ...), other functions) is not known:
// Unknown.
func (p *parser) makefileCode(idx int, text Word, via string) {
	if text.Dynamic {
		p.cmds[idx].Unknown = via + " reads a makefile only known at run time"
		p.cmds[idx].Feeders = p.children(idx)
		return
	}
	lines := strings.Split(strings.ReplaceAll(text.Text, "\\\n", " "), "\n")
	for _, line := range lines {
		var code string
		switch {
		case strings.HasPrefix(line, "\t"):
			code = strings.TrimLeft(line[1:], "@-+ \t")
		default:
			// A comment runs to the end of a line that is no recipe.
			for i := 0; i < len(line); i++ {
				if line[i] == '\\' {
					i++
				} else if line[i] == '#' {
					line = line[:i]
					break
				}
			}
			trimmed := strings.TrimSpace(line)
			word, _, _ := strings.Cut(trimmed, " ")
			switch word {
			case "include", "-include", "sinclude", "define", "load", "-load", "vpath":
				p.cmds[idx].Unknown = via + ": the makefile reads " + word + ", which is not checked"
				continue
			}
			if strings.Contains(trimmed, ".RECIPEPREFIX") || strings.Contains(trimmed, ".SHELLFLAGS") ||
				strings.HasPrefix(trimmed, "SHELL") {
				p.cmds[idx].Unknown = via + ": the makefile changes how recipes run"
				continue
			}
			if name, val, ok := strings.Cut(trimmed, "!="); ok && !strings.ContainsAny(name, ":;") {
				code = val // `X != cmd` runs cmd
			} else if rule, recipe, ok := strings.Cut(trimmed, ";"); ok && strings.Contains(rule, ":") {
				code = recipe
			}
		}
		// Function calls anywhere in the line, recipes included.
		calls, ok := makeRefs(line)
		if !ok {
			p.cmds[idx].Unknown = via + ": the makefile holds a reference that is not read"
			continue
		}
		for _, call := range calls {
			switch {
			case strings.HasPrefix(call, "shell "):
				p.valueCode(idx, Word{Text: makeToShell(call[len("shell "):]), Offset: text.Offset}, via+" $(shell)")
			case strings.Contains(call, " "):
				p.cmds[idx].Unknown = via + ": the makefile calls $(" + call + "), which is not read"
			}
		}
		if strings.TrimSpace(code) != "" {
			p.valueCode(idx, Word{Text: makeToShell(code), Offset: text.Offset}, via)
		}
	}
}

// makeRefs lists the text inside each outermost `$(...)` and `${...}`
// of a makefile line (make(1) variable references and function calls);
// ok is false when one is not closed.
func makeRefs(line string) (refs []string, ok bool) {
	for i := 0; i < len(line); i++ {
		if line[i] != '$' || i+1 >= len(line) {
			continue
		}
		if line[i+1] == '$' {
			i++
			continue
		}
		open := line[i+1]
		if open != '(' && open != '{' {
			continue
		}
		closer := byte(')')
		if open == '{' {
			closer = '}'
		}
		depth := 0
		end := -1
		for j := i + 1; j < len(line) && end < 0; j++ {
			switch line[j] {
			case open:
				depth++
			case closer:
				depth--
				if depth == 0 {
					end = j
				}
			}
		}
		if end < 0 {
			return nil, false
		}
		refs = append(refs, line[i+2:end])
		i = end
	}
	return refs, true
}

// makeToShell is a recipe line as the shell receives it, as far as the
// text shows: `$$` is `$`, a reference `$(NAME)` or `${NAME}` is the
// shell's `${NAME}` (the environment's value), and any other reference
// (`$@`, `$(wildcard *)`) a value only known at run time.
func makeToShell(line string) string {
	var sb strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] != '$' || i+1 >= len(line) {
			sb.WriteByte(line[i])
			continue
		}
		next := line[i+1]
		switch next {
		case '$':
			sb.WriteByte('$')
			i++
		case '(', '{':
			refs, ok := makeRefs(line[i:])
			if !ok || len(refs) == 0 {
				sb.WriteString("${MAKE_REF}")
				i = len(line)
				continue
			}
			ref := refs[0]
			if isMakeName(ref) {
				sb.WriteString("${" + ref + "}")
			} else {
				sb.WriteString("${MAKE_REF}")
			}
			i += len(ref) + 2
		default:
			sb.WriteString("${MAKE_REF}") // `$@`, `$<`, `$X`
			i++
		}
	}
	return sb.String()
}

func isMakeName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// atCode handles at(1) and batch(1): with no -f FILE they read the job's
// shell commands from standard input and run them later with /bin/sh
// (cmdmodel.AtJobs reads their options).
func (p *parser) atCode(idx int) {
	c := p.cmds[idx]
	name := path.Base(c.Args[0].Text)
	switch cmdmodel.AtJobs(c.Args) {
	case cmdmodel.JobsDynamic:
		p.cmds[idx].Unknown = name + " is given a word only known at run time"
	case cmdmodel.JobsFromFile:
		p.cmds[idx].Unknown = name + " -f runs a file's commands later, which are not checked"
	case cmdmodel.JobsFromStdin:
		p.jobCode(idx, name, func(text string) []string { return []string{text} })
	}
}

// crontabCode handles crontab(1) given a table on standard input
// (`crontab -`, or no file): each entry's command is shell code cron runs
// later (crontab(5): five time fields or an @keyword, then the command;
// a `%` ends the command and starts its input). A file operand installs
// that file: not checked. cmdmodel.CrontabJobs reads the options.
func (p *parser) crontabCode(idx int) {
	switch cmdmodel.CrontabJobs(p.cmds[idx].Args) {
	case cmdmodel.JobsDynamic:
		p.cmds[idx].Unknown = "crontab is given a word only known at run time"
	case cmdmodel.JobsFromFile:
		p.cmds[idx].Unknown = "crontab installs a file's commands, which are not checked"
	case cmdmodel.JobsFromStdin:
		p.jobCode(idx, "crontab", crontabCommands)
	}
}

// jobCode judges the code a program reads on standard input to run later.
func (p *parser) jobCode(idx int, name string, commands func(string) []string) {
	texts, ok, why := p.stdinTexts(idx)
	if !ok {
		p.cmds[idx].Unknown = name + " runs commands it reads from " + why
		p.cmds[idx].Feeders = p.children(idx)
		return
	}
	for _, t := range texts {
		for _, code := range commands(t) {
			p.valueCode(idx, Word{Text: code, Offset: p.cmds[idx].Offset}, name)
		}
	}
}

// crontabCommands lists the commands of a crontab(5) table.
func crontabCommands(table string) []string {
	var out []string
	for _, line := range strings.Split(table, "\n") {
		line = strings.TrimLeft(line, " \t")
		if line == "" || line[0] == '#' {
			continue
		}
		fields := 5
		if line[0] == '@' {
			fields = 1
		} else if name, _, ok := strings.Cut(line, "="); ok && !strings.ContainsAny(name, " \t*") {
			// NAME=value; SHELL and BASH_ENV change what runs every
			// entry: the whole table is then not known.
			switch strings.TrimSpace(name) {
			case "SHELL", "BASH_ENV", "ENV":
				return []string{"${CRONTAB_SHELL_IS_NOT_KNOWN}"}
			}
			continue
		}
		rest := line
		for range fields {
			rest = strings.TrimLeft(rest, " \t")
			if i := strings.IndexAny(rest, " \t"); i >= 0 {
				rest = rest[i:]
			} else {
				rest = ""
			}
		}
		cmd := strings.TrimSpace(rest)
		// `%` (unless escaped) ends the command; the rest, its `%`s made
		// newlines, is its standard input, which may be code for a shell
		// (`sh%rm -rf ~`): judged as code too.
		input := ""
		for i := 0; i < len(cmd); i++ {
			if cmd[i] == '\\' {
				i++
			} else if cmd[i] == '%' {
				cmd, input = cmd[:i], strings.ReplaceAll(cmd[i+1:], "%", "\n")
				break
			}
		}
		if cmd != "" {
			out = append(out, strings.ReplaceAll(cmd, `\%`, "%"))
		}
		if strings.TrimSpace(input) != "" {
			out = append(out, input)
		}
	}
	return out
}
