package cmdmodel

import (
	"strings"
	"sync"
)

// gitModelReads reports the files a git subcommand reads by its model
// (git_table.go, reads): `git commit -F FILE`/`-t FILE`, `git tag -F`,
// `git notes add -F` put the file's content in the history, so Read
// rules must see them.
func gitModelReads(c *Command, cdir Arg, out *effectList) {
	g, ok := ReadGitLine(c)
	if !ok || g.Line.l == nil {
		return
	}
	off := len(c.Args) - len(g.Line.l.Cmd.Args)
	for _, it := range g.Line.l.Items {
		if it.Opt == "" || !it.Has || g.Line.s.opts[it.Opt] != readArg {
			continue
		}
		v := g.Line.l.Val(it)
		a := Arg{Word: v.Word, At: v.At + off}
		if !strings.HasPrefix(a.Text, "~") {
			a = joinArg(cdir, a)
		}
		out.read(a)
	}
}

// goWriteFlags are the go command's flags whose value is a file or
// directory it writes (go 1.26: `go help build`, `go help testflag`;
// the hidden -debug-* flags of cmd/go/internal/work): -o the binary,
// -pkgdir the installed packages, the test profiles (written under
// -outputdir when relative), and the test binary's own -test.* spellings
// (testing's flags, which `go test` passes on and a test binary after
// -args reads: -test.gocoverdir, -test.testlogfile write too).
var goWriteFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"o": true, "pkgdir": true, "outputdir": true,
		"debug-actiongraph": true, "debug-runtime-trace": true, "debug-trace": true,
		"test.outputdir": true, "test.gocoverdir": true, "test.testlogfile": true, "test.fuzzcachedir": true}
})

// goProfileFlags are go test's profile flags (go help testflag): a
// relative path is written under -outputdir.
var goProfileFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"coverprofile": true, "cpuprofile": true, "memprofile": true,
		"blockprofile": true, "mutexprofile": true, "trace": true}
})

// goOps reports the files `go build|test|run|vet|install` writes by its
// flags (package flag: one or two dashes, `-name=value` or the next
// word). go test takes flags among its packages and passes the words
// after -args to the test binary, which still reads -test.* flags;
// the other subcommands stop at the first operand. A flag not known to
// take a value is taken as a boolean, so a value that looks like a flag
// is read as one (toward reporting more writes).
func goOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	if len(ops) == 0 || ops[0].Dynamic {
		return
	}
	sub := ops[0].Text
	switch sub {
	case "build", "test", "run", "vet", "install":
	default:
		return
	}
	var outdir Arg
	var profiles []Arg
	binary := false // after -args: the test binary's words
	for i := 1; i < len(ops); i++ {
		w := ops[i]
		t := w.Text
		if t == "--" || t == "-args" || t == "--args" {
			if sub != "test" {
				return
			}
			binary = true
			continue
		}
		if len(t) < 2 || t[0] != '-' {
			if sub != "test" {
				break // the packages, then the program's words
			}
			continue
		}
		name, val, has := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(t, "-"), "-"), "=")
		test, isTest := strings.CutPrefix(name, "test.")
		if binary && !isTest {
			continue
		}
		write, profile := goWriteFlags()[name], goProfileFlags()[name] || isTest && goProfileFlags()[test]
		if !write && !profile {
			continue
		}
		v := Arg{Word: Word{Text: val, Dynamic: w.Dynamic, Offset: w.Offset}, At: w.At}
		if !has {
			if i+1 >= len(ops) {
				continue
			}
			i++
			v = ops[i]
		}
		switch {
		case name == "outputdir" || name == "test.outputdir":
			outdir = v
			out.write(v)
		case profile:
			profiles = append(profiles, v)
		default:
			out.write(v)
		}
	}
	for _, p := range profiles {
		if !strings.HasPrefix(p.Text, "~") && !strings.HasPrefix(p.Text, "$") {
			p = joinArg(outdir, p)
		}
		out.write(p)
	}
}
