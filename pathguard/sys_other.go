//go:build !unix && !windows

package pathguard

import "io/fs"

var (
	systemTempDirs    []string
	managedConfigDirs []string
)

func linkCount(string, fs.FileInfo) uint64 { return 0 }

func normalize(p string) string { return p }

func isLink(fi fs.FileInfo) bool { return fi.Mode()&fs.ModeSymlink != 0 }

// executable reports whether a file of this mode may be executed: any
// execute bit (no user-specific check here).
func executable(_ string, mode fs.FileMode) bool { return mode.Perm()&0o111 != 0 }
