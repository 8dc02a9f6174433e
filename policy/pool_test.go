package policy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy/testcases"
)

// TestDecisionOutlivesEvaluation: a Decision holds nothing of the
// evaluation that made it, which the next decision reuses (evalPool):
// each Decision of the agent corpus, with its trace, parts and input,
// reads the same after the next decisions as when it was returned, and
// deciding the same request again gives the same Decision.
func TestDecisionOutlivesEvaluation(t *testing.T) {
	v := newCfgEnv(t)
	v.write(filepath.Join(v.root, ".env"), "x")
	cfg := v.config(v.load(), ModeDefault)
	cmds := append(testcases.AgentSample(t, 300), "cat .env", "echo a > b && cat .env x y z", "ls")
	reqs := make([]Request, 0, 2*len(cmds)+2)
	for i, c := range cmds {
		reqs = append(reqs, Request{Tool: ToolBash, Command: c, Cwd: v.root, Trace: i%2 == 0})
	}
	reqs = append(reqs, Request{Tool: ToolRead, Path: ".env", Cwd: v.root}, Request{Tool: ToolWrite, Path: "out.txt", Cwd: v.root})
	js := func(d Decision) string {
		b, err := json.Marshal(struct {
			D     Decision
			Parts []Step // not in Decision's JSON
		}{d, d.Parts})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var ds []Decision
	var first []string
	for _, r := range reqs {
		d := Evaluate(cfg, r)
		for _, st := range d.Parts {
			if st.Layer == "" || st.Verdict == VerdictPass {
				t.Fatalf("%q: a part's final step is empty or a pass: %+v", r.Command, d.Parts)
			}
		}
		ds, first = append(ds, d), append(first, js(d))
	}
	for i, d := range ds {
		if got := js(d); got != first[i] {
			t.Fatalf("%q: the decision changed after later ones:\n%s\nwas\n%s", reqs[i].Command, got, first[i])
		}
		// Made again after all the others: nothing left in a reused
		// evaluation changes it.
		if got := js(Evaluate(cfg, reqs[i])); got != first[i] {
			t.Errorf("%q: decided after others %s, again %s", reqs[i].Command, first[i], got)
		}
	}
}

// TestResetClears: what reset leaves for the next decision (newEvaluation
// sets only the request on it) is a zero evaluation but for memory: the
// parts array, emptied and cleared, the subject's slices and the memo,
// empty. A call that stopped at a parse error (no parts) keeps the array
// it may have begun to fill.
func TestResetClears(t *testing.T) {
	cfg := &Config{Mode: ModeDefault}
	for _, parsed := range []bool{true, false} {
		e := newEvaluation(cfg, Request{Tool: ToolBash, Command: "ls x", Cwd: "/w"})
		buf := make([]part, 0, 4)
		parts := append(buf, part{path: "x", dir: "/w"}, part{path: "y"})
		e.partsBuf = buf
		if parsed {
			e.callParts = parts
		}
		e.subj = subject{kind: kindRead, abs: "/w/x", forms: make([]form, 1, 2)}
		e.trace, e.final = []Step{{Layer: "safe"}}, []Step{{Layer: "safe"}}
		e.checked = append(e.checked, checkedPath{key: [2]string{"/w", "x"}})
		e.checkedAt = map[[2]string]int{{"/w", "x"}: 0}
		e.callWrites, e.gitDirs = []string{"/w/x"}, map[string]gitDirAnswer{"/w": {}}
		e.in, e.creators = new(Input), []int{1}
		e.reset()
		if cap(e.partsBuf) != cap(buf) || len(e.partsBuf) != 0 {
			t.Fatalf("parsed %v: parts array len %d cap %d, want the array kept (cap %d), empty", parsed, len(e.partsBuf), cap(e.partsBuf), cap(buf))
		}
		for i, p := range e.partsBuf[:2] {
			if p.path != "" || p.dir != "" {
				t.Errorf("parsed %v: part %d not cleared: %+v", parsed, i, p)
			}
		}
		if len(e.subj.forms) != 0 || cap(e.subj.forms) != 2 || e.subj.forms[:1][0].first != "" || e.subj.abs != "" || e.subj.kind != 0 {
			t.Errorf("parsed %v: subject not reset: %+v", parsed, e.subj)
		}
		rest := *e
		rest.partsBuf, rest.subj, rest.memo = nil, subject{}, pathguard.Memo{}
		if !reflect.ValueOf(rest).IsZero() {
			t.Errorf("parsed %v: reset left %+v", parsed, rest)
		}
	}
}

// TestNoStatAcrossDecisions: the next decision stats the disk afresh (the
// reused evaluation's memo is emptied): `cat a` where a is missing, then
// where a is a link to .env, decides as a fresh evaluation does.
func TestNoStatAcrossDecisions(t *testing.T) {
	v := newCfgEnv(t)
	v.write(filepath.Join(v.root, ".env"), "x")
	cfg := v.config(v.load(), ModeDefault)
	before := v.bash(cfg, "cat a")
	if err := os.Symlink(".env", filepath.Join(v.root, "a")); err != nil {
		t.Fatal(err)
	}
	after := v.bash(cfg, "cat a")
	if after.Code == before.Code || after.Effect == Allow {
		t.Errorf("cat a: %v %s before the link, %v %s after: the link to .env was not seen", before.Effect, before.Code, after.Effect, after.Code)
	}
}
