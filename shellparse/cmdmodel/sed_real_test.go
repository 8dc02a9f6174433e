package cmdmodel

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// sedScripts are the programs the differential test gives GNU sed: the
// forms readSed reads, and the ones it must not take for harmless.
var sedScripts = []string{
	`p`, `1p`, `$p`, `/x/p`, `\%x%Ip`, `1,5p`, `1,+2p`, `0~3p`, `2,~4p`, `1~p`, `1,p`, `/a/,/b/{p;d}`,
	`s/a/b/`, `s/a/b/gp`, `s/a/b/2`, `s|/usr|/opt|g`, `s/[/]/x/`, `s/[[:alpha:]/]/x/`, `s/[]]/x/`,
	`sxaxbxp`, `y/abc/xyz/`, `:a;N;$!ba;s/\n/ /g`, `q5`, `l 20`, `=`, `F`, `z`, `n;N;D;P;g;G;h;H;x`,
	`# w x` + "\n" + `p`, "a\\\ntext with e and w", `1i hello; w x`, `p x`, `pw x`, `p;w x`,
	`w out`, `s/a/b/w out`, `s/a/b/gw out`, `W a`, `r b`, `R c`, `/x/r /etc/passwd`, `e id`, `1e`,
	`s/x/id/e`, `s/x/id/ge`, `s/[/]/x/e`, `s/a/b/ w x`, "s/a/b/\nw x", `{p;w x}`, `1!w x`,
	`s/a/b`, `s/a/b/X`, `k`, `/unterminated`, `w`, `s/[a/b/`, `}`, `{p`,
}

// TestSedRealSandbox checks readSed against GNU sed: with --sandbox GNU
// sed refuses a program holding e, r or w (the commands and s's flags);
// sedProgram must then report the read, write or run, or not understand
// the program. A program it reads without any must run under --sandbox.
// And every program sedPrintOnly accepts runs, and --debug (sed's own
// parse, one command a line) shows it only selects and prints.
func TestSedRealSandbox(t *testing.T) {
	sed := needBinary(t, "sed")
	if out, _ := exec.Command(sed, "--version").CombinedOutput(); !strings.Contains(string(out), "GNU sed") {
		if os.Getenv("CI") == "true" {
			t.Fatal("sed is not GNU sed")
		}
		t.Skip("sed is not GNU sed")
	}
	run := func(args ...string) (string, bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, sed, args...)
		cmd.Dir = t.TempDir()
		cmd.Stdin = strings.NewReader("a\nb\n")
		out, err := cmd.CombinedOutput()
		// Status 1 is sed's "invalid command, syntax or option"; q and Q
		// may exit with any other.
		return string(out), cmd.ProcessState != nil && cmd.ProcessState.ExitCode() != 1 && (err == nil || cmd.ProcessState.ExitCode() > 0)
	}
	for _, script := range sedScripts {
		reads, writes, runs, ok := sedProgram(script)
		out, accepted := run("-n", "--sandbox", "-e", script)
		refused := strings.Contains(out, "e/r/w commands disabled in sandbox mode")
		switch {
		case refused && ok && len(reads)+len(writes) == 0 && !runs:
			t.Errorf("%q: GNU sed reads, writes or runs (%s), the model sees none", script, firstLine(out))
		case ok && (len(reads)+len(writes) > 0 || runs) && !refused && accepted:
			t.Errorf("%q: the model sees reads %q writes %q runs %v, GNU sed --sandbox does not refuse it", script, reads, writes, runs)
		case ok && !refused && !accepted:
			// sed does nothing with it: the effects may err either way.
			t.Logf("%q: understood, GNU sed refuses it: %s", script, firstLine(out))
		}
		if sedPrintOnly(script) {
			dbg, ok := run("-n", "--debug", "-e", script)
			if !ok || refused {
				t.Errorf("%q: print-only by the model, GNU sed refuses it: %s", script, firstLine(dbg))
				continue
			}
			prog, _, _ := strings.Cut(strings.TrimPrefix(dbg, "SED PROGRAM:\n"), "\nINPUT:")
			for _, l := range strings.Split(prog, "\n") {
				// "ADDR[,ADDR][!] CMD": the command is the first field
				// that is no address.
				for _, f := range strings.Fields(l) {
					if strings.ContainsRune("0123456789$/\\", rune(f[0])) {
						continue
					}
					if !strings.ContainsRune("{}pPnNdDgGhHxzFlqQ=s", rune(f[0])) || f[0] == 's' && strings.ContainsAny(f[strings.LastIndexByte(f, f[1])+1:], "ew") {
						t.Errorf("%q: print-only by the model, GNU sed parses %q", script, l)
					}
					break
				}
			}
		}
	}
}
