package config

import (
	"fmt"
	"strings"

	"github.com/gatekeep/gatekeep/policy"
)

// TestResult is the outcome of one [[test]] entry.
type TestResult struct {
	Case TestCase `json:"case"`
	// Decision is what the policy answered (without its trace); its Layer
	// and Rule say what decided.
	Decision policy.Decision `json:"decision"`
	Pass     bool            `json:"pass"`
}

// String renders a failure (or a pass) on one line:
// `FILE:LINE: test[2] "name": Bash "git push": want deny, got allow (rules: allow Bash(*) (FILE:LINE))`.
func (r TestResult) String() string {
	var b strings.Builder
	c := r.Case
	b.WriteString(c.File)
	if c.Line > 0 {
		fmt.Fprintf(&b, ":%d", c.Line)
	}
	fmt.Fprintf(&b, ": test[%d]", c.Index)
	if c.Name != "" {
		fmt.Fprintf(&b, " %q", c.Name)
	}
	fmt.Fprintf(&b, ": %s %q", c.Tool, c.Input)
	if c.Mode != "" {
		fmt.Fprintf(&b, " in %s mode", c.Mode)
	}
	d := r.Decision
	if r.Pass {
		fmt.Fprintf(&b, ": %s as expected", d.Effect)
		return b.String()
	}
	fmt.Fprintf(&b, ": want %s, got %s (%s: %s", c.Expect, d.Effect, d.Layer, d.Code)
	if d.Rule != nil {
		b.WriteString(", " + d.Rule.String())
	}
	if d.Message != "" {
		b.WriteString(": " + d.Message)
	}
	b.WriteString(")")
	return b.String()
}

// TestRequest is the Request a [[test]] entry stands for: Input is the
// command text of a Bash call, the path of a file tool, the URL of
// WebFetch (and of any tool when it holds "://"), else the path; cwd is the
// working directory (cmd passes the project root).
func TestRequest(c TestCase, cwd string) policy.Request {
	req := policy.Request{Tool: c.Tool, Cwd: cwd}
	switch {
	case c.Tool == policy.ToolBash:
		req.Command = c.Input
	case policy.IsFileTool(c.Tool):
		req.Path = c.Input
	case c.Tool == "WebFetch" || strings.Contains(c.Input, "://"):
		req.URL = c.Input
	default:
		req.Path = c.Input
	}
	return req
}

// RunTests decides every case with cfg (the effective configuration, as
// cmd builds it for a call; a case's Mode replaces cfg.Mode for it) from
// the working directory cwd, and compares the effect with the expected
// one. An ask is an ask: no terminal is consulted. The results are in the
// order of cases; the run passed when every Pass is true.
func RunTests(cfg *policy.Config, cwd string, cases []TestCase) []TestResult {
	out := make([]TestResult, 0, len(cases))
	for _, c := range cases {
		cc := *cfg
		if c.Mode != "" {
			cc.Mode = c.Mode
		}
		d := policy.Decide(&cc, policy.Query{Requests: []policy.Request{TestRequest(c, cwd)}}).Decision
		out = append(out, TestResult{Case: c, Decision: d, Pass: d.Effect == c.Expect})
	}
	return out
}
