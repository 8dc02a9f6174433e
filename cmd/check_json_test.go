package cmd

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/policy/testcases"
)

// TestPlainCommand: the one-pass reader of a transcript line gives the
// command encoding/json and the strict check give, on every line of the
// agent corpus and on lines made to differ (escapes, duplicate and nested
// keys, depth, non-string commands, invalid UTF-8); where it does not
// answer, the slow path does. It must answer for most of the corpus, or it
// would save nothing.
func TestPlainCommand(t *testing.T) {
	f, err := os.Open(testcases.AgentCorpusFile(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, maxBatchLine)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	corpus := len(lines)
	deep := strings.Repeat(`{"a":`, maxJSONDepth) + `1` + strings.Repeat(`}`, maxJSONDepth)
	deeper := strings.Repeat(`[`, maxJSONDepth) + `1` + strings.Repeat(`]`, maxJSONDepth)
	lines = append(lines,
		`{"command": "ls"}`,
		`{"command":"ls -la","source":"x"}`,
		` { "source" : [1, 2.5e3, true, null, {"command": "rm"}], "command" : "echo \"hi\" \\ \u00e9 \ud83d\ude00" } `,
		`{"command": "a", "command": "b"}`,
		`{"command": "a", "x": 1, "x": 2}`,
		`{"x": {"k": 1, "k": 2}, "command": "a"}`,
		`{"x": [{"k": 1}, {"k": 2}], "command": "a"}`,
		`{"comm\u0061nd": "a"}`,
		`{"command": "a", "comm\u0061nd": "b"}`,
		`{"COMMAND": "a"}`,
		`{"command": 1}`,
		`{"command": null}`,
		`{"command": ["ls"]}`,
		`{"command": {"x": "ls"}}`,
		`{"cmd": "ls"}`,
		`{"x": {"command": "rm -rf ~"}}`,
		`{"x": ["command", "rm"], "command": "ls"}`,
		`{}`,
		`{"command": "x\ud800y"}`,
		"{\"command\": \"caf\xe9\"}",
		"{\"k\xe9\": 1, \"command\": \"ls\"}",
		`{"command": "x", "a": `+deep+`}`,
		`{"command": "x", "a": `+deeper+`}`,
		`{"a": `+deep+`, "command": "x"}`,
		`{"command": "\t\n"}`,
		`{"command": "ls", "n": -0.5E+10, "t": true, "f": false}`,
	)
	answered := 0
	for i, line := range lines {
		b := []byte(line)
		if !json.Valid(b) {
			continue
		}
		slow, msg := transcriptCommand(b)
		fast, ok := plainCommand(b)
		if !ok {
			continue
		}
		if i < corpus {
			answered++
		}
		if msg != "" || fast != slow {
			t.Errorf("line %d %.80q: one pass says %q, encoding/json %q (%s)", i+1, line, fast, slow, msg)
		}
	}
	if answered < corpus*9/10 {
		t.Errorf("the one-pass reader answered %d of %d corpus lines", answered, corpus)
	}
}

// TestUnquoteSimple: where unquoteSimple answers, it answers as
// encoding/json does; it declines \u escapes and invalid UTF-8.
func TestUnquoteSimple(t *testing.T) {
	bodies := []string{``, `ls`, `echo \"hi\"`, `a\\b`, `\/\b\f\n\r\t`, `é😀`, `tail\\`,
		`\u0041`, "\xff", `a\`, `\x`, `x\u00e9y`, `\\\"`}
	for _, b := range bodies {
		checkUnquote(t, b)
	}
	for _, want := range []string{`\u0041`, "\xff", `a\`, `\x`} {
		if _, ok := unquoteSimple([]byte(want)); ok {
			t.Errorf("unquoteSimple(%q) answered; want it to decline", want)
		}
	}
}

func FuzzUnquoteSimple(f *testing.F) {
	for _, s := range []string{`echo \"hi\"`, `a\\b\n`, `\u00e9`, "\xff"} {
		f.Add(s)
	}
	f.Fuzz(checkUnquote)
}

// checkUnquote fails when unquoteSimple answers body differently from
// encoding/json (or answers a body JSON refuses).
func checkUnquote(t *testing.T, body string) {
	got, ok := unquoteSimple([]byte(body))
	if !ok {
		return
	}
	var want string
	if err := json.Unmarshal([]byte(`"`+body+`"`), &want); err != nil {
		if strings.ContainsAny(body, "\"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f") {
			return // not a string token's body: plainCommand never hands it over
		}
		t.Fatalf("unquoteSimple(%q) = %q; encoding/json refuses it: %v", body, got, err)
	}
	if got != want {
		t.Fatalf("unquoteSimple(%q) = %q; encoding/json says %q", body, got, want)
	}
}
