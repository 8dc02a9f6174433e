package shellparse

import (
	"slices"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Code in git's configuration and environment.
//
// Some configuration values are commands git runs with the shell
// (git-config(1), git 2.39: "the value is passed to the shell"): given on
// the command line (`git -c alias.x='!rm -rf ~' x`, `git -c
// core.fsmonitor='…' status`), through GIT_CONFIG_PARAMETERS or
// GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, or as the
// environment variables git(1) lists (GIT_PAGER, GIT_SSH_COMMAND ...).
// Each such value is parsed as `sh -c` code and its commands are judged
// like any other, so a danger, a write outside the roots or a secret read
// written there is the same as written plainly. A value that names code
// git loads from elsewhere (core.hooksPath, include.path, protocol.ext)
// makes the command Unknown. TestRealGitConfigCode runs the real git with
// each key and checks that the value ran.

// gitCodeKey says how git uses the value of the configuration variable
// key (lowercased; a subsection keeps its place as "*"): "sh" for a
// command run by the shell, "bang" for one run by the shell only when
// the value starts with "!" (the rest is the command), "helper" for
// credential helpers, "elsewhere" for a value that points at code the
// gate cannot see, and "" for a value that runs nothing.
func gitCodeKey(key string) string {
	section, rest, _ := strings.Cut(strings.ToLower(key), ".")
	name, sub := rest, false
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		// section.subsection.name: the subsection is case-sensitive in
		// git, but no code key depends on its spelling.
		name, sub = rest[i+1:], true
	}
	k := section + "." + name
	if section == "pager" {
		return "sh" // pager.<cmd>
	}
	if !sub {
		switch k {
		case "core.editor", "sequence.editor", "core.pager", "core.sshcommand", "core.fsmonitor",
			"core.askpass", "core.gitproxy", "core.alternaterefscommand", "diff.external", "gpg.program",
			"interactive.difffilter", "sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd",
			"sendemail.smtpserver", "uploadpack.packobjectshook", "web.browser", "man.viewer", "instaweb.httpd":
			return "sh"
		case "credential.helper":
			return "helper"
		case "core.hookspath", "include.path":
			return "elsewhere"
		}
		if section == "alias" {
			return "bang"
		}
		return ""
	}
	switch k {
	case "diff.command", "diff.textconv", "merge.driver", "filter.clean", "filter.smudge", "filter.process",
		"difftool.cmd", "mergetool.cmd", "man.cmd", "browser.cmd", "trailer.command", "trailer.cmd",
		"remote.uploadpack", "remote.receivepack", "gpg.program", "gpg.defaultkeycommand", "tar.command",
		"sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd", "guitool.cmd":
		return "sh"
	case "credential.helper":
		return "helper"
	case "submodule.update":
		return "bang"
	case "includeif.path", "protocol.allow":
		return "elsewhere"
	}
	return ""
}

// gitEnvCode lists the environment variables whose value git (git(1)
// ENVIRONMENT VARIABLES) or the programs it starts run with the shell, or
// as a program: the editor, the pager, ssh, the external diff, the
// askpass helper, the proxy command; and the generic EDITOR, VISUAL,
// PAGER and LESSOPEN (less(1) INPUT PREPROCESSOR) that git, man and less
// read.
var gitEnvCode = []string{
	"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXTERNAL_DIFF",
	"GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND", "EDITOR", "VISUAL", "PAGER", "MANPAGER", "LESSOPEN",
	"LESSCLOSE",
}

// gitEnvElsewhere lists the variables that point git at code or
// configuration in files: what runs is not in the text.
var gitEnvElsewhere = []string{"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR",
	"GIT_ALLOW_PROTOCOL"}

// envCode judges the assignments that reach the command at idx (`X=v cmd`,
// `export X=v`, `env X=v cmd`): a value that git or the tools it starts
// run as a command is parsed as code.
func (p *parser) envCode(idx int) {
	c := &p.cmds[idx]
	as := c.Assigns
	if len(c.Args) > 0 && !c.Args[0].Dynamic {
		switch c.Args[0].Text {
		case "export", "declare", "typeset", "local", "readonly":
			// Their NAME=value words (noteDeclare reports them as words).
			for _, w := range c.Args[1:] {
				if name, val, ok := strings.Cut(w.Text, "="); ok && isAssignWord(w.Text) {
					as = append(as[:len(as):len(as)], cmdmodel.Assign{Name: name, Value: val, Dynamic: w.Dynamic})
				}
			}
		}
	}
	if len(as) == 0 {
		return
	}
	var keys, vals map[string]cmdmodel.Assign
	for _, a := range as {
		switch {
		case slices.Contains(gitEnvCode, a.Name):
			v := a.Value
			if a.Name == "LESSOPEN" || a.Name == "LESSCLOSE" {
				v = strings.TrimLeft(v, "|-")
			}
			p.valueCode(idx, Word{Text: v, Dynamic: a.Dynamic, Offset: c.Offset}, "$"+a.Name)
		case slices.Contains(gitEnvElsewhere, a.Name):
			p.cmds[idx].Unknown = a.Name + " points git at configuration or code in files, which is not checked"
		case a.Name == "GIT_CONFIG_PARAMETERS":
			p.gitConfigParameters(idx, a)
		case strings.HasPrefix(a.Name, "GIT_CONFIG_KEY_"):
			if keys == nil {
				keys = map[string]cmdmodel.Assign{}
			}
			keys[strings.TrimPrefix(a.Name, "GIT_CONFIG_KEY_")] = a
		case strings.HasPrefix(a.Name, "GIT_CONFIG_VALUE_"):
			if vals == nil {
				vals = map[string]cmdmodel.Assign{}
			}
			vals[strings.TrimPrefix(a.Name, "GIT_CONFIG_VALUE_")] = a
		}
	}
	// GIT_CONFIG_COUNT=N with GIT_CONFIG_KEY_i and GIT_CONFIG_VALUE_i
	// (git-config(1) ENVIRONMENT). Every pair is judged, whatever the
	// count says: the count may come from elsewhere.
	for n, k := range keys {
		v, ok := vals[n]
		if k.Dynamic {
			if ok {
				p.cmds[idx].Unknown = "GIT_CONFIG_KEY_" + n + " names a configuration variable only known at run time"
			}
			continue
		}
		if !ok {
			continue
		}
		p.gitConfigValue(idx, k.Name+"="+k.Value, k.Value, Word{Text: v.Value, Dynamic: v.Dynamic, Offset: c.Offset})
	}
	for n, v := range vals {
		if _, ok := keys[n]; !ok && !v.Dynamic && v.Value != "" {
			// A value whose key is set elsewhere: what it configures is
			// not known.
			p.cmds[idx].Unknown = "GIT_CONFIG_VALUE_" + n + " is given without its key"
		}
	}
}

// gitConfigParameters reads GIT_CONFIG_PARAMETERS, the variable git
// itself sets for `-c`: shell-quoted `'key'='value'` or `'key=value'`
// items separated by spaces (git config.c, git_config_from_parameters).
// Its words are read with the shell's own word syntax.
func (p *parser) gitConfigParameters(idx int, a cmdmodel.Assign) {
	if a.Dynamic {
		p.cmds[idx].Unknown = "GIT_CONFIG_PARAMETERS holds configuration only known at run time"
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader("x "+a.Value), "")
	var words []*syntax.Word
	if err == nil && len(f.Stmts) == 1 {
		if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(f.Stmts[0].Redirs) == 0 {
			words = call.Args[1:]
		}
	}
	if words == nil {
		p.cmds[idx].Unknown = "GIT_CONFIG_PARAMETERS is not in the form git writes"
		return
	}
	for _, w := range words {
		if !literalWord(w) {
			p.cmds[idx].Unknown = "GIT_CONFIG_PARAMETERS is not in the form git writes"
			return
		}
		text, err := expand.Literal(nil, w)
		if err != nil {
			p.cmds[idx].Unknown = "GIT_CONFIG_PARAMETERS is not in the form git writes"
			return
		}
		key, val, _ := strings.Cut(text, "=")
		p.gitConfigValue(idx, text, key, Word{Text: val, Offset: p.cmds[idx].Offset})
	}
}

// gitCode handles the configuration given to git on its command line:
// `-c key=value` and `--config-env=key=ENVVAR` (git(1) OPTIONS), and an
// alias the command line defines and then calls.
func (p *parser) gitCode(idx int) {
	c := p.cmds[idx]
	l := cmdmodel.GitGlobal(&c.Command)
	aliases := map[string]Word{}
	for _, it := range l.Items {
		switch it.Opt {
		case "c":
			v := l.Val(it)
			key, val, hasVal := strings.Cut(v.Text, "=")
			if v.Dynamic && !strings.Contains(key, "$") && hasVal {
				// `-c core.pager="$X"`: the key is known, the value not.
				p.gitConfigValue(idx, v.Text, key, Word{Text: val, Dynamic: true, Offset: v.Offset})
				continue
			}
			if v.Dynamic {
				p.cmds[idx].Unknown = "git -c is given configuration only known at run time"
				continue
			}
			if strings.EqualFold(key[:min(len(key), 6)], "alias.") && !strings.Contains(key[6:], ".") {
				aliases[strings.ToLower(key[6:])] = Word{Text: val, Offset: v.Offset}
			}
			p.gitConfigValue(idx, v.Text, key, Word{Text: val, Offset: v.Offset})
		case "config-env":
			v := l.Val(it)
			key, envName, _ := strings.Cut(v.Text, "=")
			if v.Dynamic || gitCodeKey(key) != "" {
				val, found := assignedValue(c.Assigns, envName)
				if !found || v.Dynamic {
					p.cmds[idx].Unknown = "git --config-env takes " + key + " from a variable only known at run time"
					continue
				}
				p.gitConfigValue(idx, v.Text, key, val)
			}
		}
	}
	if ops := l.Operands(); len(ops) > 0 && !ops[0].Dynamic {
		rest := c.Args[ops[0].At+1:]
		if ops[0].Text == "config" && l.Err == "" {
			p.gitConfigSet(idx, rest)
		}
		p.gitSubCode(idx, ops[0].Text, rest)
	}
	for _, w := range c.Args[1:] {
		if code, ok := strings.CutPrefix(w.Text, "ext::"); ok {
			// git-remote-ext(1): the URL is a command git runs (`% ` is a
			// space, `%%` a percent sign).
			p.cmds[idx].Unknown = "git is given an ext:: URL, whose command git runs"
			p.valueCode(idx, Word{Text: extCommand(code), Dynamic: w.Dynamic, Offset: w.Offset}, "git ext::")
		}
	}
	if len(aliases) == 0 || l.Err != "" {
		return
	}
	ops := l.Operands()
	if len(ops) == 0 || ops[0].Dynamic {
		return
	}
	val, ok := aliases[strings.ToLower(ops[0].Text)]
	if !ok || strings.HasPrefix(val.Text, "!") {
		return // a shell alias was judged as code above
	}
	// A git alias: git runs itself with the alias's words in place of its
	// name (git.c handle_alias, split_cmdline). Quoting in it is not
	// read: what would run is not known.
	if strings.ContainsAny(val.Text, `'"\`) {
		p.cmds[idx].Unknown = "git alias " + ops[0].Text + " holds quoting git splits at run time"
		return
	}
	fields := strings.Fields(val.Text)
	if len(fields) == 0 {
		return
	}
	args := append([]Word(nil), c.Args[:ops[0].At]...)
	for _, f := range fields {
		args = append(args, Word{Text: f, Offset: val.Offset})
	}
	args = append(args, c.Args[ops[0].At+1:]...)
	// The expansion is the command git runs; git refuses an alias that
	// only names itself, and the nesting bound stops a loop here.
	inner := Command{Command: cmdmodel.Command{Args: args, Assigns: c.Assigns, Offset: c.Offset, TrailingArgs: c.TrailingArgs}, End: c.End, Text: c.Text, Parent: idx, Inner: -1}
	p.emitInner(idx, inner, "git alias")
}

// gitConfigSet judges `git config [OPTIONS] NAME VALUE` and `git config
// set NAME VALUE` (git-config(1)): a value stored for a variable git runs
// with the shell is code the next git run executes, judged now like the
// same value given with -c. Options that take a value
// (cmdmodel.GitConfigValueOpt) are skipped with it.
func (p *parser) gitConfigSet(idx int, words []Word) {
	var ops []Word
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w.Dynamic && len(ops) < 2 {
			if gitCodeKeyMaybe(ops) {
				p.cmds[idx].Unknown = "git config is given a word only known at run time"
			}
			ops = append(ops, w)
			continue
		}
		switch t := w.Text; {
		case t == "--":
			ops = append(ops, words[i+1:]...)
			i = len(words)
		case cmdmodel.GitConfigValueOpt(t):
			i++
		case strings.HasPrefix(t, "-"):
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 && !ops[0].Dynamic && (ops[0].Text == "set" || ops[0].Text == "--add") {
		ops = ops[1:]
	}
	if len(ops) < 2 || ops[0].Dynamic {
		return
	}
	p.gitConfigValue(idx, ops[0].Text+"="+ops[1].Text, ops[0].Text, ops[1])
}

// gitCodeKeyMaybe reports whether the operands read so far leave the
// variable's name unknown or name one whose value is code.
func gitCodeKeyMaybe(ops []Word) bool {
	return len(ops) == 0 || ops[0].Dynamic || gitCodeKey(ops[0].Text) != ""
}

// extCommand is the command of an ext:: URL as shell text: git splits it
// at spaces into the argv it runs, `% ` standing for a space inside a
// word and `%%` for a percent sign (git-remote-ext(1)); each word is
// single-quoted so the shell reads the same argv.
func extCommand(url string) string {
	var words []string
	var cur strings.Builder
	for i := 0; i < len(url); i++ {
		switch {
		case url[i] == '%' && i+1 < len(url):
			i++
			cur.WriteByte(url[i]) // `% ` a space, `%%` a percent; %s, %S name the service
		case url[i] == ' ':
			words = append(words, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(url[i])
		}
	}
	words = append(words, cur.String())
	for i, w := range words {
		words[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(words, " ")
}

// gitSubCode judges what a git subcommand runs from its own words: the
// options of gitSubCodeOpts, `git bisect run CMD...` and `git submodule
// foreach CMD...` (their words, joined, as shell code).
func (p *parser) gitSubCode(idx int, sub string, words []Word) {
	switch sub {
	case "bisect", "submodule":
		want := map[string]string{"bisect": "run", "submodule": "foreach"}[sub]
		for i, w := range words {
			if w.Dynamic {
				p.cmds[idx].Unknown = "git " + sub + " is given a word only known at run time"
				return
			}
			if w.Text == want {
				rest := words[i+1:]
				for len(rest) > 0 && strings.HasPrefix(rest[0].Text, "-") {
					rest = rest[1:] // foreach --recursive, -q
				}
				if len(rest) > 0 {
					p.valueCode(idx, joinWords(rest), "git "+sub+" "+want)
				}
				return
			}
		}
		return
	}
	opts := cmdmodel.GitSubCodeOpts(sub)
	if opts == nil {
		return
	}
	for i := 0; i < len(words); i++ {
		t := words[i].Text
		if t == "--" {
			return
		}
		for _, o := range opts {
			var val Word
			found := false
			switch {
			case len(o) > 1 && strings.HasPrefix(t, "--"+o+"="):
				val, found = Word{Text: t[len(o)+3:], Dynamic: words[i].Dynamic, Offset: words[i].Offset}, true
			case len(o) > 1 && t == "--"+o && i+1 < len(words):
				val, found = words[i+1], true
			case len(o) == 1 && t == "-"+o && i+1 < len(words):
				val, found = words[i+1], true
			case len(o) == 1 && strings.HasPrefix(t, "-"+o) && !strings.HasPrefix(t, "--"):
				val, found = Word{Text: t[2:], Dynamic: words[i].Dynamic, Offset: words[i].Offset}, true
			}
			if found {
				p.valueCode(idx, val, "git "+sub+" --"+o)
			}
		}
	}
}

// assignedValue is the literal value given to name among as.
func assignedValue(as []cmdmodel.Assign, name string) (Word, bool) {
	for i := len(as) - 1; i >= 0; i-- {
		if as[i].Name == name {
			return Word{Text: as[i].Value, Dynamic: as[i].Dynamic}, true
		}
	}
	return Word{}, false
}

// gitConfigValue judges one configuration item (`key=value` as given,
// item) by gitCodeKey.
func (p *parser) gitConfigValue(idx int, item, key string, val Word) {
	via := "git config " + strings.ToLower(key)
	switch gitCodeKey(key) {
	case "sh":
		if strings.EqualFold(key, "core.fsmonitor") && !val.Dynamic && cmdmodel.GitBool(val.Text) {
			return // the built-in daemon, not a hook command
		}
		p.valueCode(idx, val, via)
	case "bang":
		if val.Dynamic {
			p.valueCode(idx, val, via) // may start with "!"
		} else if code, ok := strings.CutPrefix(val.Text, "!"); ok {
			val.Text = code
			p.valueCode(idx, val, via)
		}
	case "helper":
		// gitcredentials(7): "!cmd" is a shell snippet, an absolute path
		// is run as it is, and NAME is `git credential-NAME`; each runs
		// through the shell.
		switch {
		case val.Dynamic || strings.HasPrefix(val.Text, "/"):
			p.valueCode(idx, val, via)
		case strings.HasPrefix(val.Text, "!"):
			val.Text = val.Text[1:]
			p.valueCode(idx, val, via)
		case val.Text != "":
			val.Text = "git credential-" + val.Text
			p.valueCode(idx, val, via)
		}
	case "elsewhere":
		p.cmds[idx].Unknown = "git is configured with " + item + ", which points at code or configuration that is not checked"
	}
}

// valueCode parses a value another program runs with `sh -c` as code of
// the command at idx: its commands are judged like `sh -c`'s, and the
// command at idx stays what it is (it wraps nothing: its own words are
// still its own). A value only known at run time makes it Unknown.
func (p *parser) valueCode(idx int, code Word, via string) {
	if code.Dynamic {
		p.cmds[idx].Unknown = via + " runs a command only known at run time"
		p.cmds[idx].Feeders = p.children(idx)
		return
	}
	if strings.TrimSpace(code.Text) == "" {
		return
	}
	inner := p.cmds[idx].Inner
	p.reparseDialects(idx, code, via, shellDialects("sh", p.dialect))
	p.cmds[idx].Inner = inner
}
