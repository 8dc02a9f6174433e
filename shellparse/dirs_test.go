package shellparse

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestDirsAsBashMoves: where each command may run, as bash moves the
// shell: a cd moves the shell only when it succeeds, and only in
// the shell it runs in. Each row names the command (by its text) whose
// directories are checked; "?" stands for somewhere unknown.
func TestDirsAsBashMoves(t *testing.T) {
	tests := []struct {
		src, cmd string
		want     string // directories, sorted, space-separated, "." for the start, "!" where cd -P resolved links; "?" somewhere unknown
	}{
		{"cd X && cat a", "cat a", "X"},
		{"cd X; cat a", "cat a", ". X"},
		{"cd X || exit; cat a", "cat a", "X"},
		{"cd X || exit 1\ncat a", "cat a", "X"},
		{"cd X || { echo no; exit 1; }; cat a", "cat a", "X"},
		{"if ! cd X; then exit 1; fi; cat a", "cat a", "X"},
		{"if cd X; then cat a; fi; cat b", "cat b", ". X"},
		{"if cd X; then cat a; fi", "cat a", "X"},
		{"if cd X; then :; else cat a; fi", "cat a", "."},
		{"false && cd X; cat a", "cat a", ". X"},
		{"true || cd X; cat a", "cat a", ". X"},
		{"cd X & cat a", "cat a", "."},
		{"(cd X); cat a", "cat a", "."},
		{"(cd X && cat a)", "cat a", "X"},
		{"cd X | cat a; cat b", "cat b", "."},
		{"echo $(cd X); cat a", "cat a", "."},
		{"bash -c 'cd X'; cat a", "cat a", "."},
		{"eval 'cd X' && cat a", "cat a", "X"},
		{"builtin cd X && cat a", "cat a", "X"},
		{"command cd X && cat a", "cat a", "X"},
		{"sudo cd X && cat a", "cat a", "."},
		{"env cd X && cat a", "cat a", "."},
		{"mkdir -p build && cd build && touch x", "touch x", "build"},
		{"cd /testbed && python3 x.py", "python3 x.py", "/testbed"},
		{"cd a && cd b && cat x", "cat x", "a/b"},
		{"cd a && cd .. && cat x", "cat x", "."},
		{"cd link && cd .. && cat x", "cat x", "."},
		{"cd -P up && cd .. && rm -f x", "rm -f x", "up!.."},
		// When the logical directory does not exist, bash's cd tries the
		// path as written, following a link before the `..`: both.
		{"cd -P up && cd a/../b && cat x", "cat x", "up!/a/../b! up!b"},
		{"cd /proc/self/cwd/../../.ssh && cat id", "cat id", "/proc/.ssh ?"},
		{"cd /proc/thread-self/cwd && cat id", "cat id", ". ?"},
		{"cd /dev/fd/3 && cat id", "cat id", ". ?"},
		{"cd l/../.ssh && cat id", "cat id", ".ssh l/../.ssh!"},
		{"cd a && cd ../b && cat x", "cat x", "a/../b! b"},
		{"cd a/b && cd ../.. && cat x", "cat x", "."},
		{"cd ../x && cat y", "cat y", "../x"},
		{"env -C l/.. cat x", "cat x", "l/..!"},
		{"env -C /proc/self/cwd/../.. cat x", "cat x", ". ?"},
		{"cd a && env -C b cat x", "cat x", "a/b"},
		{"cd -P up && cd /etc && cat x", "cat x", "/etc"},
		{"cd -P /x/up; cat y", "cat y", ". /x/up!"},
		{"cd -LP up && cat x", "cat x", "up!"},
		{"cd -PL up && cat x", "cat x", "up"},
		{"set -P; cd up && cat x", "cat x", "up!"},
		{"set -o physical; cd up && cat x", "cat x", "up!"},
		{"CDPATH=/tmp; cd up && cat x", "cat x", ". ?"},
		{"export CDPATH=/tmp; cd up && cat x", "cat x", ". ?"},
		{"CDPATH=/tmp cd up && cat x", "cat x", ". ?"},
		{"CDPATH=/tmp; cd ./up && cat x", "cat x", "up"},
		{"CDPATH=/tmp; cd /up && cat x", "cat x", "/up"},
		{": ${CDPATH:=/tmp}; cd up && cat x", "cat x", ". ?"},
		{"echo ${CDPATH=/tmp} >/dev/null && cd up && cat x", "cat x", ". ?"},
		{"cd - && cat x", "cat x", ". ?"},
		// A trap's code runs later (at exit, on a signal, around each
		// command), wherever the shell is then.
		{"trap 'cat a' EXIT; cd X", "cat a", ". ?"},
		{"trap 'cat a' DEBUG", "cat a", ". ?"},
		// So does a function the shell calls by itself: bash when a
		// command is not found.
		{"command_not_found_handle() { cat a; }; cd X; md5", "cat a", ". ?"},
		{`cd "$D" && cat x`, "cat x", ". ?"},
		{"pushd X && cat a", "cat a", "X"},
		{"pushd X; popd; cat a", "cat a", ". X ?"},
		{"pushd X; popd -n; cat a", "cat a", ". X"},
		{"pushd X; popd -n +1; cat a", "cat a", ". X"},
		{"pushd X; popd -1; cat a", "cat a", ". X ?"},
		{`pushd X; popd "$N"; cat a`, "cat a", ". X ?"},
		{"for i in 1 2; do cd X; done; cat a", "cat a", ". X ?"},
		{"for i in 1 2; do cat a; cd X; done", "cat a", ". ?"},
		{"for i in 1 2; do (cd X; cat a); done; cat b", "cat b", "."},
		{"while cd X; do :; done; cat a", "cat a", ". X ?"},
		{"until cd X; do sleep 1; done; cat a", "cat a", ". X ?"},
		{"while ! cd X; do sleep 1; done; cat a", "cat a", ". X ?"},
		{"while true; do cat a; done", "cat a", "."},
		{"time cd X && cat a", "cat a", "X"},
		{"{ cd X; } && cat a", "cat a", "X"},
		{"echo x | xargs cd X && cat a", "cat a", "."},
		{"timeout 5 cd X && cat a", "cat a", "."},
		{"select x in a; do cd X; done; cat a", "cat a", ". X ?"},
		{"case $x in a) cd X;; b) cat a;; esac", "cat a", "."},
		{"case $x in a) cd X;; esac; cat a", "cat a", ". X"},
		{"case $x in a) cd X;& b) cat a;; esac", "cat a", ". X"},
		{"f() { cd X; }; f; cat a", "cat a", ". ?"},
		{"f; f() { cd X; }; cat a", "cat a", ". ?"},
		{"g() { echo; }; g; cat a", "cat a", "."},
		{"f() { cd X || return; cat a; }", "cat a", "X"},
		{"return; cat a", "cat a", "."},
		{"exit; cat a", "cat a", "."},
		{"cd /tmp/q 2>/dev/null; cat ../a", "cat ../a", ". /tmp/q"},
		{"! cd X || cat a", "cat a", "X"},
		{"env -C /etc cat a; cat b", "cat a", "/etc"},
		{"cd X; env -C /etc cat a", "cat a", "/etc"},
		{"cd X; env -C e cat a", "cat a", "X/e e"},
		{"cd //x && cat a", "cat a", "//x"},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		found := false
		for _, c := range s.Commands {
			if c.Text != tt.cmd && strings.Join(c.Argv(), " ") != tt.cmd {
				continue
			}
			found = true
			var got []string
			for _, d := range c.Dirs() {
				if d == "" {
					d = "."
				}
				d = strings.ReplaceAll(d, PhysicalMark, "!")
				got = append(got, d)
			}
			sort.Strings(got)
			if c.DirDynamic {
				got = append(got, "?")
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("%s: %q runs in %q, want %q", tt.src, tt.cmd, g, tt.want)
			}
		}
		if !found {
			t.Errorf("%s: no command %q", tt.src, tt.cmd)
		}
	}
}

// TestResolveDir: a directory reached with cd -P is resolved on the disk
// where bash resolved it, and joined lexically after that.
func TestResolveDir(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"proj", "outside/in"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../outside/in", filepath.Join(root, "proj", "up")); err != nil {
		t.Skip("no symlinks:", err)
	}
	cwd := filepath.Join(root, "proj")
	real := func(p string) (string, bool) {
		r, err := filepath.EvalSymlinks(p)
		return r, err == nil
	}
	for _, tt := range []struct{ src, want string }{
		{"cd -P up && cd .. && rm -f x", root + "/outside"},
		{"cd up && cd .. && rm -f x", cwd},
		{"cd -P up && cd ../.. && rm -f x", root},
		{"set -P; cd up/.. && rm -f x", root + "/outside"},
		{"cd -P up && cd /etc && rm -f x", "/etc"},
	} {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := s.Commands[len(s.Commands)-1]
		got, ok := ResolveDir(cwd, c.Dir, real)
		if !ok || got != tt.want {
			t.Errorf("%s: rm runs in %q (%v), want %q", tt.src, got, ok, tt.want)
		}
	}
	if _, ok := ResolveDir(cwd, "missing"+PhysicalMark, func(string) (string, bool) { return "", false }); ok {
		t.Error("a directory that cannot be resolved resolves")
	}
}

// TestManyCdLinear: a script of many `cd a` costs linear time: a
// directory longer than PATH_MAX is unknown (it took minutes and GBs).
func TestManyCdLinear(t *testing.T) {
	src := strings.Repeat("cd a; ", 15000) + "cat x"
	t0 := cpuNow()
	s, err := Parse(src, Options{})
	if took := cpuNow() - t0; took > 2*time.Second {
		t.Errorf("15000 cds took %v of CPU", took)
	}
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Commands[len(s.Commands)-1]; !c.DirDynamic {
		t.Errorf("cat x after 15000 cds runs in %q, want a directory only known at run time", c.Dirs())
	}
}
