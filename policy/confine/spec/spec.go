// Package spec is the form of a confinement plan: what package confine
// works out for a call and package enforce applies with the kernel. It
// imports only the standard library, so that enforce, which the
// confinement helper (gatekeep re-executed inside the namespaces) runs
// from its package initialization, needs nothing of gatekeep's policy,
// shell parser or configuration to be initialized before it.
package spec

import "net"

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
	// Network lets the command open sockets other than Unix ones.
	Network bool `json:"network"`
	// Proxy, with Network off, is the command's one way out: gatekeep's
	// proxy to the allowed hosts (full tier only; cmd/enforce applies it).
	Proxy *Proxy `json:"proxy,omitempty"`
	// Limits say, in lowercase sentences, what this tier does not enforce.
	Limits []string `json:"limits,omitempty"`
	// RequireFull forbids falling back to the landlock tier when the full
	// tier fails at run time (a call auto-allowed because it runs fully
	// confined).
	RequireFull bool `json:"-"`
}

// Proxy is the one way out of a confined command's network namespace
// (full tier, network off): a TCP listener on the namespace's loopback,
// 127.0.0.1:Port, made by the helper inside and handed to gatekeep,
// which serves it from outside every namespace (Serve). Landlock lets
// the command connect to that port only, seccomp lets it make TCP
// sockets only besides Unix ones, and nothing else is reachable: the
// namespace has no other interface.
type Proxy struct {
	// Port is the listener's port inside the namespace. The namespace
	// is the command's own, so any port is free there.
	Port int `json:"port"`
	// Hosts are the allowed_hosts entries the proxy admits, for reports.
	Hosts []string `json:"allowed_hosts"`
	// Serve runs in gatekeep, outside the namespaces, with the listener.
	// It returns once the listener is closed and every connection it
	// accepted has ended; Run closes the listener when the command ends.
	Serve func(net.Listener) `json:"-"`
}
