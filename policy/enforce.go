package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gatekeep/gatekeep/shellparse"
)

// EnforceLevel is `[sandbox] enforce`: whether what gatekeep
// runs is confined by the kernel.
type EnforceLevel int

const (
	// EnforceOff runs commands unconfined.
	EnforceOff EnforceLevel = iota
	// EnforceBestEffort confines where the machine can, and otherwise runs
	// unconfined, saying so once on stderr.
	EnforceBestEffort
	// EnforceRequired confines, or denies with sandbox.unavailable.
	EnforceRequired
)

func (l EnforceLevel) String() string {
	switch l {
	case EnforceBestEffort:
		return "best-effort"
	case EnforceRequired:
		return "required"
	}
	return "off"
}

// ParseEnforceLevel reads "off", "best-effort" or "required".
func ParseEnforceLevel(s string) (EnforceLevel, error) {
	switch s {
	case "off":
		return EnforceOff, nil
	case "best-effort":
		return EnforceBestEffort, nil
	case "required":
		return EnforceRequired, nil
	}
	return EnforceOff, fmt.Errorf("unknown enforcement %q (want off, best-effort or required)", s)
}

// EnforceSettings are the `[sandbox]` keys of kernel enforcement, merged
// over the layers. Settings that loosen (network, writable, auto_allow,
// unconfined) count only from the managed and user files and trusted
// project and local files; a stricter value counts from any file.
type EnforceSettings struct {
	// Enforce is the strictest `enforce` of any file (off when none sets
	// it): a file can always make enforcement stricter, and "off" never
	// loosens what another file asks for.
	Enforce EnforceLevel
	// Network is true when a trusted file sets `network = true` and no
	// file sets false.
	Network bool
	// Writable are the `writable` dirs of every trusted file that sets
	// the key, made absolute (`~` expanded); WritableSet is false when no
	// trusted file sets it, and the default cache set applies.
	Writable    []string
	WritableSet bool
	// Readable are the `readable` dirs of every trusted file, made
	// absolute (`~` expanded): in the home directory a confined command
	// may read them besides the toolchains' dirs.
	Readable []string
	// AutoAllow is true when a trusted file sets `auto_allow = true` and
	// no file sets false.
	AutoAllow bool
	// Unconfined are the `unconfined` Bash patterns of trusted files:
	// commands that never run confined (they ask as usual).
	Unconfined []*Rule
	// BypassOff is true when a trusted file sets `bypass = "off"` and no
	// file sets "confine": bypassPermissions then runs what the text
	// cannot show unconfined, as before. By default (false) such a call
	// runs confined wherever the kernel can (Decision.Opaque).
	BypassOff bool
}

// SecretGlobs are the globs of the active Read deny rules of every layer,
// as the matcher holds them: absolute, `~` expanded, a bare name as
// `**/name`. Kernel enforcement hides the files they match that ReadDenied
// confirms.
func (rs *RuleSet) SecretGlobs() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rs.Rules() {
		if !r.Active || r.Ref.Effect != Deny || toolKind(r.Tool) != kindRead {
			continue
		}
		fm, ok := r.matcher().(*fileMatcher)
		if !ok {
			continue
		}
		for _, g := range fm.globs {
			if !seen[g.glob] {
				seen[g.glob] = true
				out = append(out, g.glob)
			}
		}
	}
	return out
}

// ReadDenied reports whether the rules layer denies reading path (absolute)
// in cfg, as it would for a Read call: allow rules, the order of the
// layers and the last-match-wins order inside one apply, the sandbox
// roots and the mode do not.
func ReadDenied(cfg *Config, path string) bool {
	if cfg == nil || !filepath.IsAbs(path) {
		return false
	}
	e := &evaluation{cfg: cfg, req: Request{Tool: ToolRead, Path: path}, cwd: filepath.Dir(path)}
	p := &part{subject: path, category: CatRead, access: shellparse.Read, path: path, dir: e.cwd, tool: ToolRead, offset: -1}
	v := e.ruleVerdict(p, Deny)
	return v.ok && v.effect == Deny
}

// networkCommands are commands that need the network to do their work:
// name → the subcommands that do (nil: every use). A call holding one is
// never auto-allowed while the sandbox has no network: confined, it would
// only fail.
// Built on first use (start-up: most calls never look it up).
var networkCommands = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"curl": nil, "wget": nil, "ssh": nil, "scp": nil, "sftp": nil, "rsync": nil, "nc": nil, "ncat": nil,
		"telnet": nil, "ftp": nil, "ping": nil, "dig": nil, "nslookup": nil, "host": nil, "npx": nil,
		"gh": nil, "gcloud": nil, "aws": nil, "az": nil, "kubectl": nil, "helm": nil,
		"git":     {"push", "fetch", "clone", "pull", "ls-remote", "submodule", "remote"},
		"pip":     {"install", "download"},
		"pip3":    {"install", "download"},
		"uv":      {"add", "sync", "lock", "pip", "tool"},
		"poetry":  {"install", "add", "update", "lock"},
		"npm":     {"install", "i", "ci", "add", "update", "publish", "view", "info"},
		"pnpm":    {"install", "i", "add", "update"},
		"yarn":    {"install", "add", "upgrade"},
		"cargo":   {"install", "fetch", "update", "publish", "search"},
		"go":      {"get", "install", "mod"},
		"apt":     {"install", "update", "upgrade", "download"},
		"apt-get": {"install", "update", "upgrade", "download"},
		"brew":    {"install", "update", "upgrade"},
		"docker":  {"pull", "push", "login"},
	}
})

// needsNetwork reports whether a simple command is a known network tool.
func needsNetwork(c *shellparse.Command) bool {
	if c == nil || len(c.Args) == 0 || c.Args[0].Dynamic {
		return false
	}
	subs, ok := networkCommands()[c.Name()]
	if !ok {
		return false
	}
	if subs == nil {
		return true
	}
	args := c.Args[1:]
	if c.Name() == "git" {
		if stripped, ok := stripGitGlobals(c.Args); ok {
			args = stripped[1:]
		}
	}
	for _, a := range args {
		if strings.HasPrefix(a.Text, "-") {
			continue
		}
		for _, s := range subs {
			if a.Text == s {
				return true
			}
		}
		return false
	}
	return false
}

// projectDestroyers are git subcommands that throw away uncommitted work
// or history inside the project, which the sandbox leaves writable, or
// move refs: a call holding one keeps asking even with auto_allow. Those
// listed here do so in any use.
var projectDestroyers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"clean": true, "restore": true, "rebase": true, "filter-branch": true, "update-ref": true,
		"symbolic-ref": true, "prune": true, "replace": true,
	}
})

// gitDestroyOpts is how a git subcommand reads its options, as git's
// parse-options does (git 2.39, `git SUB -h`): args take a value (the rest
// of a short option's word or the next word; `--long=value` or the next
// word), optional take one only when attached (`-tdirect`,
// `--track=inherit`), flags take none. Names are space-separated; names
// joined by "|" are one option (a short letter and its long name). A long
// option may be abbreviated to a prefix that names one option, and
// negated with no-. destroy are the options that make the subcommand
// throw work away or move a ref.
type gitDestroyOpts struct {
	args, optional, flags, destroy string
}

// gitDestroyers are the git subcommands that throw away work in some of
// their forms (destroysProjectWork says which).
var gitDestroyers = sync.OnceValue(func() map[string]gitDestroyOpts {
	return map[string]gitDestroyOpts{
		"checkout": {args: "b B conflict orphan pathspec-from-file", optional: "t|track recurse-submodules",
			flags:   "l guess overlay q|quiet progress m|merge d|detach f|force overwrite-ignore ignore-other-worktrees 2|ours 3|theirs p|patch ignore-skip-worktree-bits pathspec-file-nul",
			destroy: "f B 2 3 pathspec-from-file"},
		"switch": {args: "c|create C|force-create conflict orphan", optional: "t|track recurse-submodules",
			flags:   "guess discard-changes q|quiet progress m|merge d|detach f|force overwrite-ignore ignore-other-worktrees",
			destroy: "C discard-changes f"},
		"branch": {args: "u|set-upstream-to contains no-contains merged no-merged sort points-at format",
			optional: "t|track color abbrev column",
			flags:    "v|verbose q|quiet unset-upstream r|remotes a|all d|delete D m|move M c|copy C l|list show-current create-reflog edit-description f|force i|ignore-case recurse-submodules omit-empty",
			destroy:  "D f M C"},
		"reset": {args: "pathspec-from-file", optional: "recurse-submodules",
			flags:   "q|quiet no-refresh refresh mixed soft hard merge keep p|patch N|intent-to-add pathspec-file-nul",
			destroy: "hard merge keep"},
		"rm": {args: "pathspec-from-file",
			flags: "n|dry-run q|quiet cached f|force r ignore-unmatch sparse pathspec-file-nul"},
		"gc": {optional: "prune", flags: "q|quiet cruft aggressive auto force keep-largest-pack", destroy: "prune"},
		"read-tree": {args: "index-output prefix exclude-per-directory", optional: "recurse-submodules",
			flags:   "empty v|verbose m trivial aggressive reset u i n|dry-run no-sparse-checkout debug-unpack q|quiet",
			destroy: "u reset"},
		"checkout-index": {args: "prefix stage",
			flags:   "a|all ignore-skip-worktree-bits f|force q|quiet n|no-create u|index z stdin temp",
			destroy: "f"},
		"stash":  {},
		"reflog": {},
	}
})

// gitLine is a git subcommand's command line as gitDestroyOpts reads it.
type gitLine struct {
	set      map[string]bool // options given (by their first name), after negations
	operands []string
	dashdash bool // "--" was given: the operands after it are paths
	afterDD  int  // operands after "--"
	ok       bool // every word understood
}

// readGitLine reads words (after the subcommand) by o. An option o does
// not know, an ambiguous abbreviation, a missing value or a word only
// known at run time make the line not ok: it may be any option.
func readGitLine(o gitDestroyOpts, words []shellparse.Word) gitLine {
	l := gitLine{set: map[string]bool{}, ok: true}
	type opt struct {
		key  string
		kind byte // 'a' args, 'o' optional, 'f' flag
	}
	short, long := map[string]opt{}, map[string]opt{}
	for _, g := range []struct {
		names string
		kind  byte
	}{{o.args, 'a'}, {o.optional, 'o'}, {o.flags, 'f'}} {
		for _, group := range strings.Fields(g.names) {
			names := strings.Split(group, "|")
			for _, n := range names {
				if len(n) == 1 {
					short[n] = opt{names[0], g.kind}
				} else {
					long[n] = opt{names[0], g.kind}
				}
			}
		}
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w.Dynamic {
			l.ok = false
			return l
		}
		t := w.Text
		switch {
		case l.dashdash || t == "-" || !strings.HasPrefix(t, "-"):
			l.operands = append(l.operands, t)
			if l.dashdash {
				l.afterDD++
			}
		case t == "--":
			l.dashdash = true
		case strings.HasPrefix(t, "--"):
			name, value, hasValue := strings.Cut(t[2:], "=")
			neg := false
			op, found := long[name]
			if !found {
				// A unique prefix of one option (or of its negation).
				var hits []opt
				var negs []bool
				for n, cand := range long {
					for _, pre := range []struct {
						full string
						neg  bool
					}{{n, false}, {"no-" + n, true}} {
						if strings.HasPrefix(pre.full, name) && !slices.ContainsFunc(hits, func(h opt) bool { return h.key == cand.key }) {
							hits, negs = append(hits, cand), append(negs, pre.neg)
						}
					}
				}
				if len(hits) != 1 {
					l.ok = false
					return l
				}
				op, neg = hits[0], negs[0]
			}
			switch {
			case neg && hasValue:
				l.ok = false
				return l
			case op.kind == 'a' && !hasValue && !neg:
				if i+1 >= len(words) || words[i+1].Dynamic {
					l.ok = false
					return l
				}
				i++
			case op.kind == 'f' && hasValue:
				l.ok = false
				return l
			}
			_ = value
			l.set[op.key] = !neg
		default:
			for j := 1; j < len(t); j++ {
				op, found := short[t[j:j+1]]
				if !found {
					l.ok = false
					return l
				}
				l.set[op.key] = true
				if op.kind == 'o' {
					break
				}
				if op.kind == 'a' {
					if j+1 == len(t) {
						if i+1 >= len(words) || words[i+1].Dynamic {
							l.ok = false
							return l
						}
						i++
					}
					break
				}
			}
		}
	}
	return l
}

// has reports whether any of the options (by their first name) is set.
func (l gitLine) has(keys ...string) bool {
	for _, k := range keys {
		if l.set[k] {
			return true
		}
	}
	return false
}

// destroysProjectWork reports a command that throws away the project's
// uncommitted work or history (git's forms that do, read as git reads
// its options), or shreds or find-deletes files. dirs are the
// directories the command may run in: a `git checkout NAME` whose NAME is
// a path there overwrites that path. Anything not understood counts.
func destroysProjectWork(c *shellparse.Command, dirs []string) bool {
	if c == nil || len(c.Args) == 0 || c.Args[0].Dynamic {
		return false
	}
	switch strings.ToLower(c.Name()) {
	case "shred":
		return true
	case "find":
		for _, a := range c.Args[1:] {
			if a.Text == "-delete" {
				return true
			}
		}
	case "git", "git.exe":
		args := c.Args
		stripped, hasGlobals := stripGitGlobals(c.Args)
		if hasGlobals {
			args = stripped
		}
		if len(args) < 2 {
			return false
		}
		if args[1].Dynamic {
			return true
		}
		sub := strings.ToLower(args[1].Text)
		if projectDestroyers()[sub] {
			return true
		}
		o, ok := gitDestroyers()[sub]
		if !ok {
			return false
		}
		switch sub {
		case "stash", "reflog":
			// The first word that is no option names the action.
			for _, a := range args[2:] {
				if a.Dynamic {
					return true
				}
				if !strings.HasPrefix(a.Text, "-") {
					return slices.Contains([]string{"drop", "clear", "pop", "expire", "delete"}, a.Text)
				}
			}
			return false
		}
		l := readGitLine(o, args[2:])
		if !l.ok || l.has(strings.Fields(o.destroy)...) {
			return true
		}
		switch sub {
		case "rm":
			// Files with changes go with -f; a tree with -r.
			return l.has("f", "r") && !l.has("cached", "n")
		case "checkout":
			if l.afterDD > 0 {
				return true // git checkout [REV] -- FILE...
			}
			if l.has("b", "orphan") {
				// The operand is where the new branch starts.
				return len(l.operands) > 1
			}
			switch len(l.operands) {
			case 0:
				return false
			case 1:
				// A branch, or a path git overwrites from the index.
				return gitPathspecLike(l.operands[0]) || hasGlobals || pathIn(dirs, l.operands[0])
			}
			return true // git checkout REV FILE...
		}
	}
	return false
}

// commandDirs are the directories c may run in, absolute ("" for one
// only known at run time): its Dir and OtherDirs resolved against cwd.
func commandDirs(cwd string, c *shellparse.Command) []string {
	var out []string
	for _, d := range c.Dirs() {
		r, ok := commandDir(cwd, d)
		if !ok || c.DirDynamic {
			r = ""
		}
		out = append(out, r)
	}
	return out
}

// gitPathspecLike reports an operand only a path can be: ".", a magic
// pathspec (":/", ":(top)"), a glob.
func gitPathspecLike(s string) bool {
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, ":") || strings.ContainsAny(s, "*?[")
}

// pathIn reports whether name exists in one of dirs (absolute), or when
// a dir is unknown.
func pathIn(dirs []string, name string) bool {
	for _, d := range dirs {
		if d == "" || !filepath.IsAbs(d) {
			return true
		}
		if _, err := os.Lstat(filepath.Join(d, name)); err == nil {
			return true
		}
	}
	return false
}
