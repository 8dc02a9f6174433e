package helper

import (
	"reflect"
	"testing"
)

// TestWireRoundTrip: what Encode writes, decode reads back the same, nil
// lists (Readable nil reads everywhere) apart from empty ones; a NUL is
// refused; a truncated or extended message is an error.
func TestWireRoundTrip(t *testing.T) {
	msgs := []Msg{
		{},
		{Plan: Plan{Full: true, Network: false, ProxyPort: 3128, Writable: []string{"/p", "/home/u/.cache/go-build"},
			Readable: []string{}, ReadOnly: []string{"/p/.git/hooks", "/p/.claude"}, Hidden: []string{"/p/.env"},
			Pinned: []string{"/p/.git"}}, Path: "/bin/sh", Argv: []string{"sh", "-c", "echo 'a\nb' é \x01", ""}},
		{Plan: Plan{Writable: []string{"/w"}, Network: true}, Probe: "/tmp/x"},
	}
	for _, m := range msgs {
		b, err := Encode(m)
		if err != nil {
			t.Fatalf("Encode(%+v): %v", m, err)
		}
		got, err := decode(b)
		if err != nil {
			t.Fatalf("decode(Encode(%+v)): %v", m, err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("round trip:\n got %#v\nwant %#v", got, m)
		}
		for i := 0; i < len(b); i++ {
			if _, err := decode(b[:i]); err == nil {
				t.Errorf("a message cut at %d of %d decoded", i, len(b))
			}
		}
		if _, err := decode(append(append([]byte(nil), b...), "x\x00"...)); err == nil {
			t.Error("a message with a field more decoded")
		}
	}
	if _, err := Encode(Msg{Argv: []string{"a\x00b"}}); err == nil {
		t.Error("a NUL in an argument was encoded")
	}
}

// FuzzDecode: no input makes decode panic, and what it accepts encodes
// back to the same bytes.
func FuzzDecode(f *testing.F) {
	b, _ := Encode(Msg{Plan: Plan{Full: true, Writable: []string{"/p"}}, Path: "/bin/true", Argv: []string{"true"}})
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decode(b)
		if err != nil {
			return
		}
		again, err := Encode(m)
		if err != nil || string(again) != string(b) {
			t.Errorf("decode then Encode changed %q into %q (%v)", b, again, err)
		}
	})
}
