package cmd_test

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gatekeep/gatekeep/cmd"
	"github.com/gatekeep/gatekeep/cmd/enforce"
)

var update = flag.Bool("update", false, "rewrite cmp golden files in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gatekeep": func() {
			// The enforcement scripts' servers (netserve_test.go).
			cmd.SetProxyRedirectFromEnv(os.Getenv("GATEKEEP_TEST_PROXY_REDIRECT"))
			os.Exit(cmd.Main())
		},
		"variant": variantMain, // enforce_script_test.go
	})
}

// TestScript runs the end-to-end scripts in testdata/script/*.txtar. Each
// script starts in a fresh temp dir that is its own project root (a .git
// directory marks it) with a temp HOME and XDG dirs, GATEKEEP_* variables
// cleared and GATEKEEP_NONINTERACTIVE=1. $OUTSIDE is a fresh empty dir
// outside gatekeep's temp roots, for PATH entries a command can be judged
// safe in.
func TestScript(t *testing.T) {
	binDir := programDirOutsideRoots(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "../testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			home := env.WorkDir + "/home"
			if err := os.MkdirAll(env.WorkDir+"/.git", 0o755); err != nil {
				return err
			}
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			if binDir != "" {
				env.Setenv("PATH", binDir+string(filepath.ListSeparator)+withoutTempEntries(env.Getenv("PATH")))
				outside, err := os.MkdirTemp(filepath.Dir(binDir), "gatekeep-test-outside")
				if err != nil {
					return err
				}
				env.Defer(func() { os.RemoveAll(outside) })
				env.Setenv("OUTSIDE", outside)
			}
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", home+"/.config")
			env.Setenv("XDG_STATE_HOME", home+"/.local/state")
			env.Setenv("XDG_CACHE_HOME", home+"/.cache")
			env.Setenv("GATEKEEP_MANAGED_CONFIG", env.WorkDir+"/managed.toml")
			for _, k := range []string{"GATEKEEP_MODE", "GATEKEEP_ROOT", "GATEKEEP_DENY_EXIT_CODE", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"} {
				env.Setenv(k, "")
			}
			// A developer running the tests in a terminal is never asked;
			// headless.txtar clears this to test the real no-terminal path.
			env.Setenv("GATEKEEP_NONINTERACTIVE", "1")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": cmdStatus,
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "ci":
				// CI=true: a script needing a tool that is missing must
				// fail there, not skip (`[!exec:git] [!ci] skip`).
				return os.Getenv("CI") == "true", nil
			case "landlock":
				// The kernel confines here (enforcement's tiers above none).
				return enforce.LandlockABI() >= 1, nil
			case "bash":
				_, err := exec.LookPath("bash")
				return err == nil, nil
			case "gbk":
				// localedef and the GBK charmap and zh_CN source
				// (Debian: locales) to build a zh_CN.GBK locale.
				_, err := exec.LookPath("localedef")
				_, err1 := os.Stat("/usr/share/i18n/charmaps/GBK.gz")
				_, err2 := os.Stat("/usr/share/i18n/locales/zh_CN")
				return err == nil && err1 == nil && err2 == nil, nil
			}
			return false, errors.New("unknown condition " + cond)
		},
	})
}

// programDirOutsideRoots makes a directory outside gatekeep's temp roots
// (/tmp, /var/tmp, $TMPDIR) holding a link to the `gatekeep` program
// testscript built, to stand first in the scripts' PATH instead of
// testscript's own program directory, which lies in the temp dir: a PATH
// entry inside a sandbox root makes every bare command name unsafe, since
// the agent could plant a program there. It tries the user's cache dir,
// ~/.cache and the checkout's cmd/testdata; with all of them in a temp dir
// (HOME and the checkout under /tmp) the scripts cannot pass, and it says
// so.
func programDirOutsideRoots(t *testing.T) string {
	prog, err := exec.LookPath("gatekeep")
	if err != nil {
		t.Fatalf("testscript's gatekeep program is not in PATH: %v", err)
	}
	var bases []string
	if d, err := os.UserCacheDir(); err == nil {
		bases = append(bases, d)
	}
	if h, err := os.UserHomeDir(); err == nil {
		bases = append(bases, filepath.Join(h, ".cache"))
	}
	if wd, err := os.Getwd(); err == nil {
		bases = append(bases, filepath.Join(wd, "testdata"))
	}
	for _, base := range bases {
		if inTempRoot(base) || os.MkdirAll(base, 0o700) != nil {
			continue
		}
		dir, err := os.MkdirTemp(base, "gatekeep-test-bin")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		if err := os.Symlink(prog, filepath.Join(dir, "gatekeep")); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	t.Fatalf("no directory outside /tmp, /var/tmp and $TMPDIR for the gatekeep program on the scripts' PATH "+
		"(tried %q): set XDG_CACHE_HOME or HOME outside them", bases)
	return ""
}

// inTempRoot reports whether dir lies in one of gatekeep's temp roots.
func inTempRoot(dir string) bool {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = filepath.Clean(dir)
	}
	for _, r := range []string{"/tmp", "/var/tmp", os.TempDir()} {
		if rr, err := filepath.EvalSymlinks(r); err == nil {
			r = rr
		}
		if real == r || strings.HasPrefix(real, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// withoutTempEntries drops the PATH entries in a temp dir (testscript's
// program directory): in-process tests and scripts judge bare command
// names against the PATH a user would have.
func withoutTempEntries(path string) string {
	var keep []string
	for _, e := range filepath.SplitList(path) {
		temp := false
		for _, d := range []string{os.TempDir(), "/tmp", "/var/tmp"} {
			if e == d || strings.HasPrefix(e, strings.TrimSuffix(d, "/")+"/") {
				temp = true
			}
		}
		if !temp {
			keep = append(keep, e)
		}
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// cmdStatus runs a program like exec and asserts its exact exit status:
//
//	status 77 gatekeep bash -c 'rm -rf /'
//
// Its stdout and stderr are kept for the stdout/stderr commands after it.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("status does not support !")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}
