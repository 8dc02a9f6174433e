package policy

import (
	"fmt"
	"strings"
	"testing"
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
			l, err := Load(v.opts())
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

// BenchmarkLoad measures reading and compiling a 1,000-rule config.
func BenchmarkLoad(b *testing.B) {
	v := newCfgEnv(b)
	v.write(v.paths.User, thousandRules())
	for b.Loop() {
		if _, err := Load(v.opts()); err != nil {
			b.Fatal(err)
		}
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
