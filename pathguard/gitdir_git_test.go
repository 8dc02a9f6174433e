package pathguard

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestFindGitDirAgainstGit builds random directory shapes (HEAD as a file
// of several contents, a symlink or a directory; objects and refs as
// directories, executable or plain files, links; commondir files; `.git`
// directories and files) and asks the real git which git directory it
// uses there (`git rev-parse --absolute-git-dir` with
// GIT_CEILING_DIRECTORIES at the case's base). FindGitDir must give the
// same directory or say it cannot tell. It errs wide only where the disk
// leaves a doubt (unreadable files), which these shapes do not make, so
// finding one where git finds none fails too.
func TestFindGitDirAgainstGit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix shapes (symlinks, execute bits)")
	}
	git := needGit(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home")
	mkdir(t, home)
	env := append(os.Environ(), "HOME="+home, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"LC_ALL=C", "GIT_DISCOVERY_ACROSS_FILESYSTEM=1")
	env = filterEnv(env, "GIT_DIR=", "GIT_COMMON_DIR=", "GIT_OBJECT_DIRECTORY=", "GIT_WORK_TREE=", "GIT_CEILING_DIRECTORIES=")
	rng := rand.New(rand.NewSource(12))
	n := 400
	if testing.Short() {
		n = 100
	}
	exact, wide := 0, 0
	for i := 0; i < n; i++ {
		c := filepath.Join(base, fmt.Sprintf("c%d", i))
		desc := buildShapeCase(t, rng, c)
		cwd := filepath.Join(c, "a", "b")
		cmd := exec.Command(git, "rev-parse", "--absolute-git-dir")
		cmd.Dir = cwd
		cmd.Env = append(env, "GIT_CEILING_DIRECTORIES="+c)
		out, err := cmd.Output()
		gitSays := ""
		if err == nil {
			gitSays = strings.TrimSpace(string(out))
			if r, err := filepath.EvalSymlinks(gitSays); err == nil {
				gitSays = r
			}
		}
		got, ok := FindGitDir(cwd)
		if got != "" && !within(c, got) {
			got = "" // above the case: git's ceiling stops it there
		}
		switch {
		case gitSays != "" && ok && got != gitSays:
			t.Errorf("case %d %s: git uses %s, FindGitDir says %q", i, desc, gitSays, got)
		case gitSays != "" && ok:
			exact++
		case gitSays == "" && ok && got != "":
			wide++
			t.Errorf("case %d %s: git finds none, FindGitDir %s", i, desc, got)
		}
	}
	t.Logf("%d cases: %d found by both, %d found only by FindGitDir", n, exact, wide)
	if exact < n/20 {
		t.Errorf("only %d of %d cases make a git directory: the generator is too weak", exact, n)
	}
}

func filterEnv(env []string, drop ...string) []string {
	var out []string
next:
	for _, e := range env {
		for _, d := range drop {
			if strings.HasPrefix(e, d) {
				continue next
			}
		}
		out = append(out, e)
	}
	return out
}

// buildShapeCase makes c/a/b and a random shape in c/a/b, c/a and a
// `.git` in either; c/common holds objects and refs for commondir files
// to name. It returns a description of what it made.
func buildShapeCase(t *testing.T, rng *rand.Rand, c string) string {
	mkdir(t, filepath.Join(c, "a", "b"))
	mkdir(t, filepath.Join(c, "common", "objects"))
	mkdir(t, filepath.Join(c, "common", "refs"))
	mkdir(t, filepath.Join(c, "half", "objects"))
	var desc []string
	for _, lvl := range []string{"a/b", "a"} {
		d := filepath.Join(c, lvl)
		desc = append(desc, lvl+":"+randomShape(t, rng, d, c))
		switch rng.Intn(6) {
		case 0:
			g := filepath.Join(d, ".git")
			mkdir(t, g)
			desc = append(desc, lvl+"/.git/:"+randomShape(t, rng, g, c))
		case 1:
			g := filepath.Join(c, fmt.Sprintf("gd%d", len(desc)))
			mkdir(t, g)
			s := randomShape(t, rng, g, c)
			target := g
			if rng.Intn(2) == 0 {
				target, _ = filepath.Rel(d, g)
			}
			body := "gitdir: " + target + []string{"\n", "", "\r\n", "\n\n"}[rng.Intn(4)]
			if rng.Intn(8) == 0 {
				body = "gitdir:" + target
			}
			write(t, filepath.Join(d, ".git"), body)
			desc = append(desc, fmt.Sprintf("%s/.git=%q->%s", lvl, body, s))
		}
	}
	return strings.Join(desc, " ")
}

// randomShape puts a random HEAD, objects, refs and commondir into d.
func randomShape(t *testing.T, rng *rand.Rand, d, c string) string {
	var desc []string
	switch k := rng.Intn(10); k {
	case 0, 1, 2:
		body := []string{"ref: refs/heads/main\n", "ref:refs/x", "ref: \t refs/y\n",
			"0123456789abcdef0123456789ABCDEF01234567", "ref: heads/x\n", "garbage\n", "0123456789abcdef\n",
			"ref:\vrefs/z\n"}[rng.Intn(8)]
		write(t, filepath.Join(d, "HEAD"), body)
		desc = append(desc, fmt.Sprintf("HEAD=%q", body))
	case 3, 4:
		target := []string{"refs/heads/x", "refs/", "../refs/x", "x", "refs"}[rng.Intn(5)]
		symlink(t, target, filepath.Join(d, "HEAD"))
		desc = append(desc, "HEAD->"+target)
	case 5:
		mkdir(t, filepath.Join(d, "HEAD"))
		desc = append(desc, "HEAD/")
	}
	for _, name := range []string{"objects", "refs"} {
		p := filepath.Join(d, name)
		switch rng.Intn(8) {
		case 0, 1, 2:
			mkdir(t, p)
			desc = append(desc, name+"/")
		case 3:
			write(t, p, "")
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
			desc = append(desc, name+"(x)")
		case 4:
			write(t, p, "")
			desc = append(desc, name+"(-x)")
		case 5:
			symlink(t, "missing", p)
			desc = append(desc, name+"->missing")
		case 6:
			symlink(t, filepath.Join(c, "common", name), p)
			desc = append(desc, name+"->common")
		}
	}
	if rng.Intn(4) == 0 {
		rel, _ := filepath.Rel(d, filepath.Join(c, "common"))
		relHalf, _ := filepath.Rel(d, filepath.Join(c, "half"))
		body := []string{rel + "\n", filepath.Join(c, "common"), relHalf + "\n", "missing\n", "\n", rel + "\r\n"}[rng.Intn(6)]
		write(t, filepath.Join(d, "commondir"), body)
		desc = append(desc, fmt.Sprintf("commondir=%q", body))
	}
	return strings.Join(desc, ",")
}

// TestHooksPathWorktreeAndGlobal: the hooks directory is protected in a
// linked worktree made by git (`.git` is a file; the shared config names
// a relative core.hooksPath, relative to the worktree's top), with the
// hook managers' configs at its top; and an absolute core.hooksPath in
// the global config is protected wherever it lies in a root, outside any
// repository (red team 2, F6 and F2).
func TestHooksPathWorktreeAndGlobal(t *testing.T) {
	git := needGit(t)
	base := realTempDir(t)
	home, main, wt, tmp := filepath.Join(base, "home"), filepath.Join(base, "main"), filepath.Join(base, "wt"), filepath.Join(base, "tmp")
	for _, d := range []string{home, main, tmp} {
		mkdir(t, d)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	run := func(dir string, args ...string) {
		cmd := exec.Command(git, append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(main, "init", "-q", ".")
	run(main, "commit", "-q", "--allow-empty", "-m", "init")
	run(main, "config", "core.hooksPath", "myhooks")
	run(main, "worktree", "add", "-q", wt)
	write(t, filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = "+filepath.Join(tmp, "globalhooks")+"\n")
	g, errs := New([]string{main, wt, tmp}, Options{Home: home, ConfigDirs: []string{}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		path    string
		protect bool
	}{
		{filepath.Join(wt, "myhooks", "pre-commit"), true},
		{filepath.Join(wt, "lefthook.yml"), true},
		{filepath.Join(wt, "src", "main.go"), false},
		{filepath.Join(main, "myhooks", "pre-commit"), true},
		{filepath.Join(tmp, "globalhooks", "pre-commit"), true},
		{filepath.Join(tmp, "other", "pre-commit"), false},
	} {
		if why := g.Protected(tc.path); (why != "") != tc.protect {
			t.Errorf("Protected(%s) = %q, want protected %v", tc.path, why, tc.protect)
		}
	}
}

// needGit is the path of git; in CI (CI set) a missing git fails the
// test, elsewhere it skips it.
func needGit(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is needed in CI: ", err)
		}
		t.Skip("no git")
	}
	return git
}
