package enforce

import (
	"errors"
	"fmt"
	"net"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// proxyFD is the helper's end of the socket pair the proxy's listener
// is passed over (SCM_RIGHTS), after the status pipe.
const proxyFD = 4

// landlockRuleNetPort is LANDLOCK_RULE_NET_PORT (Landlock ABI 4).
const landlockRuleNetPort = 2

// netPortAttr is struct landlock_net_port_attr.
type netPortAttr struct {
	allowed, port uint64
}

// proxyPort is the port a plan's command may connect to, 0 for none.
func proxyPort(p Plan) int {
	if p.Proxy == nil || p.Network || p.Tier != TierFull {
		return 0
	}
	return p.Proxy.Port
}

// proxyPair makes the socket pair the helper hands the listener over:
// gatekeep's end and the helper's (its fd proxyFD).
func proxyPair() (*os.File, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("proxy socket pair: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "proxy"), os.NewFile(uintptr(fds[1]), "proxy-helper"), nil
}

// openProxyListener runs in the helper, inside the new network namespace
// and before the command starts: it brings the loopback interface up,
// listens on 127.0.0.1:port and sends the listening socket to gatekeep
// over proxyFD, then closes its own copies. A socket keeps the network
// namespace it was made in, so gatekeep accepts there while its own
// connections go out through the host's.
func openProxyListener(port int) error {
	ctl, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	ifr, err := unix.NewIfreq("lo")
	if err == nil {
		err = unix.IoctlIfreq(ctl, unix.SIOCGIFFLAGS, ifr)
	}
	if err == nil {
		ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
		err = unix.IoctlIfreq(ctl, unix.SIOCSIFFLAGS, ifr)
	}
	unix.Close(ctl)
	if err != nil {
		return fmt.Errorf("bringing up the loopback interface: %w", err)
	}
	ln, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(ln)
	if err := unix.Bind(ln, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return fmt.Errorf("bind 127.0.0.1:%d: %w", port, err)
	}
	if err := unix.Listen(ln, 128); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer unix.Close(proxyFD)
	if err := unix.Sendmsg(proxyFD, []byte{'L'}, unix.UnixRights(ln), nil, 0); err != nil {
		return fmt.Errorf("passing the listener: %w", err)
	}
	return nil
}

// receiveProxyListener reads the listener the helper sent over conn;
// it fails when the helper ended without sending one.
func receiveProxyListener(conn *os.File) (net.Listener, error) {
	buf := make([]byte, 1)
	oob := make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := unix.Recvmsg(int(conn.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("receiving the proxy listener: %w", err)
	}
	if n != 1 || oobn == 0 {
		return nil, errors.New("the helper sent no proxy listener")
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, errors.New("the helper sent no proxy listener")
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return nil, errors.New("the helper sent no proxy listener")
	}
	f := os.NewFile(uintptr(fds[0]), "proxy-listener")
	defer f.Close()
	return net.FileListener(f)
}

// addProxyRule lets the Landlock ruleset fd connect to TCP port.
func addProxyRule(fd uintptr, port int) error {
	rule := netPortAttr{allowed: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, port: uint64(port)}
	if _, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, landlockRuleNetPort,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0); e != 0 {
		return fmt.Errorf("landlock: add rule for port %d: %w", port, e)
	}
	return nil
}

// proxyNetworkRules are networkRules for a command that reaches the
// proxy: sockets may be Unix ones, or TCP over IPv4 or IPv6 (type
// SOCK_STREAM, protocol 0 or IPPROTO_TCP; not MPTCP, which Landlock's TCP
// rules do not cover on every kernel); io_uring stays refused.
var proxyNetworkRules = []sysRule{
	{nr: unix.SYS_SOCKET, tcpOnly: true, errno: unix.EACCES},
	{nr: unix.SYS_IO_URING_SETUP, argNe: -1, errno: unix.EPERM},
}

// tcpOnlyFilter is the BPF for a tcpOnly socket rule: the syscall number
// is loaded; errno is the refusal.
func tcpOnlyFilter(nr int, refuse unix.SockFilter) []unix.SockFilter {
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: bpfJMP | bpfJEQ | bpfK, K: k, Jt: jt, Jf: jf}
	}
	allow := stmt(bpfRET|bpfK, unix.SECCOMP_RET_ALLOW)
	body := []unix.SockFilter{
		/* 0 */ stmt(bpfLD|bpfW|bpfABS, offArg0),
		/* 1 */ jump(unix.AF_UNIX, 10, 0), // → 12 allow
		/* 2 */ jump(unix.AF_INET, 1, 0), // → 4
		/* 3 */ jump(unix.AF_INET6, 0, 7), // → 4, else 11 refuse
		/* 4 */ stmt(bpfLD|bpfW|bpfABS, offArg0+8),
		/* 5 */ stmt(bpfALU|bpfAND|bpfK, 0xf), // SOCK_TYPE_MASK
		/* 6 */ jump(unix.SOCK_STREAM, 0, 4), // else 11 refuse
		/* 7 */ stmt(bpfLD|bpfW|bpfABS, offArg0+16),
		/* 8 */ jump(0, 3, 0), // → 12 allow
		/* 9 */ jump(unix.IPPROTO_TCP, 2, 0), // → 12 allow
		/* 10 */ stmt(bpfJMP|bpfJA, 0), // → 11
		/* 11 */ refuse,
		/* 12 */ allow,
	}
	// nr == socket ? body : skip it
	return append([]unix.SockFilter{jump(uint32(nr), 0, uint8(len(body)))}, body...)
}
