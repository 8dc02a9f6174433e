// Package testcases reads the shared test data of gatekeep's tests — the
// peer guards' conformance verdicts (testdata/conformance/*.jsonl) and the
// agent corpus (testdata/corpus/agent-commands.jsonl) — in one place, so
// every test sees the same cases. A missing or unreadable file fails the
// test: data a test relies on is never skipped silently. For tests only.
package testcases

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Case is one line of testdata/conformance/*.jsonl: a command and the
// verdict another guard's suite asserts for it (see the README there).
type Case struct {
	Cmd    string `json:"cmd"`
	Expect string `json:"expect"` // allow, notallow, notdeny
	Peer   string `json:"peer"`
	Source string `json:"source"`
	Needs  string `json:"needs"` // set when the case needs rules gatekeep has not by default
	Note   string `json:"note"`
	File   string `json:"-"` // base name of the file it came from
	Line   int    `json:"-"` // 1-based line in that file
}

// minConformance is fewer cases than the files hold: reading fewer means
// the data was cut.
const minConformance = 300

// Conformance returns every conformance case, in file and line order.
func Conformance(tb testing.TB) []Case {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(tb), "conformance", "*.jsonl"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no conformance files in testdata/conformance (%v)", err)
	}
	var cases []Case
	for _, file := range files {
		eachLine(tb, file, func(line int, b []byte) {
			var c Case
			if err := json.Unmarshal(b, &c); err != nil {
				tb.Fatalf("%s:%d: %v", file, line, err)
			}
			c.File, c.Line = filepath.Base(file), line
			cases = append(cases, c)
		})
	}
	if len(cases) < minConformance {
		tb.Fatalf("read only %d conformance cases", len(cases))
	}
	return cases
}

// AgentCorpusFile is the agent corpus's path.
func AgentCorpusFile(tb testing.TB) string {
	return filepath.Join(Dir(tb), "corpus", "agent-commands.jsonl")
}

// AgentSample returns n commands of the agent corpus spread evenly over
// it (all of them when it holds no more): the sample the benchmarks of
// policy and shellparse share.
func AgentSample(tb testing.TB, n int) []string {
	tb.Helper()
	all := AgentCommands(tb)
	if n >= len(all) {
		return all
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

// AgentCommands returns the commands of the agent corpus, in order.
func AgentCommands(tb testing.TB) []string {
	tb.Helper()
	var all []string
	eachLine(tb, AgentCorpusFile(tb), func(line int, b []byte) {
		var c struct{ Command string }
		if err := json.Unmarshal(b, &c); err != nil {
			tb.Fatalf("agent corpus line %d: %v", line, err)
		}
		all = append(all, c.Command)
	})
	if len(all) == 0 {
		tb.Fatal("the agent corpus is empty")
	}
	return all
}

// Dir returns the repository's testdata directory, found from the test's
// working directory (a package directory) upwards.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

func eachLine(tb testing.TB, file string, fn func(line int, b []byte)) {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		fn(line, sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
}
