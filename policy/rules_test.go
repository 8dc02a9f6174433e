package policy

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/policy/testcases"
)

// thousandRules is a config of 1,000 rules of the kinds people write:
// commands with subcommands, file globs, web domains.
func thousandRules() string {
	var b strings.Builder
	for i := range 1000 {
		b.WriteString("[[rule]]\n")
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "allow = \"Bash(tool%d build *)\"\n", i)
		case 1:
			fmt.Fprintf(&b, "deny = \"Bash(git push --force remote%d *)\"\nreason = \"r%d\"\n", i, i)
		case 2:
			fmt.Fprintf(&b, "ask = \"Bash(npm run script%d:*)\"\n", i)
		case 3:
			fmt.Fprintf(&b, "deny = \"Read(secrets%d/**)\"\n", i)
		case 4:
			fmt.Fprintf(&b, "allow = \"Write(out%d/*.txt)\"\n", i)
		}
	}
	return b.String()
}

var benchCommands = []string{
	"git status",
	"go test ./... && go vet ./...",
	"git -C . push origin main",
	"cat README.md | grep -n foo > out.txt",
	"find . -name '*.go' | xargs wc -l",
	"npm run script502 -- --watch",
}

// BenchmarkRules measures one in-process decision with no config rules and
// with 1,000 of them; the difference is what the rules cost a call.
//
//	go test ./policy -run '^$' -bench Rules
func BenchmarkRules(b *testing.B) {
	for _, n := range []int{0, 1000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			v := newCfgEnv(b)
			if n > 0 {
				v.write(v.paths.User, thousandRules())
			}
			l, err := v.loadErr()
			if err != nil {
				b.Fatal(err)
			}
			cfg := v.config(l, ModeDefault)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				Evaluate(cfg, Request{Tool: ToolBash, Command: benchCommands[i%len(benchCommands)], Cwd: v.root})
			}
		})
	}
}

func TestThousandRulesLoad(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, thousandRules())
	l := v.load()
	cfg := v.config(l, ModeDefault)
	if d := v.bash(cfg, "git push --force remote501 main"); d.Effect != Deny || d.Rule.Index != 501 || d.Rule.Line == 0 {
		t.Errorf("rule 501: %v %+v", d, d.Rule)
	}
	if d := v.bash(cfg, "npm run script502 -- --watch"); d.Effect != Ask || d.Rule.Index != 502 {
		t.Errorf("rule 502: %v", d)
	}
	if d := v.bash(cfg, "tool500 build x"); d.Effect != Allow {
		t.Errorf("rule 500: %v", d)
	}
}

// TestMCPServerRules: mcp__server and mcp__server__* match every tool of
// that server, mcp__server__prefix* a prefix, mcp__server__tool one tool;
// malformed MCP names are config errors.
func TestMCPServerRules(t *testing.T) {
	for _, c := range []struct {
		rule, tool string
		want       bool
	}{
		{"mcp__github", "mcp__github__create_issue", true},
		{"mcp__github", "mcp__github__list_issues", true},
		{"mcp__github", "mcp__gitlab__create_issue", false},
		{"mcp__github", "mcp__githubx__create_issue", false},
		{"mcp__github__*", "mcp__github__create_issue", true},
		{"mcp__github__*", "mcp__github", false},
		{"mcp__github__create*", "mcp__github__create_issue", true},
		{"mcp__github__create*", "mcp__github__list_issues", false},
		{"mcp__github__create_issue", "mcp__github__create_issue", true},
		{"mcp__github__create_issue", "mcp__github__create_issues", false},
		{"mcp__my_server", "mcp__my_server__t", true},
		{"mcp__github", "WebFetch", false},
	} {
		v := newCfgEnv(t)
		v.write(v.paths.User, fmt.Sprintf("[[rule]]\ndeny = %q\n", c.rule))
		cfg := v.config(v.load(), ModeDefault)
		d := Evaluate(cfg, Request{Tool: c.tool, Category: CatCommand, Cwd: v.root})
		if got := d.Code == "rule.deny"; got != c.want {
			t.Errorf("deny %s on %s: %s, want match %v", c.rule, c.tool, d.Code, c.want)
		}
	}
	for _, bad := range []string{"mcp__github*", "mcp__*", "mcp__", "mcp__github__*x", "mcp__github__**", "mcp__github(x)", "mcp__github__*(x)"} {
		v := newCfgEnv(t)
		v.write(v.paths.User, fmt.Sprintf("[[rule]]\nallow = %q\n", bad))
		if _, err := v.loadErr(); err == nil {
			t.Errorf("%s: no config error", bad)
		}
	}
	v := newCfgEnv(t)
	v.write(v.paths.User, "[[rule]]\nallow = \"mcp__github__*(*)\"\n")
	if _, err := v.loadErr(); err != nil {
		t.Errorf("mcp__github__*(*): %v", err)
	}
}

// TestAgentModeTightens: the agent's mode (Config.AgentMode) only
// tightens gatekeep's own, category by category; plan from either applies.
func TestAgentModeTightens(t *testing.T) {
	for _, c := range []struct {
		own, agent Mode
		cat        Category
		want       Effect
	}{
		{ModeDefault, ModeBypass, CatWrite, Ask},
		{ModeDefault, ModeBypass, CatCommand, Ask},
		{ModeDefault, ModeBypass, CatRead, Allow},
		{ModeAcceptEdits, ModeDefault, CatWrite, Ask},
		{ModeAcceptEdits, ModeAcceptEdits, CatWrite, Allow},
		{ModeBypass, ModeDefault, CatCommand, Ask},
		{ModeBypass, ModeBypass, CatCommand, Allow},
		{ModeDefault, ModePlan, CatWrite, Deny},
		{ModeCustom, ModePlan, CatRead, Ask},
		{ModeCustom, ModePlan, CatWrite, Deny},
		{ModeDefault, "", CatWrite, Ask},
		{ModeAcceptEdits, "", CatWrite, Allow},
	} {
		cfg := &Config{Mode: c.own, AgentMode: c.agent}
		if got, _ := cfg.fallback(c.cat); got != c.want {
			t.Errorf("own %s, agent %q, %s: %s, want %s", c.own, c.agent, c.cat, got, c.want)
		}
	}
	// A dynamic path is allowed by the fallback only when both are bypass.
	cfg := &Config{Mode: ModeBypass, AgentMode: ModeDefault}
	if cfg.bypassing() {
		t.Error("bypassing with an agent in default mode")
	}
	// plan from the agent keeps allow rules from opening writes.
	v := newCfgEnv(t)
	v.write(v.paths.User, "[[rule]]\nallow = \"Write(**)\"\n")
	pc := v.config(v.load(), ModeDefault)
	pc.AgentMode = ModePlan
	if d := Evaluate(pc, Request{Tool: ToolWrite, Path: "notes.md", Cwd: v.root}); d.Effect != Deny {
		t.Errorf("an allow rule opened a write in the agent's plan mode: %s", d)
	}
}

// TestRuleIndexSameAsScan: with rules indexed by first word and kind
// (ruleIndex), every decision over a sample of the agent corpus and
// commands made for it is the one a scan of every rule gives: same
// effect, code and deciding rule. Rules: 1,000 of the usual kinds in the
// user file, and in an untrusted project file and the local file rules
// with a glob first word, Bash(*), file and tool rules.
func TestRuleIndexSameAsScan(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.User, thousandRules()+`
[[rule]]
ask = "Bash(g* status)"
[[rule]]
deny = "Bash(/usr/bin/git push *)"
[[rule]]
allow = ["Bash(ls *)", "Bash(cat *)", "Bash(git status)", "Bash(\\*x *)"]
[[rule]]
deny = "Bash(rm -rf *)"
[[rule]]
ask = "WebFetch(domain:example.com)"
`)
	v.write(v.projectFile(), `
[[rule]]
allow = ["Bash", "Read", "Write(src/**)"]
[[rule]]
ask = ["Bash(*)", "Bash(python*:*)", "Bash(find * -delete)"]
[[rule]]
deny = ["Bash(curl *)", "Read(.env)"]
[[rule]]
ask = ["Read(../outside/**)", "Read(~/.aws/**)", "Read(/etc/sh*)", "Write(a/../b/*.txt)", "Read(**/*.PEM)",
	"Read(KKey/**)", "Write(./docs)", "Read(~)", "Read(x/[ab]*/y)"]
`)
	v.write(v.localFile(), `
[[rule]]
allow = ["Bash(python3 -m pytest *)", "Bash(*test*)", "Bash(echo *)"]
[[rule]]
deny = "Bash(*push*)"
`)
	// Loaded three ways: compiled as the files are read; from the config
	// cache, each rule compiled the first time a decision needs it; and
	// compiled, every rule a candidate with no quick reject (the scan as
	// it was before the index).
	v.paths.Cache = filepath.Join(v.home, "cache")
	// Files a glob expands to and a tree walk finds.
	v.write(filepath.Join(v.root, "secrets13", "a"), "x")
	v.write(filepath.Join(v.root, "tree", "secrets8", "k"), "x")
	cfg := v.config(v.load(), ModeDefault)
	lazy := v.config(v.load(), ModeDefault)
	cmds := append(testcases.AgentSample(t, 400), benchCommands...)
	cmds = append(cmds, "gx status", "git status", "/usr/bin/git push origin", "$X status", "*x y", "\\*x y",
		"python3 -m pytest -q", "curl x | sh", "cat .env", "echo hi > src/a.txt", "find . -delete",
		"git -C . push", "sudo rm -rf /tmp/x", "env git push", "tool10 build a", "npm run script2 x",
		"git push -f remote1 x", "git -c a=b push remote6 --force", "git push remote11 x --force", "git $X remote1",
		"$G push --force remote1", "xargs git", "xargs git push", "git push --force remote1", "git push --forc remote1 m",
		"git status; xargs -0 git push --force", "env $X git push -f remote16 m", "git push +main:remote21",
		"rm -fr x", "rm -r -f x", "rm --recursive --force x", "/bin/rm -Rf x", "xargs rm -f -r",
		"cat secrets3/x", "cat SECRETS3/X", "cat secrets3", "echo x > out4/a.txt", "echo x > OUT4/A.TXT", "cat sub/../secrets8/a",
		"cat ~/x", "cat secrets1?/a", "cat secrets1*", "grep -r x tree", "grep -r x .", "cat ../outside/a", "cat ~/.aws/credentials", "cat /etc/shadow",
		"echo x > b/c.txt", "echo x > a/c.txt", "cat k.pem", "cat kEY/a", "cat \u212aey/a", "echo x > docs/a", "cat ~",
		"cat x/az/y", "cat x/c/y", "cat x/A/Y")
	type answer struct {
		eff  Effect
		code string
		rule string
	}
	decide := func(cfg *Config) []answer {
		var out []answer
		for _, c := range cmds {
			d := v.bash(cfg, c)
			a := answer{d.Effect, d.Code, ""}
			if d.Rule != nil {
				a.rule = fmt.Sprintf("%s %s #%d", d.Rule.Source, d.Rule.Rule, d.Rule.Index)
			}
			out = append(out, a)
		}
		for _, tool := range []string{"WebFetch"} {
			d := Evaluate(cfg, Request{Tool: tool, URL: "https://example.com/x", Category: CatRead, Cwd: v.root})
			out = append(out, answer{d.Effect, d.Code, ""})
		}
		return out
	}
	lazyRules := 0
	for _, r := range lazy.Rules.Rules() {
		if r.lazy != nil && r.m == nil {
			lazyRules++
		}
	}
	if want := len(lazy.Rules.Rules()); lazyRules != want {
		t.Fatalf("%d of %d rules loaded from the cache are compiled lazily", lazyRules, want)
	}
	v.bash(lazy, "git status")
	v.bash(lazy, "cat README.md > out.txt")
	for _, r := range lazy.Rules.Rules() {
		if r.m != nil && (strings.HasPrefix(r.Ref.Rule, "Bash(git push") || strings.HasPrefix(r.Ref.Rule, "Read(secrets") ||
			strings.HasPrefix(r.Ref.Rule, "Write(out")) {
			t.Fatalf("%s was compiled to judge git status and cat README.md > out.txt", r.Ref.Rule)
		}
	}
	indexed := decide(cfg)
	rules := 0
	for _, a := range indexed {
		if a.rule != "" {
			rules++
		}
	}
	fromCache := decide(lazy)
	// Every rule a candidate: the scan as it was before the index.
	rs := cfg.Rules
	flat := &ruleIndex{layers: make([]layerIndex, len(rs.layers))}
	for li, layer := range rs.layers {
		all := make([]int, len(layer))
		for i := range all {
			all[i] = i
		}
		flat.layers[li].bashAny = all
		for k := range flat.layers[li].byKind {
			flat.layers[li].byKind[k] = all
		}
	}
	rs.idx.Store(flat)
	quickReject = false
	defer func() { quickReject = true }()
	scanned := decide(cfg)
	for i := range indexed {
		what := "WebFetch"
		if i < len(cmds) {
			what = cmds[i]
		}
		if indexed[i] != scanned[i] {
			t.Errorf("%q: indexed %+v, scan %+v", what, indexed[i], scanned[i])
		}
		if fromCache[i] != scanned[i] {
			t.Errorf("%q: from the cache %+v, scan %+v", what, fromCache[i], scanned[i])
		}
	}
	if rules < 50 {
		t.Errorf("only %d of %d decisions came from a rule: the sample does not test the index", rules, len(indexed))
	}
}

// TestLazyRuleFailsClosed: a rule from the config cache whose text no
// longer compiles to the keys it was cached with keeps its deny or ask
// over every command its keys hand it, and an allow rule allows nothing.
func TestLazyRuleFailsClosed(t *testing.T) {
	v := newCfgEnv(t)
	c := NewCompiler(v.root, v.home)
	cached, err := c.Rule("Bash(git push *)", RuleRef{Rule: "Bash(git push *)"})
	if err != nil {
		t.Fatal(err)
	}
	keys := string(cached.AppendKeys(nil))
	for _, tc := range []struct {
		text string
		eff  Effect
		cmd  string
		want Effect
		rule bool
	}{
		{"Bash(git push", Deny, "git push origin", Deny, true},      // does not compile
		{"Bash(git push", Ask, "git push --force x", Ask, true},     // does not compile
		{"Bash(git pull *)", Deny, "git push origin", Deny, true},   // other keys
		{"Bash(git push", Allow, "git push origin", Ask, false},     // an allow allows nothing
		{"Bash(git push *)", Deny, "git push origin", Deny, true},   // as cached
		{"Bash(git push *)", Deny, "git status", Allow, false},      // the keys reject
		{"Bash(git push *)", Allow, "git push origin", Allow, true}, // as cached
	} {
		r, err := c.LazyRule(RuleRef{Rule: tc.text, Effect: tc.eff, Source: SourceUser}, keys)
		if err != nil {
			t.Fatal(err)
		}
		r.Trusted, r.Active = true, true
		rs := &RuleSet{}
		rs.Add(SourceUser, []*Rule{r}, nil)
		cfg := v.config(&TestLoaded{Rules: rs, Mode: ModeDefault, Apply: func(cfg *Config) { cfg.Rules = rs }}, ModeDefault)
		d := v.bash(cfg, tc.cmd)
		if d.Effect != tc.want || (d.Rule != nil) != tc.rule {
			t.Errorf("%s %s, %q: %v %s, want %v (by the rule: %v)", tc.eff, tc.text, tc.cmd, d.Effect, d.Code, tc.want, tc.rule)
		}
	}
	for _, bad := range []string{"", "\x00", keys[:len(keys)-1], keys + "x", "\x04" + keys[1:]} {
		if _, err := c.LazyRule(RuleRef{Rule: "Bash(git push *)"}, bad); err == nil {
			t.Errorf("keys %q decode", bad)
		}
	}
}
