//go:build linux || darwin

// Package ptytest is the one pseudo-terminal harness of gatekeep's tests:
// the person's side of a terminal, whose screen is read as it comes and to
// which keys are typed. prompt's tests run Ask on it in-process; cmd's run
// a gatekeep process with it as the controlling terminal. It is for tests
// only.
package ptytest

import (
	"bytes"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// Wait bounds every wait of the harness; nothing sleeps to make a point.
const Wait = 15 * time.Second

// Screen is a pseudo-terminal of 24 rows and 80 columns seen from the
// master side.
type Screen struct {
	t      *testing.T
	master *os.File
	// TTY is the terminal side, kept open so the terminal outlives each
	// question; hand it to a child as its controlling terminal.
	TTY  *os.File
	more chan struct{}

	mu   sync.Mutex
	out  []byte
	seen int // Expect has matched up to here
}

// Open makes a fresh pseudo-terminal, closed when the test ends. It skips
// the test where the system has none.
func Open(t *testing.T) *Screen {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 80}); err != nil {
		t.Fatal(err)
	}
	// pty.Open leaves the master in blocking mode, where Close cannot wake
	// a pending Read. A non-blocking copy goes through the poller instead.
	fd, err := unix.Dup(int(ptmx.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	ptmx.Close()
	if err := unix.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	s := &Screen{t: t, master: os.NewFile(uintptr(fd), "/dev/ptmx"), TTY: tty, more: make(chan struct{}, 1)}
	go s.read()
	t.Cleanup(func() {
		s.TTY.Close()
		s.master.Close()
	})
	return s
}

func (s *Screen) read() {
	buf := make([]byte, 4096)
	for {
		n, err := s.master.Read(buf)
		s.mu.Lock()
		s.out = append(s.out, buf[:n]...)
		s.mu.Unlock()
		select {
		case s.more <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

// Expect waits up to Wait until the screen shows want after what was
// matched before, and returns everything shown up to the end of it.
func (s *Screen) Expect(want string) string {
	s.t.Helper()
	deadline := time.After(Wait)
	for {
		s.mu.Lock()
		if i := bytes.Index(s.out[s.seen:], []byte(want)); i >= 0 {
			got := string(s.out[s.seen : s.seen+i+len(want)])
			s.seen += i + len(want)
			s.mu.Unlock()
			return got
		}
		s.mu.Unlock()
		select {
		case <-s.more:
		case <-deadline:
			s.t.Fatalf("waited %v for %q; the screen shows:\n%s", Wait, want, s.String())
		}
	}
}

// String returns all that was shown.
func (s *Screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.out)
}

// Send types keys.
func (s *Screen) Send(keys string) {
	s.t.Helper()
	if _, err := s.master.WriteString(keys); err != nil {
		s.t.Fatal(err)
	}
}

// State returns the terminal's current settings.
func (s *Screen) State() *term.State {
	s.t.Helper()
	st, err := term.GetState(int(s.TTY.Fd()))
	if err != nil {
		s.t.Fatal(err)
	}
	return st
}

// Hangup closes the master: the terminal side reads end of input.
func (s *Screen) Hangup() { s.master.Close() }

// Attach makes the terminal c's controlling terminal, in a session of its
// own, leaving c's stdin, stdout and stderr as they are: the way an agent
// runs gatekeep with a person at the terminal. Call it before c.Start.
func (s *Screen) Attach(c *exec.Cmd) {
	c.ExtraFiles = append(c.ExtraFiles, s.TTY)
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 2 + len(c.ExtraFiles)}
}
