package pathguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// maxLinks is how many symlinks one resolution follows before it calls the
// path a loop: the same bound as filepath.EvalSymlinks (Linux gives up
// at 40, macOS at 32, so no path the kernel can open is cut short).
const maxLinks = 255

var (
	errLoop     = errors.New("too many levels of symbolic links")
	errDangling = errors.New("symbolic link points to nothing")
)

// classify maps a resolution error to its Check code.
func classify(err error) string {
	switch {
	case errors.Is(err, errDangling):
		return CodeDangling
	case errors.Is(err, errLoop):
		return CodeLoop
	case errors.Is(err, fs.ErrPermission):
		return CodePermission
	}
	return CodeUnresolvable
}

// realPath returns the real location of the absolute path p (which need not
// be clean), then normalizes it where the platform asks for it (Windows:
// the case and long names of the existing part).
func realPath(p string) (string, error) {
	return (*Memo)(nil).realPath(p)
}

// resolve follows p component by component the way the kernel's path
// lookup does, with Lstat and Readlink: a symlink is replaced by its
// target and lookup goes on from there, so `..` after a symlink steps out
// of the link's target, not out of the directory holding the link (which
// is what filepath.Clean would do). The algorithm is that of
// filepath.EvalSymlinks (walkSymlinks), so for a path that exists both
// agree; it differs in what it does when a component is missing:
//
//   - a missing component that came from a symlink's target means that
//     link dangles: errDangling, also for the last component (writing
//     through a dangling link creates its target);
//   - a missing component of p itself starts the missing tail: the names
//     after it are joined to the real location of the existing part
//     without lookups, as `mkdir -p` would create them; a `..` in the tail
//     removes one of them, and once it climbs back into the existing
//     part, lookups (and symlinks) resume there, so
//     `new/../link/x` is judged where `mkdir -p` would put `x`.
//
// With throughDangling, a missing component from a symlink's target starts
// the missing tail too: the result is where creating the path would land
// (for judging a location that may be created later, not a write now).
//
// A component that exists but is not a directory while more follow is
// ENOTDIR; more than maxLinks symlinks is errLoop. Other Lstat and
// Readlink errors (permission, name too long) are returned wrapped in
// their *fs.PathError.
//
// Its lookups are remembered in m (nil: none).
func resolve(m *Memo, p string, throughDangling bool) (string, error) {
	volLen := len(filepath.VolumeName(p))
	if volLen < len(p) && os.IsPathSeparator(p[volLen]) {
		volLen++
	}
	// The working directory, when linkFree found it link-free, as p starts: each
	// of its components exists and none is a link (Memo.useWd).
	begin := max(volLen, m.wdPrefix(p))
	dest := p[:begin] // the real location of what has been looked up so far
	links := 0
	linkEnd := 0 // p[:linkEnd] came from the targets of followed symlinks
	var lastLink, lastTarget string
	missing := 0 // how many trailing components of dest do not exist
	for start, end := begin, begin; start < len(p); start = end {
		for start < len(p) && os.IsPathSeparator(p[start]) {
			start++
		}
		end = start
		for end < len(p) && !os.IsPathSeparator(p[end]) {
			end++
		}
		name := p[start:end]
		switch name {
		case "":
			continue
		case ".":
			continue
		case "..":
			dest = parent(dest, volLen)
			missing = max(0, missing-1)
			continue
		}
		next := joinIn(p, start, end, dest, name)
		if missing > 0 {
			dest, missing = next, missing+1
			continue
		}
		if isSelfLink(next) {
			// The process that opens the path, not this one: kept as
			// written, and lookup goes on below it.
			dest = next
			continue
		}
		isDir, link, err := m.lstatKind(next)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			if start < linkEnd && !throughDangling {
				return "", fmt.Errorf("%s is a symlink to %s, which does not exist: %w", lastLink, lastTarget, errDangling)
			}
			dest, missing = next, 1
			continue
		}
		if !link {
			if !isDir && end < len(p) {
				return "", &fs.PathError{Op: "lookup", Path: next, Err: syscall.ENOTDIR}
			}
			dest = next
			continue
		}
		links++
		if links > maxLinks {
			return "", fmt.Errorf("%s: %w", next, errLoop)
		}
		target, err := readlink(next)
		if err != nil {
			return "", err
		}
		lastLink, lastTarget = next, target
		rest := p[end:]
		linkEnd = len(target) + max(0, linkEnd-end)
		p = target + rest
		switch v := len(filepath.VolumeName(target)); {
		case v > 0: // Windows: a target with a drive or UNC volume
			if v < len(target) && os.IsPathSeparator(target[v]) {
				v++
			}
			volLen, dest, end = v, target[:v], v
		case len(target) > 0 && os.IsPathSeparator(target[0]):
			// Absolute on Unix; rooted on the current volume on Windows.
			vol := dest[:len(filepath.VolumeName(dest))] + string(filepath.Separator)
			p = vol + p[1:]
			linkEnd += len(vol) - 1
			volLen, dest, end = len(vol), vol, len(vol)
		default:
			// Relative: looked up from the directory holding the link,
			// which dest still is.
			end = 0
		}
	}
	return filepath.Clean(dest), nil
}

// isSelfLink reports Linux's /proc/self and /proc/thread-self (proc(5)):
// links whose target is the process or thread that looks them up. Followed
// here they would name gatekeep's own pid, not that of the command that
// later opens the path (`cat /proc/self/environ` reads cat's own).
func isSelfLink(p string) bool {
	return p == "/proc/self" || p == "/proc/thread-self"
}

// parent steps dest (a real path) up one component; the volume root is
// its own parent, as `/..` is `/`.
func parent(dest string, volLen int) string {
	for r := len(dest) - 1; r >= volLen; r-- {
		if os.IsPathSeparator(dest[r]) {
			return dest[:r]
		}
	}
	return dest[:volLen]
}

// joinIn is join(dest, name) for name = p[start:end]. While dest is still
// the text of p before name (no symlink followed, no `.` or `..` or doubled
// separator on the way), that is p[:end]: no new string.
func joinIn(p string, start, end int, dest, name string) string {
	n := len(dest)
	if n > 0 && n <= start && p[:n] == dest &&
		(os.IsPathSeparator(dest[n-1]) && start == n || start == n+1 && os.IsPathSeparator(p[n])) {
		return p[:end]
	}
	return join(dest, name)
}

func join(dir, name string) string {
	if dir != "" && os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}
