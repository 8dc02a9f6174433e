package policy

import (
	"encoding/json"
	"path/filepath"
	"testing"
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
	cmds := append(corpusSample(t, 300), "cat .env", "echo a > b && cat .env x y z", "ls")
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
			if st.Layer == "" || st.Verdict == "" {
				t.Fatalf("%q: a part's final step is empty: %+v", r.Command, d.Parts)
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
