//go:build unix && !(linux && (amd64 || arm64))

package pathguard

// statAt is stat(2) (lstat(2) when !follow) of dir joined with name (name
// "" stats dir itself), through syscall's own path conversion.
func statAt(dir, name string, follow bool) (fileStat, error) {
	lookups.Add(1)
	return statSlow(dir, name, follow)
}
