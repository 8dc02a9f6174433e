//go:build unix

package shellparse

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestDifferentialBash checks the parser against the real bash. It generates
// scripts that place marker commands (`touch MARKER_n`) in random shell
// contexts — lists, pipelines, subshells, groups, command and process
// substitutions, backquotes at several depths, coproc, functions, control
// flow, here-documents, here-strings, eval, bash -c, traps, line
// continuations — runs each with bash in a scratch directory, and fails when
// bash ran a marker command that Parse did not report as a command `touch
// MARKER_n`. A script Parse refuses (parse.error ...) is never allowed, so it
// cannot miss anything.
//
// It is seeded and bounded: GATEKEEP_DIFF_SEED (default 18) picks the
// scripts, GATEKEEP_DIFF_SCRIPTS (default 3000) how many, and
// GATEKEEP_DIFF_DURATION (default 25s; "10m" for a long run) stops it early.
// The counts are logged (go test -v).
func TestDifferentialBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("bash is needed for the differential test and is missing")
		}
		t.Skip("no bash")
	}
	seed := envInt(t, "GATEKEEP_DIFF_SEED", 18)
	limit := envInt(t, "GATEKEEP_DIFF_SCRIPTS", 3000)
	budget := 25 * time.Second
	if v := os.Getenv("GATEKEEP_DIFF_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("GATEKEEP_DIFF_DURATION: %v", err)
		}
		budget = d
		if os.Getenv("GATEKEEP_DIFF_SCRIPTS") == "" {
			limit = 1 << 40
		}
	}
	if testing.Short() {
		budget = min(budget, 3*time.Second)
	}
	scratch := t.TempDir()
	deadline := time.Now().Add(budget)

	var (
		next                               atomic.Int64
		scripts, refused, markers, covered atomic.Int64
		opaqueN                            atomic.Int64
		mu                                 sync.Mutex
		misses                             []string
	)
	workers := max(1, min(runtime.GOMAXPROCS(0), 4))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				i := next.Add(1) - 1
				if i >= int64(limit) {
					return
				}
				g := &scriptGen{r: rand.New(rand.NewPCG(uint64(seed), uint64(i)))}
				src := g.script()
				dir := filepath.Join(scratch, strconv.FormatInt(i, 10))
				ran, err := runBash(bash, dir, src)
				if err != nil {
					mu.Lock()
					misses = append(misses, fmt.Sprintf("script %d: running bash: %v", i, err))
					mu.Unlock()
					return
				}
				scripts.Add(1)
				markers.Add(int64(len(ran)))
				s, perr := Parse(src, Options{})
				if perr != nil {
					refused.Add(1)
					continue
				}
				for _, m := range ran {
					if reports(s, m) {
						covered.Add(1)
						continue
					}
					if opaque(s, m) {
						opaqueN.Add(1)
						continue
					}
					mu.Lock()
					misses = append(misses, fmt.Sprintf("script %d (seed %d): bash ran `touch %s`, the parse did not report it:\n%s\nparse: %q", i, seed, m, src, argvs(s)))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("seed %d: %d scripts, %d refused by the parser, %d markers run by bash, %d reported as commands, %d inside code reported as only known at run time, %d misses",
		seed, scripts.Load(), refused.Load(), markers.Load(), covered.Load(), opaqueN.Load(), len(misses))
	if scripts.Load() == 0 {
		t.Fatal("no script ran")
	}
	if markers.Load() == 0 {
		t.Fatal("bash ran no marker: the generator or the harness is broken")
	}
	for i, m := range misses {
		if i == 20 {
			t.Errorf("... and %d more", len(misses)-20)
			break
		}
		t.Error(m)
	}
}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// reports: the parse holds the simple command `touch MARKER`, the marker
// word literal, or dynamic with the marker in its text ("MARKER_1" followed
// by an empty backquote substitution, which bash expands to nothing).
func reports(s *Script, marker string) bool {
	for _, c := range s.Commands {
		if len(c.Args) < 2 || c.Args[0].Dynamic || c.Args[0].Text != "touch" {
			continue
		}
		for _, w := range c.Args[1:] {
			if w.Text == marker || w.Dynamic && holdsMarker(w.Text, marker) {
				return true
			}
		}
	}
	return false
}

// opaque: the marker is in the text of code the parse reports as only known
// at run time (Unknown, or a program read from stdin) — `. /dev/stdin <<<
// 'touch MARKER_1'` followed by an empty substitution makes the here-string
// dynamic. Such a command is never allowed by the safe layer or a rule.
func opaque(s *Script, marker string) bool {
	for _, c := range s.Commands {
		if c.Unknown == "" && !c.StdinCode {
			continue
		}
		for _, w := range c.Args {
			if holdsMarker(w.Text, marker) {
				return true
			}
		}
		for _, r := range c.Redirects {
			if holdsMarker(r.Target.Text, marker) {
				return true
			}
		}
	}
	return false
}

// holdsMarker: text holds marker, not as the start of a longer number.
func holdsMarker(text, marker string) bool {
	for {
		i := strings.Index(text, marker)
		if i < 0 {
			return false
		}
		text = text[i+len(marker):]
		if text == "" || text[0] < '0' || text[0] > '9' {
			return true
		}
	}
}

// runBash runs src with bash in a fresh directory dir, with stdin from
// /dev/null, a minimal environment and a time limit, and returns the markers
// it created. The whole process group is killed at the end, so a
// background job or coprocess cannot outlive it.
func runBash(bash, dir, src string) ([]string, error) {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", src)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LC_ALL=C"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	_ = cmd.Run() // scripts may fail; what matters is what they ran
	if cmd.Process != nil {
		// Every script ends in `wait`; end whatever is left.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ran []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "MARKER_") {
			ran = append(ran, e.Name())
		}
	}
	return ran, nil
}

// scriptGen builds one random script.
type scriptGen struct {
	r *rand.Rand
	n int // markers placed so far
}

func (g *scriptGen) script() string {
	k := 1 + g.r.IntN(3)
	parts := make([]string, k)
	for i := range parts {
		parts[i] = g.cmd(0)
	}
	sep := []string{"; ", "\n", " && ", " || ", " & "}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString(sep[g.r.IntN(len(sep))])
		}
		b.WriteString(p)
	}
	b.WriteString("\nwait\n")
	return b.String()
}

// marker is a fresh marker command, sometimes with a line continuation or
// quoting that the shell removes.
func (g *scriptGen) marker() string {
	g.n++
	m := fmt.Sprintf("MARKER_%d", g.n)
	switch g.r.IntN(8) {
	case 0:
		return "tou\\\nch " + m
	case 1:
		return "touch \\\n" + m
	case 2:
		return "'touch' \"" + m + "\""
	case 3:
		return "t\\ouch " + m
	}
	return "touch " + m
}

// cmd is a command holding at least one marker, nested up to a few levels.
func (g *scriptGen) cmd(depth int) string {
	if depth >= 4 || g.r.IntN(4) == 0 {
		return g.marker()
	}
	c := g.cmd(depth + 1)
	switch g.r.IntN(56) {
	case 0:
		return c + "; true"
	case 1:
		return "true; " + c
	case 2:
		return "false || " + c
	case 3:
		return "true && " + c
	case 4:
		return "true | " + c
	case 5:
		return c + " | cat"
	case 6:
		return "( " + c + " )"
	case 7:
		return "{ " + c + "; }"
	case 8:
		return ": $(" + c + ")"
	case 9:
		return "echo \"$(" + c + ")\" >/dev/null"
	case 10:
		return "x=$(" + c + ")"
	case 11:
		return ": ${u:-$(" + c + ")}"
	case 12:
		return ": `" + backquoted(c) + "`"
	case 13:
		return "echo \"`" + backquoted(c) + "`\" >/dev/null"
	case 14:
		return "cat <(" + c + ") >/dev/null"
	case 15:
		return "coproc " + c + "\nwait"
	case 16:
		return "coproc { " + c + "; }\nwait"
	case 17:
		return "coproc CO { " + c + "; }\nwait"
	case 18:
		name := fmt.Sprintf("f%d", g.r.IntN(100))
		return name + "() { " + c + "; }; " + name
	case 19:
		return "function g" + strconv.Itoa(g.r.IntN(100)) + " { " + c + "; }; g" + strconv.Itoa(g.r.IntN(100))
	case 20:
		return "cat <<EOF >/dev/null\n$(" + c + ")\nEOF\n"
	case 21:
		return "bash <<EOF\n" + c + "\nEOF\n"
	case 22:
		return "bash <<'EOF'\n" + c + "\nEOF\n"
	case 23:
		return "eval " + singleQuoted(c)
	case 24:
		return "eval " + doubleQuoted(c)
	case 25:
		return "bash -c " + singleQuoted(c)
	case 26:
		return "sh -c " + doubleQuoted(c)
	case 27:
		return "bash <<< " + singleQuoted(c)
	case 28:
		return "cat <<< \"$(" + c + ")\" >/dev/null"
	case 29:
		return "if true; then " + c + "; fi"
	case 30:
		return "if " + c + "; then :; fi"
	case 31:
		return "for i in 1; do " + c + "; done"
	case 32:
		return "while true; do " + c + "; break; done"
	case 33:
		return "case x in x) " + c + ";; esac"
	case 34:
		return "! " + c
	case 35:
		return "time " + c
	case 36:
		return "trap " + singleQuoted(c) + " EXIT"
	case 37:
		return "a=( $(" + c + ") )"
	case 38:
		return "[[ -z $(" + c + ") ]]"
	case 39:
		return "declare d=$(" + c + ")"
	case 40:
		return "for i in $(" + c + "); do :; done"
	case 41:
		return c + " # a comment"
	case 42:
		return "echo x | bash -c " + singleQuoted(c)
	case 43:
		// Backquotes without the escaping bash needs: whatever bash makes
		// of it, the parse must agree.
		return ": `" + c + "`"
	case 44:
		return "cat <<EOF >/dev/null\n`" + backquoted(c) + "`\nEOF\n"
	case 45:
		return c + " &"
	case 46:
		return "echo " + singleQuoted(c) + " | bash"
	case 47:
		return ". /dev/stdin <<< " + singleQuoted(c)
	case 48:
		return "cat > /dev/null < <(" + c + ")"
	case 49:
		return "eval $'" + strings.ReplaceAll(strings.ReplaceAll(c, `\`, `\\`), "'", `\'`) + "'"
	case 50:
		return "command eval " + singleQuoted(c)
	case 51:
		return "x=1; : $(( x + $(" + c + "; echo 1) ))"
	case 52:
		return "cat <<-EOF >/dev/null\n\t$(" + c + ")\n\tEOF\n"
	case 53:
		return "{ " + c + "; } 2>/dev/null"
	case 54:
		return "exec 3>&1; " + c
	case 55:
		return "printf '%s\\n' " + singleQuoted(c) + " | sh"
	}
	return c
}

// backquoted escapes text for use inside backquotes: bash removes a
// backslash before `\`, “ ` “ and `$` there.
func backquoted(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return strings.ReplaceAll(s, "`", "\\`")
}

func singleQuoted(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func doubleQuoted(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`")
	return `"` + r.Replace(s) + `"`
}

// TestDifferentialReports: the harness's own judgement, on a script the
// long run flagged: bash runs `touch "MARKER_1"` followed by an empty
// backquote substitution, which the parse reports as a dynamic word.
func TestDifferentialReports(t *testing.T) {
	s, err := Parse("{ : `: `true && 'touch' \"MARKER_1\"``; }\nif true; then true | touch MARKER_2; fi\nwait\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for m, want := range map[string]bool{"MARKER_1": true, "MARKER_2": true, "MARKER_3": false} {
		if got := reports(s, m); got != want {
			t.Errorf("reports(%s) = %v, want %v", m, got, want)
		}
	}
	s, _ = Parse("touch MARKER_12$x", Options{})
	if reports(s, "MARKER_1") {
		t.Error("MARKER_12 counted as MARKER_1")
	}
	s, err = Parse(": `: `exec 3>&1; . /dev/stdin <<< 'touch MARKER_1'``\nwait\n", Options{})
	if err != nil || reports(s, "MARKER_1") || !opaque(s, "MARKER_1") || opaque(s, "MARKER_2") {
		t.Errorf("a marker in code only known at run time: %v, %q", err, argvs(s))
	}
}
