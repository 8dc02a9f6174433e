//go:build !unix

package pathguard

import "os"

// lstatKind is os.Lstat reduced to what resolve asks: is the path a
// directory, is it a link to follow (isLink).
func lstatKind(p string) (dir, link bool, err error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return false, false, err
	}
	return fi.IsDir(), isLink(fi), nil
}

// lstatKind is lstatKind; not remembered here (a Memo keeps what statAt
// answers, and lookups here go through os.Lstat).
func (m *Memo) lstatKind(p string) (dir, link bool, err error) { return lstatKind(p) }
