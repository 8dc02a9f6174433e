package netproxy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// startProxy serves a proxy admitting allowed.test (ports 80 and 443),
// which it dials at target; it returns the proxy's address and a stop
// that returns once Serve has.
func startProxy(t *testing.T, target string) (*Server, string, func()) {
	t.Helper()
	s := &Server{
		Admit: func(host string, port int) bool { return host == "allowed.test" && (port == 80 || port == 443) },
		Dial: func(ctx context.Context, host string, port int) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", target)
		},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		s.Serve(ln)
		close(done)
	}()
	return s, ln.Addr().String(), func() {
		ln.Close()
		<-done
	}
}

func TestForward(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "host=%s path=%s body=%s", r.Host, r.URL.Path, b)
	}))
	defer origin.Close()
	s, addr, stop := startProxy(t, strings.TrimPrefix(origin.URL, "http://"))
	pu, _ := url.Parse("http://" + addr)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	resp, err := client.Post("http://allowed.test/x", "text/plain", strings.NewReader("abc"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "host=allowed.test path=/x body=abc" {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
	resp, err = client.Get("http://other.test/x")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), NotAllowed) {
		t.Fatalf("other.test: got %d %q", resp.StatusCode, body)
	}
	stop()
	events, dropped := s.Events()
	if dropped != 0 || len(events) != 2 {
		t.Fatalf("events %+v, %d dropped", events, dropped)
	}
	if e := events[0]; !e.Allowed || e.Host != "allowed.test" || e.Port != 80 || e.Method != "POST" || e.Sent != 3 || e.Received != int64(len("host=allowed.test path=/x body=abc")) {
		t.Errorf("first event %+v", e)
	}
	if e := events[1]; e.Allowed || e.Host != "other.test" || e.Reason != NotAllowed {
		t.Errorf("second event %+v", e)
	}
}

// A plain request whose Host header names another host than its URL
// reaches the URL's host, with that Host: the origin serves nothing else.
func TestForwardHostHeader(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "host=%s", r.Host)
	}))
	defer origin.Close()
	_, addr, stop := startProxy(t, strings.TrimPrefix(origin.URL, "http://"))
	defer stop()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET http://allowed.test/ HTTP/1.1\r\nHost: other.test\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != "host=allowed.test" {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
}

func TestTunnel(t *testing.T) {
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(c, c); c.Close() }()
		}
	}()
	s, addr, stop := startProxy(t, echo.Addr().String())
	connect := func(dest string) (net.Conn, *bufio.Reader, int) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", dest, dest)
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
		if err != nil {
			t.Fatal(err)
		}
		return c, br, resp.StatusCode
	}
	c, br, code := connect("allowed.test:443")
	if code != 200 {
		t.Fatalf("CONNECT allowed.test:443: %d", code)
	}
	fmt.Fprintf(c, "ping\n")
	if line, err := br.ReadString('\n'); err != nil || line != "ping\n" {
		t.Fatalf("echo: %q %v", line, err)
	}
	// A tunnel still open when the run ends is closed by Serve.
	for _, dest := range []string{"allowed.test:22", "127.0.0.1:" + strconv.Itoa(echo.Addr().(*net.TCPAddr).Port), "other.test:443"} {
		c2, _, code := connect(dest)
		c2.Close()
		if code != http.StatusForbidden {
			t.Errorf("CONNECT %s: %d", dest, code)
		}
	}
	stop()
	c.Close()
	events, _ := s.Events()
	if len(events) != 4 || !events[3].Allowed || events[3].Sent != 5 || events[3].Received != 5 {
		t.Fatalf("events %+v", events)
	}
}

// DialPublic refuses a name that leads to this machine or its link.
func TestDialPublicLocal(t *testing.T) {
	_, err := DialPublic(context.Background(), "localhost", 80)
	if !errors.Is(err, ErrLocal) {
		t.Fatalf("localhost: got %v, want ErrLocal", err)
	}
}

// nonPublic refuses this machine's addresses, its link, private and
// shared networks and the ranges that wrap an IPv4 address; public
// addresses pass.
func TestNonPublic(t *testing.T) {
	for _, c := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1", true}, {"::1", true}, {"::ffff:127.0.0.1", true}, {"169.254.169.254", true},
		{"10.1.2.3", true}, {"172.16.0.1", true}, {"192.168.1.1", true}, {"100.100.100.200", true},
		{"fd00:ec2::254", true}, {"64:ff9b::7f00:1", true}, {"2002:7f00:1::", true}, {"0.1.2.3", true},
		{"0.0.0.0", true}, {"224.0.0.1", true},
		{"93.184.215.14", false}, {"2606:2800:21f:cb07:6820:80da:af6b:8b2c", false}, {"::ffff:8.8.8.8", false},
	} {
		if got := nonPublic(netip.MustParseAddr(c.addr)); got != c.want {
			t.Errorf("nonPublic(%s) = %v, want %v", c.addr, got, c.want)
		}
	}
	// Every address of this machine's own interfaces is refused.
	as, _ := net.InterfaceAddrs()
	for _, a := range as {
		if p, err := netip.ParsePrefix(a.String()); err == nil && !nonPublic(p.Addr()) {
			t.Errorf("this machine's %s is public to the proxy", p.Addr())
		}
	}
}

// Refusals past their bound cannot crowd out the connections that went
// through: those are kept, one by one and then as totals per destination.
func TestRecordBounds(t *testing.T) {
	s := &Server{}
	for i := 0; i < maxRefused+50; i++ {
		s.record(Event{Host: "refused.test", Port: 1})
	}
	for i := 0; i < maxAllowed+3; i++ {
		s.record(Event{Host: "ok.test", Port: 80, Allowed: true, Sent: 2})
	}
	events, dropped := s.Events()
	if dropped != 50 {
		t.Errorf("dropped = %d, want 50", dropped)
	}
	last := events[len(events)-1]
	if len(events) != maxRefused+maxAllowed+1 || !last.Allowed || last.Count != 3 || last.Sent != 6 {
		t.Errorf("got %d events, last %+v; want every allowed one kept, the last 3 as one total", len(events), last)
	}
}
