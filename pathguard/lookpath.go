package pathguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Errors of LookPath.
var (
	// ErrNotFound: no entry of PATH holds the name; running it runs
	// nothing.
	ErrNotFound = errors.New("executable file not found in PATH")
	// ErrUnsafePath: the search reached a PATH entry the agent can
	// change before it found the name (or found it there): a relative
	// entry (`.`, an empty entry, `bin`), or one inside a sandbox root.
	// What the name runs is then the agent's to choose.
	ErrUnsafePath = errors.New("PATH leads through a directory the agent can write")
)

// LookPath searches the entries of PATH (in order, as given: split with
// filepath.SplitList, an empty entry kept) for an executable regular file
// named name that the current user may execute (executable), the way
// execvp(3), bash and exec.LookPath do, and returns its real path
// (symlinks resolved). Before an entry is searched it is judged: a
// relative or empty entry (the working directory, whatever it is when the
// command runs) and an entry whose real location lies inside a root are
// ErrUnsafePath, even when the name is not there now: the agent can put it
// there. A name found in no entry is ErrNotFound. name must be a bare name
// (no separator). It is meant for Unix; Windows' search (the working
// directory first, PATHEXT) differs.
func (g *Guard) LookPath(name string, entries []string) (string, error) {
	_, real, err := g.LookPathFile(name, entries)
	return real, err
}

// LookPathFile is LookPath that also returns the file it found as the
// search named it: the entry's real dir joined with name, a link there
// not followed. That is the path to exec for what LookPath judged to run
// (a program run through a link, such as a script dispatching on $0,
// still sees the name it was called by).
func (g *Guard) LookPathFile(name string, entries []string) (file, real string, err error) {
	dirs := dirMemo{}
	for _, d := range entries {
		if d == "" || !filepath.IsAbs(d) {
			return "", "", fmt.Errorf("PATH entry %q is relative to the working directory: %w", d, ErrUnsafePath)
		}
		real, err := dirs.realPath(d)
		if err != nil {
			if errors.Is(err, errDangling) {
				return "", "", fmt.Errorf("PATH entry %s is a link to nothing, which the agent can create: %w", d, ErrUnsafePath)
			}
			continue // unreadable or not a directory: searched, finds nothing
		}
		if g.Inside(real) {
			return "", "", fmt.Errorf("PATH entry %s is inside the sandbox root %s: %w", d, g.rootOf(real), ErrUnsafePath)
		}
		st, err := statAt(real, name, false)
		if err != nil {
			continue
		}
		if st.mode&fs.ModeSymlink == 0 {
			// In a real dir, a name that is no link is its own real
			// path: one lstat, no second walk.
			cand := filepath.Join(real, name)
			if !st.mode.IsRegular() || !executable(cand, st.mode) {
				continue
			}
			return normalize(cand), normalize(cand), nil
		}
		cand := filepath.Join(real, name)
		fi, err := os.Stat(cand)
		if err != nil || !fi.Mode().IsRegular() || !executable(cand, fi.Mode()) {
			continue
		}
		p, err := realPath(cand)
		if err != nil {
			return "", "", err
		}
		return cand, p, nil
	}
	return "", "", fmt.Errorf("%s: %w", name, ErrNotFound)
}

// dirMemo resolves the entries of one PATH search to their real paths,
// sharing the lookups of the dirs they have in common (/usr, /usr/local,
// the home dir): each entry below a resolved dir costs one lstat. Only
// what is plainly a dir (clean, not a link) is taken this way and kept;
// anything else is resolved whole by realPath, errors included, so the
// answers are realPath's.
type dirMemo map[string]string

func (m dirMemo) realPath(d string) (string, error) {
	if r, ok := m[d]; ok {
		return r, nil
	}
	parent, base := filepath.Dir(d), filepath.Base(d)
	if parent == d || filepath.Clean(d) != d {
		return realPath(d)
	}
	rp, err := m.realPath(parent)
	if err != nil {
		return realPath(d)
	}
	st, err := statAt(rp, base, false)
	if err != nil || st.mode&fs.ModeSymlink != 0 || !st.mode.IsDir() {
		return realPath(d)
	}
	r := join(rp, base)
	m[d] = r
	return r, nil
}
