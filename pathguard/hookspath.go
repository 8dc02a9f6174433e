package pathguard

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// maxGitConfig bounds how much of a git config file is read.
const maxGitConfig = 1 << 20

// hooksPathReason says why real is in the hooks directory git is
// configured to run (core.hooksPath, git-config(1)) for the repository at
// root, or "". The setting is read without running git, from the
// repository's own config (root/.git/config) and the global ones
// ($XDG_CONFIG_HOME/git/config, else ~/.config/git/config, and
// ~/.gitconfig); the repository's wins. A linked worktree's or
// submodule's `.git` file leads to its common dir's config. include and
// includeIf are not followed for the setting, but a file they name is
// protected as git config. A relative value is relative to the work
// tree's top, where git runs hooks; an absolute one in a global file is
// protected wherever it lies, in or out of a repository.
func (g *Guard) hooksPathReason(m *Memo, root, real string) string {
	if root == "" {
		return ""
	}
	// The global files' hooks directory and includes hold for every
	// repository, wherever real is (a hooks dir in a temp dir).
	global := g.repoConfig(m, "")
	if why := g.configReason(m, global, real); why != "" {
		return why
	}
	if hp := realHooksDir(m, global.hp); hp != "" && within(hp, real) {
		return fmt.Sprintf("%s is in the hooks directory git's global config names (core.hooksPath %s), which runs code on later git commands", real, hp)
	}
	// The work tree holding real, up to its sandbox root: a `.git`
	// directory, or a `.git` file (a linked worktree, a submodule).
	repo := ""
	for d := filepath.Dir(real); within(root, d); d = filepath.Dir(d) {
		if st, err := m.stat(d, ".git", true); err == nil && (st.isDir() || st.mode.IsRegular()) {
			repo = d
			break
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	if repo == "" {
		return ""
	}
	cfg := g.repoConfig(m, repo)
	if why := g.configReason(m, cfg, real); why != "" {
		return why
	}
	hp := realHooksDir(m, cfg.hp)
	if hp != "" && within(hp, real) {
		return fmt.Sprintf("%s is in git's configured hooks directory (core.hooksPath %s), which runs code on later git commands", real, hp)
	}
	if d := hookScriptsDir(hp); d != "" && within(d, real) {
		return fmt.Sprintf("%s is in %s, whose scripts the hooks in core.hooksPath %s run on later git commands (husky)", real, d, hp)
	}
	if filepath.Dir(real) == repo && hookManagerConfig(filepath.Base(real)) {
		return fmt.Sprintf("%s configures a git hook manager (pre-commit, lefthook), whose commands run on later git commands", real)
	}
	return ""
}

// HooksDirs returns the real directories whose files git's hooks run for
// the repository at repo: the one core.hooksPath names and, for husky's
// `.husky/_`, the `.husky` it hands off to; nil when the setting is unset.
func (g *Guard) HooksDirs(repo string) []string {
	hp := g.hooksPath(nil, repo)
	if hp == "" {
		return nil
	}
	if d := hookScriptsDir(hp); d != "" {
		return []string{hp, d}
	}
	return []string{hp}
}

// hookScriptsDir is, for husky's hooks directory `.husky/_` (husky 9: each
// hook there runs `.husky/<hook>`), the directory of the scripts it runs,
// or "".
func hookScriptsDir(hp string) string {
	if hp == "" || filepath.Base(hp) != "_" {
		return ""
	}
	return filepath.Dir(hp)
}

// HookManagerFiles are the config files of git hook managers, at the top
// of a work tree, whose entries are commands their installed hooks run:
// pre-commit (.pre-commit-config.yaml: `repo: local` hooks run any
// `entry`), lefthook (lefthook.yml and its dotted, -local and .yaml
// forms).
var HookManagerFiles = []string{".pre-commit-config.yaml", ".pre-commit-config.yml",
	"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml",
	"lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yml", ".lefthook-local.yaml"}

func hookManagerConfig(name string) bool {
	for _, f := range HookManagerFiles {
		if sameName(name, f) {
			return true
		}
	}
	return false
}

// hooksPath returns the real hooks directory core.hooksPath sets for the
// repository at repo, or "". What the config files say is remembered per
// repository, with each file's identity (device, inode, size, modification
// time): it is read again once any of them stats differently, so a
// process that decides many calls (check --batch) reads each file once.
//
// The stats that check a remembered entry, and the resolution of the
// directory, are remembered in m (nil: not); the stats around a fresh
// read are not, since they check that nothing changed during it.
func (g *Guard) hooksPath(m *Memo, repo string) string {
	return realHooksDir(m, g.repoConfig(m, repo).hp)
}

// repoConfig is what the config files of the repository at repo say, read
// again once one of them changed (hooksPath).
func (g *Guard) repoConfig(m *Memo, repo string) hooksEntry {
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if c := g.hooks; c != nil {
		c.mu.Lock()
		ent, ok := c.m[repo]
		c.mu.Unlock()
		if ok && ent.xdg == xdg && ent.same(m) {
			return ent
		}
	}
	var files []string
	if filepath.IsAbs(xdg) {
		files = append(files, filepath.Join(xdg, "git", "config"))
	} else if g.home != "" {
		files = append(files, filepath.Join(g.home, ".config", "git", "config"))
	}
	if g.home != "" {
		files = append(files, filepath.Join(g.home, ".gitconfig"))
	}
	if repo != "" {
		files = append(files, repoConfigFiles(m, repo)...)
	}
	ent := hooksEntry{xdg: xdg}
	hp := ""
	// The files named by include.path and includeIf.*.path are read
	// too (to maxIncludes files): they are git config as much as
	// .git/config is (core.fsmonitor, core.pager, aliases), and are
	// protected where they lie in a root (includeReason).
	main := len(files)
	for i := 0; i < len(files); i++ {
		ent.ids = append(ent.ids, statID(files[i]))
		v, ok, incs := readGitConfig(files[i])
		if ok && i < main {
			hp = v
		}
		for _, inc := range incs {
			if rest, ok := strings.CutPrefix(inc, "~/"); ok && g.home != "" {
				inc = g.home + string(filepath.Separator) + rest
			} else if !filepath.IsAbs(inc) {
				inc = filepath.Dir(files[i]) + string(filepath.Separator) + inc
			}
			if len(files) < maxIncludes && !slices.Contains(files, inc) {
				files = append(files, inc)
				ent.includes = append(ent.includes, inc)
			}
		}
	}
	ent.files = files
	// Joined as text, not cleaned: git hands the path to the kernel,
	// which resolves a `..` after a symlink from the link's target.
	if hp != "" {
		if rest, ok := strings.CutPrefix(hp, "~/"); ok && g.home != "" {
			hp = g.home + string(filepath.Separator) + rest
		} else if repo == "" && !filepath.IsAbs(hp) {
			hp = "" // relative to each repository: judged with it
		} else if !filepath.IsAbs(hp) {
			hp = repo + string(filepath.Separator) + hp
		}
	}
	ent.hp = hp
	// Kept only when no file changed while it was read.
	if c := g.hooks; c != nil && ent.same(nil) {
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]hooksEntry{}
		}
		c.m[repo] = ent
		c.mu.Unlock()
	}
	return ent
}

// realHooksDir is where git finds hooks through hp (links may change
// between calls; the files' text is what is remembered): resolved as the
// kernel does, `..` after a link included, and through a dangling link to
// where its target would be created; hp cleaned when it does not resolve
// (a loop).
func realHooksDir(m *Memo, hp string) string {
	if hp == "" {
		return ""
	}
	if r, err := resolve(m, hp, true); err == nil {
		return normalize(r)
	}
	return filepath.Clean(hp)
}

// hooksCache is what hooksPath remembers, per repository.
type hooksCache struct {
	mu sync.Mutex
	m  map[string]hooksEntry
}

type hooksEntry struct {
	xdg   string   // $XDG_CONFIG_HOME when read
	files []string // the config files read, the included ones last
	ids   []fileID // their identities then (zero: missing)
	hp    string
	// includes are the files the others include, as joined (not
	// resolved: links may change between calls).
	includes []string
}

// same reports whether every file still stats as it did (the stats
// remembered in m).
func (e hooksEntry) same(m *Memo) bool {
	for i, f := range e.files {
		if m.statID(f) != e.ids[i] {
			return false
		}
	}
	return true
}

// statID is the identity of the file at p, symlinks followed; zero when it
// cannot be stat'ed.
func statID(p string) fileID { return (*Memo)(nil).statID(p) }

// statID is the package's statID, remembered in m.
func (m *Memo) statID(p string) fileID {
	st, err := m.stat(p, "", true)
	if err != nil {
		return fileID{}
	}
	return st.id
}

// maxIncludes bounds the config files one repository's reading follows
// through includes (git stops at a depth of 10).
const maxIncludes = 32

// readGitConfig returns the last core.hooksPath set in a git config file
// and the paths its include and includeIf sections name, as written
// (git-config(1) "CONFIGURATION FILE" and "Includes": sections and keys
// compare without case, values may be quoted, # and ; start comments;
// every includeIf is taken as if its condition held). The file is opened
// without blocking and read only when it is a regular file.
func readGitConfig(name string) (hooksPath string, found bool, includes []string) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", false, nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", false, nil
	}
	sc := bufio.NewScanner(io.LimitReader(f, maxGitConfig))
	sc.Buffer(make([]byte, 0, 4096), maxGitConfig)
	section, val, found := "", "", false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			section = strings.ToLower(strings.TrimSpace(line[1:end]))
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		switch {
		case section == "core" && strings.EqualFold(k, "hookspath"):
			val, found = gitConfigValue(v), true
		case (section == "include" || strings.HasPrefix(section, "includeif ")) && strings.EqualFold(k, "path"):
			if p := gitConfigValue(v); p != "" {
				includes = append(includes, p)
			}
		}
	}
	return val, found, includes
}

// gitConfigValue decodes a value: quotes removed, \" \\ \n \t decoded, a
// comment outside quotes cut, surrounding blanks trimmed.
func gitConfigValue(v string) string {
	var b strings.Builder
	quoted := false
	v = strings.TrimSpace(v)
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// configReason says why real is a config file cfg's files include, or in
// the hooks directory a global config names (an absolute core.hooksPath),
// or "".
func (g *Guard) configReason(m *Memo, cfg hooksEntry, real string) string {
	for _, inc := range cfg.includes {
		if realHooksDir(m, inc) == real {
			return fmt.Sprintf("%s is a git config file that git's config includes (%s), which can make git run commands", real, inc)
		}
	}
	return ""
}

// repoConfigFiles are the config files of the repository whose work tree
// is repo: .git/config, or for a `.git` file (a linked worktree, a
// submodule: "gitdir: DIR") the config of its common dir (commonDir) and
// DIR/config.worktree. The `.git` file comes first, so a change to it is
// seen (hooksEntry.same); one that names no git dir gives no config.
func repoConfigFiles(m *Memo, repo string) []string {
	dotGit := filepath.Join(repo, ".git")
	if m.isDir(repo, ".git") {
		return []string{filepath.Join(dotGit, "config")}
	}
	gd := gitFileTarget(repo, dotGit)
	if gd == "" {
		return []string{dotGit}
	}
	files := []string{dotGit}
	if common, ok := commonDir(m, gd); ok {
		files = append(files, filepath.Join(common, "config"))
	}
	return append(files, filepath.Join(gd, "config.worktree"))
}

// ConfigLinked returns what Protected guards because configuration
// points at it, for enforcement to keep read-only with the rest: the
// files the repository's and the global git config include, the hooks
// directory an absolute core.hooksPath of the global config names, and
// where the home directory's run files lead when they are links into a
// root (homeLinkSet). Real paths; some may not exist yet.
func (g *Guard) ConfigLinked(repo string) []string {
	var out []string
	add := func(cfg hooksEntry) {
		for _, inc := range cfg.includes {
			out = append(out, realHooksDir(nil, inc))
		}
	}
	global := g.repoConfig(nil, "")
	add(global)
	if hp := realHooksDir(nil, global.hp); hp != "" {
		out = append(out, hp)
	}
	if repo != "" {
		add(g.repoConfig(nil, repo))
	}
	for _, l := range g.homeLinks.resolved(g) {
		out = append(out, l.real)
	}
	return out
}
