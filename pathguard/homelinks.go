package pathguard

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// homeLinkSet is where the home directory's code-running files lead when
// they are links into a root: a dotfiles repository as the project (GNU
// stow, `ln -s ~/dotfiles/bashrc ~/.bashrc`) makes ~/.bashrc's real
// location an ordinary project file by name, which a later login shell
// runs all the same. Resolved on first use (Protected), as configDirSet.
type homeLinkSet struct {
	once  sync.Once
	links []homeLink
}

// homeLink is a file (or dir) of the home directory and its real location
// inside a root.
type homeLink struct {
	name string // as under home: .bashrc, .config/git/config, .claude
	real string
}

// homeRunFiles are the names under the home directory whose contents run
// code later: the shell startup files, git's global config files (hooks,
// core.fsmonitor, aliases) and the coding agents' and editors' settings
// dirs (agentDirs).
func homeRunFiles() []string {
	names := append([]string{".gitconfig", filepath.Join(".config", "git", "config")}, shellStartupFiles...)
	for _, a := range agentDirs {
		names = append(names, a.dir)
	}
	return names
}

// resolved returns the home files that resolve, through a link, into a
// root of g.
func (h *homeLinkSet) resolved(g *Guard) []homeLink {
	if h == nil || g.home == "" {
		return nil
	}
	h.once.Do(func() {
		paths := map[string]string{} // path under home -> its name there
		for _, n := range homeRunFiles() {
			paths[filepath.Join(g.home, n)] = n
		}
		if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
			paths[filepath.Join(x, "git", "config")] = filepath.Join("$XDG_CONFIG_HOME", "git", "config")
		}
		for p, n := range paths {
			real, err := resolve(nil, p, true)
			if err != nil {
				continue
			}
			real = normalize(real)
			if real != normalize(filepath.Clean(p)) && g.rootOf(real) != "" {
				h.links = append(h.links, homeLink{name: n, real: real})
			}
		}
	})
	return h.links
}

// homeLinkReason is why a write to real changes a home file that links
// into a root, or "".
func (g *Guard) homeLinkReason(real string) string {
	for _, l := range g.homeLinks.resolved(g) {
		if within(l.real, real) {
			return fmt.Sprintf("%s is where the home directory's %s leads (a link), which runs code later", real, l.name)
		}
	}
	return ""
}
