package shellparse

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The wrappers checked against the real binaries: each runs the command
// gatekeep derives from the same line, found through a stub program that
// records its argv.

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// innermost follows a command's wrappers to the command they run.
func innermost(s *Script) *Command {
	c := &s.Commands[0]
	for c.Inner >= 0 {
		c = &s.Commands[c.Inner]
	}
	return c
}

// TestRealWrappers runs each wrapper with combinations of its options in
// front of a stub program that records the argv it received, and compares
// it with the command gatekeep derives from the same line.
func TestRealWrappers(t *testing.T) {
	bash := needTool(t, "bash")
	for _, tt := range []struct {
		name  string
		pre   string   // words before the options (`/usr/bin/time`)
		opts  []string // option groups, each one or more words
		after string   // words between the options and the command
		input string   // standard input
		// tty: the wrapper needs a terminal (watch draws with curses):
		// the line runs under script(1), which gives it a pty.
		tty bool
	}{
		{name: "env", opts: []string{"-i", "-u X", "--unset=X", "--uns X", "-C .", "--chd=.", "--default-signal",
			"--default-signal=INT", "--block-signal", "--ignore-signal=HUP", "-v", "--debug", "A=1", "--", "-",
			"-iu X", "--ignore-env", "--list-signal-handling"}},
		{name: "timeout", opts: []string{"-k 1", "-k1", "--kill-after=1", "--kill 1", "-s KILL", "-sKILL", "--sig KILL",
			"--signal=TERM", "-v", "--foreground", "--preserve-status", "--pre", "--verb", "--"}, after: "5"},
		{name: "nice", opts: []string{"-n 5", "-n5", "--adj 5", "--adjustment=5", "-5", "--5", "-+5", "--"}},
		{name: "stdbuf", opts: []string{"-oL", "-o L", "--output=L", "--out L", "-e0", "--err 0", "-i 0", "--input=0", "--"}},
		{name: "xargs", opts: []string{"-0", "-r", "--no-run", "-n 5", "-n5", "--max-args=5", "--max-a 5", "-e",
			"--eof", "-eEND", "--eof=END", "-E END", "-s 1000", "-x", "-L 5", "-l", "-l5", "--max-lines", "-P 1",
			"--process-slot-var=V", "-t", "--verbose", "--"}, input: "in1 in2\n"},
		{name: "time", pre: "/usr/bin/time", opts: []string{"-p", "-q", "-a", "-f %e", "--format=%e", "--form %e",
			"-o /dev/null", "--output=/dev/null", "--out /dev/null", "-v", "--quiet", "--portability", "--"}},
		{name: "setsid", opts: []string{"-w", "--wait", "-c", "--wa", "--"}},
		{name: "ionice", opts: []string{"-c 3", "-c3", "--class 3", "--class=idle", "-t", "--ignore", "-n 4", "--classd 4", "--"}},
		{name: "sudo", opts: []string{"-u root", "-uroot", "--user=root", "--us root", "-E", "--preserve-env",
			"--preserve-env=PATH", "-H", "--set-home", "-n", "--non-interactive", "-D .", "--chdir=.", "-k", "--", "A=1",
			"-g root", "--gr root", "-P", "--preserve-g"}},
		{name: "nohup", opts: []string{"--"}},
		{name: "command", opts: []string{"-p", "--"}},
		{name: "busybox", pre: "busybox env", opts: []string{"-i", "-u X", "A=1", "--"}},
		// watch runs the command every 0.1 s and exits once its output
		// has not changed for 2 runs (-q 2); without -x it joins the
		// words and runs them with `sh -c`.
		{name: "watch", pre: "watch -n 0.1 -q 2", tty: true, opts: []string{"-x", "--exec", "-t -d",
			"--differences=permanent", "--int 0.2", "--"}},
		// doas runs as root only where /etc/doas.conf permits it (.ci/run
		// writes `permit nopass root`).
		{name: "doas", opts: []string{"-n", "-u root", "-uroot", "-nu root", "--"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			first, _, _ := strings.Cut(tt.pre+" ", " ")
			if first == "" {
				first = tt.name
			}
			if tt.name != "command" {
				needTool(t, first)
			}
			if tt.name == "sudo" && os.Geteuid() != 0 {
				if os.Getenv("CI") == "true" {
					t.Fatal("sudo is checked as root; CI runs as root")
				}
				t.Skip("sudo is checked as root")
			}
			if tt.name == "doas" {
				if out, err := exec.Command("doas", "-n", "true").CombinedOutput(); err != nil {
					if os.Getenv("CI") == "true" {
						t.Fatalf("doas does not run as root here (.ci/run writes /etc/doas.conf): %s", out)
					}
					t.Skipf("doas does not run as root here (no /etc/doas.conf permitting it): %s", firstLine(string(out)))
				}
			}
			if tt.tty {
				needTool(t, "script")
			}
			dir := t.TempDir()
			stub := filepath.Join(dir, "stub")
			rec := filepath.Join(dir, "argv")
			if err := os.WriteFile(stub, []byte("#!/bin/sh\nfor a in \"$0\" \"$@\"; do printf '%s\\n' \"$a\"; done > "+rec+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			pre := tt.pre
			if pre == "" {
				pre = tt.name
			}
			var combos [][]string
			for i := range tt.opts {
				combos = append(combos, []string{tt.opts[i]})
				for j := range tt.opts {
					if j != i {
						combos = append(combos, []string{tt.opts[i], tt.opts[j]})
					}
				}
			}
			combos = append(combos, nil)
			checked := 0
			for _, combo := range combos {
				line := strings.TrimSpace(strings.Join(append(append([]string{pre}, combo...), tt.after, stub, "a", "-b", "--c=d"), " "))
				line = strings.Join(strings.Fields(line), " ")
				os.Remove(rec)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				cmd := exec.CommandContext(ctx, bash, "-c", line)
				if tt.tty {
					cmd = exec.CommandContext(ctx, "script", "-qec", line, "/dev/null")
				}
				cmd.Dir = dir
				cmd.Stdin = strings.NewReader(tt.input)
				cmd.Env = append(os.Environ(), "LC_ALL=C", "TERM=xterm", "SHELL="+bash)
				_, _ = cmd.CombinedOutput()
				cancel()
				got, err := os.ReadFile(rec)
				ran := err == nil
				script, perr := Parse(line, Options{})
				if perr != nil {
					t.Errorf("%s: %v", line, perr)
					continue
				}
				c := innermost(script)
				wrapperUnknown := script.Commands[0].Unknown != ""
				if !ran {
					// The tool refused the line: gatekeep need only not
					// have derived a harmless command from it.
					continue
				}
				checked++
				if wrapperUnknown || c == &script.Commands[0] {
					t.Errorf("%s: ran %q, gatekeep derived no command (%s)", line, got, script.Commands[0].Unknown)
					continue
				}
				real := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
				derived := c.Argv()
				if c.TrailingArgs && len(real) > len(derived) {
					real = real[:len(derived)] // the words xargs appended from its input
				}
				if strings.Join(real, "\x00") != strings.Join(derived, "\x00") {
					t.Errorf("%s: ran %q, gatekeep derived %q", line, real, derived)
				}
			}
			if checked == 0 {
				t.Fatalf("the stub never ran")
			}
			t.Logf("%d of %d lines ran the stub and were compared", checked, len(combos))
		})
	}
}
