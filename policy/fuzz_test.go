package policy

import (
	"testing"

	"github.com/gatekeep/gatekeep/shellparse"
)

// FuzzChainNoDangerAllowed checks two invariants of the chain for any
// input: Evaluate never panics (a recovered panic shows as the code
// internal.error), and when any command of the parsed script is a form of
// the danger table, the call is denied, in every mode. Run it with
//
//	go test ./policy/ -run '^$' -fuzz FuzzChainNoDangerAllowed

func FuzzChainNoDangerAllowed(f *testing.F) {
	for _, tc := range dangerCases {
		f.Add(tc.cmd)
	}
	for _, cmd := range notDangerCases {
		f.Add(cmd)
	}
	for _, cmd := range forkBombSafeNames {
		f.Add(cmd)
	}
	dir := f.TempDir()
	cfgs := make([]*Config, len(Modes))
	for i, m := range Modes {
		cfgs[i] = dangerConfig(f, dir, m, dangerHome)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		danger := ""
		if s, err := shellparse.Parse(cmd, shellparse.Options{Home: dangerHome}); err == nil {
			for i := range s.Commands {
				fd := findDanger(s, i, dangerHome, dir)
				if fd != nil {
					danger = fd.code
					break
				}
			}
		}
		for _, cfg := range cfgs {
			d := Evaluate(cfg, Request{Tool: ToolBash, Command: cmd, Cwd: dir})
			if d.Code == "internal.error" {
				t.Fatalf("%s: %q: %s", cfg.Mode, cmd, d.Message)
			}
			if danger != "" && d.Effect != Deny {
				t.Fatalf("%s: %q has %s but came out %v %s %s (%s)", cfg.Mode, cmd, danger, d.Effect, d.Layer, d.Code, d.Message)
			}
		}
	})
}
