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
