package config

import (
	"fmt"
	"strings"
	"testing"
)

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

// BenchmarkLoadCached is BenchmarkLoad with the decoded files cached (a
// warm cache: every load after the first reads the cache):
//
//	go test ./policy/config -run '^$' -bench 'Load' -benchmem
func BenchmarkLoadCached(b *testing.B) {
	v := newCfgEnv(b)
	v.write(v.paths.User, thousandRules())
	opts := v.opts()
	opts.Version = "bench"
	for b.Loop() {
		if _, err := Load(opts); err != nil {
			b.Fatal(err)
		}
	}
}
