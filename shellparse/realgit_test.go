package shellparse

import (
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// git's options found from git itself (issue 10): for a subcommand built
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
		// The subcommands rules name (issue 17).
		{sub: "reset"}, {sub: "commit"}, {sub: "notes add"}, {sub: "notes append"}, {sub: "fetch"}, {sub: "pull"},
		{sub: "push"},
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
