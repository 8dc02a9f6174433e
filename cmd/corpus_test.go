package cmd_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/cmd"
	"github.com/gatekeep/gatekeep/policy/testcases"
)

// batchDecisions runs `gatekeep check --batch FILE --json` in-process and
// returns one decision per input line.
func batchDecisions(t *testing.T, file string) []struct {
	Line   int    `json:"line"`
	Effect string `json:"effect"`
	Code   string `json:"code"`
} {
	t.Helper()
	abs := file
	isolate(t)
	var out, errb bytes.Buffer
	if code := cmd.Run([]string{"check", "--batch", abs, "--json"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("check --batch %s: exit %d: %s", file, code, errb.String())
	}
	var ds []struct {
		Line   int    `json:"line"`
		Effect string `json:"effect"`
		Code   string `json:"code"`
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var d struct {
			Line   int    `json:"line"`
			Effect string `json:"effect"`
			Code   string `json:"code"`
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if d.Line != len(ds)+1 {
			t.Fatalf("decision for line %d came after line %d", d.Line, len(ds))
		}
		ds = append(ds, d)
	}
	t.Logf("%s: %s", filepath.Base(file), strings.SplitN(errb.String(), "\n", 2)[0])
	return ds
}

// TestAgentCorpus decides the 14,565 commands an agent ran on real
// repositories. They did legitimate work, so a deny must be a real boundary:
// the only ones are writes outside the sandbox (pylint's cache in the home
// directory). Read-only work is allowed without a prompt.
func TestAgentCorpus(t *testing.T) {
	ds := batchDecisions(t, testcases.AgentCorpusFile(t))
	if len(ds) != 14565 {
		t.Fatalf("%d decisions, want 14565", len(ds))
	}
	wantDeny := map[int]string{
		8635: "sandbox.outside_root", // mkdir -p /root/.pylint.d && python3 reproduce_issue.py
		8636: "sandbox.outside_root", // rmdir /root/.pylint.d
		8646: "sandbox.outside_root", // mkdir -p ~/.pylint.d && pytest ...
	}
	allowed := 0
	for _, d := range ds {
		if d.Effect == "allow" {
			allowed++
		}
		if d.Effect == "deny" && wantDeny[d.Line] != d.Code {
			t.Errorf("line %d: deny %s; a command of the agent corpus should not be denied", d.Line, d.Code)
		}
	}
	for line, code := range wantDeny {
		if ds[line-1].Effect != "deny" || ds[line-1].Code != code {
			t.Errorf("line %d: %s %s, want deny %s", line, ds[line-1].Effect, ds[line-1].Code, code)
		}
	}
	if allowed < 7400 {
		t.Errorf("only %d of %d commands allowed without a prompt; read-only work should be", allowed, len(ds))
	}
}

// TestNL2BashCorpus decides the 10,624 commands people wrote, and checks the
// known dangerous ones among them are denied by the danger layer.
func TestNL2BashCorpus(t *testing.T) {
	ds := batchDecisions(t, filepath.Join(testcases.Dir(t), "corpus", "nl2bash.txt"))
	if len(ds) != 10624 {
		t.Fatalf("%d decisions, want 10624", len(ds))
	}
	for line, code := range map[int]string{
		260:  "danger.remote_code", // yes '' | ruby -e "$(curl -fsSL .../install)"
		1824: "danger.remote_code", // source <(wget -q -O - "http://...")
		1825: "danger.remote_code", // source <(curl -s http://.../myscript.txt)
		9364: "danger.remote_code", // curl https://.../install.sh | sh
		9369: "danger.remote_code", // curl -o- https://.../install.sh | bash
		675:  "danger.dd_device",   // yes "Hidden" | dd of=/dev/sdb
		8557: "danger.dd_device",   // cat backup.img.gz | gunzip | dd of=/dev/sdb
		2270: "danger.find_delete", // find / -size +100M -exec rm -rf {} \;
	} {
		if d := ds[line-1]; d.Effect != "deny" || d.Code != code {
			t.Errorf("line %d: %s %s, want deny %s", line, d.Effect, d.Code, code)
		}
	}
}
