// Package enforce confines what gatekeep runs with the kernel: a Landlock
// ruleset bounds writes and TCP, a seccomp filter refuses non-Unix
// sockets, and where user namespaces work, a mount namespace keeps
// protected paths read-only and hides secrets. It takes a Plan (paths and a
// network switch, worked out by package confine from the configuration)
// and never decides policy itself; it only says what the machine can
// enforce.
//
// Landlock, no_new_privs and seccomp apply to the calling thread only, so
// every restriction is made on a locked OS thread that then execs.
package enforce

import (
	"fmt"
	"strings"

	"github.com/gatekeep/gatekeep/policy/confine/spec"
)

// Tier is how much the kernel enforces (spec.Tier).
type Tier = spec.Tier

// The tiers, as confine names them.
const (
	TierFull     = spec.TierFull
	TierLandlock = spec.TierLandlock
	TierNone     = spec.TierNone
)

// Plan is what a confined command may do (spec.Plan).
type Plan = spec.Plan

// Support is what the probe found this machine (and this process, under
// whatever seccomp or LSM policy it runs) can do.
type Support struct {
	// LandlockABI is the Landlock ABI version the kernel reports, 0 when
	// Landlock is missing, disabled or refused.
	LandlockABI int `json:"landlock_abi"`
	// Landlock is true when a ruleset could actually be enforced.
	Landlock bool `json:"landlock"`
	// Seccomp is true when a seccomp filter could be installed.
	Seccomp bool `json:"seccomp"`
	// Namespaces is true when unprivileged user, mount, PID and network
	// namespaces could be created and bind mounts made in them.
	Namespaces bool `json:"namespaces"`
	// Errors say why a feature is missing.
	Errors []string `json:"errors,omitempty"`
}

// Tier is the best tier Support allows. Landlock is required for any tier:
// a sandbox without it would not bound writes.
func (s Support) Tier() Tier {
	switch {
	case s.Landlock && s.Seccomp && s.Namespaces:
		return TierFull
	case s.Landlock && s.Seccomp:
		return TierLandlock
	}
	return TierNone
}

// String renders a support summary on one line.
func (s Support) String() string {
	var parts []string
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	parts = append(parts, fmt.Sprintf("landlock=%s (ABI %d)", yes(s.Landlock), s.LandlockABI),
		"seccomp="+yes(s.Seccomp), "namespaces="+yes(s.Namespaces))
	return strings.Join(parts, " ")
}
