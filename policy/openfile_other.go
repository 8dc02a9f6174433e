//go:build !unix

package policy

// readRegular reads path (see ReadRegular), up to max+1 bytes.
func readRegular(path string, max int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return readAllFrom(f, fi.Size(), max)
}

// oNonblock: Windows has no FIFOs that block an open; OpenRegular still
// refuses what is not a regular file.
const oNonblock = 0
