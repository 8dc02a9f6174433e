package cmdmodel

import (
	"strings"
	"sync"
)

// CodeWords returns the indices in c.Args of the words that make the
// command run code or programs beyond what its name and subcommand say, by
// the command model: an option with that effect (`go test -exec CMD`,
// `make --eval=TEXT`, `make -f FILE`, `ssh -o ProxyCommand=CMD`), or an
// operand that has it (`make SHELL=...`: a variable override can replace
// any command of a recipe). An allow rule's `*` does not cover them: a rule
// covers such a word only by naming it. A dynamic word that
// could be one counts. The word holding an option's value is reported
// when the value says what runs (ssh's -o NAME=VALUE). wrapper: c runs
// another command the caller found (its own words are then only the
// wrapper's).
func CodeWords(c *Command, wrapper bool) []int {
	if len(c.Args) == 0 || c.Args[0].Dynamic {
		return nil
	}
	switch name := c.Name(); name {
	case "go":
		return goCodeWords(c.Args)
	case "ssh":
		return sshCodeWords(c.Args)
	case "git":
		return gitCodeWords(c)
	case "cargo":
		return cargoCodeWords(c.Args)
	case "npm":
		return npmCodeWords(c.Args)
	case "pytest", "py.test":
		return pytestCodeWords(c.Args, 1)
	case "python", "python3":
		if len(c.Args) > 2 && c.Args[1].Text == "-m" && c.Args[2].Text == "pytest" && !c.Args[2].Dynamic {
			return pytestCodeWords(c.Args, 3)
		}
		return nil
	default:
		s, ok := LookupSpec(name, wrapper)
		if !ok || !s.complete || len(s.acted) == 0 {
			return nil
		}
		l := s.Scan(c)
		var out []int
		for _, it := range l.Items {
			switch {
			case it.Opt != "" && s.acted[it.Opt]:
				out = append(out, int(it.At))
			case it.Opt == "" && (name == "make" || name == "gmake") && strings.Contains(l.Val(it).Text, "="):
				out = append(out, int(it.At)) // a variable override
			}
		}
		for i := 1; i < len(c.Args); i++ {
			if mayBeOption(c.Args[i]) {
				out = append(out, i)
			}
		}
		return out
	}
}

// gitCodeWords reads git by its model (git_table.go): a global option
// that acts (-c, --config-env, --exec-path, --git-dir ...), and in a
// modelled subcommand an option that runs what it names (fetch and pull
// --upload-pack, push --receive-pack/--exec, --help) or that the model
// does not list (a newer git's option may do anything), and an operand
// only known at run time that may be an option.
func gitCodeWords(c *Command) []int {
	g, ok := ReadGitLine(c)
	var out []int
	if g.Global.l != nil {
		for _, it := range g.Global.l.Items {
			if it.Opt != "" && g.Global.s.acted[it.Opt] {
				out = append(out, int(it.At))
			}
		}
	}
	if !ok || g.Line.l == nil {
		return out
	}
	off := len(c.Args) - len(g.Line.l.Cmd.Args)
	s := g.Line.s
	for _, it := range g.Line.l.Items {
		_, known := s.opts[it.Opt]
		switch {
		case it.Opt == "" && mayBeOption(g.Line.l.Val(it).Word):
			out = append(out, int(it.At)+off)
		case it.Opt != "" && (s.acted[it.Opt] || !known && s.obsolete == nil && unknownOpt(s, it.Opt)):
			out = append(out, int(it.At)+off)
		}
	}
	return out
}

// unknownOpt reports whether an option name as scanned is one the model
// does not have: a short letter it does not list, or a long name that is
// no prefix of its options. An ambiguous abbreviation is refused by the
// tool (and by a newer version, which has more options, as well).
func unknownOpt(s *Spec, name string) bool {
	if len(name) == 1 {
		return true
	}
	_, why := s.resolve(name)
	return why == "unknown"
}

// goCodeFlags are the go command's build flags that run a program or load
// code other than the packages named (go help build, go help test):
// -exec runs the test or program binary through a program, -toolexec and
// -vettool run programs, -overlay replaces source files, -ldflags,
// -gcflags, -asmflags and -gccgoflags reach the tools (-extld runs a
// linker), -compiler picks one, -modfile picks another go.mod, -C runs
// the command in another directory (another module's code).
var goCodeFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"C": true, "exec": true, "toolexec": true, "vettool": true, "overlay": true,
		"ldflags": true, "gcflags": true, "asmflags": true, "gccgoflags": true, "compiler": true, "modfile": true}
})

// goCodeWords reads go's flags (package flag: one or two dashes, `=value`
// or the next word, no clusters or abbreviations) after the subcommand, up
// to `-args` or `--`, which pass the rest to the test binary.
func goCodeWords(args []Word) []int {
	var out []int
	for i := 2; i < len(args); i++ {
		w := args[i]
		if mayBeOption(w) {
			out = append(out, i)
			continue
		}
		t := w.Text
		if t == "--" || t == "-args" || t == "--args" {
			break
		}
		if !strings.HasPrefix(t, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(t, "-"), "=")
		if goCodeFlags()[name] {
			out = append(out, i)
		}
	}
	return out
}

// sshHarmless are ssh_config(5) options that only tune the connection: a
// -o with any other name may run a program (ProxyCommand, LocalCommand,
// KnownHostsCommand, Match exec, PKCS11Provider, XAuthLocation ...).
var sshHarmless = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"connecttimeout": true, "connectionattempts": true, "batchmode": true,
		"serveraliveinterval": true, "serveralivecountmax": true, "loglevel": true, "port": true, "user": true,
		"compression": true, "stricthostkeychecking": true, "identitiesonly": true, "passwordauthentication": true,
		"pubkeyauthentication": true, "preferredauthentications": true, "tcpkeepalive": true, "addressfamily": true,
		"requesttty": true}
})

// sshWithArg are ssh(1)'s options that take an argument (OpenSSH 9.2,
// getopt "1246ab:c:e:fgi:kl:m:no:p:qstvxAB:CD:E:F:GI:J:KL:MNO:P:Q:R:S:TVw:W:XYy").
const sshWithArg = "bceilmopBDEFIJLOPQRSwW"

// sshCodeWords reads ssh's options before and after the destination (ssh
// parses options again after it) up to the remote command: -o with a name
// not in sshHarmless, -F (a config file, which can hold ProxyCommand), -E
// (writes a log file) and -I/-P (load a PKCS#11 library) count.
func sshCodeWords(args []Word) []int {
	var out []int
	hosts := 0
	for i := 1; i < len(args); i++ {
		w := args[i]
		if mayBeOption(w) {
			out = append(out, i)
			continue
		}
		t := w.Text
		if t == "--" {
			break
		}
		if len(t) < 2 || t[0] != '-' {
			hosts++
			if hosts > 1 {
				break // the remote command
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			l := t[j]
			if strings.IndexByte(sshWithArg, l) < 0 {
				continue
			}
			val, at := t[j+1:], i
			if val == "" && i+1 < len(args) {
				i++
				val, at = args[i].Text, i
			}
			switch l {
			case 'o':
				name, _, _ := strings.Cut(strings.TrimSpace(val), "=")
				name, _, _ = strings.Cut(name, " ")
				if !sshHarmless()[strings.ToLower(name)] || args[at].Dynamic {
					out = append(out, at)
				}
			case 'F', 'E', 'I':
				out = append(out, at)
			}
			break
		}
	}
	return out
}
