package cmd

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestSafeWriter(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain\ttext\n", "plain\ttext\n"},
		{"a\x1b[2Jb\x07\x00\r\n", `a\x1b[2Jb\x07\x00\x0d` + "\n"},
		{"del\x7f c1\u009b bidi\u202e zw\u200b", `del\u007f c1\u009b bidi\u202e zw\u200b`},
		{"é 日本 🙂", "é 日本 🙂"},
		{"tag\U000E0041", `tag\udb40\udc41`},
		{"bad\xff", `bad\xff`},
	} {
		var b bytes.Buffer
		n, err := (&safeWriter{w: &b}).Write([]byte(tt.in))
		if err != nil || n != len(tt.in) || b.String() != tt.want {
			t.Errorf("%q: wrote %q (%d, %v), want %q", tt.in, b.String(), n, err, tt.want)
		}
	}
	// A JSON line stays valid JSON with the same value.
	v := map[string]string{"c": "x\x1b\x7f\u009b\u202e\U000E0041y"}
	line, _ := json.Marshal(v)
	var b bytes.Buffer
	(&safeWriter{w: &b}).Write(line)
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["c"] != v["c"] {
		t.Errorf("%s: %v, %q", b.String(), err, back["c"])
	}
	// Written a byte at a time (a bufio.Writer may cut a rune), the output
	// is the same.
	var c bytes.Buffer
	sw := &safeWriter{w: &c}
	for i := range line {
		sw.Write(line[i : i+1])
	}
	sw.Flush()
	if c.String() != b.String() {
		t.Errorf("byte by byte: %s, whole: %s", c.String(), b.String())
	}
	sw.Write([]byte("cut \xe2\x80"))
	sw.Flush()
	if !strings.HasSuffix(c.String(), `cut \xe2\x80`) {
		t.Errorf("a cut rune at the end: %q", c.String())
	}
	if bytes.ContainsAny(b.Bytes(), "\x1b\x7f") || bytes.Contains(b.Bytes(), []byte("\u202e")) {
		t.Errorf("raw controls left: %q", b.String())
	}
}
