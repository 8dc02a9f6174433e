//go:build linux

package cmd_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestHelperStartsBeforeTheRest: gatekeep re-executed as the confinement
// helper (as the full tier and the probe start it) runs before the
// policy, the shell parser, cobra and net/http are initialized: the
// helper's package imports only the lower standard library and x/sys/unix
// (Go initializes a package once its imports are), and its
// initialization takes the process over. Go's init trace
// (GODEBUG=inittrace=1) lists each package initialized before the helper
// exits; a heavy import added to the helper would show here.
func TestHelperStartsBeforeTheRest(t *testing.T) {
	cmd := exec.Command(os.Args[0], "__gatekeep_confine")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput() // it fails: no plan to read
	trace := string(out)
	if !strings.Contains(trace, "init golang.org/x/sys/unix") {
		t.Fatalf("no init trace of the helper's own imports:\n%s", trace)
	}
	for _, heavy := range []string{"mvdan.cc/sh/", "github.com/spf13/cobra", "net/http", "github.com/gatekeep/gatekeep/policy",
		"github.com/gatekeep/gatekeep/shellparse", "github.com/gatekeep/gatekeep/cmd "} {
		if strings.Contains(trace, "init "+heavy) {
			t.Errorf("%s was initialized before the helper ran:\n%s", heavy, trace)
		}
	}
}
