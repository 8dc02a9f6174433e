package cmdmodel

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The command model checked against the real binaries: the
// long options each GNU tool accepts, found through getopt_long's own
// messages, and the command each wrapper really runs, found through a stub
// program that records its argv.

// needBinary returns the path of a tool, or skips the subtest when it is
// not installed; under CI (CI=true, where .ci/run installs every tool)
// a missing tool fails instead.
func needBinary(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (.ci/run installs it)", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// run runs argv in dir with no input and the C locale, and returns its
// standard error and output together.
func run(t *testing.T, dir string, argv ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C", "POSIXLY_CORRECT=")
	// An empty pipe, not /dev/null: `tail --follow` with no file follows
	// a regular stdin until the timeout, and stops at a pipe's end.
	cmd.Stdin = strings.NewReader("")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run()
	return out.String()
}

var (
	ambiguousRe = regexp.MustCompile(`option '--[^']*' is ambiguous; possibilities:((?: '--[^']*')+)`)
	nameRe      = regexp.MustCompile(`option '--([^'=]+)'? (?:requires an argument|doesn't allow an argument)`)
	possRe      = regexp.MustCompile(`'--([^']*)'`)
)

// realLongOptions asks a getopt_long tool which long options it takes and
// their argument kinds. For each first letter, `--X` alone is refused as
// unrecognized (none), as ambiguous (glibc lists every candidate that is
// not an alias of the first), or accepted (one option, named by the
// "requires"/"doesn't allow an argument" messages, or found by extending
// the prefix one letter at a time). A name's kind: `--NAME` last on the
// line "requires an argument" (required), `--NAME=x` "doesn't allow an
// argument" (none), neither (optional).
func realLongOptions(t *testing.T, dir string, argv []string) map[string]optKind {
	probe := func(arg string) string { return run(t, dir, append(slices.Clone(argv), arg)...) }
	refused := func(out string) bool {
		return strings.Contains(out, "unrecognized option") || strings.Contains(out, "is ambiguous") ||
			strings.Contains(out, "invalid option")
	}
	names := map[string]bool{}
	for c := 'a'; c <= 'z'; c++ {
		p := string(c)
		out := probe("--" + p)
		switch {
		case strings.Contains(out, "unrecognized option") || strings.Contains(out, "invalid option"):
			continue
		case ambiguousRe.MatchString(out):
			for _, m := range possRe.FindAllStringSubmatch(ambiguousRe.FindStringSubmatch(out)[1], -1) {
				names[m[1]] = true
			}
			continue
		}
		if m := nameRe.FindStringSubmatch(out); m != nil {
			names[m[1]] = true
			continue
		}
		if m := nameRe.FindStringSubmatch(probe("--" + p + "=x")); m != nil {
			names[m[1]] = true
			continue
		}
		for len(p) < 40 {
			next := ""
			for _, d := range "abcdefghijklmnopqrstuvwxyz0123456789-" {
				if !refused(probe("--" + p + string(d))) {
					next = string(d)
					break
				}
			}
			if next == "" {
				break
			}
			p += next
		}
		names[p] = true
	}
	kinds := map[string]optKind{}
	for n := range names {
		switch {
		case strings.Contains(probe("--"+n), "requires an argument"):
			kinds[n] = plain
		case strings.Contains(probe("--"+n+"=x"), "allow an argument"):
			kinds[n] = flag
		default:
			kinds[n] = optional
		}
	}
	return kinds
}

// kindClass is how getopt sees an option kind: none, required, optional.
func kindClass(k optKind) string {
	switch k {
	case flag:
		return "none"
	case optional:
		return "optional"
	}
	return "required"
}

// modelledTools are the commands whose model is checked against the real
// binary: name in the model, wrapper or not, and argv to probe.
var modelledTools = []struct {
	name    string
	wrapper bool
	argv    []string
}{
	// GNU coreutils.
	{name: "cat"}, {name: "head"}, {name: "tail"}, {name: "wc"}, {name: "nl"}, {name: "tac"},
	{name: "cut"}, {name: "paste"}, {name: "fold"}, {name: "fmt"}, {name: "expand"}, {name: "unexpand"},
	{name: "comm"}, {name: "join"}, {name: "sort"}, {name: "uniq"}, {name: "stat"}, {name: "du"},
	{name: "df"}, {name: "realpath"}, {name: "readlink"}, {name: "od"}, {name: "md5sum"},
	{name: "sha1sum"}, {name: "sha224sum"}, {name: "sha256sum"}, {name: "sha384sum"}, {name: "sha512sum"},
	{name: "b2sum"}, {name: "cksum"}, {name: "sum"}, {name: "base64"}, {name: "base32"}, {name: "basenc"},
	{name: "ls"}, {name: "dir"}, {name: "vdir"},
	{name: "rm"}, {name: "cp"}, {name: "mv"}, {name: "ln"}, {name: "install"}, {name: "chown"}, {name: "chgrp"},
	{name: "env", wrapper: true}, {name: "timeout", wrapper: true}, {name: "nice", wrapper: true},
	{name: "stdbuf", wrapper: true}, {name: "nohup", wrapper: true},
	// grep, sed, diffutils, binutils, file, util-linux, findutils, GNU time, sudo, procps.
	{name: "grep"}, {name: "sed"}, {name: "diff"}, {name: "cmp"}, {name: "strings"}, {name: "file"},
	{name: "column"}, {name: "hexdump"}, {name: "rev"},
	{name: "setsid", wrapper: true}, {name: "ionice", wrapper: true}, {name: "xargs", wrapper: true},
	{name: "time", wrapper: true, argv: []string{"/usr/bin/time"}}, {name: "sudo", wrapper: true},
	{name: "watch", wrapper: true},
	// The danger layer's and the link check's commands: coreutils chmod
	// and tee, util-linux's partitioners and wipers, GNU parted, tar, cpio.
	{name: "chmod"}, {name: "tee"}, {name: "fdisk"}, {name: "sfdisk"}, {name: "cfdisk"}, {name: "parted"},
	{name: "wipefs"}, {name: "blkdiscard"}, {name: "tar"}, {name: "cpio"},
}

// TestRealTools checks the command model against the real tools: (a) the
// long options each modelled getopt_long tool accepts, with their argument
// kinds; (b) the command each wrapper runs, for generated option
// combinations in front of a stub that records its argv.
func TestRealTools(t *testing.T) {
	for _, tt := range modelledTools {
		t.Run(tt.name, func(t *testing.T) {
			argv := tt.argv
			if argv == nil {
				argv = []string{needBinary(t, tt.name)}
			} else if _, err := os.Stat(argv[0]); err != nil {
				needBinary(t, "missing-"+tt.name)
			}
			s, ok := LookupSpec(tt.name, tt.wrapper)
			if !ok || !s.complete {
				t.Fatalf("%s is not modelled complete", tt.name)
			}
			real := realLongOptions(t, t.TempDir(), argv)
			if len(real) == 0 {
				t.Fatalf("%s: no long option found; the probe does not work here", tt.name)
			}
			for name, k := range real {
				mk, ok := s.opts[name]
				if !ok || len(name) < 2 {
					t.Errorf("%s --%s (argument %s) is not in the model", tt.name, name, kindClass(k))
					continue
				}
				if lk, loose := s.model[name]; loose {
					mk = lk
				}
				if kindClass(mk) != kindClass(k) {
					t.Errorf("%s --%s: the model says argument %s, the tool %s", tt.name, name, kindClass(mk), kindClass(k))
				}
			}
			// Every long option of the model is accepted by the tool
			// (aliases hide from the ambiguity message).
			for _, n := range s.longs {
				if _, ok := real[n]; ok || containsField(s.elsewhere, n) {
					continue
				}
				out := run(t, t.TempDir(), append(slices.Clone(argv), "--"+n+"=x")...)
				if strings.Contains(out, "unrecognized option") || strings.Contains(out, "is ambiguous") {
					t.Errorf("%s: the model has --%s, the tool refuses it: %s", tt.name, n, firstLine(out))
				}
			}
		})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestRealToolsExact checks the tools whose own parsers take long options
// only spelled whole (jq, ripgrep, tree, busybox): every long option the
// model lists is accepted by the real binary, and one that is not an
// option is refused (so the check can fail).
func TestRealToolsExact(t *testing.T) {
	for _, tt := range []struct {
		name    string
		refused string   // the tool's message for an unknown option
		tail    []string // words after the option that make a harmless run
	}{
		{name: "jq", refused: "Unknown option", tail: []string{"-n", "."}},
		{name: "rg", refused: "wasn't expected", tail: []string{"--", "x", "/dev/null"}},
		{name: "tree", refused: "Invalid argument", tail: []string{"-L", "1", "."}},
		{name: "busybox", refused: "applet not found", tail: nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin := needBinary(t, tt.name)
			s, ok := LookupSpec(tt.name, tt.name == "busybox")
			if !ok || !s.complete || !s.exact {
				t.Fatalf("%s is not modelled complete with whole long options", tt.name)
			}
			dir := t.TempDir()
			if out := run(t, dir, append([]string{bin, "--no-such-option-x"}, tt.tail...)...); !strings.Contains(out, tt.refused) {
				t.Fatalf("%s does not refuse an unknown option with %q: %s", tt.name, tt.refused, firstLine(out))
			}
			for _, n := range s.longs {
				if tt.name == "busybox" && n == "install" || containsField(s.elsewhere, n) {
					continue // busybox --install writes links; another version's option
				}
				argv := []string{bin, "--" + n}
				switch s.opts[n] {
				case plain, readArg, writeArg:
					argv = append(argv, "1")
				case pair, pairRead:
					argv = append(argv, "a", "/dev/null")
				}
				out := run(t, dir, append(argv, tt.tail...)...)
				if strings.Contains(out, tt.refused) {
					t.Errorf("%s: the model has --%s, the tool refuses it: %s", tt.name, n, firstLine(out))
				}
			}
		})
	}
}

var (
	// poptUsageRe matches one option of a popt `--usage` list:
	// `[-c|--cipher=STRING]`, `[--debug]`, `[-?|--help]`.
	poptUsageRe = regexp.MustCompile(`\[(?:-(\S)\|)?--([A-Za-z0-9][-A-Za-z0-9_]*)(=?)`)
	// shortUsageRe matches a getopt synopsis' short options: a cluster
	// of flags `[-svwnfBX]` or one option with its argument `[-b size]`.
	shortUsageRe = regexp.MustCompile(`\[-([A-Za-z0-9?]+)(?: ([^\]\[-][^\]]*))?\]`)
)

// helpOptions reads a tool's own list of its options: from popt's
// `--usage`, from rsync's `--help` (`--block-size=SIZE, -B`), or from a
// getopt synopsis. Each name maps to its argument kind (plain or flag).
func helpOptions(format, text string) map[string]optKind {
	out := map[string]optKind{}
	set := func(n string, arg bool) {
		if arg {
			out[n] = plain
		} else if _, ok := out[n]; !ok {
			out[n] = flag
		}
	}
	switch format {
	case "popt":
		for _, m := range poptUsageRe.FindAllStringSubmatch(text, -1) {
			set(m[2], m[3] == "=")
			if m[1] != "" {
				set(m[1], m[3] == "=")
			}
		}
		for _, m := range shortUsageRe.FindAllStringSubmatch(text, -1) {
			if m[2] == "" && !strings.Contains(m[0], "|") {
				for _, l := range m[1] {
					set(string(l), false)
				}
			}
		}
	case "rsync":
		_, opts, _ := strings.Cut(text, "\nOptions\n")
		for _, line := range strings.Split(opts, "\n") {
			head, _, _ := strings.Cut(line, "  ")
			if !strings.HasPrefix(head, "-") || strings.Contains(head, "OPTION") {
				continue
			}
			names := strings.Split(head, ", ")
			arg := strings.Contains(head, "=")
			for _, n := range names {
				n, _, _ = strings.Cut(strings.TrimLeft(n, "-"), "=")
				n = strings.TrimSuffix(n, " (*)")
				set(n, arg)
			}
		}
	case "synopsis":
		for _, m := range shortUsageRe.FindAllStringSubmatch(text, -1) {
			if m[2] != "" && len(m[1]) == 1 {
				set(m[1], true)
				continue
			}
			for _, l := range m[1] {
				set(string(l), false)
			}
		}
	}
	return out
}

// TestRealToolsHelp checks the commands whose parsers list every option
// in their own help (popt's --usage, rsync --help, a getopt synopsis):
// every option listed there is in the model with the same argument kind.
func TestRealToolsHelp(t *testing.T) {
	for _, tt := range []struct {
		name, format string
		argv         []string
		drop         string // names the help lists that are not options (rsync's `-h` on its own)
	}{
		{name: "rsync", format: "rsync", argv: []string{"--help"}, drop: "h"},
		{name: "sgdisk", format: "popt", argv: []string{"--usage"}},
		{name: "cryptsetup", format: "popt", argv: []string{"--usage"}},
		{name: "badblocks", format: "synopsis"},
		{name: "pax", format: "synopsis", argv: []string{"-Q"}},
		{name: "gdisk", format: "synopsis", argv: []string{"x", "y"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin := needBinary(t, tt.name)
			s, ok := LookupSpec(tt.name, false)
			if !ok || !s.complete {
				t.Fatalf("%s is not modelled complete", tt.name)
			}
			listed := helpOptions(tt.format, run(t, t.TempDir(), append([]string{bin}, tt.argv...)...))
			if len(listed) < 3 && tt.name != "gdisk" || len(listed) == 0 {
				t.Fatalf("%s: only %d options found in its help; the reader does not work here", tt.name, len(listed))
			}
			for n, k := range listed {
				mk, ok := s.opts[n]
				switch {
				case !ok && n != tt.drop:
					t.Errorf("%s -%s (argument %s) is not in the model", tt.name, n, kindClass(k))
				case ok && n != tt.drop && kindClass(mk) != kindClass(k):
					t.Errorf("%s -%s: the model says argument %s, the help %s", tt.name, n, kindClass(mk), kindClass(k))
				}
			}
			t.Logf("%d options listed and checked", len(listed))
		})
	}
}

// git's options found from git itself: for a subcommand built
// on parse-options, `git SUB --git-completion-helper-all` lists every
// long option with its negations and `git SUB --help-all` every short
// one; for the subcommands whose options revision.c and diff.c read
// (log, show, diff, rev-list, shortlog), the names in the subcommand's
// man page and in those lists. Each name is then asked of git: one it
// refuses as unknown is dropped, and its argument kind is read from git's
// messages ("requires a value", "takes no value").

var (
	// gitHelpLineRe reads one option line of `git SUB --help-all`:
	// `-s, --short`, `--porcelain[=<version>]`, `-C, --context <n>`,
	// `-f <file>`, `-O, --open-files-in-pager[=<pager>]`.
	gitHelpLineRe = regexp.MustCompile(`^ {4}(?:-([^-\s,])(?:, )?)?(?:--(?:\[no-\])?([a-z0-9][-a-z0-9]*))?(\[=|\[<| <| \(|=)?`)
	// gitManOptRe finds option names in a man page's text.
	gitManOptRe = regexp.MustCompile(`(?:^|[^-\w])--([a-z0-9][-a-z0-9]*)`)
)

// gitRun runs git in dir with no input, no pager, no editor and no
// configuration but the repository's, and returns its output.
func gitRun(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_PAGER=cat", "PAGER=cat", "GIT_EDITOR=true",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0")
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// gitRefused reports git's messages for an option it does not know.
func gitRefused(out string) bool {
	return strings.Contains(out, "unrecognized argument") || strings.Contains(out, "invalid option") ||
		strings.Contains(out, "unknown option") || strings.Contains(out, "unknown switch") ||
		strings.Contains(out, "ambiguous option") || strings.HasPrefix(out, "usage: git rev-list")
}

// gitManOptions returns the long option names of git-NAME(1) (git(1)
// for ""), if the man page is installed; with optionsOnly, only those of
// its OPTIONS section.
func gitManOptions(name string, optionsOnly bool) []string {
	page := "git-" + name + ".1.gz"
	if name == "" {
		page = "git.1.gz"
	}
	f, err := os.Open(filepath.Join("/usr/share/man/man1", page))
	if err != nil {
		return nil
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil
	}
	b, _ := io.ReadAll(z)
	if optionsOnly {
		_, b1, _ := strings.Cut(string(b), ".SH \"OPTIONS\"")
		b1, _, _ = strings.Cut(b1, "\n.SH ")
		b = []byte(b1)
	}
	text := strings.NewReplacer(`\-`, "-", `\fB`, "", `\fR`, "", `\fI`, "", `\(em`, " ").Replace(string(b))
	var out []string
	for _, m := range gitManOptRe.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// realGitOptions returns the options git accepts after `git SUB...`
// (sub may be two words, `stash show`) by name (short letters and long
// names), with their argument kinds (flag, plain, optional). man names
// the man page whose options are candidates too ("" for none).
func realGitOptions(t *testing.T, dir string, sub []string, man string) map[string]optKind {
	cands := map[string]bool{}
	helper := gitRun(dir, append(slices.Clone(sub), "--git-completion-helper-all")...)
	for _, w := range strings.Fields(helper) {
		if n, ok := strings.CutPrefix(strings.TrimSuffix(w, "="), "--"); ok && n != "" && !strings.Contains(n, "=") {
			cands[n] = true
		}
	}
	shorts := map[string]bool{}
	// The kinds of the short options the help lists, by its line:
	// `-x, --long[=<v>]` as the long option, `-x <v>` required, `-x[<v>]`
	// optional, `-x` alone none.
	helpKinds := map[string]optKind{}
	helpLong := map[string]string{}
	for _, line := range strings.Split(gitRun(dir, append(slices.Clone(sub), "--help-all")...), "\n") {
		m := gitHelpLineRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if m[1] != "" {
			shorts[m[1]] = true
			switch {
			case m[2] != "":
				helpLong[m[1]] = m[2]
			case m[3] == " <" || m[3] == " (" || m[3] == "=":
				helpKinds[m[1]] = plain
			case m[3] == "[<" || m[3] == "[=":
				helpKinds[m[1]] = optional
			default:
				helpKinds[m[1]] = flag
			}
		}
		if m[2] != "" {
			cands[m[2]] = true
			if strings.HasPrefix(line, "    --[no-]") {
				cands["no-"+m[2]] = true
			}
		}
	}
	if man != "" {
		for _, n := range gitManOptions(man, false) {
			cands[n] = true
		}
		// Short options of revision.c and diff.c are not in any list:
		// every letter is asked.
		for c := 'a'; c <= 'z'; c++ {
			shorts[string(c)], shorts[strings.ToUpper(string(c))] = true, true
		}
	}
	type result struct {
		name string
		kind optKind
		ok   bool
	}
	probe := func(args ...string) string { return gitRun(dir, append(slices.Clone(sub), args...)...) }
	jobs := make(chan string)
	results := make(chan result)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range jobs {
				opt := "--" + n
				if len(n) == 1 {
					opt = "-" + n
				}
				alone := probe(opt)
				with := probe(opt + "=x")
				if len(n) > 1 && strings.Contains(with, "invalid argument to "+opt) {
					// The value was read (and refused as a value).
					results <- result{n, optional, true}
					continue
				}
				if gitRefused(alone) && !strings.Contains(alone, "requires a value") {
					if len(n) > 1 && strings.Contains(with, "takes no value") {
						results <- result{n, flag, true} // refused alone for another reason
					} else if len(n) > 1 && !gitRefused(with) {
						// `--format=x` only: an argument attached only.
						results <- result{n, optional, true}
					} else {
						results <- result{name: n}
					}
					continue
				}
				switch {
				case len(n) == 1 && man == "":
					results <- result{name: n, ok: true, kind: optKind(255)}
				case len(n) == 1:
					with = probe(opt + "x")
					switch {
					case strings.Contains(alone, "requires a value") || strings.Contains(alone, "requires an argument"):
						results <- result{n, plain, true}
					case gitRefused(with):
						results <- result{n, flag, true}
					default:
						results <- result{n, optional, true}
					}
				case strings.Contains(alone, "requires a value"):
					results <- result{n, plain, true}
				case strings.Contains(with, "takes no value") || gitRefused(with) || strings.Contains(with, "does not take"):
					results <- result{n, flag, true}
				default:
					results <- result{n, optional, true}
				}
			}
		}()
	}
	go func() {
		for n := range cands {
			jobs <- n
		}
		for n := range shorts {
			jobs <- n
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	out := map[string]optKind{}
	for r := range results {
		if r.ok {
			out[r.name] = r.kind
		}
	}
	for n, k := range out {
		if k != optKind(255) {
			continue
		}
		if l, ok := helpLong[n]; ok {
			out[n] = out[l]
		} else {
			out[n] = helpKinds[n]
		}
	}
	return out
}

// TestRealToolsGit checks git's model against the real git: every option
// git accepts after each modelled subcommand (realGitOptions) is in the
// model with the same argument kind; the global options git(1) lists are
// in the global model; git-rev-parse(1)'s options (rev-parse echoes an
// option it does not know, so its own page is the list) are in its model.
func TestRealToolsGit(t *testing.T) {
	needBinary(t, "git")
	dir := t.TempDir()
	gitRun(dir, "init", "-q")
	gitRun(dir, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "--allow-empty", "-m", "x")
	for _, tt := range []struct {
		sub  string // the words after git
		man  string // the man page whose names are candidates too
		skip string // names the probe misreads, with the reason in the comment
	}{
		{sub: "log", man: "log"}, {sub: "show", man: "show"}, {sub: "diff", man: "diff"},
		// rev-list needs a commit to parse its options at all.
		{sub: "rev-list HEAD", man: "rev-list"}, {sub: "shortlog", man: "shortlog"},
		{sub: "status"}, {sub: "ls-files"}, {sub: "ls-tree"}, {sub: "show-ref"}, {sub: "merge-base"},
		{sub: "describe"}, {sub: "blame"}, {sub: "version"}, {sub: "grep"}, {sub: "cat-file"},
		{sub: "branch"}, {sub: "tag"}, {sub: "remote"}, {sub: "remote get-url"}, {sub: "worktree list"},
		{sub: "stash show"},
		{sub: "config"}, {sub: "for-each-ref"}, {sub: "check-attr"},
		// The subcommands rules name.
		{sub: "reset"}, {sub: "commit"}, {sub: "notes add"}, {sub: "notes append"}, {sub: "fetch"}, {sub: "pull"},
		{sub: "push"},
		// The forms that throw work away (DestroysProjectWork).
		{sub: "checkout"}, {sub: "switch"}, {sub: "rm"}, {sub: "gc"}, {sub: "read-tree"}, {sub: "checkout-index"},
	} {
		t.Run(tt.sub, func(t *testing.T) {
			name := strings.TrimSuffix(tt.sub, " HEAD")
			s, ok := gitSubSpec(name)
			if !ok || !s.complete {
				t.Fatalf("git %s is not modelled complete", name)
			}
			if tt.man != "" && len(gitManOptions(tt.man, false)) == 0 {
				if os.Getenv("CI") == "true" {
					t.Fatalf("git-%s(1) is not installed (git-man): its options would go unchecked", tt.man)
				}
				t.Logf("git-%s(1) is not installed: only the completion helper's options are checked", tt.man)
			}
			real := realGitOptions(t, dir, strings.Fields(tt.sub), tt.man)
			if len(real) == 0 {
				t.Fatalf("git %s: %d options found; the probe does not work here", name, len(real))
			}
			for n, k := range real {
				mk, ok := s.opts[n]
				switch {
				case !ok:
					t.Errorf("git %s %s (argument %s) is not in the model", name, dash(n), kindClass(k))
				case kindClass(mk) != kindClass(k):
					t.Errorf("git %s %s: the model says argument %s, git %s", name, dash(n), kindClass(mk), kindClass(k))
				}
			}
			// Abbreviations: a subcommand modelled exact refuses a unique
			// prefix of a long option (`git log --out=x`), the others take
			// it of their own options (parse-options: those the completion
			// helper lists; shortlog passes the rest to revision.c whole).
			own := strings.Fields(gitRun(dir, append(strings.Fields(tt.sub), "--git-completion-helper-all")...))
			for _, n := range s.longs {
				if !s.exact && !slices.Contains(own, "--"+n) {
					continue
				}
				p := n[:len(n)-1]
				if len(n) < 6 || s.opts[n] != flag || strings.HasPrefix(n, "no-") || n == "help" {
					continue
				}
				if r, why := s.resolve(p); why != "" || r != n {
					continue
				}
				out := gitRun(dir, append(strings.Fields(tt.sub), "--"+p)...)
				if gitRefused(out) != s.exact {
					t.Errorf("git %s --%s: the model reads abbreviations %v, git: %s", name, p, !s.exact, firstLine(out))
				}
				break
			}
			t.Logf("%d options asked of git and checked", len(real))
		})
	}
	t.Run("global", func(t *testing.T) {
		s := &gitGlobalSpec
		gitGlobalOnce.Do(s.init)
		listed := 0
		for _, n := range gitManOptions("", true) {
			listed++
			if strings.Contains(gitRun(dir, "--"+n, "version"), "unknown option") &&
				strings.Contains(gitRun(dir, "--"+n+"=x", "version"), "unknown option") {
				continue // a name in the text that is no option of git's
			}
			if _, ok := s.opts[n]; !ok {
				t.Errorf("git --%s (git(1)) is not in the model", n)
			}
		}
		if listed == 0 && os.Getenv("CI") == "true" {
			t.Fatal("git(1) is not installed (git-man)")
		}
		// git.c refuses what it does not know, and takes what the model lists.
		if out := gitRun(dir, "--no-such-option", "status"); !strings.Contains(out, "unknown option") {
			t.Fatalf("git does not refuse an unknown global option: %s", firstLine(out))
		}
		for _, n := range s.longs {
			if containsField(s.elsewhere, n) || containsField("help version html-path man-path info-path exec-path list-cmds", n) {
				continue
			}
			arg := []string{"--" + n}
			if s.opts[n] == plain {
				arg = append(arg, ".")
			}
			if n == "c" || n == "config-env" {
				continue
			}
			if out := gitRun(dir, append(arg, "version")...); strings.Contains(out, "unknown option") {
				t.Errorf("the model has git --%s, git refuses it: %s", n, firstLine(out))
			}
		}
	})
	t.Run("rev-parse", func(t *testing.T) {
		s, _ := gitSubSpec("rev-parse")
		names := gitManOptions("rev-parse", true)
		if len(names) == 0 {
			if os.Getenv("CI") == "true" {
				t.Fatal("git-rev-parse(1) is not installed (git-man)")
			}
			t.Skip("git-rev-parse(1) is not installed")
		}
		for _, n := range names {
			if _, ok := s.opts[n]; !ok {
				t.Errorf("git rev-parse --%s (git-rev-parse(1)) is not in the model", n)
			}
		}
	})
}

func dash(n string) string {
	if len(n) == 1 {
		return "-" + n
	}
	return "--" + n
}

// TestFindSplitRealFind checks FindSplit against GNU find: in an empty
// directory, find names each start point it cannot find ("find: 'X': No
// such file or directory") and ends the expression with -maxdepth 0,
// so the words it reports are its start points.
func TestFindSplitRealFind(t *testing.T) {
	find := needBinary(t, "find")
	dir := t.TempDir()
	missing := regexp.MustCompile(`(?m)^\S*find: '(.*)': No such file or directory$`)
	for _, words := range [][]string{
		{"a", "b"}, {",", "b"}, {"a", ",", "b"}, {")", "a"}, {"-", "a"}, {"(x", "!x"},
		{"-P", "a"}, {"-L", "--", "a"}, {"--", ","}, {"-D", "stat", "a"}, {"-O1", ",", "a"},
	} {
		out := run(t, dir, append(append([]string{find}, words...), "-maxdepth", "0")...)
		var real []string
		for _, m := range missing.FindAllStringSubmatch(out, -1) {
			real = append(real, m[1])
		}
		args := append(slices.Clone(words), "-maxdepth", "0")
		start, expr := FindSplit(args, func(s string) string { return s })
		if got := args[start:expr]; !slices.Equal(got, real) {
			t.Errorf("find %q: FindSplit's start points %q, find's %q (output %q)", words, got, real, out)
		}
	}
}

// TestVersionOnlyRealTools runs each program of versionOptions that is
// installed with each of its version options, in a directory whose
// Makefile, package.json and standard input would print a marker if the
// program ran any of them: the output must not hold it.
func TestVersionOnlyRealTools(t *testing.T) {
	dir := t.TempDir()
	const mark = "RAN-PROJECT-CODE"
	files := map[string]string{
		"Makefile":     "all:\n\t@echo " + mark + "\n",
		"package.json": `{"name":"x","version":"1.0.0","scripts":{"prepare":"echo ` + mark + `"}}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdin := `print("` + mark + `"); console.log("` + mark + `")` + "\n"
	for name, opts := range versionOptions {
		bin, err := exec.LookPath(name)
		if err != nil {
			t.Logf("%s is not installed", name)
			continue
		}
		for _, opt := range opts {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			cmd := exec.CommandContext(ctx, bin, opt)
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(stdin)
			out, _ := cmd.CombinedOutput()
			cancel()
			if strings.Contains(string(out), mark) {
				t.Errorf("%s %s ran project code or its input: %q", name, opt, out)
			}
			if !VersionOnly(&Command{Args: []Word{{Text: name}, {Text: opt}}}) {
				t.Errorf("VersionOnly(%s %s) = false", name, opt)
			}
		}
	}
}

// TestRealEnvSplit checks EnvSplit against the real GNU env: each string
// is given to `env -S 'STUB STRING'`, where STUB prints the words it got
// separated by NULs, and the words (or env's refusal) must be what
// envSplit reads. The strings are every pair of a set of fragments that
// exercise quotes, escapes, comments, separators and ${NAME}.
func TestRealEnvSplit(t *testing.T) {
	t.Parallel()
	env := needBinary(t, "env")
	if out, _ := exec.Command(env, "--version").Output(); !strings.Contains(string(out), "GNU coreutils") {
		if os.Getenv("CI") == "true" {
			t.Fatal("env is not GNU env; CI installs coreutils")
		}
		t.Skip("env is not GNU env")
	}
	stub := filepath.Join(t.TempDir(), "stub")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\nfor a; do printf '%s\\0' \"$a\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	frags := []string{
		"a", "b c", "'x y'", `"x y"`, `a\_b`, `"a\_b"`, `'a\_b'`, `\c`, `"\c"`, `#c`, `a#b`, `'#'`, `''#x`,
		`${HOME}`, `"${HOME}"`, `'${HOME}'`, `${FOO}x`, `${1X}`, `$HOME`, `\$HOME`, `\#`, `"\t"`, `'\t'`,
		`\n`, `\q`, `'\''`, `'\\'`, `"\""`, `"it's"`, `'`, `"`, `\`, "\tq\v", `''`, `""`, `-i`, `A=1`,
		`${}`, `${FOO`, `x\_\_y`, `"'"`, `\'`,
	}
	resolve := func(name string) (string, bool) {
		switch name {
		case "HOME":
			return "/h", true
		case "FOO":
			return "bar", true
		}
		return "", true // unset: env substitutes nothing
	}
	n := 0
	for _, a := range frags {
		for _, b := range frags {
			s := a + " " + b
			n++
			cmd := exec.Command(env, "-S", stub+" "+s)
			cmd.Env = []string{"HOME=/h", "FOO=bar", "PATH=/usr/bin:/bin"}
			var out, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &stderr
			runErr := cmd.Run()
			words, err := EnvSplit(stub+" "+s, resolve)
			if runErr != nil {
				if !errors.Is(err, ErrEnvSplit) {
					t.Errorf("env -S %q: env refused it (%s), EnvSplit read %+v", s, strings.TrimSpace(stderr.String()), words)
				}
				continue
			}
			if err != nil {
				t.Errorf("env -S %q: env ran it, EnvSplit refused it", s)
				continue
			}
			got := []string{}
			for _, w := range words[1:] {
				got = append(got, w.Text)
			}
			want := []string{}
			if out.Len() > 0 {
				want = strings.Split(strings.TrimSuffix(out.String(), "\x00"), "\x00")
			}
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
				t.Errorf("env -S %q: env ran %q, envSplit read %q", s, want, got)
			}
		}
	}
	t.Logf("%d strings compared with %s", n, env)
}

// TestEnvSplitDynamic: a variable whose value is not known leaves its
// word dynamic, spelled as written.
func TestEnvSplitDynamic(t *testing.T) {
	words, err := EnvSplit(`rm -rf ${X}/y "a${X}"`, func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	want := []Word{{Text: "rm"}, {Text: "-rf"}, {Text: "${X}/y", Dynamic: true}, {Text: "a${X}", Dynamic: true}}
	if len(words) != len(want) {
		t.Fatalf("got %+v", words)
	}
	for i := range want {
		if words[i] != want[i] {
			t.Errorf("word %d: got %+v, want %+v", i, words[i], want[i])
		}
	}
}

func TestEnvSplitLetters(t *testing.T) {
	for opt, want := range map[string]string{"-S": "", "-iS": "-i", "-iuSx": "-iu", "-Sx": "", "--split-string": ""} {
		if got := EnvSplitLetters(opt); got != want {
			t.Errorf("EnvSplitLetters(%q) = %q, want %q", opt, got, want)
		}
	}
}
