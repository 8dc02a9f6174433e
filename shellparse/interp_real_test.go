package shellparse

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// interpForms are one-liners that run `touch M*` through each shell-out
// form this file reads, unconditionally.
var interpForms = []struct{ family, bin, opt, prog string }{
	{"perl", "perl", "-e", `system("touch M1")`},
	{"perl", "perl", "-e", `system "touch", "M2"`},
	{"perl", "perl", "-e", "`touch M3`"},
	{"perl", "perl", "-e", `qx{touch M4}`},
	{"perl", "perl", "-e", `open(my $f, "touch M5 |"); close $f`},
	{"perl", "perl", "-e", `open(my $f, "-|", "touch", "M6"); close $f`},
	{"perl", "perl", "-e", `print $#a; $x =~ s#a#b#; system('touch M7')`},
	{"python", "python3", "-c", `import os; os.system("touch M8")`},
	{"python", "python3", "-c", `import subprocess; subprocess.run(["touch", "M9"])`},
	{"python", "python3", "-c", `import subprocess; subprocess.call("touch M10", shell=True)`},
	{"python", "python3", "-c", `import os; os.popen('touch M11').read()`},
	{"python", "python3", "-c", `import subprocess; subprocess.check_output(["touch", "M12"])`},
	{"node", "node", "-e", `require("child_process").execSync("touch M13")`},
	{"node", "node", "-e", `require("child_process").spawnSync("touch", ["M14"])`},
}

// TestRealInterp runs each one-liner with its interpreter and fails when
// the files its commands created differ from the touch commands gatekeep
// finds in it.
func TestRealInterp(t *testing.T) {
	for _, f := range interpForms {
		t.Run(f.bin, func(t *testing.T) {
			bin := needTool(t, f.bin)
			var want []string
			s, err := Parse(f.bin+" "+f.opt+" "+shellQuote(f.prog), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range s.Commands {
				if c.Name() == "touch" {
					for _, w := range c.Args[1:] {
						want = append(want, w.Text)
					}
				}
			}
			slices.Sort(want)
			want = slices.Compact(want)
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, f.opt, f.prog)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s %s %q: %v\n%s", f.bin, f.opt, f.prog, err, out)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s %q created %q; gatekeep finds touch %q", f.bin, f.opt, f.prog, got, want)
			}
		})
	}
}

// shellQuote quotes s as one shell word.
func shellQuote(s string) string {
	out := "'"
	for _, r := range s {
		if r == '\'' {
			out += `'\''`
		} else {
			out += string(r)
		}
	}
	return out + "'"
}
