package config

import (
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/policy"
)

func TestLintRules(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, `[[rule]]
deny = "Bash(git push *)"

[[rule]]
allow = ["Bash(python *)", "Bash(bash -c *)", "Bash(python3 -m pytest *)", "Bash(node script.js)"]

[[rule]]
ask = "Bash(git push :*)"

[[rule]]
deny = "Read(.env)"

[[rule]]
deny = "Read(.env)"

[[rule]]
ask = "Write(/tmp/x)"

[[rule]]
allow = "Edit"
`)
	v.write(v.projectFile(), "[[rule]]\nallow = \"Bash(make *)\"\n")
	l, lints, err := Validate(v.opts())
	if err != nil || l == nil {
		t.Fatal(err)
	}
	want := []struct {
		code, key, rule string
	}{
		{policy.LintShadowed, "rule[0]", "Bash(git push *)"},
		{policy.LintOpenInterpreter, "rule[1]", "Bash(python *)"},
		{policy.LintOpenInterpreter, "rule[1]", "Bash(bash -c *)"},
		{policy.LintDuplicate, "rule[3]", "Read(.env)"},
		{policy.LintShadowed, "rule[5]", "Write(/tmp/x)"},
		{policy.LintAllowAll, "rule[6]", "Edit"},
		{policy.LintUntrustedAllow, "rule[0]", "Bash(make *)"},
	}
	if len(lints) != len(want) {
		t.Fatalf("lints:\n%s", lintText(lints))
	}
	for i, w := range want {
		g := lints[i]
		if g.Code != w.code || g.Key != w.key || g.Rule != w.rule || g.Line == 0 || g.File == "" {
			t.Errorf("lint %d = %+v, want %+v", i, g, w)
		}
	}
	if !strings.Contains(lints[0].Msg, "line 7") {
		t.Errorf("shadowed message %q", lints[0].Msg)
	}
}

func lintText(ls []policy.Lint) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Code + " " + l.String() + "\n")
	}
	return b.String()
}

func TestValidateReturnsLoadErrors(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, "[[rule]]\n")
	if _, _, err := Validate(v.opts()); !IsConfigError(err) {
		t.Errorf("Validate error = %v", err)
	}
}

func TestRulesListing(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, "[[rule]]\ndeny = \"Bash(a)\"\n[[rule]]\nask = [\"Bash(b)\", \"Bash(c)\"]\n")
	v.write(v.projectFile(), "[[rule]]\nallow = \"Bash(d)\"\n[[rule]]\ndeny = \"Bash(e)\"\n")
	rules := v.load().Rules.Rules()
	var got []string
	for _, r := range rules {
		if r.Ref.Source == policy.SourceDefault {
			continue
		}
		got = append(got, r.Ref.Source+":"+r.Ref.Rule+":"+r.Ref.Effect.String()+":"+boolWord(r.Trusted, "trusted", "untrusted")+":"+boolWord(r.Active, "active", "ignored"))
	}
	want := "user:Bash(c):ask:trusted:active user:Bash(b):ask:trusted:active user:Bash(a):deny:trusted:active " +
		"project:Bash(e):deny:untrusted:active project:Bash(d):allow:untrusted:ignored"
	if strings.Join(got, " ") != want {
		t.Errorf("listing:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	if last := rules[len(rules)-1]; last.Ref.Source != policy.SourceDefault {
		t.Errorf("the default layer is not last: %+v", last.Ref)
	}
}

func boolWord(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}
