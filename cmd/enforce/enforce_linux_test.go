package enforce

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMain lets the test binary be the namespace helper (Probe and the
// full tier run /proc/self/exe) and the child programs below.
func TestMain(m *testing.M) {
	if code, ok := HelperMain(); ok {
		os.Exit(code)
	}
	switch os.Getenv("ENFORCE_TEST_CHILD") {
	case "run":
		os.Exit(childRun())
	case "refuse-then-probe":
		os.Exit(childRefuseThenProbe())
	}
	os.Exit(m.Run())
}

// childRun keeps many threads busy, then runs `sh -c 'echo > $TARGET'`
// in the tier $TIER and exits with its status. Were the restriction made
// on one thread and the command started (or exec'd) from another, the
// write would succeed.
func childRun() int {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 4*runtime.NumCPU()+8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					runtime.Gosched()
					time.Sleep(time.Microsecond)
				}
			}
		}()
	}
	time.Sleep(5 * time.Millisecond)
	p := Plan{Tier: Tier(os.Getenv("TIER")), Writable: []string{os.Getenv("WRITABLE")}, Network: true, RequireFull: true}
	status, err := Run(p, "/bin/sh", []string{"sh", "-c", `echo x > "$TARGET"`}, os.Environ(), func(string) {})
	if err != nil {
		fmt.Fprintln(os.Stderr, "run failed:", err)
		return 99
	}
	return status
}

// childRefuseThenProbe installs Refuse's filter on its locked thread and
// then probes from it; helpers it starts inherit the filter.
func childRefuseThenProbe() int {
	runtime.LockOSThread()
	if err := Refuse(true, os.Getenv("NOLANDLOCK") != ""); err != nil {
		fmt.Println("refuse:", err)
		return 1
	}
	fmt.Println(Probe().Tier())
	return 0
}

func needLandlock(t *testing.T) {
	t.Helper()
	if LandlockABI() < 1 {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must have Landlock")
		}
		t.Skip("no Landlock")
	}
}

// TestExecOnRestrictedThread is the regression test for the thread that
// restricts itself being the one that starts the command: the command is
// confined every time, across many runs with busy threads, in each tier.
func TestExecOnRestrictedThread(t *testing.T) {
	needLandlock(t)
	tiers := []Tier{TierLandlock}
	if s := Probe(); s.Tier() == TierFull {
		tiers = append(tiers, TierFull)
	} else if os.Getenv("CI") != "" {
		t.Fatalf("CI must have the full tier: %s %q", s, s.Errors)
	}
	dir := t.TempDir()
	writable, outside := filepath.Join(dir, "w"), filepath.Join(dir, "x")
	os.Mkdir(writable, 0o755)
	os.Mkdir(outside, 0o755)
	// Landlock grants the whole subtree: outside must not be under
	// writable, and the test's temp dir is not granted at all.
	for _, tier := range tiers {
		for i := 0; i < 20; i++ {
			for _, c := range []struct {
				target string
				ok     bool
			}{{filepath.Join(writable, "f"), true}, {filepath.Join(outside, "f"), false}} {
				cmd := exec.Command(os.Args[0])
				cmd.Env = append(os.Environ(), "ENFORCE_TEST_CHILD=run", "TIER="+string(tier), "WRITABLE="+writable, "TARGET="+c.target)
				out, err := cmd.CombinedOutput()
				_, statErr := os.Stat(c.target)
				if c.ok && (err != nil || statErr != nil) {
					t.Fatalf("%s, run %d: a write inside the writable dir failed: %v %s", tier, i, err, out)
				}
				if !c.ok && (err == nil || statErr == nil || !strings.Contains(string(out), "Permission denied")) {
					t.Fatalf("%s, run %d: a write outside was not refused (exit %v): %s", tier, i, err, out)
				}
				os.Remove(c.target)
			}
		}
	}
}

// TestProbeTiers: the probe finds the full tier here, the landlock tier
// when user namespaces are refused, and none when Landlock is refused too.
func TestProbeTiers(t *testing.T) {
	needLandlock(t)
	if s := Probe(); s.Tier() != TierFull {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have the full tier: %s %q", s, s.Errors)
		}
		t.Skipf("the full tier is unavailable: %s %q", s, s.Errors)
	}
	for _, c := range []struct {
		nolandlock string
		want       Tier
	}{{"", TierLandlock}, {"1", TierNone}} {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "ENFORCE_TEST_CHILD=refuse-then-probe", "NOLANDLOCK="+c.nolandlock)
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			errors.As(err, &ee)
			t.Fatalf("probe child: %v %s", err, out)
		}
		if got := Tier(strings.TrimSpace(string(out))); got != c.want {
			t.Errorf("NOLANDLOCK=%q: tier %s, want %s", c.nolandlock, got, c.want)
		}
	}
}

// TestFilterShape: every jump of the seccomp programs stays inside the
// program, and the program ends in a return.
func TestFilterShape(t *testing.T) {
	for _, rules := range [][]sysRule{networkRules, {{nr: 1, argMask: 4, errno: 1}}} {
		prog, err := buildFilter(rules)
		if err != nil {
			t.Fatal(err)
		}
		for i, ins := range prog {
			if ins.Code&0x07 == bpfJMP && (i+1+int(ins.Jt) >= len(prog) || i+1+int(ins.Jf) >= len(prog)) {
				t.Errorf("instruction %d jumps out of the program", i)
			}
		}
		if last := prog[len(prog)-1]; last.Code != bpfRET|bpfK {
			t.Errorf("the program ends with %#x, not a return", last.Code)
		}
	}
}
