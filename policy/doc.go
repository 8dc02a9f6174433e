// Package policy decides whether a tool call may run: allow, ask or deny.
//
// It owns the Request and Decision types, the compiled rules and the
// decision chain: plan exception, safe read-only commands, dangerous
// commands, the path sandbox, Tool(pattern) rules and the permission mode, in
// that fixed order. The first layer with a definite answer ends the chain for
// each part of a call, and the call's answer is the strictest of its parts.
// Decide is the entry point: from one parse of the call it returns the whole
// answer (the Decision with auto-allow and opaque input applied, whether
// bypassPermissions lets an ask through, how the call runs under kernel
// enforcement, and the "always allow" rules when asked).
//
// It never runs anything, never reads a terminal and never touches the
// network: resolving an ask with a person is the caller's job. Reading and
// writing config files is package config's (policy/config), which builds
// the Config this package decides with.
package policy
