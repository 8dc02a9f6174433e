package cmd

import (
	"io"
	"sync"
	"unicode/utf8"

	"github.com/gatekeep/gatekeep/prompt"
)

// errWriter remembers the first error of the writer under it, so that a
// lost answer (stdout on a full disk, a closed pipe) fails the run: check
// exits 70 and a hook blocks (exit 2) instead of exiting 0 with nothing
// said (see Run).
type errWriter struct {
	w   io.Writer
	err error
	n   int // bytes written
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.n += n
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		e.err = err
	}
	return n, err
}

// safeWriter makes every line gatekeep prints inert on a terminal: text
// from the input (a command, a path, the cwd of a hook payload) may hold
// escape sequences. Newlines and tabs pass; other C0 controls and invalid
// UTF-8 bytes are shown as \xNN; DEL, C1 controls and the invisible or
// format runes prompt.Hidden names as \uXXXX. A JSON line never holds a
// raw C0 control or invalid UTF-8 (encoding/json escapes them), and \uXXXX
// is a JSON escape of the same rune, so JSON stays valid and equal.
//
// A write may end inside a multi-byte rune (a bufio.Writer flushes at any
// byte): those bytes are held until the next write completes the rune, and
// Flush shows what is left as \xNN.
type safeWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte // the start of a rune the last write cut
}

func (s *safeWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(p)
	if len(s.pending) > 0 {
		p = append(s.pending, p...)
		s.pending = nil
	}
	if cut := cutRune(p); cut > 0 {
		s.pending = append([]byte(nil), p[len(p)-cut:]...)
		p = p[:len(p)-cut]
	}
	if len(p) == 0 {
		return n, nil
	}
	if !clean(p) {
		p = escapeOutput(p)
	}
	if _, err := s.w.Write(p); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes what a cut rune left, escaped.
func (s *safeWriter) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 {
		return nil
	}
	p := escapeOutput(s.pending)
	s.pending = nil
	_, err := s.w.Write(p)
	return err
}

// cutRune is how many bytes at the end of p begin a multi-byte rune that
// is not complete yet (0 when p ends on a rune boundary or with bytes that
// can never start one).
func cutRune(p []byte) int {
	for i := 1; i <= 3 && i <= len(p); i++ {
		c := p[len(p)-i]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(p[len(p)-i:]) {
				return 0
			}
			return i
		}
	}
	return 0
}

// clean: p is printable ASCII, newlines and tabs only (the common case).
func clean(p []byte) bool {
	for _, c := range p {
		if (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

const hexdigits = "0123456789abcdef"

func escapeOutput(p []byte) []byte {
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f):
			out = append(out, c)
			i++
			continue
		case c < 0x20:
			out = append(out, '\\', 'x', hexdigits[c>>4], hexdigits[c&0xf])
			i++
			continue
		case c == 0x7f:
			out = append(out, `\u007f`...)
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, '\\', 'x', hexdigits[c>>4], hexdigits[c&0xf])
			i++
			continue
		case prompt.Hidden(r):
			out = appendU(out, r)
		default:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	return out
}

// appendU appends r as \uXXXX, a UTF-16 surrogate pair above U+FFFF, as
// JSON spells it.
func appendU(out []byte, r rune) []byte {
	u := func(v rune) {
		out = append(out, '\\', 'u', hexdigits[v>>12&0xf], hexdigits[v>>8&0xf], hexdigits[v>>4&0xf], hexdigits[v&0xf])
	}
	if r > 0xffff {
		r -= 0x10000
		u(0xd800 + r>>10)
		u(0xdc00 + r&0x3ff)
		return out
	}
	u(r)
	return out
}
