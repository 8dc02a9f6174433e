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

	"github.com/gatekeep/gatekeep/cmd/enforce/helper"
)

// TestMain lets the test binary be the child programs below (this
// package's initialization makes it the namespace helper when Probe and
// the full tier run /proc/self/exe).
func TestMain(m *testing.M) {
	switch os.Getenv("ENFORCE_TEST_CHILD") {
	case "run":
		os.Exit(childRun())
	case "bad-mount":
		os.Exit(childBadMount())
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
	// EARLY: a helper started before the plan, for a plan with the
	// network on (as p) or off (then Run must end it and start another).
	var early *Early
	switch os.Getenv("EARLY") {
	case "same":
		early = StartEarly(true, os.Environ())
	case "other":
		early = StartEarly(false, os.Environ())
	}
	status, err := Run(p, early, "/bin/sh", []string{"sh", "-c", `echo x > "$TARGET"`}, os.Environ(), func(string) {})
	if err != nil {
		fmt.Fprintln(os.Stderr, "run failed:", err)
		return 99
	}
	return status
}

// childRefuseThenProbe installs helper.Refuse's filter on its locked thread and
// then probes from it; helpers it starts inherit the filter.
func childRefuseThenProbe() int {
	runtime.LockOSThread()
	if err := helper.Refuse(true, os.Getenv("NOLANDLOCK") != ""); err != nil {
		fmt.Println("refuse:", err)
		return 1
	}
	fmt.Println(Probe().Tier())
	return 0
}

// needFullTier skips a test without the full tier, except in CI.
func needFullTier(t *testing.T) {
	t.Helper()
	needLandlock(t)
	if s := Probe(); s.Tier() != TierFull {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have the full tier: %s %q", s, s.Errors)
		}
		t.Skip("the full tier is unavailable")
	}
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
// confined every time, across many runs with busy threads, in each tier,
// with a helper started before the plan (one that suits it, one that
// does not) and without.
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
				cmd.Env = append(os.Environ(), "ENFORCE_TEST_CHILD=run", "TIER="+string(tier), "WRITABLE="+writable, "TARGET="+c.target,
					"EARLY="+[]string{"", "same", "other"}[i%3])
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

// TestEarlyHelperDiscarded: a helper started ahead of a plan that is
// never sent (the call was denied after all) ends with Discard, reaped:
// no process of it is left.
func TestEarlyHelperDiscarded(t *testing.T) {
	needFullTier(t)
	e := StartEarly(false, os.Environ())
	<-e.ready
	if e.err != nil {
		t.Fatalf("no early helper started: %v", e.err)
	}
	pid := e.h.c.Process.Pid
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
		t.Fatalf("the early helper %d is not running: %v", pid, err)
	}
	e.Discard()
	e.Discard() // twice is harmless
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the discarded helper %d is still there: %v", pid, err)
	}
}

// childBadMount runs a full-tier plan whose read-only path is a symbolic
// link (the helper refuses to mount over one) and prints what Run says.
func childBadMount() int {
	w := os.Getenv("WRITABLE")
	p := Plan{Tier: TierFull, Writable: []string{w}, ReadOnly: []string{w + "/link"}}
	_, err := Run(p, nil, "/bin/sh", []string{"sh", "-c", `echo x > "$TARGET"`}, os.Environ(), func(m string) { fmt.Println("note:", m) })
	var ue *UnavailableError
	if errors.As(err, &ue) {
		fmt.Println("unavailable:", ue.Err)
		return 0
	}
	fmt.Println("ran:", err)
	return 1
}

// TestFullTierFailureStaysFull: a full-tier plan the helper cannot set
// up (here a mount it refuses) is an error, not a run in the landlock
// tier, where the protected paths would stay writable: nothing runs.
func TestFullTierFailureStaysFull(t *testing.T) {
	needFullTier(t)
	w := t.TempDir()
	if err := os.Symlink("/etc", filepath.Join(w, "link")); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(w, "ran")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ENFORCE_TEST_CHILD=bad-mount", "WRITABLE="+w, "TARGET="+target)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "unavailable:") || strings.Contains(string(out), "note:") {
		t.Errorf("want an unavailable full tier and no fallback, got (%v): %s", err, out)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the command ran")
	}
}
