//go:build unix

package pathguard

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLookPathExecutableByUser: a file in an earlier PATH entry that the
// current user may not execute (execute bits for others only) is skipped,
// as exec.LookPath, execvp(3) and bash skip it, so the file judged is the
// file that runs. As root (CI), the check runs again as uid 65534.
func TestLookPathExecutableByUser(t *testing.T) {
	if base := os.Getenv("GATEKEEP_LOOKPATH_CHILD"); base != "" {
		checkLookPathAgrees(t, base)
		return
	}
	base, err := os.MkdirTemp("", "lookpath")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	for _, d := range []string{"a", "b", "root", "home"} {
		mkdir(t, filepath.Join(base, d))
	}
	write(t, filepath.Join(base, "a/tool"), "#!/bin/sh\n")
	write(t, filepath.Join(base, "b/tool"), "#!/bin/sh\n")
	// a/tool: executable by its owner only when that is root, else by
	// group and others only; b/tool by everyone.
	modeA := os.FileMode(0o744)
	if os.Geteuid() != 0 {
		modeA = 0o655
	}
	for f, m := range map[string]os.FileMode{"a/tool": modeA, "b/tool": 0o755, ".": 0o755} {
		if err := os.Chmod(filepath.Join(base, f), m); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() != 0 {
		checkLookPathAgrees(t, base)
		return
	}
	// Root executes any file with an execute bit: the test binary runs
	// itself as nobody, from a copy nobody can read.
	self := filepath.Join(base, "pathguard.test")
	copyFile(t, os.Args[0], self, 0o755)
	cmd := exec.Command(self, "-test.run=^TestLookPathExecutableByUser$", "-test.v")
	cmd.Dir = base
	cmd.Env = append(os.Environ(), "GATEKEEP_LOOKPATH_CHILD="+base)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("as uid 65534: %v\n%s", err, out)
	}
}

// checkLookPathAgrees fails unless Guard.LookPath finds tool where
// exec.LookPath does: in b, past a's file the user may not execute.
func checkLookPathAgrees(t *testing.T, base string) {
	entries := []string{filepath.Join(base, "a"), filepath.Join(base, "b")}
	t.Setenv("PATH", strings.Join(entries, string(filepath.ListSeparator)))
	want, err := exec.LookPath("tool")
	if err != nil {
		t.Fatal(err)
	}
	if want != filepath.Join(base, "b/tool") {
		t.Fatalf("exec.LookPath = %s; the test expects it past a/tool (uid %d)", want, os.Geteuid())
	}
	g, errs := New([]string{filepath.Join(base, "root")}, Options{Home: filepath.Join(base, "home"), ConfigDirs: []string{}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got, err := g.LookPath("tool", entries)
	if err != nil || got != want {
		t.Fatalf("Guard.LookPath = %q, %v; exec.LookPath runs %s", got, err, want)
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
