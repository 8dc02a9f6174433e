package helper

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BPF opcodes (linux/bpf_common.h).
const (
	bpfLD   = 0x00
	bpfW    = 0x00
	bpfABS  = 0x20
	bpfJMP  = 0x05
	bpfJEQ  = 0x10
	bpfJGE  = 0x30
	bpfJSET = 0x40
	bpfK    = 0x00
	bpfRET  = 0x06
	bpfALU  = 0x04
	bpfAND  = 0x50
	bpfJA   = 0x00
)

// Offsets in struct seccomp_data.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on little-endian
)

// auditArch is the AUDIT_ARCH value of this build; seccomp filters refuse
// every other (a 32-bit program has other syscall numbers).
func auditArch() (uint32, error) {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64, nil
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64, nil
	}
	return 0, errors.New("seccomp: no filter for " + runtime.GOARCH)
}

// filter builds a seccomp program: foreign architectures and x32 calls
// are killed; each rule returns its action for one syscall number, after
// an optional test of the first argument; everything else is allowed.
type sysRule struct {
	nr int
	// When argMask is set, the rule applies only if arg0&argMask != 0
	// (flags); when argEq is set (>=0), only if arg0 != argEq (socket
	// domain other than argEq).
	argMask uint32
	argNe   int64
	// When argIn is set, the rule applies only if argument argIdx (its
	// low 32 bits) is one of its values.
	argIn  []uint32
	argIdx int
	// tcpOnly: a socket() rule that lets Unix and TCP sockets through
	// (tcpOnlyFilter).
	tcpOnly bool
	errno   unix.Errno
}

func buildFilter(rules []sysRule) ([]unix.SockFilter, error) {
	arch, err := auditArch()
	if err != nil {
		return nil, err
	}
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: code, K: k, Jt: jt, Jf: jf}
	}
	ret := func(v uint32) unix.SockFilter { return stmt(bpfRET|bpfK, v) }
	p := []unix.SockFilter{
		stmt(bpfLD|bpfW|bpfABS, offArch),
		jump(bpfJMP|bpfJEQ|bpfK, arch, 1, 0),
		ret(unix.SECCOMP_RET_KILL_PROCESS),
		stmt(bpfLD|bpfW|bpfABS, offNr),
	}
	if runtime.GOARCH == "amd64" {
		// x32 syscalls share the architecture with the X32 bit set.
		p = append(p, jump(bpfJMP|bpfJGE|bpfK, 0x40000000, 0, 1), ret(unix.SECCOMP_RET_KILL_PROCESS))
	}
	for _, r := range rules {
		action := ret(unix.SECCOMP_RET_ERRNO | uint32(r.errno))
		switch {
		case r.tcpOnly:
			p = append(p, tcpOnlyFilter(r.nr, action)...)
		case len(r.argIn) > 0:
			// nr == r.nr ? (arg in argIn ? errno : allow) : next
			k := len(r.argIn)
			p = append(p,
				jump(bpfJMP|bpfJEQ|bpfK, uint32(r.nr), 0, uint8(k+3)),
				stmt(bpfLD|bpfW|bpfABS, uint32(offArg0+8*r.argIdx)))
			for i, v := range r.argIn {
				p = append(p, jump(bpfJMP|bpfJEQ|bpfK, v, uint8(k-i), 0))
			}
			p = append(p, ret(unix.SECCOMP_RET_ALLOW), action)
		case r.argMask != 0:
			// nr == r.nr ? (arg0 & mask ? errno : allow) : next
			p = append(p,
				jump(bpfJMP|bpfJEQ|bpfK, uint32(r.nr), 0, 4),
				stmt(bpfLD|bpfW|bpfABS, offArg0),
				jump(bpfJMP|bpfJSET|bpfK, r.argMask, 0, 1),
				action,
				ret(unix.SECCOMP_RET_ALLOW),
			)
		case r.argNe >= 0:
			p = append(p,
				jump(bpfJMP|bpfJEQ|bpfK, uint32(r.nr), 0, 4),
				stmt(bpfLD|bpfW|bpfABS, offArg0),
				jump(bpfJMP|bpfJEQ|bpfK, uint32(r.argNe), 1, 0),
				action,
				ret(unix.SECCOMP_RET_ALLOW),
			)
		default:
			p = append(p, jump(bpfJMP|bpfJEQ|bpfK, uint32(r.nr), 0, 1), action)
		}
	}
	return append(p, ret(unix.SECCOMP_RET_ALLOW)), nil
}

// networkRules refuse every socket but AF_UNIX (so UDP, MPTCP, raw and
// netlink sockets too, which Landlock's TCP rules miss) and io_uring,
// whose requests would bypass the socket filter.
var networkRules = []sysRule{
	{nr: unix.SYS_SOCKET, argNe: unix.AF_UNIX, errno: unix.EACCES},
	{nr: unix.SYS_IO_URING_SETUP, argNe: -1, errno: unix.EPERM},
}

// ttyRules refuse the ioctls that write into a terminal's input (TIOCSTI)
// or act on the console (TIOCLINUX): a command could type a line that the
// user's shell runs after gatekeep exits (CVE-2017-5226 in bubblewrap).
// ioctl's request is an unsigned int: its low 32 bits are all of it.
var ttyRules = []sysRule{
	{nr: unix.SYS_IOCTL, argIdx: 1, argIn: []uint32{unix.TIOCSTI, unix.TIOCLINUX}, errno: unix.EPERM},
}

// installFilter installs a seccomp filter on the calling thread, which has
// no_new_privs set.
func installFilter(rules []sysRule) error {
	prog, err := buildFilter(rules)
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		return fmt.Errorf("seccomp: %w", e)
	}
	return nil
}

// Refuse installs, on the calling thread, a seccomp filter that makes the
// kernel look older or locked down: with namespaces, creating a user
// namespace fails with EPERM (clone, unshare; clone3 fails with ENOSYS so
// callers fall back to clone); with landlock, every Landlock call fails
// with ENOSYS. Tests use it to reach the lower tiers; the caller must lock
// the thread and exec from it.
func Refuse(namespaces, landlock bool) error {
	if err := NoNewPrivs(); err != nil {
		return err
	}
	var rules []sysRule
	if namespaces {
		rules = append(rules,
			sysRule{nr: unix.SYS_CLONE3, argNe: -1, errno: unix.ENOSYS},
			sysRule{nr: unix.SYS_CLONE, argMask: unix.CLONE_NEWUSER, errno: unix.EPERM},
			sysRule{nr: unix.SYS_UNSHARE, argMask: unix.CLONE_NEWUSER, errno: unix.EPERM},
		)
	}
	if landlock {
		rules = append(rules,
			sysRule{nr: unix.SYS_LANDLOCK_CREATE_RULESET, argNe: -1, errno: unix.ENOSYS},
			sysRule{nr: unix.SYS_LANDLOCK_ADD_RULE, argNe: -1, errno: unix.ENOSYS},
			sysRule{nr: unix.SYS_LANDLOCK_RESTRICT_SELF, argNe: -1, errno: unix.ENOSYS},
		)
	}
	return installFilter(rules)
}
