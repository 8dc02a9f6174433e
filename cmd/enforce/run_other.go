//go:build !linux

package enforce

import (
	"errors"
	"runtime"
)

// UnavailableError means enforcement could not be set up; nothing ran.
type UnavailableError struct{ Err error }

func (e *UnavailableError) Error() string { return "enforcement is unavailable: " + e.Err.Error() }
func (e *UnavailableError) Unwrap() error { return e.Err }

// ExecError never occurs off Linux.
type ExecError struct{ Errno error }

func (e *ExecError) Error() string { return e.Errno.Error() }
func (e *ExecError) Unwrap() error { return e.Errno }

var errNotLinux = errors.New("kernel enforcement needs Linux (Landlock); this is " + runtime.GOOS)

// Run never runs anything off Linux.
// Early is never started off Linux.
type Early struct{}

// StartEarly starts nothing off Linux.
func StartEarly(bool, []string) *Early { return nil }

// Discard has nothing to end off Linux.
func (e *Early) Discard() {}

func Run(Plan, *Early, string, []string, []string, func(string)) (int, error) {
	return 0, &UnavailableError{Err: errNotLinux}
}

// Probe reports nothing supported off Linux.
func Probe() Support { return Support{Errors: []string{errNotLinux.Error()}} }

// LandlockABI is 0 off Linux.
func LandlockABI() int { return 0 }

// Confined never runs fn off Linux.
func Confined(Plan, func() error) error { return &UnavailableError{Err: errNotLinux} }

// Anchor is a directory handle; off Linux none can be taken.
type Anchor struct{}

// OpenAnchor fails off Linux.
func OpenAnchor(string) (*Anchor, error) { return nil, errors.New("not supported") }

// Close does nothing.
func (a *Anchor) Close() {}

// ErrNotRegular is RemoveFile's refusal of anything but a regular file.
var ErrNotRegular = errors.New("not a regular file")

// RemoveFile fails off Linux.
func (a *Anchor) RemoveFile(string) error { return errors.New("not supported") }

// GitState is what a git dir held before a confined command ran.
type GitState struct{}

// ReadGitState reads nothing off Linux.
func (a *Anchor) ReadGitState() *GitState { return nil }

// RepairGitDir repairs nothing off Linux.
func (a *Anchor) RepairGitDir(*GitState) []string { return nil }
