package helper

import (
	"errors"
	"strconv"
	"strings"
)

// The Msg's form on the plan pipe: NUL-terminated fields, in the order
// encode writes them, a list as its length ("-" for nil: a nil Readable
// reads everywhere, an empty one nowhere) and then its items. No path or
// argument can hold a NUL (execve and every path system call end a
// string there), so none needs escaping; Encode refuses one. A plan
// decodes in microseconds, where encoding/json, whose reflection a fresh
// process builds on first use, took about a millisecond in the helper.

// wireVersion is the first field; a helper of another build refuses it.
const wireVersion = "gatekeep-helper-plan-1"

// Encode is msg as the helper reads it.
func Encode(msg Msg) ([]byte, error) {
	var b strings.Builder
	bad := false
	field := func(s string) {
		if strings.IndexByte(s, 0) >= 0 {
			bad = true
		}
		b.WriteString(s)
		b.WriteByte(0)
	}
	flag := func(v bool) {
		if v {
			field("1")
		} else {
			field("0")
		}
	}
	list := func(l []string) {
		if l == nil {
			field("-")
			return
		}
		field(strconv.Itoa(len(l)))
		for _, s := range l {
			field(s)
		}
	}
	p := msg.Plan
	field(wireVersion)
	flag(p.Full)
	flag(p.Network)
	field(strconv.Itoa(p.ProxyPort))
	field(msg.Path)
	field(msg.Probe)
	list(msg.Argv)
	list(p.Writable)
	list(p.Readable)
	list(p.ReadOnly)
	list(p.Hidden)
	list(p.Pinned)
	if bad {
		return nil, errors.New("the plan holds a NUL byte")
	}
	return []byte(b.String()), nil
}

// decode reads what Encode wrote; anything else is an error.
func decode(b []byte) (Msg, error) {
	var msg Msg
	rest := string(b)
	failed := false
	field := func() string {
		i := strings.IndexByte(rest, 0)
		if i < 0 {
			failed = true
			return ""
		}
		f := rest[:i]
		rest = rest[i+1:]
		return f
	}
	flag := func() bool {
		switch field() {
		case "1":
			return true
		case "0":
			return false
		}
		failed = true
		return false
	}
	number := func() int {
		n, err := strconv.Atoi(field())
		if err != nil || n < 0 {
			failed = true
		}
		return n
	}
	list := func() []string {
		n := field()
		if n == "-" {
			return nil
		}
		count, err := strconv.Atoi(n)
		if err != nil || count < 0 || count > len(rest) {
			failed = true
			return nil
		}
		l := make([]string, 0, count)
		for range count {
			l = append(l, field())
		}
		return l
	}
	if field() != wireVersion {
		return msg, errors.New("not a plan of this gatekeep")
	}
	p := &msg.Plan
	p.Full = flag()
	p.Network = flag()
	p.ProxyPort = number()
	msg.Path = field()
	msg.Probe = field()
	msg.Argv = list()
	p.Writable = list()
	p.Readable = list()
	p.ReadOnly = list()
	p.Hidden = list()
	p.Pinned = list()
	if failed || rest != "" {
		return Msg{}, errors.New("a malformed plan")
	}
	return msg, nil
}
