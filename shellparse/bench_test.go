package shellparse

import (
	"testing"
	"time"

	"github.com/gatekeep/gatekeep/policy/testcases"
)

// BenchmarkParse parses commands of the agent corpus, one per iteration,
// with the options a decision passes, so the parse's share of a decision
// can be measured alone. cpu-ns/op is the process's CPU time (the
// collector's included) per parse, which other processes' load on a busy
// machine moves less than the wall time:
//
//	go test ./shellparse -run '^$' -bench Parse -benchmem -benchtime 20000x
func BenchmarkParse(b *testing.B) {
	cmds := testcases.AgentSample(b, 2000)
	opt := Options{Home: "/home/user"}
	cpu := cpuNow()
	for i := 0; b.Loop(); i++ {
		Parse(cmds[i%len(cmds)], opt)
	}
	reportCPU(b, cpu)
}

// reportCPU reports the CPU time used since start per iteration.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuNow()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkEffects is what a decision asks of the command model after the
// parse: the file effects of every command of a parsed script.
func BenchmarkEffects(b *testing.B) {
	cmds := testcases.AgentSample(b, 2000)
	opt := Options{Home: "/home/user"}
	var scripts []*Script
	for _, c := range cmds {
		if s, err := Parse(c, opt); err == nil {
			scripts = append(scripts, s)
		}
	}
	cpu := cpuNow()
	for i := 0; b.Loop(); i++ {
		s := scripts[i%len(scripts)]
		for j := range s.Commands {
			Effects(&s.Commands[j])
		}
	}
	reportCPU(b, cpu)
}
