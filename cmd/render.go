package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gatekeep/gatekeep/policy"
)

// SchemaVersion is the version of the deny line and Decision JSON. It
// changes only when a field changes meaning or goes away.
const SchemaVersion = 1

// denyLine is the one JSON line written to stderr when a call is denied
// (README, "Deny line").
type denyLine struct {
	Source  string          `json:"source"` // always "gatekeep"
	Version int             `json:"version"`
	Effect  string          `json:"effect"`
	Layer   string          `json:"layer"`
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Command string          `json:"command,omitempty"`
	Offset  int             `json:"offset"`
	Mode    string          `json:"mode,omitempty"`
	Rule    *policy.RuleRef `json:"rule,omitempty"`
	Cause   *policy.Cause   `json:"cause,omitempty"`
}

func newDenyLine(d policy.Decision) denyLine {
	return denyLine{Source: "gatekeep", Version: SchemaVersion, Effect: d.Effect.String(), Layer: string(d.Layer),
		Code: d.Code, Message: d.Message, Command: d.Command, Offset: d.Offset, Mode: string(d.Mode), Rule: d.Rule, Cause: d.Cause}
}

func (a *app) printDeny(d policy.Decision) { writeJSONLine(a.stderr, newDenyLine(d)) }

// envelope opens every JSON document gatekeep prints (README, "JSON"):
// "source" is always "gatekeep" and "version" is SchemaVersion. A
// document embeds it first; the lines of a stream (check --batch --json,
// test --json) carry neither.
type envelope struct {
	Source  string `json:"source"`
	Version int    `json:"version"`
}

// newEnvelope is the envelope of this build's documents.
func newEnvelope() envelope { return envelope{Source: "gatekeep", Version: SchemaVersion} }

func writeJSONLine(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"source":"gatekeep","effect":"deny","layer":"internal","code":"` + policy.CodeInternalJSON + `","message":"cannot render the decision"}`)
	}
	w.Write(append(b, '\n'))
}

// decisionJSON is a Decision as check --json prints it.
type decisionJSON struct {
	Source  string `json:"source"`
	Version int    `json:"version"`
	policy.Decision
	// Enforcement is how the call would be confined (--enforce), absent
	// when it would not be.
	Enforcement *enforcementJSON `json:"enforcement,omitempty"`
}

// exitFor is check's exit status for an effect.
func exitFor(e policy.Effect) int {
	switch e {
	case policy.Allow:
		return ExitOK
	case policy.Ask:
		return ExitAsk
	}
	return ExitDeny
}

// writeDecisionText prints a decision for a person: one line, then the
// trace with --explain.
func writeDecisionText(w io.Writer, d policy.Decision, explain bool) {
	fmt.Fprintf(w, "%s: %s [%s, %s layer]\n", d.Effect, d.Message, d.Code, d.Layer)
	if d.Rule != nil {
		fmt.Fprintf(w, "  rule: %s\n", d.Rule)
	}
	// An allow names its part when only the mode allowed it (the write of
	// `echo x > out.txt` in acceptEdits).
	if d.Command != "" && (d.Effect != policy.Allow || d.Layer == policy.LayerMode) {
		fmt.Fprintf(w, "  at: %s\n", oneLine(d.Command))
	}
	if !explain {
		return
	}
	fmt.Fprintf(w, "trace (mode %s):\n", d.Mode)
	last := -1
	for _, s := range d.Trace {
		if s.Part != last {
			fmt.Fprintf(w, "  part %d: %s\n", s.Part, oneLine(s.Subject))
			last = s.Part
		}
		line := fmt.Sprintf("    %-8s %-5s", s.Layer, s.Verdict)
		if s.Code != "" {
			line += "  " + s.Code + ": " + s.Message
		}
		if s.Rule != nil {
			line += "  (" + s.Rule.String() + ")"
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

// oneLine shortens text for a one-line display; JSON output is never cut.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
