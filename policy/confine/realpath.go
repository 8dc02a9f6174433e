package confine

import (
	"io/fs"
	"os"
	"path/filepath"
)

// realPaths resolves paths as filepath.EvalSymlinks does, remembering
// every directory on the way: a plan resolves about a hundred paths below
// the same few directories, and EvalSymlinks lstats each component of
// each one again. A path whose components hold no link costs one lstat,
// of its last component; a link is resolved by EvalSymlinks itself.
// Entries that failed are forgotten when the plan creates a directory
// (created).
type realPaths map[string]realPath

type realPath struct {
	real string
	err  error
	fi   fs.FileInfo // os.Lstat(p): the last component, not followed
	ferr error
}

// eval is filepath.EvalSymlinks(p).
func (r realPaths) eval(p string) (string, error) {
	v := r.resolve(p)
	return v.real, v.err
}

// lstat is os.Lstat(p).
func (r realPaths) lstat(p string) (fs.FileInfo, error) {
	v := r.resolve(p)
	return v.fi, v.ferr
}

// realOrSelf is RealOrSelf(p).
func (r realPaths) realOrSelf(p string) string {
	if real, err := r.eval(p); err == nil {
		return real
	}
	return p
}

func (r realPaths) resolve(p string) realPath {
	if v, ok := r[p]; ok {
		return v
	}
	var v realPath
	switch {
	case !filepath.IsAbs(p) || filepath.Clean(p) != p:
		// Relative, or with `..` that must be taken after a link:
		// EvalSymlinks' own way.
		v.real, v.err = filepath.EvalSymlinks(p)
		v.fi, v.ferr = os.Lstat(p)
	case p == filepath.Dir(p): // the root
		v.fi, v.ferr = os.Lstat(p)
		v.real, v.err = p, v.ferr
	default:
		parent := r.resolve(filepath.Dir(p))
		if parent.err != nil {
			v.err, v.ferr = parent.err, parent.err
			break
		}
		at := filepath.Join(parent.real, filepath.Base(p))
		v.fi, v.ferr = os.Lstat(at)
		switch {
		case v.ferr != nil:
			v.err = v.ferr
		case v.fi.Mode()&fs.ModeSymlink != 0:
			v.real, v.err = filepath.EvalSymlinks(at)
		default:
			v.real = at
		}
	}
	r[p] = v
	return v
}

// created forgets every path that did not resolve: the plan made a
// directory, which may be one of them or lie on their way.
func (r realPaths) created() {
	for p, v := range r {
		if v.err != nil || v.ferr != nil {
			delete(r, p)
		}
	}
}
