package confine

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/config"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// usedCaches are the default caches that exist, or whose tool lookPath
// finds (exec.LookPath): only those are made writable, and created.
func usedCaches(caches []cmdmodel.ToolCache, lookPath func(string) (string, error)) []string {
	var out []string
	for _, c := range caches {
		if _, err := os.Stat(c.Dir); err == nil {
			out = append(out, c.Dir)
			continue
		}
		if slices.ContainsFunc(c.Tools, func(t string) bool { _, err := lookPath(t); return err == nil }) {
			out = append(out, c.Dir)
		}
	}
	return out
}

// rootStartupFiles are files at the project root that a later shell or
// tool runs code from (pathguard protects them by name).
var rootStartupFiles = []string{".envrc", ".gitconfig", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout",
	".bash_aliases", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout"}

// Input is what Build works out a plan from.
type Input struct {
	// Config is the configuration the decision used.
	Config *policy.Config
	// Settings are its `[sandbox]` keys.
	Settings policy.EnforceSettings
	// Root is the project root (config.Loaded.Root).
	Root string
	// AuditFile is the audit log, kept read-only ("" for none).
	AuditFile string
	// Tier is the tier the command runs in; LandlockABI the kernel's
	// Landlock ABI, for the Limits.
	Tier        Tier
	LandlockABI int
	// Create makes the caches and the protected dirs that are harmless to
	// create empty; without it (check, `sandbox status`) the plan says
	// what would be.
	Create bool
	// Getenv and LookPath are the environment's (os.Getenv,
	// exec.LookPath): the caches' places and whether their tools are
	// installed.
	Getenv   func(string) string
	LookPath func(string) (string, error)
}

// Build derives what a confined command may do from the same
// configuration the decision used: writable = the sandbox roots and the
// caches; read-only = the protected paths inside them; hidden = the files
// the Read deny rules deny; network as configured. With in.Create it
// creates the caches and the protected directories that are harmless to
// create empty, so that they exist to be bound read-only. The Tree is the
// project as the plan walked it, for the sweep after the run.
func Build(in Input) (Plan, *Tree) {
	rp := realPaths{}
	cfg, tier, create := in.Config, in.Tier, in.Create
	home := cfg.Home
	realHome := ""
	if home != "" {
		realHome, _ = rp.eval(home)
	}
	s := in.Settings
	p := Plan{Tier: tier, Network: s.Network, Writable: []string{}, ReadOnly: []string{}, Hidden: []string{}}
	for _, r := range cfg.Guard.Roots() {
		if realHome != "" && Within(r, realHome) {
			p.Limits = append(p.Limits, fmt.Sprintf("the root %s holds the home directory, so it is not writable when confined", r))
			continue
		}
		p.Writable = appendUnique(p.Writable, r)
	}
	caches := s.Writable
	if !s.WritableSet {
		caches = usedCaches(cmdmodel.ToolCaches(in.Getenv, home), in.LookPath)
	}
	for _, c := range caches {
		if !create {
			p.Writable = appendUnique(p.Writable, rp.realOrSelf(c))
			continue
		}
		if err := os.MkdirAll(c, 0o755); err != nil {
			p.Limits = append(p.Limits, fmt.Sprintf("the cache %s could not be created (%v)", c, err))
			continue
		}
		rp.created()
		real, err := rp.eval(c)
		if err != nil || real == "/" || real == realHome {
			continue
		}
		p.Writable = appendUnique(p.Writable, real)
	}
	writable := func(path string) bool {
		return slices.ContainsFunc(p.Writable, func(w string) bool { return Within(w, path) })
	}
	// Protected paths: bound read-only when they exist; the harmless
	// directories are created empty first; any other missing one is
	// watched.
	root := rp.realOrSelf(in.Root)
	var mkdirs, files, pinned []string
	mkdirs = append(mkdirs, filepath.Join(root, config.ProjectConfigDir))
	if fi, err := rp.lstat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
		git := filepath.Join(root, ".git")
		m, f := gitSteering(git)
		mkdirs, files = append(mkdirs, m...), append(files, f...)
		for _, pat := range []string{"modules/*/hooks", "modules/*/config", "modules/*/info", "modules/*/commondir",
			"worktrees/*/config.worktree", "worktrees/*/commondir"} {
			m, _ := filepath.Glob(filepath.Join(git, pat))
			files = append(files, m...)
		}
		// Submodules' and worktrees' git dirs are pinned too: renamed
		// away, a new one with its own config would take their place.
		for _, pat := range []string{"modules/*", "worktrees/*"} {
			m, _ := filepath.Glob(filepath.Join(git, pat))
			for _, d := range m {
				if fi, err := rp.lstat(d); err == nil && fi.IsDir() {
					pinned = append(pinned, d)
				}
			}
		}
		if tier == TierFull && writable(git) {
			p.GitDir = git
		}
	} else if err == nil {
		// A .git file (worktree, submodule) points git elsewhere.
		files = append(files, filepath.Join(root, ".git"))
	}
	for _, f := range rootStartupFiles {
		files = append(files, filepath.Join(root, f))
	}
	// The directory core.hooksPath names (and husky's scripts beside it)
	// and the hook managers' configs: their commands run on the next
	// unconfined git commit.
	files = append(files, cfg.Guard.HooksDirs(root)...)
	// Git config files the configs include, a global hooks dir, and
	// where ~/.bashrc and the like lead when they link into a root.
	files = append(files, cfg.Guard.ConfigLinked(root)...)
	for _, f := range pathguard.HookManagerFiles {
		files = append(files, filepath.Join(root, f))
	}
	files = append(files, pathguard.AgentSettingsPaths(root)...)
	files = append(files, pathguard.ToolConfigPaths(root)...)
	// The agents' dirs are read-only as a whole, so that no file can be
	// added to them either (.claude/commands/x.md, a hook script): those
	// of the agents gatekeep serves are created empty when missing; an
	// editor's dir is kept read-only when it exists (its named files are
	// watched otherwise).
	for _, name := range agentDirsMade {
		mkdirs = append(mkdirs, filepath.Join(root, name))
	}
	if entries, err := os.ReadDir(root); err == nil {
		for _, e := range entries {
			if e.IsDir() && pathguard.IsAgentDir(e.Name()) {
				mkdirs = append(mkdirs, filepath.Join(root, e.Name()))
			}
		}
	}
	mkdirs = append(mkdirs, pathguard.DefaultConfigDirs(home)...)
	// The person's own agent settings, when a writable dir holds them
	// (a dir given as writable itself is the person's choice).
	for _, f := range pathguard.UserAgentPaths(in.Getenv, home) {
		if writable(f) && !slices.Contains(p.Writable, rp.realOrSelf(f)) {
			files = append(files, f)
		}
	}
	if d, err := os.UserCacheDir(); err == nil {
		mkdirs = append(mkdirs, filepath.Join(d, "gatekeep"))
	}
	if in.AuditFile != "" {
		files = append(files, in.AuditFile)
	}
	// Nested repositories and project configs, and the secrets, found by
	// one walk of the project through its index (tree.go).
	secretGlobs := cfg.Rules.SecretGlobs()
	var bare, anchored []string
	for _, g := range secretGlobs {
		if strings.HasPrefix(g, "**/") {
			bare = append(bare, g)
		} else {
			anchored = append(anchored, g)
		}
	}
	var candidates []string
	tree := NewTree(root, bare)
	tree.Walk(func(path string, d fs.DirEntry) error {
		name := d.Name()
		if path != root {
			// The protected shapes already there are the person's: the
			// sweep after the run looks for new ones (pathguard.ShapeOf).
			if TreeShape(path, d) != "" {
				p.Shapes = append(p.Shapes, path)
			}
			if name == ".git" && d.IsDir() {
				p.Shapes = append(p.Shapes, GitStateShapes(path)...)
			}
		}
		if isDeps(d) {
			// Below a dependency dir: only the shapes already there.
			if name == ".git" && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if path != root && d.IsDir() {
			switch name {
			case ".git":
				p.Repos = append(p.Repos, path)
				if filepath.Dir(path) != root {
					// A nested repository is kept like the project's.
					m, f := gitSteering(path)
					mkdirs, files = append(mkdirs, m...), append(files, f...)
					pinned = append(pinned, path)
				}
				return filepath.SkipDir
			case config.ProjectConfigDir:
				files = append(files, path)
			}
			if pathguard.IsAgentDir(name) && filepath.Dir(path) != root {
				files = append(files, path)
			}
		}
		if name == ".git" && !d.IsDir() {
			p.Repos = append(p.Repos, path)
		}
		if name == ".git" && !d.IsDir() && filepath.Dir(path) != root {
			// A nested .git file (submodule, worktree) says where its
			// repository is.
			files = append(files, path)
		}
		if name == ".envrc" && filepath.Dir(path) != root {
			files = append(files, path)
		}
		if matchBare(bare, path) {
			candidates = append(candidates, path)
		}
		return nil
	})
	// Bare names are also looked for at the top of the home directory.
	if entries, err := os.ReadDir(home); err == nil && home != "" {
		for _, e := range entries {
			path := filepath.Join(home, e.Name())
			if matchBare(bare, path) {
				candidates = append(candidates, path)
			}
		}
	}
	for _, g := range anchored {
		if strings.HasPrefix(g, "/proc/") || strings.HasPrefix(g, "/sys/") || strings.HasPrefix(g, "/dev/") {
			// Not files on a disk: another process's /proc/N/environ is
			// kept from the command by Landlock's ptrace rule, not by
			// mounts.
			continue
		}
		if dir, ok := strings.CutSuffix(g, "/**"); ok && !strings.ContainsAny(dir, "*?[{\\") {
			// A whole directory (`~/.aws/sso/cache/**`): hidden as one.
			if real, err := rp.eval(dir); err == nil && policy.ReadDenied(cfg, filepath.Join(dir, "x")) {
				p.Hidden = appendUnique(p.Hidden, real)
			}
			continue
		}
		if strings.Contains(g, "**") {
			p.Limits = append(p.Limits, fmt.Sprintf("the secret pattern %s is not searched (it spans directories)", g))
			continue
		}
		m, _ := doublestar.FilepathGlob(g)
		candidates = append(candidates, m...)
	}
	for _, c := range candidates {
		real, err := rp.eval(c)
		if err != nil || !policy.ReadDenied(cfg, c) && !policy.ReadDenied(cfg, real) {
			continue
		}
		p.Hidden = appendUnique(p.Hidden, real)
	}
	if !p.Network {
		// Unix sockets reachable by path let a command ask a process
		// outside to act for it (tmux new-window, an X client, the
		// user's systemd and D-Bus): the dirs that hold them are
		// covered with empty ones, unless one holds a writable dir.
		for _, d := range socketDirs(in.Getenv) {
			real, err := rp.eval(d)
			if err != nil {
				continue
			}
			if fi, err := os.Stat(real); err != nil || !fi.IsDir() ||
				slices.ContainsFunc(p.Writable, func(w string) bool { return Within(real, w) }) {
				continue
			}
			p.Hidden = appendUnique(p.Hidden, real)
		}
	}
	for _, d := range mkdirs {
		if !writable(d) {
			continue
		}
		if _, err := rp.lstat(d); err != nil {
			if !create || tier != TierFull {
				p.ReadOnly = appendUnique(p.ReadOnly, d)
				continue
			}
			if err := os.MkdirAll(d, 0o755); err != nil {
				p.Limits = append(p.Limits, fmt.Sprintf("%s could not be created to be kept read-only (%v)", d, err))
				continue
			}
			rp.created()
		}
		if real, err := rp.eval(d); err == nil && writable(real) {
			p.ReadOnly = appendUnique(p.ReadOnly, real)
		}
	}
	// The dirs made just now (the agents' dirs) are gatekeep's, not the
	// command's: the sweep leaves them.
	for _, d := range mkdirs {
		if _, err := rp.lstat(d); err == nil && pathguard.ShapeOf(d, true, false) != "" && !slices.Contains(p.Shapes, d) {
			p.Shapes = append(p.Shapes, d)
		}
	}
	for _, f := range files {
		if !writable(f) {
			continue
		}
		if _, err := rp.lstat(f); err != nil {
			p.Watched = appendUnique(p.Watched, f)
			continue
		}
		if real, err := rp.eval(f); err == nil && writable(real) {
			p.ReadOnly = appendUnique(p.ReadOnly, real)
		} else if err == nil {
			continue
		} else {
			// A link to nothing: its target could be created.
			p.Watched = appendUnique(p.Watched, f)
		}
	}
	// The git dirs holding protected paths are pinned: renaming .git
	// away and copying it back writable would undo the read-only binds
	// inside. (A read-only dir is a mount point too.)
	if fi, err := rp.lstat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
		pinned = append(pinned, filepath.Join(root, ".git"))
	}
	for _, d := range pinned {
		if real, err := rp.eval(d); err == nil && writable(real) && !slices.Contains(p.ReadOnly, real) {
			p.Pinned = appendUnique(p.Pinned, real)
		}
	}
	// A path below a read-only dir needs no mount of its own.
	p.ReadOnly = slices.DeleteFunc(p.ReadOnly, func(r string) bool {
		return slices.ContainsFunc(p.ReadOnly, func(d string) bool { return d != r && Within(d, r) })
	})
	p.Watched = slices.DeleteFunc(p.Watched, func(w string) bool {
		return slices.ContainsFunc(p.ReadOnly, func(d string) bool { return Within(d, w) })
	})
	if realHome != "" && realHome != "/" {
		// Reads: everything but the home directory, and in it the
		// project, the writable dirs (already) and the toolchains'.
		p.Readable = outsideOf(realHome)
		var inHome []string
		for _, d := range slices.Concat(cfg.Guard.Roots(), cmdmodel.ToolchainReadable(in.Getenv, home), s.Readable, pathguard.DefaultConfigDirs(home)) {
			if real, err := rp.eval(d); err == nil && Within(realHome, real) && real != realHome {
				p.Readable = appendUnique(p.Readable, real)
				inHome = appendUnique(inHome, real)
			}
		}
		p.Limits = append(p.Limits, fmt.Sprintf("in the home directory %s only the project, the writable dirs and these can be read or run (every dir can be listed; [sandbox] readable adds more): %s", realHome, strings.Join(inHome, ", ")))
	}
	if tier != TierFull {
		p.Repos = nil
	}
	if p.Shapes == nil {
		p.Shapes = []string{} // swept, though nothing was there before
	}
	if tier != TierFull {
		// Without a mount namespace none of them is enforced; Limits
		// say so.
		p.ReadOnly, p.Hidden, p.Watched, p.Pinned, p.GitDir = []string{}, []string{}, nil, nil, ""
	}
	slices.Sort(p.ReadOnly)
	slices.Sort(p.Hidden)
	slices.Sort(p.Pinned)
	p.Limits = append(p.Limits, Limits(tier, in.LandlockABI)...)
	return p, tree
}

// GitStateShapes lists the protected shapes inside a git dir: its
// sequencer state (pathguard.GitStateDirs) and the submodules' git dirs
// below modules/, at any depth.
func GitStateShapes(git string) []string {
	var out []string
	for _, n := range pathguard.GitStateDirs {
		if fi, err := os.Lstat(filepath.Join(git, n)); err == nil && fi.IsDir() {
			out = append(out, filepath.Join(git, n))
		}
	}
	filepath.WalkDir(filepath.Join(git, "modules"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && pathguard.MaybeGitDir(path) {
			out = append(out, path)
			out = append(out, GitStateShapes(path)...)
			return filepath.SkipDir
		}
		return nil
	})
	return out
}

// outsideOf lists what lies beside the path from / down to dir: every
// entry of each of its ancestors but the one on the way, so that a
// Landlock rule on each covers the whole tree but dir. The ancestors
// themselves are not listed (a rule on one would cover dir).
func outsideOf(dir string) []string {
	out := []string{}
	for d := dir; d != "/" && d != "."; d = filepath.Dir(d) {
		parent := filepath.Dir(d)
		entries, err := os.ReadDir(parent)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.Name() != filepath.Base(d) {
				out = append(out, filepath.Join(parent, e.Name()))
			}
		}
	}
	return out
}

// agentDirsMade are the agents' dirs created empty at the project root
// when missing, to be kept read-only: the agents gatekeep serves, which
// read commands, hooks and settings from there when they next start.
var agentDirsMade = []string{".claude", ".codex", ".gemini"}

// gitSteering lists what in the git dir git (a repository's .git) makes
// a later git run code or follow another repository, to be kept
// read-only: the dirs harmless to create empty (hooks/, info/:
// attributes, sparse-checkout, grafts) and the files (config,
// config.worktree, commondir, objects/info/alternates), watched when
// missing. HEAD, refs/, objects/, logs/, index and the lock files stay
// writable: commit, checkout -b, switch, add and rebase write them, and
// none of them runs code.
//
// modules/ holds the submodules' git dirs: it is read-only too (created
// empty when missing), since `git submodule update --init` reuses a git
// dir it finds there, config and hooks included.
func gitSteering(git string) (mkdirs, files []string) {
	return []string{filepath.Join(git, "hooks"), filepath.Join(git, "info"), filepath.Join(git, "modules")},
		[]string{filepath.Join(git, "config"), filepath.Join(git, "config.worktree"),
			filepath.Join(git, "commondir"), filepath.Join(git, "objects", "info", "alternates")}
}

// socketDirs are the dirs where per-user Unix sockets live: the runtime
// dir (systemd, D-Bus, Wayland, ssh-agent, gpg-agent), tmux's and X's.
func socketDirs(getenv func(string) string) []string {
	dirs := []string{fmt.Sprintf("/run/user/%d", os.Getuid()), "/tmp/.X11-unix"}
	if v := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(v) {
		dirs = append(dirs, filepath.Clean(v))
	}
	m, _ := filepath.Glob("/tmp/tmux-*")
	return append(dirs, m...)
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// Within reports whether p is dir or below it (both clean and absolute).
func Within(dir, p string) bool {
	if dir == p {
		return true
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

func RealOrSelf(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// matchBare reports whether path matches one of the bare-name secret
// globs (`**/.env`): a glob of one name is matched against the base name
// alone, which is what it can match, without the cost of a full match.
func matchBare(bare []string, path string) bool {
	name := filepath.Base(path)
	for _, g := range bare {
		rest := strings.TrimPrefix(g, "**/")
		if !strings.Contains(rest, "/") {
			// Deny rules match regardless of case (policy's matcher).
			if ok, _ := doublestar.Match(rest, name); ok {
				return true
			}
			if ok, _ := doublestar.Match(strings.ToLower(rest), strings.ToLower(name)); ok {
				return true
			}
			continue
		}
		if ok, _ := doublestar.Match(g, filepath.ToSlash(path)); ok {
			return true
		}
	}
	return false
}
