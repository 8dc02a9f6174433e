//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos

package prompt

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// testHookRaw, when set, runs right after the terminal is put in raw mode.
var testHookRaw func()

// Ask puts q to the person on the terminal opt.TTY (default /dev/tty,
// the controlling terminal, so it works while stdin and stdout are pipes)
// and waits up to opt.Timeout (default 10 minutes) for one key: y allows
// once, n denies, a always allows (only when offered, see Question).
// Ctrl-C, Ctrl-D, Esc, end of input and any error deny. An unknown key, a
// multi-byte key or a paste asks once more; a second one denies. Keys
// typed before the question was fully shown are discarded.
//
// The question is written to the terminal, never to stdout or stderr, with
// every field shown through Render. The terminal is in raw mode while
// asking and its state is restored on every way out: an answer, an error,
// SIGINT, SIGTERM or SIGHUP (caught only while asking), and a panic.
//
// A deny by the person (n, Ctrl-D, Esc, a second unknown key) has a nil
// error; Ctrl-C denies with ErrInterrupted, as SIGINT does. Errors wrap
// ErrNoTTY (also when the process is in the background of its terminal,
// where asking would stop it), ErrTimeout or ErrInterrupted; with any
// error the Answer is Deny.
func Ask(q Question, opt Options) (Answer, error) {
	path := opt.tty()
	timeout := opt.timeout()
	deadline := time.Now().Add(timeout)

	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return Deny, fmt.Errorf("%w: %w", ErrNoTTY, err)
	}
	defer f.Close()
	// Work on the descriptor through Control: f.Fd would switch it to
	// blocking mode and stop deadlines from working.
	rc, err := f.SyscallConn()
	if err != nil {
		return Deny, fmt.Errorf("%w: %w", ErrNoTTY, err)
	}
	control := func(fn func(fd int) error) error {
		var ferr error
		if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
			return err
		}
		return ferr
	}

	var width, rows int
	if err := control(func(fd int) error {
		if !isatty.IsTerminal(uintptr(fd)) {
			return errors.New("not a terminal")
		}
		// A background process group would be stopped by SIGTTOU or
		// SIGTTIN on its own controlling terminal and wait unseen. On any
		// other terminal the call fails and job control does not apply.
		if fg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err == nil && fg != unix.Getpgrp() {
			return errors.New("running in the background: another process group owns the terminal")
		}
		width, rows, _ = term.GetSize(fd)
		return nil
	}); err != nil {
		return Deny, fmt.Errorf("%w: %s: %w", ErrNoTTY, path, err)
	}

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)

	var saved *term.State
	if err := control(func(fd int) (err error) {
		saved, err = term.MakeRaw(fd)
		return err
	}); err != nil {
		return Deny, fmt.Errorf("%w: make %s raw: %w", ErrNoTTY, path, err)
	}
	// Restore before f.Close (defers run last first). The error is dropped:
	// a terminal that hung up has no state left to restore.
	defer control(func(fd int) error { return term.Restore(fd, saved) })
	if testHookRaw != nil {
		testHookRaw()
	}

	// Raw mode turns off output processing: end every line with \r\n.
	_ = f.SetWriteDeadline(deadline)
	text := strings.Join(layout(q, width, rows), "\r\n") + "\r\n"
	if _, err := f.WriteString(text); err != nil {
		return Deny, writeError(path, err)
	}
	if err := control(flushInput); err != nil {
		return Deny, fmt.Errorf("%w: flush %s: %w", ErrNoTTY, path, err)
	}
	if _, err := f.WriteString(answerPrompt); err != nil {
		return Deny, writeError(path, err)
	}
	// say ends the answer line; best effort, the answer stands anyway.
	say := func(s string) {
		_ = f.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = f.WriteString(s + "\r\n")
	}

	chunks := make(chan chunk)
	done := make(chan struct{})
	defer func() {
		close(done)
		_ = f.SetReadDeadline(time.Now()) // wake the reader
	}()
	go readChunks(f, chunks, done)

	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	unknown := 0
	for {
		select {
		case c := <-chunks:
			switch classify(c.data, q.alwaysOffered()) {
			case keyAllowOnce:
				say(AllowOnce.String())
				return AllowOnce, nil
			case keyAlways:
				say(AlwaysAllow.String())
				return AlwaysAllow, nil
			case keyDeny:
				say(Deny.String())
				return Deny, nil
			case keyInterrupt:
				say("deny (interrupted)")
				return Deny, fmt.Errorf("%w: Ctrl-C", ErrInterrupted)
			}
			if c.err != nil {
				say("deny (terminal closed)")
				return Deny, fmt.Errorf("%w: read %s: %w", ErrNoTTY, path, c.err)
			}
			unknown++
			if unknown > 1 {
				say("deny (unknown key)")
				return Deny, nil
			}
			reask := reaskLine
			if !q.alwaysOffered() {
				reask = reaskLineNoA
			}
			say("?")
			say(reask)
			_, _ = f.WriteString(answerPrompt)
		case s := <-sigs:
			say("deny (interrupted)")
			return Deny, fmt.Errorf("%w: %v", ErrInterrupted, s)
		case <-timer.C:
			say(fmt.Sprintf("deny (no answer in %v)", timeout))
			return Deny, fmt.Errorf("%w: no answer in %v", ErrTimeout, timeout)
		}
	}
}

// chunk is the result of one read of the terminal.
type chunk struct {
	data []byte
	err  error
}

// readChunks sends what each read of f returns until a read fails or done
// is closed.
func readChunks(f *os.File, out chan<- chunk, done <-chan struct{}) {
	buf := make([]byte, 64)
	for {
		n, err := f.Read(buf)
		select {
		case out <- chunk{append([]byte(nil), buf[:n]...), err}:
		case <-done:
			return
		}
		if err != nil {
			return
		}
	}
}

func writeError(path string, err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("%w: writing the question to %s", ErrTimeout, path)
	}
	return fmt.Errorf("%w: write %s: %w", ErrNoTTY, path, err)
}

// flushInput discards what was typed on the terminal fd but not yet read,
// so a key pressed before the question was shown cannot answer it. It
// waits for pending output first (tcsetattr TCSAFLUSH with the current
// settings).
func flushInput(fd int) error {
	t, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	return unix.IoctlSetTermios(fd, ioctlSetTermiosFlush, t)
}
