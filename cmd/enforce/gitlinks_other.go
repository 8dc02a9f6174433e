//go:build !linux

package enforce

import "errors"

// ErrNotLink is RemoveLink's answer for an entry that is no symbolic link.
var ErrNotLink = errors.New("not a symbolic link")

// RemoveLink is not supported off Linux.
func (a *Anchor) RemoveLink(string) error { return errors.New("not supported") }

// Unhead is not supported off Linux.
func (a *Anchor) Unhead(string) error { return errors.New("not supported") }
