package policy

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"

	"github.com/gatekeep/gatekeep/shellparse"
)

// riskyVar: the variable changes what any command runs or loads. A
// command with one of them assigned, or after one was set earlier in the
// script, is not safe and no allow rule matches it.
func riskyVar(name string) bool {
	switch name {
	case "PATH", "BASH_ENV", "ENV", "IFS", "CDPATH", "GLOBIGNORE", "SHELLOPTS", "BASHOPTS",
		"PAGER", "GIT_PAGER", "MANPAGER", "EDITOR", "VISUAL", "PROMPT_COMMAND", "PS4",
		"NODE_OPTIONS", "RUBYOPT", "PERL5OPT", "PERL5LIB", "HOME", "SHELL", "LESSOPEN", "LESSCLOSE",
		// XDG_CONFIG_HOME: git reads $XDG_CONFIG_HOME/git/config (core.pager,
		// diff.external ...); RIPGREP_CONFIG_PATH: rg reads its options
		// (--pre) from that file; GCONV_PATH, LOCPATH: glibc loads modules
		// and locale data from there; BROWSER: `git help -w` runs it.
		"XDG_CONFIG_HOME", "RIPGREP_CONFIG_PATH", "GCONV_PATH", "LOCPATH", "BROWSER",
		// Perl's library path (perlrun(1): PERLLIB, read by Perl scripts
		// such as shasum), zsh's start-up directory (zsh(1): ZDOTDIR),
		// gettext's catalogues (TEXTDOMAIN, TEXTDOMAINDIR), bash's command
		// tables (BASH_CMDS, BASH_ALIASES, EXECIGNORE), library paths of
		// Node, Ruby, Lua and the JVM.
		"PERLLIB", "ZDOTDIR", "TEXTDOMAIN", "TEXTDOMAINDIR", "BASH_CMDS", "BASH_ALIASES", "EXECIGNORE",
		"BASH_LOADABLES_PATH", "NODE_PATH", "RUBYLIB", "LUA_PATH", "LUA_CPATH", "LUA_INIT",
		"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "POSIXLY_CORRECT":
		return true
	}
	for _, prefix := range []string{"LD_", "DYLD_", "PYTHON", "GIT_", "BASH_FUNC_"} {
		if len(name) >= len(prefix) && name[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}

// safeLayer (2) allows a command that only reads, unless an explicit deny
// or ask rule matches it.
func safeLayer(e *evaluation, p *part) verdict {
	c := p.cmd
	if c == nil || c.Unknown != "" || c.StdinCode {
		return verdict{}
	}
	if why := e.notSafeContext(c); why != "" {
		return verdict{}
	}
	if len(c.Args) == 0 {
		// Only assignments or redirects; the files are judged as parts of
		// their own, and risky assignments were refused above.
		if len(c.Redirects) == 0 && len(c.Assigns) == 0 {
			return verdict{}
		}
		return e.safeUnlessRule(p, CodeSafeAssignment, "assigning variables or opening files only")
	}
	if c.IsWrapper() {
		if !transparentWrapper(c) {
			return verdict{}
		}
		return e.safeUnlessRule(p, CodeSafeWrapper, c.Name()+" runs a command that is checked on its own")
	}
	if e.safeShape(c) {
		return e.safeUnlessRule(p, CodeSafeReadOnly, onlyReads(c.Name()))
	}
	// Glob words: every way bash may expand them must be safe (glob.go).
	if p.alts == nil || !globSafe(p.alts, e.safeShape) {
		return verdict{}
	}
	return e.safeUnlessRule(p, CodeSafeReadOnly, c.Name()+" only reads, whatever its globs expand to")
}

// safeShape reports whether a command that is no wrapper only reads by
// its name and words: on the safe list, a bare name resolved outside the
// roots, git only in the project's repository.
func (e *evaluation) safeShape(c *shellparse.Command) bool {
	// The table first: it is cheap, and most commands that are not safe
	// stop there without a PATH lookup.
	sc := c
	g, gdirs := e.plainGitIn(c)
	if g != nil {
		sc = g // `cd DIR && git diff`, `git -C DIR status` in the same repository
	}
	if cmdmodel.IsGit(commandName(c)) && (!e.projectGit(c, gdirs) || cmdmodel.GitRuntimeObjects(&sc.Command) != "") {
		return false
	}
	if cmdmodel.ReadsProjectNpmrc(commandName(c)) && !cmdmodel.VersionOnly(&c.Command) && !e.noProjectNpmrc(c) {
		return false
	}
	return c.Bare() && safeCommand(sc) && e.resolvesOutsideRoots(c.Args[0].Text)
}

func (e *evaluation) safeUnlessRule(p *part, code, msg string) verdict {
	if v := e.ruleVerdict(p, Deny, Ask); v.ok {
		v.layer = LayerRules
		return v
	}
	return verdict{ok: true, effect: Allow, code: code, message: msg}
}

// notSafeContext returns why the command's environment keeps it from being
// safe: a variable assigned to it that is not on the allow-list of
// harmless names (cmdmodel.HarmlessEnv), or one that changes what runs
// set earlier in the script.
func (e *evaluation) notSafeContext(c *shellparse.Command) string {
	if len(c.Args) == 0 || shellBuiltin(c) {
		// `n=5` alone sets a shell variable, not exported; `X= true`
		// gives it to a builtin, which runs no program: only the names
		// that change what the shell runs matter (notRuleContext).
		return e.notRuleContext(c)
	}
	for _, a := range c.Assigns {
		if !cmdmodel.HarmlessEnv(a.Name) {
			return a.Name + " is set"
		}
	}
	return e.notRuleContext(c)
}

// notRuleContext returns why no allow rule may match the command (and it
// is no plain file edit): a variable that changes what any command runs
// (riskyVar), or what this one runs by the command model
// (cmdmodel.ToolEnv: MAKEFLAGS for make), set on it or earlier.
// Other names (`CI=true make test`) do not keep a rule from matching.
func (e *evaluation) notRuleContext(c *shellparse.Command) string {
	if c.UserFunc {
		return "it calls " + c.Args[0].Text + ", a function the script defines"
	}
	for _, a := range c.Assigns {
		if riskyVar(a.Name) || cmdmodel.ToolEnv(&c.Command, c.IsWrapper(), a.Name) {
			return a.Name + " is set"
		}
	}
	if n := len(c.Tainted); n > 0 {
		// The commands of one script share one growing Tainted list (each
		// sees a prefix of it): scan each list once, however many
		// commands see it.
		sc := e.taintScan[&c.Tainted[0]]
		if sc == nil {
			sc = &taintScan{risky: -1}
			if e.taintScan == nil {
				e.taintScan = map[*string]*taintScan{}
			}
			e.taintScan[&c.Tainted[0]] = sc
		}
		for ; sc.scanned < n && sc.risky < 0; sc.scanned++ {
			if riskyVar(c.Tainted[sc.scanned]) {
				sc.risky = sc.scanned
			}
		}
		if sc.risky >= 0 && sc.risky < n {
			return c.Tainted[sc.risky] + " was set earlier"
		}
	}
	if n := len(c.Tainted); n > 0 && cmdmodel.HasToolEnv(&c.Command, c.IsWrapper()) {
		for _, name := range c.Tainted {
			if cmdmodel.ToolEnv(&c.Command, c.IsWrapper(), name) {
				return name + " was set earlier"
			}
		}
	}
	return ""
}

// taintScan is how far one shared Tainted list has been scanned, and the
// index of its first variable that changes what runs (-1: none yet).
type taintScan struct {
	scanned, risky int
}

// transparentWrapper: wrappers that add nothing of their own, so the
// command they run decides. One that raises privilege
// (cmdmodel.RaisesPrivilege: sudo, doas) never does.
func transparentWrapper(c *shellparse.Command) bool {
	return !cmdmodel.RaisesPrivilege(c.Name())
}

// resolvesOutsideRoots reports whether a bare command name resolves through
// PATH to a file outside the directories the agent can write, so the agent
// cannot have put it there. A
// name that does not resolve runs nothing and counts as outside.
func (e *evaluation) resolvesOutsideRoots(name string) bool {
	if e.cfg.LookPath == nil {
		return true
	}
	p, err := e.cfg.LookPath(name)
	if errors.Is(err, pathguard.ErrUnsafePath) {
		return false // PATH leads through a directory the agent can write
	}
	if err != nil || p == "" {
		return true
	}
	if e.cfg.Guard == nil {
		return true
	}
	return !e.cfg.Guard.Inside(filepath.Dir(p))
}

// shellBuiltin reports whether the command is one of bash's builtins on the
// safe list (bash(1) SHELL BUILTIN COMMANDS), which bash runs itself
// whatever PATH holds: an assignment on it reaches no program.
func shellBuiltin(c *shellparse.Command) bool {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return false
	}
	switch c.Args[0].Text {
	case "echo", "printf", "true", "false", ":", "test", "[", "pwd", "cd", "type", "command":
		return true
	}
	return false
}

// onlyReads is name + " only reads", made once per command name: the
// names that reach it are those of the safe list.
func onlyReads(name string) string {
	if m, ok := onlyReadsMsgs.Load(name); ok {
		return m.(string)
	}
	m := name + " only reads"
	if len(name) <= 64 {
		onlyReadsMsgs.Store(name, m)
	}
	return m
}

var onlyReadsMsgs sync.Map // command name -> its message

// noProjectNpmrc reports that npm run in c's directory reads no project
// configuration: no `.npmrc` (npm-config(7): the per-project file, which
// can name a registry with ${VAR} from the environment, a cache and a logs
// dir anywhere) in the directory or any above it up to the filesystem
// root. Unknown (no disk, a directory only known at run time) is false.
func (e *evaluation) noProjectNpmrc(c *shellparse.Command) bool {
	disk := e.cfg.Disk
	if disk == nil || c.DirDynamic || len(c.OtherDirs) > 0 {
		return false
	}
	dir, ok := commandDir(e.cwd, c.Dir)
	if !ok || !filepath.IsAbs(dir) {
		return false
	}
	for {
		if _, err := disk.Lstat(filepath.Join(dir, ".npmrc")); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return true
		}
		dir = parent
	}
}
