package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy/testcases"
)

func memoLookPath() func(string) (string, error) {
	memo := map[string]error{}
	paths := map[string]string{}
	return func(name string) (string, error) {
		if err, ok := memo[name]; ok {
			return paths[name], err
		}
		p, err := exec.LookPath(name)
		if err == nil {
			p, err = filepath.EvalSymlinks(p)
		}
		memo[name], paths[name] = err, p
		return p, err
	}
}

// BenchmarkEvaluate decides commands of the agent corpus in-process, one
// per iteration, with the embedded default rules, the machine's PATH lookup
// (memoized, as gatekeep does within one process) and a real sandbox, in
// the process's working directory as gatekeep decides (the CLI's
// Request.Cwd is its own), and reports the median and 99th percentile of a
// single decision.
//
//	go test ./policy -run '^$' -bench Evaluate -benchtime 20000x
func BenchmarkEvaluate(b *testing.B) {
	cmds := testcases.AgentSample(b, 2000)
	dir := b.TempDir()
	home := os.Getenv("HOME")
	g, _ := pathguard.New([]string{dir, os.TempDir()}, pathguard.Options{Home: home})
	loaded, err := testLoad(dir, home, TestPaths{Managed: dir + "/none", User: dir + "/none", Trust: dir + "/trust.json"})
	if err != nil {
		b.Fatal(err)
	}
	cfg := &Config{Mode: ModeDefault, Guard: g, Home: home, LookPath: memoLookPath()}
	loaded.Apply(cfg)
	b.Chdir(dir)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		Evaluate(cfg, Request{Tool: ToolBash, Command: cmds[i%len(cmds)], Cwd: dir})
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "ns/decision-p50")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "ns/decision-p99")
}
