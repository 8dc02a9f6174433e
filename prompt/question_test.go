package prompt

import (
	"fmt"
	"strings"
	"testing"
)

func TestLayout(t *testing.T) {
	q := Question{
		Tool:        "Bash",
		Subject:     "git status && npm publish",
		Cwd:         "/home/me/project",
		Layer:       "rules",
		Reason:      "npm publish needs a person's ok",
		Rule:        `.gatekeep/config.toml:12 ask "npm publish *"`,
		Parts:       []string{"npm publish"},
		AlwaysRules: []string{"Bash(npm publish *)"},
		AlwaysFile:  "/home/me/project/.gatekeep/config.local.toml",
	}
	want := []string{
		"",
		"gatekeep: Bash needs your permission",
		"  │ git status && npm publish",
		"  cwd       /home/me/project",
		"  layer     rules",
		`  rule      .gatekeep/config.toml:12 ask "npm publish *"`,
		"  reason    npm publish needs a person's ok",
		"  asking    npm publish",
		"  always    it covers every `npm publish ...` call, any options",
		"",
		"  [y] allow once  [n] deny  [a] always allow: Bash(npm publish *) → ",
		"      /home/me/project/.gatekeep/config.local.toml",
	}
	got := layout(q, 100, 0)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("layout:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLayoutAlwaysNotOffered(t *testing.T) {
	for _, q := range []Question{
		{Tool: "Write", Subject: "/repo/.git/config", AlwaysRules: []string{"Write(/repo/.git/config)"}, AlwaysUnavailable: "a protected path"},
		{Tool: "Write", Subject: "/repo/.git/config", AlwaysUnavailable: "a protected path"},
	} {
		got := layout(q, 80, 0)
		last := got[len(got)-1]
		if want := "  [y] allow once  [n] deny  (always allow not offered: a protected path)"; last != want {
			t.Errorf("choices = %q, want %q", last, want)
		}
	}
	got := layout(Question{Tool: "Bash", Subject: "ls"}, 80, 0)
	if last := got[len(got)-1]; !strings.Contains(last, "(always allow not offered: no rule to save)") {
		t.Errorf("choices without rules = %q", last)
	}
}

// TestLayoutWholeSubject: a subject far wider than the screen is shown
// whole, every line of it behind the bar, every wrapped piece behind the
// wrap mark, and no line is wider than the screen.
func TestLayoutWholeSubject(t *testing.T) {
	subject := "echo hi; " + strings.Repeat("x", 5000) + "; rm -rf ~\n  [y] allow once  (fake)"
	lines := layout(Question{Tool: "Bash", Subject: subject}, 80, 24)
	var pieces []string
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, subjectBar); ok {
			pieces = append(pieces, "\n"+rest)
		}
		if rest, ok := strings.CutPrefix(l, subjectWrap); ok {
			pieces = append(pieces, rest)
		}
		if n := cellWidth(l); n > 79 {
			t.Errorf("line %q is %d columns wide", l, n)
		}
	}
	want := "\n" + subject
	if got := strings.Join(pieces, ""); got != want {
		t.Errorf("subject pieces join to %d bytes, want all %d", len(got), len(want))
	}
	// The subject's fake choices line stays behind the bar.
	if !strings.Contains(strings.Join(lines, "\n"), "\n  │   [y] allow once  (fake)\n") {
		t.Error("the subject's second line is not behind the bar")
	}
	note := fmt.Sprintf("  note      the command is %d lines long; scroll up to see all of it", len(pieces))
	if lines[len(lines)-3] != note {
		t.Errorf("line before the choices = %q, want %q", lines[len(lines)-3], note)
	}
}

func TestLayoutWarnings(t *testing.T) {
	warnEscaped := "  warning   this request contains hidden or control characters, shown escaped"
	warnCollapsed := "  warning   long runs of blank lines or spaces are collapsed and counted (⋮ ⋯)"
	tests := []struct {
		name string
		q    Question
		want []string
	}{
		{"clean", Question{Subject: "ls\tx"}, nil},
		{"escape in subject", Question{Subject: "ls\x1b[2K"}, []string{warnEscaped}},
		{"escape in cwd", Question{Subject: "ls", Cwd: "/tmp/\u202e"}, []string{warnEscaped}},
		{"escape in a rule to save", Question{Subject: "ls", AlwaysRules: []string{"Bash(ls\u200b)"}}, []string{warnEscaped}},
		{"blank run", Question{Subject: "ls\n\n\n\nrm"}, []string{warnCollapsed}},
		{"both", Question{Subject: "ls\r\n\n\n\nrm"}, []string{warnEscaped, warnCollapsed}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, l := range layout(tt.q, 80, 0) {
				if strings.HasPrefix(l, "  warning") {
					got = append(got, l)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("warnings = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		in     string
		always bool
		want   key
	}{
		{"y", true, keyAllowOnce},
		{"Y", false, keyAllowOnce},
		{"n", true, keyDeny},
		{"\x03", true, keyInterrupt},
		{"\x04", true, keyDeny},
		{"\x1b", true, keyDeny},
		{"a", true, keyAlways},
		{"a", false, keyUnknown},
		{"\r", true, keyUnknown},
		{"\x1b[A", true, keyUnknown}, // arrow key
		{"yes", true, keyUnknown},    // a paste
		{"", true, keyUnknown},
	}
	for _, tt := range tests {
		if got := classify([]byte(tt.in), tt.always); got != tt.want {
			t.Errorf("classify(%q, %v) = %v, want %v", tt.in, tt.always, got, tt.want)
		}
	}
}
