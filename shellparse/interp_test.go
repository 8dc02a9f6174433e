package shellparse

import (
	"fmt"
	"strings"
	"testing"
)

// TestAnalyzeInterp: the shell-outs found in one-liners ("sh:" code, "argv:" words).
func TestAnalyzeInterp(t *testing.T) {
	tests := []struct{ family, prog, want string }{
		{"perl", `system("rm -rf ~")`, `sh:rm -rf ~`},
		{"perl", `system "rm", "-rf", "/"`, `argv:rm -rf /`},
		{"perl", `system('echo \'a\'')`, `sh:echo 'a'`},
		{"perl", "print `id`; print qx{uname -a}; qx(ls)", `sh:id sh:uname -a sh:ls`},
		{"perl", `open(my $f, "ls |"); open(G, "-|", "cat", "x")`, `sh:ls argv:cat x`},
		{"perl", `system("echo $HOME")`, `unknown`},
		{"perl", `system($cmd)`, `unknown`},
		{"perl", "`$x`", `unknown`},
		{"perl", `print "system(1)"`, ``},
		{"perl", `open(F, "<", $file)`, ``},
		{"perl", `print $#a; system("rm -rf ~")`, `sh:rm -rf ~`},
		{"perl", `$x =~ /#/; system("id")`, `sh:id`},
		{"perl", `$x =~ s#a#b#; $y =~ s{#}{x}g; $z = 4 / 2; system("id")`, `sh:id`},
		{"perl", `@w = qw#system("no")#; print m{#}`, ``},
		{"perl", `-s $f and system("id"); $x`, `sh:id`},
		{"python", `import os; os.system("rm -rf ~")`, `sh:rm -rf ~`},
		{"python", `import subprocess; subprocess.run(["rm", "-rf", "/"])`, `argv:rm -rf /`},
		{"python", `import subprocess as sp; sp.call("ls -l", shell=True)`, `sh:ls -l`},
		{"python", `import os; print(os.popen(r'ls \d').read())`, `sh:ls \d`},
		{"python", `import os; os.system(f"rm {p}")`, `unknown`},
		{"python", `import subprocess; subprocess.check_output(["ls", p])`, `unknown`},
		{"python", `import asyncio; asyncio.run(main())`, ``},
		{"python", `print("os.system('x')")`, ``},
		{"ruby", `system("rm -rf ~")`, `sh:rm -rf ~`},
		{"ruby", `puts %x(ls); puts ` + "`id`", `sh:ls sh:id`},
		{"ruby", `system "rm", "-rf", "/"`, `argv:rm -rf /`},
		{"ruby", `system("echo #{x}")`, `unknown`},
		{"ruby", `require "open3"; Open3.capture2("ls")`, `sh:ls`},
		{"node", `require("child_process").execSync("rm -rf ~")`, `sh:rm -rf ~`},
		{"node", `const cp = require('child_process'); cp.spawn('rm', ['-rf', '/'])`, `argv:rm -rf / sh:rm -rf /`},
		{"node", "require('child_process').exec(`ls ${d}`)", `unknown`},
		{"node", `/x/.exec("a b")`, ``},
		{"php", `shell_exec("rm -rf ~");`, `sh:rm -rf ~`},
		{"php", "echo `id`;", `sh:id`},
		{"php", `system($argv[1]);`, `unknown`},
	}
	for _, tc := range tests {
		runs, unknown := analyzeInterp(tc.family, tc.prog)
		var got []string
		for _, r := range runs {
			if r.argv != nil {
				got = append(got, "argv:"+strings.Join(r.argv, " "))
			} else {
				got = append(got, "sh:"+r.code)
			}
		}
		if unknown != "" {
			got = append(got, "unknown")
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s %s: %s", tc.family, tc.prog, fmt.Sprintf("got %q, want %q", g, tc.want))
		}
	}
}
