package policy

import (
	"encoding/json"
	"testing"
)

// TestTraceOnRequest: the trace of every layer is built only when the
// request asks for it; the verdict that ended each part is always there,
// and Asking names the parts that asked.
func TestTraceOnRequest(t *testing.T) {
	v := newCfgEnv(t)
	cfg := v.config(v.load(), ModeDefault)
	cmd := "ls; python3 x.py; git status; touch out.txt"

	d := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: v.root})
	if d.Effect != Ask {
		t.Fatalf("%q: %v, want ask", cmd, d)
	}
	if d.Trace != nil {
		t.Errorf("a trace was built though none was asked for: %d steps", len(d.Trace))
	}
	var asked []string
	for _, s := range d.Asking() {
		if s.Verdict != VerdictAsk || s.Code == "" || s.Message == "" {
			t.Errorf("asking part %+v lacks its verdict, code or reason", s)
		}
		asked = append(asked, s.Subject)
	}
	if len(d.Parts) < 5 {
		t.Errorf("%d parts, want one per command and file (5)", len(d.Parts))
	}
	want := map[string]bool{"python3 x.py": true, "touch out.txt": true}
	for _, a := range asked {
		if !want[a] && a != "out.txt" {
			t.Errorf("%q is listed as asking", a)
		}
		delete(want, a)
	}
	if len(want) != 0 {
		t.Errorf("parts that asked are missing from Asking(): %v (got %q)", want, asked)
	}

	traced := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: v.root, Trace: true})
	if traced.Effect != d.Effect || traced.Code != d.Code || traced.Layer != d.Layer {
		t.Errorf("tracing changed the decision: %v vs %v", traced, d)
	}
	if len(traced.Trace) <= len(traced.Parts) {
		t.Errorf("trace of %d steps for %d parts: every layer's verdict should be there", len(traced.Trace), len(traced.Parts))
	}
	passes := 0
	for _, s := range traced.Trace {
		if s.Verdict == VerdictPass {
			passes++
		}
	}
	if passes == 0 {
		t.Error("the trace holds no layer that passed")
	}

	// A call that asks as a whole (it does not parse) is one asking part.
	bad := Evaluate(cfg, Request{Tool: ToolBash, Command: "echo $(", Cwd: v.root})
	if a := bad.Asking(); len(a) != 1 || a[0].Code != bad.Code {
		t.Errorf("unparsable call: Asking() = %+v, want the decision itself", a)
	}
	if a := Evaluate(cfg, Request{Tool: ToolBash, Command: "ls", Cwd: v.root}).Asking(); len(a) != 0 {
		t.Errorf("ls: Asking() = %+v, want none", a)
	}
}

// TestVerdictJSON: a trace step's verdict is its name in JSON, and the
// verdict of each effect is named as the effect is.
func TestVerdictJSON(t *testing.T) {
	for v, want := range map[Verdict]string{VerdictAllow: "allow", VerdictAsk: "ask", VerdictDeny: "deny", VerdictPass: "pass"} {
		b, err := json.Marshal(Step{Layer: LayerSafe, Verdict: v})
		if err != nil {
			t.Fatal(err)
		}
		if got := `{"part":0,"subject":"","layer":"safe","verdict":"` + want + `"}`; string(b) != got {
			t.Errorf("%s: %s, want %s", want, b, got)
		}
	}
	for _, e := range []Effect{Allow, Ask, Deny} {
		if VerdictOf(e).String() != e.String() {
			t.Errorf("VerdictOf(%s) is %s", e, VerdictOf(e))
		}
	}
	var zero Step
	if zero.Verdict != VerdictDeny {
		t.Errorf("the zero verdict is %s, want deny", zero.Verdict)
	}
}
