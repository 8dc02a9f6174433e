// Package netproxy is the HTTP proxy through which a confined command
// reaches the network (docs/enforcement.md, "Allowed hosts"): it serves
// CONNECT tunnels and plain HTTP requests on a listener gatekeep got from
// inside the command's network namespace, admits only the destinations
// its Admit function lets through, dials them from outside the
// namespace, and records every connection. It decides nothing itself:
// the allow-list is policy's.
package netproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Event is one connection (a tunnel or a plain HTTP request) the
// command asked the proxy for.
type Event struct {
	Host    string `json:"host"`
	Port    int    `json:"port"`
	Method  string `json:"method"` // CONNECT, or the plain HTTP request's method
	Allowed bool   `json:"allowed"`
	// Reason says why a connection was refused or failed; "" when it
	// went through.
	Reason string `json:"reason,omitempty"`
	// Sent and Received count the bytes carried to and from the
	// destination (a tunnel's payload; a plain request's body and the
	// response's body).
	Sent     int64 `json:"bytes_sent"`
	Received int64 `json:"bytes_received"`
	// Count, when more than one, says the event stands for that many
	// connections through to Host:Port past the per-connection record
	// (Sent and Received are their totals).
	Count int `json:"count,omitempty"`
}

// What one run records is bounded, so a command opening connections in
// a loop cannot grow gatekeep's memory without bound, and bounded so
// that refusals cannot crowd out what went through: the first
// maxRefused refused connections are recorded one by one and the rest
// counted (Events' dropped); the first maxAllowed connections that went
// through one by one, and the rest as one total per destination, of at
// most maxTotals destinations (the rest counted as dropped).
const (
	maxRefused = 1000
	maxAllowed = 10000
	maxTotals  = 1000
)

// Server is one run's proxy.
type Server struct {
	// Admit reports whether host (a name in lower case without a final
	// dot, or an address) on port may be reached.
	Admit func(host string, port int) bool
	// Dial connects to an admitted destination; nil is DialPublic.
	Dial func(ctx context.Context, host string, port int) (net.Conn, error)

	mu      sync.Mutex
	events  []Event
	refused int               // refused events recorded
	allowed int               // allowed events recorded one by one
	totals  map[string]*Event // allowed past maxAllowed, by Host:Port
	order   []string          // totals' keys, first seen first
	dropped int
	conns   map[net.Conn]struct{}
	closed  bool
	wg      sync.WaitGroup
}

// ErrLocal refuses a name that resolves only to addresses that are not
// public (nonPublic): an allowed name must not become a way into this
// machine, its link or a private network.
var ErrLocal = errors.New("the name resolves only to addresses of this machine, its link or a private network")

// DialPublic resolves host (unless it is an address, which the
// allow-list named itself) and connects to the first public address that
// answers, leaving out the others (ErrLocal).
func DialPublic(ctx context.Context, host string, port int) (net.Conn, error) {
	d := &net.Dialer{Timeout: 30 * time.Second}
	if _, err := netip.ParseAddr(host); err == nil {
		return d.DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	var last error = ErrLocal
	for _, a := range addrs {
		if nonPublic(a) {
			continue
		}
		c, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a.Unmap(), uint16(port)).String())
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// wrapping are the ranges that are not public themselves or wrap another
// address: "this network" (0/8, RFC 1122), shared address space (RFC
// 6598: carrier-grade NAT, and Alibaba Cloud's metadata service at
// 100.100.100.200), IETF protocol assignments (192.0.0.0/24), benchmarking
// (198.18/15), NAT64 (64:ff9b::/96, 64:ff9b:1::/48, RFC 6052/8215) and
// 6to4 (2002::/16, RFC 3056), which carry an IPv4 address of any kind.
var wrapping = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"), netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"), netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("64:ff9b::/96"), netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2002::/16"),
}

// ownAddrs are this machine's interface addresses, read once.
var ownAddrs = sync.OnceValue(func() map[netip.Addr]bool {
	own := map[netip.Addr]bool{}
	as, _ := net.InterfaceAddrs()
	for _, a := range as {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			own[p.Addr().Unmap()] = true
		}
	}
	return own
})

// nonPublic reports an address a name on the allow-list must not lead to:
// this machine (loopback and every interface address it has), its link
// (link-local, which holds the cloud metadata services at
// 169.254.169.254), private networks (RFC 1918, and RFC 4193's fc00::/7,
// which holds AWS's fd00:ec2::254), the wrapping ranges, multicast and
// unspecified. To reach a service at such an address, list the address
// itself (host:port): it is dialled as listed.
func nonPublic(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsMulticast() ||
		a.IsUnspecified() || a.IsInterfaceLocalMulticast() || a.IsPrivate() || ownAddrs()[a] {
		return true
	}
	for _, p := range wrapping {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Serve serves ln until it is closed, then closes every connection still
// open and returns once every handler has ended.
func (s *Server) Serve(ln net.Listener) {
	srv := &http.Server{
		Handler:           http.HandlerFunc(s.handle),
		ReadHeaderTimeout: time.Minute,
		// The command is on the other side: its errors (too many
		// connections) are not gatekeep's to print on the agent's stderr.
		ErrorLog: log.New(io.Discard, "", 0),
		ConnState: func(c net.Conn, st http.ConnState) {
			switch st {
			case http.StateNew:
				s.track(c)
			case http.StateClosed:
				s.untrack(c)
			}
		},
	}
	srv.SetKeepAlivesEnabled(true)
	_ = srv.Serve(ln)
	srv.Close()
	s.mu.Lock()
	s.closed = true
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// Events returns the connections recorded (the totals last), and how
// many more were not.
func (s *Server) Events() ([]Event, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]Event(nil), s.events...)
	for _, k := range s.order {
		out = append(out, *s.totals[k])
	}
	return out, s.dropped
}

func (s *Server) record(e Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !e.Allowed && s.refused < maxRefused:
		s.refused++
	case !e.Allowed:
		s.dropped++
		return
	case s.allowed < maxAllowed:
		s.allowed++
	default:
		key := net.JoinHostPort(e.Host, strconv.Itoa(e.Port))
		t := s.totals[key]
		if t == nil {
			if len(s.totals) >= maxTotals {
				s.dropped++
				return
			}
			if s.totals == nil {
				s.totals = map[string]*Event{}
			}
			t = &Event{Host: e.Host, Port: e.Port, Method: e.Method, Allowed: true}
			s.totals[key], s.order = t, append(s.order, key)
		}
		t.Count++
		t.Sent += e.Sent
		t.Received += e.Received
		return
	}
	s.events = append(s.events, e)
}

// track keeps c to close when the proxy ends; false when it ended.
func (s *Server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		c.Close()
		return false
	}
	if s.conns == nil {
		s.conns = map[net.Conn]struct{}{}
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// refuse answers a refused request with 403 and a line that says why.
func refuse(w http.ResponseWriter, e Event) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprintf(w, "gatekeep: %s:%d: %s\n", e.Host, e.Port, e.Reason)
}

// NotAllowed is the reason of a destination the allow-list does not
// admit.
const NotAllowed = "not on [sandbox] allowed_hosts"

func (s *Server) dial(ctx context.Context, host string, port int) (net.Conn, error) {
	if s.Dial != nil {
		return s.Dial(ctx, host, port)
	}
	return DialPublic(ctx, host, port)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	s.wg.Add(1)
	defer s.wg.Done()
	if r.Method == http.MethodConnect {
		s.tunnel(w, r)
		return
	}
	s.forward(w, r)
}

// splitHostPort reads host:port (port defaulting to def), the host in
// lower case without brackets or a final dot.
func splitHostPort(hp string, def int) (string, int, error) {
	host, port, err := net.SplitHostPort(hp)
	if err != nil {
		if def == 0 {
			return "", 0, err
		}
		host, port = strings.Trim(hp, "[]"), strconv.Itoa(def)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 || host == "" {
		return "", 0, fmt.Errorf("%q: not host:port", hp)
	}
	return strings.TrimSuffix(strings.ToLower(host), "."), n, nil
}

// admitted records and answers a request whose destination could not be
// read (err, raw as the request gave it: 400 with bad) or is not admitted
// (403); true when the request may go on to e's Host and Port.
func (s *Server) admitted(w http.ResponseWriter, e *Event, raw string, err error, bad string) bool {
	if err != nil {
		e.Host, e.Reason = raw, "not host:port"
		s.record(*e)
		http.Error(w, bad, http.StatusBadRequest)
		return false
	}
	if !s.Admit(e.Host, e.Port) {
		e.Reason = NotAllowed
		s.record(*e)
		refuse(w, *e)
		return false
	}
	return true
}

// tunnel serves CONNECT host:port: the destination is admitted, dialled
// from outside, and the two connections are joined until either ends.
func (s *Server) tunnel(w http.ResponseWriter, r *http.Request) {
	host, port, err := splitHostPort(r.Host, 0)
	e := Event{Host: host, Port: port, Method: http.MethodConnect}
	if !s.admitted(w, &e, r.Host, err, "gatekeep: CONNECT needs host:port") {
		return
	}
	out, err := s.dial(r.Context(), host, port)
	if err != nil {
		e.Reason = "connecting failed: " + err.Error()
		s.record(e)
		http.Error(w, "gatekeep: "+e.Reason, http.StatusBadGateway)
		return
	}
	defer out.Close()
	hj, ok := w.(http.Hijacker)
	if !ok {
		e.Reason = "the connection cannot be taken over"
		s.record(e)
		http.Error(w, "gatekeep: "+e.Reason, http.StatusInternalServerError)
		return
	}
	in, buf, err := hj.Hijack()
	if err != nil {
		e.Reason = "the connection cannot be taken over"
		s.record(e)
		return
	}
	defer in.Close()
	defer s.untrack(in)
	if !s.track(out) {
		return
	}
	defer s.untrack(out)
	e.Allowed = true
	if _, err := in.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		s.record(e)
		return
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// What the client sent after the request line, buffered, first.
		n, _ := io.Copy(out, io.MultiReader(io.LimitReader(buf, int64(buf.Reader.Buffered())), in))
		e.Sent = n
		if tc, ok := out.(interface{ CloseWrite() error }); ok {
			tc.CloseWrite()
		} else {
			out.Close()
		}
	}()
	n, _ := io.Copy(in, out)
	e.Received = n
	if tc, ok := in.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
	// The destination ended: the client's side ends too.
	in.Close()
	wg.Wait()
	s.record(e)
}

// countingBody counts what is read through it (the transport may read a
// request's body on a goroutine of its own, even after the response).
type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (c countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// forward serves a plain HTTP request (an absolute http:// URL):
// admitted, it is sent on from outside with the URL's host as its Host
// (net/http takes the host of an absolute request URI, not the Host
// header, as RFC 9112 says), hop-by-hop headers removed.
func (s *Server) forward(w http.ResponseWriter, r *http.Request) {
	e := Event{Method: r.Method}
	if !r.URL.IsAbs() || r.URL.Scheme != "http" {
		e.Host, e.Reason = r.Host, "not a proxy request for an http:// URL"
		s.record(e)
		http.Error(w, "gatekeep: this is a proxy: send CONNECT or an absolute http:// URL", http.StatusBadRequest)
		return
	}
	host, port, err := splitHostPort(r.URL.Host, 80)
	e.Host, e.Port = host, port
	if !s.admitted(w, &e, r.URL.Host, err, "gatekeep: bad host") {
		return
	}
	e.Allowed = true
	var sent, received atomic.Int64
	var dialErr atomic.Pointer[error]
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL = pr.In.URL
			pr.Out.Host = pr.In.URL.Host
			pr.Out.RequestURI = ""
			if pr.Out.Body != nil {
				pr.Out.Body = countingBody{pr.Out.Body, &sent}
			}
		},
		Transport: &http.Transport{
			Proxy: nil,
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				c, err := s.dial(ctx, host, port)
				if err != nil {
					dialErr.Store(&err)
				}
				return c, err
			},
			DisableKeepAlives:     true,
			ResponseHeaderTimeout: 5 * time.Minute,
		},
		ModifyResponse: func(resp *http.Response) error {
			resp.Body = countingBody{resp.Body, &received}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, "gatekeep: "+err.Error(), http.StatusBadGateway)
		},
	}
	rp.ServeHTTP(w, r)
	if err := dialErr.Load(); err != nil {
		e.Reason = "connecting failed: " + (*err).Error()
	}
	e.Sent, e.Received = sent.Load(), received.Load()
	s.record(e)
}
