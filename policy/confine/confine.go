// Package confine works out what a confined command may do: the Plan of
// kernel enforcement for a call, from the configuration the decision used
// and the protected model of the project (pathguard): the writable roots
// and caches, the protected paths kept read-only, the secrets hidden, what
// may be read in the home directory. It reads the project (one walk,
// through an index kept in the user's cache dir) and creates the caches
// and the protected dirs that are harmless to create empty; it decides no
// call and applies nothing (cmd/enforce applies a Plan).
package confine

import "github.com/gatekeep/gatekeep/policy/confine/spec"

// Tier is how much the kernel enforces (spec.Tier).
type Tier = spec.Tier

// The tiers.
const (
	TierFull     = spec.TierFull
	TierLandlock = spec.TierLandlock
	TierNone     = spec.TierNone
)

// Plan is what a confined command may do (spec.Plan).
type Plan = spec.Plan

// Proxy is a confined command's way to the allowed hosts (spec.Proxy).
type Proxy = spec.Proxy

// Limits lists what tier t leaves unenforced on a kernel with Landlock ABI
// abi, for `gatekeep sandbox status` and check --json.
func Limits(t Tier, abi int) []string {
	var out []string
	switch t {
	case TierNone:
		return []string{"nothing is enforced: the command can write, read and connect anywhere the user can"}
	case TierLandlock:
		out = append(out,
			"no user namespaces: protected paths inside a writable root (.git/hooks, .git/config, .gatekeep/, .envrc, agents' settings) stay writable",
			"no user namespaces: secret files (the Read deny rules) in the project and the readable dirs stay readable",
			"no PID namespace: what the command leaves running is killed when it ends, but a kill -9 of gatekeep ends only the command's main process; what it started then outlives the run",
		)
		if abi < 6 {
			out = append(out, "landlock ABI < 6: the command can signal gatekeep, and by killing it keep what it started running")
		}
	}
	if abi < 3 {
		out = append(out, "landlock ABI < 3: truncating a file outside the writable dirs is not refused")
	}
	if abi < 4 {
		out = append(out, "landlock ABI < 4: TCP is refused by seccomp only")
	}
	if abi < 6 {
		out = append(out, "landlock ABI < 6: signals to processes outside the sandbox are not refused")
	}
	out = append(out, "Unix sockets reachable by path (ssh-agent, docker.sock) stay reachable")
	return out
}
