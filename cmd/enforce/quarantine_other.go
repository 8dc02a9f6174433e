//go:build !linux

package enforce

import "errors"

// QuarantineSuffix ends the name a quarantined entry is given.
const QuarantineSuffix = ".gatekeep-quarantine"

// Quarantine fails off Linux.
func (a *Anchor) Quarantine(string) (string, error) { return "", errors.New("not supported") }

// FileID is what a directory entry is, beyond its name.
type FileID struct {
	Dev, Ino uint64
	Mode     uint32
	Birth    int64
}

// IDOf knows nothing off Linux.
func IDOf(string) (FileID, bool) { return FileID{}, false }
