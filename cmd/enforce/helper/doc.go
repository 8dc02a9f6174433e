// Package helper is the confinement helper: gatekeep re-executed by
// package enforce (the first argument Arg) to set up a confined command
// from inside. In the full tier it is born in new user, mount, PID (and
// network) namespaces (a multi-threaded Go process cannot unshare a user
// namespace in place), makes the plan's mounts, restricts a locked thread
// with no_new_privs, Landlock, capability bounds and a seccomp filter,
// starts the command from it and stays the init of the command's PID
// namespace; in the Landlock tier it restricts its own thread and execs
// the command in place. gatekeep stays the parent: it passes signals on
// and returns the exit status.
//
// The helper runs from this package's initialization, and the package
// imports only the standard library's lower layers and x/sys/unix, so
// that the helper starts before the rest of gatekeep (policy, shell
// parser, TOML, HTTP) is initialized; see init in helper_linux.go.
package helper
