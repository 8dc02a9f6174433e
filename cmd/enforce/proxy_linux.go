package enforce

import (
	"errors"
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// proxyPort is the port a plan's command may connect to, 0 for none.
func proxyPort(p Plan) int {
	if p.Proxy == nil || p.Network || p.Tier != TierFull {
		return 0
	}
	return p.Proxy.Port
}

// proxyPair makes the socket pair the helper hands the listener over:
// gatekeep's end and the helper's (its fd helper.ProxyFD).
func proxyPair() (*os.File, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("proxy socket pair: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "proxy"), os.NewFile(uintptr(fds[1]), "proxy-helper"), nil
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
