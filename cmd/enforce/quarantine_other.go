//go:build !linux

package enforce

import "errors"

// QuarantineSuffix ends the name a quarantined entry is given.
const QuarantineSuffix = ".gatekeep-quarantine"

// Quarantine fails off Linux.
func (a *Anchor) Quarantine(string) (string, error) { return "", errors.New("not supported") }
