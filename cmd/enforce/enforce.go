// Package enforce confines what gatekeep runs with the kernel (design §10):
// a Landlock ruleset bounds writes and TCP, a seccomp filter refuses
// non-Unix sockets, and where user namespaces work, a mount namespace keeps
// protected paths read-only and hides secrets. It takes a Plan (paths and a
// network switch, decided by cmd from the configuration) and never decides
// policy itself; it only says what the machine can enforce.
//
// Landlock, no_new_privs and seccomp apply to the calling thread only, so
// every restriction is made on a locked OS thread that then execs.
package enforce

import (
	"fmt"
	"strings"
)

// Tier is how much the kernel enforces.
type Tier string

const (
	// TierFull is user + mount + PID (+ network) namespaces, read-only
	// binds over protected paths, secrets hidden, Landlock and seccomp;
	// nothing the command starts outlives the run.
	TierFull Tier = "full"
	// TierLandlock is Landlock and seccomp without namespaces: writes,
	// network and signals are confined; nothing inside a writable root can
	// be kept read-only and nothing can be hidden. gatekeep, a child
	// subreaper, kills what the command left running when it ends.
	TierLandlock Tier = "landlock"
	// TierNone enforces nothing.
	TierNone Tier = "none"
)

// Plan is what a confined command may do. Paths are absolute real paths
// (symlinks resolved).
type Plan struct {
	Tier Tier `json:"tier"`
	// Writable are directories where the command may create, change and
	// delete files: the sandbox roots and the cache directories.
	Writable []string `json:"writable"`
	// Readable, when not nil, are the only places the command may read
	// and execute files, besides Writable: Landlock keeps the rest (the
	// home directory but for the project, the caches and the toolchains'
	// dirs) from it; every dir can still be listed. nil reads everywhere.
	Readable []string `json:"readable,omitempty"`
	// ReadOnly are existing paths inside Writable kept read-only (full tier).
	ReadOnly []string `json:"read_only"`
	// Hidden are secret files and directories whose contents the command
	// cannot read: a file reads as empty (/dev/null), a directory as an
	// empty read-only tmpfs (full tier).
	Hidden []string `json:"hidden"`
	// Watched are protected files that did not exist when the command
	// started; a mount cannot cover what is missing, so after the command
	// ends any of them it created is removed and reported (full tier).
	Watched []string `json:"watched,omitempty"`
	// Pinned are directories holding protected paths, bound onto
	// themselves (still writable) so that the command cannot rename them
	// away and put a writable copy in their place: a mount point cannot
	// be renamed (full tier).
	Pinned []string `json:"pinned,omitempty"`
	// GitDir is the project's git dir. After the command ends it must
	// still be a repository to git (a valid HEAD, refs/ and objects/):
	// otherwise a later git run in the project would look for one above
	// it, outside the project. A HEAD the command left invalid is put
	// back as it was, a missing refs/ or objects/ made again, and the
	// repair reported (full tier).
	GitDir string `json:"git_dir,omitempty"`
	// Repos are the .git entries (dirs and files) the walk of the project
	// found before the run, the root's included: a .git the command adds
	// elsewhere is made no repository after it (full tier).
	Repos []string `json:"-"`
	// Shapes are the protected shapes (pathguard.ShapeOf: repositories,
	// git dirs and their sequencer state, agent settings, .envrc) the walk
	// of the project found before the run; nil when nothing is swept. A
	// shape the command adds is quarantined after it (renamed so that
	// nothing reads it) and reported.
	Shapes []string `json:"-"`
	// ShapeIDs are the Shapes' FileIDs before the run: a shape that is
	// there after it under another identity (a directory renamed away and
	// a new one made in its place) is new.
	ShapeIDs map[string]FileID `json:"-"`
	// Network lets the command open sockets other than Unix ones.
	Network bool `json:"network"`
	// Proxy, with Network off, is the command's one way out: gatekeep's
	// proxy to the allowed hosts (full tier only; proxy.go).
	Proxy *Proxy `json:"proxy,omitempty"`
	// Limits say, in lowercase sentences, what this tier does not enforce.
	Limits []string `json:"limits,omitempty"`
	// RequireFull forbids falling back to the landlock tier when the full
	// tier fails at run time (a call auto-allowed because it runs fully
	// confined).
	RequireFull bool `json:"-"`
}

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
