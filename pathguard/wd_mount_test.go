//go:build linux

package pathguard

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWorkingDirCoveredByMount: a file system mounted over a parent of
// the working directory after the process entered it (the agent's
// long-lived shell entered it; gatekeep inherits that working directory)
// leaves getcwd(2) answering the old spelling (why the working directory is
// not taken from getcwd), while a lookup of that
// path goes through the new mount, here to a link out of the root. A
// check from that directory must answer as the walk of every component
// does: `cat /proj/a/b/secret` reads what the link leads to.
//
// It needs root and unshare(1): the test re-runs itself in a private
// mount namespace, so the mount is seen by nobody else.
func TestWorkingDirCoveredByMount(t *testing.T) {
	if os.Getenv("GATEKEEP_TEST_MOUNT_CHILD") == "" {
		if os.Getuid() != 0 {
			t.Skip("mounting needs root")
		}
		unshare, err := exec.LookPath("unshare")
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("unshare(1) is needed in CI (util-linux): ", err)
			}
			t.Skip("no unshare(1)")
		}
		cmd := exec.Command(unshare, "-m", "--propagation", "private", os.Args[0],
			"-test.run=^TestWorkingDirCoveredByMount$", "-test.v")
		cmd.Env = append(os.Environ(), "GATEKEEP_TEST_MOUNT_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("in a private mount namespace: %v\n%s", err, out)
		}
		t.Logf("%s", out)
		return
	}
	base := realTempDir(t)
	proj := filepath.Join(base, "proj")
	out := filepath.Join(base, "out")
	wd := filepath.Join(proj, "a", "b")
	mkdir(t, wd)
	mkdir(t, out)
	write(t, filepath.Join(out, "a.txt"), "secret\n")
	g, errs := New([]string{proj}, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	t.Chdir(wd)
	covered := filepath.Join(proj, "a")
	if err := unix.Mount("tmpfs", covered, "tmpfs", 0, ""); err != nil {
		t.Fatalf("mount as root in a private mount namespace: %v", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(covered, unix.MNT_DETACH) })
	symlink(t, out, wd) // /proj/a/b is now a link to /out
	if cwd, err := os.Getwd(); err != nil || cwd != wd {
		t.Fatalf("getcwd = %q, %v; want the covered spelling %q", cwd, err, wd)
	}
	checkSameAsWalk(t, g, wd)
	for _, p := range []string{"a.txt", filepath.Join(wd, "a.txt")} {
		if r := g.CheckWith(new(Memo), wd, p); r.Inside() {
			t.Errorf("%s from a working directory now reached through a mounted link out of the root: %+v, want outside", p, r)
		}
	}
}
