//go:build linux

package cmd_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gatekeep/gatekeep/cmd"
	"github.com/gatekeep/gatekeep/cmd/enforce"
	"github.com/gatekeep/gatekeep/cmd/enforce/helper"
	"github.com/gatekeep/gatekeep/policy/testcases"
)

// enforceVariants are the ways TestEnforceScripts runs every script: as
// root with the full tier, as uid 65534 (nobody) with the full tier, and
// with user namespaces refused by a seccomp filter (the Landlock tier).
var enforceVariants = []string{"root", "nobody", "nouserns"}

// variantMain is the `variant` program of the enforcement scripts: it runs
// its arguments as $VARIANT says: as uid/gid 65534 for nobody, under a
// seccomp filter refusing user namespaces for nouserns, and refusing
// user namespaces and Landlock in any variant when $NOLANDLOCK is set.
func variantMain() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: variant PROGRAM [ARGS...]")
		os.Exit(2)
	}
	runtime.LockOSThread()
	switch os.Getenv("VARIANT") {
	case "nobody":
		if err := syscall.Setgroups(nil); err != nil {
			fmt.Fprintln(os.Stderr, "variant:", err)
			os.Exit(2)
		}
		if err := syscall.Setgid(65534); err != nil {
			fmt.Fprintln(os.Stderr, "variant:", err)
			os.Exit(2)
		}
		if err := syscall.Setuid(65534); err != nil {
			fmt.Fprintln(os.Stderr, "variant:", err)
			os.Exit(2)
		}
	}
	if nolandlock := os.Getenv("NOLANDLOCK") != ""; nolandlock || os.Getenv("VARIANT") == "nouserns" {
		if err := helper.Refuse(true, nolandlock); err != nil {
			fmt.Fprintln(os.Stderr, "variant:", err)
			os.Exit(2)
		}
	}
	path, err := exec.LookPath(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "variant:", err)
		os.Exit(127)
	}
	err = syscall.Exec(path, os.Args[1:], os.Environ())
	fmt.Fprintln(os.Stderr, "variant:", err)
	os.Exit(126)
}

// enforceBase makes the directory the enforcement scripts' projects and
// home live in: outside every temp dir, since those are sandbox roots
// and a write there would not show the confinement.
func enforceBase(t *testing.T) string {
	var parent string
	if os.Geteuid() == 0 {
		// Not /var: a root only guessed from the working directory is
		// refused there (pathguard.RefuseFallbackRoot).
		parent = "/opt"
		_ = os.MkdirAll(parent, 0o755)
	} else if d, err := os.UserCacheDir(); err == nil {
		parent = d
	}
	for _, tmp := range []string{os.TempDir(), "/tmp", "/var/tmp"} {
		if parent == "" || strings.HasPrefix(parent+"/", filepath.Clean(tmp)+"/") {
			enforceUnavailable(t, "no directory outside the temp dirs for the test projects")
		}
	}
	base, err := os.MkdirTemp(parent, "gatekeep-enforce-test-")
	if err != nil {
		enforceUnavailable(t, err.Error())
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	return base
}

// enforceUnavailable skips a test that needs what this machine lacks,
// except in CI, whose machines have it: there it fails.
func enforceUnavailable(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI must run the enforcement tests: %s", why)
	}
	t.Skip(why)
}

// TestEnforceScripts runs testdata/enforce/*.txtar under each variant.
// Each script gets $PROJ (a git project), $HOME, $OUTSIDE (a directory the
// user may write but the sandbox must refuse), all outside the temp dirs.
func TestEnforceScripts(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kernel enforcement is Linux only")
	}
	if s := enforce.Probe(); s.Tier() != enforce.TierFull {
		enforceUnavailable(t, fmt.Sprintf("the full tier is unavailable: %s %q", s, s.Errors))
	}
	if _, err := exec.LookPath("python3"); err != nil {
		enforceUnavailable(t, "python3 is missing")
	}
	for _, v := range enforceVariants {
		t.Run(v, func(t *testing.T) {
			if v == "nobody" && os.Geteuid() != 0 {
				enforceUnavailable(t, "running as uid 65534 needs root")
			}
			testscript.Run(t, testscript.Params{
				Dir:                 "../testdata/enforce",
				RequireExplicitExec: true,
				UpdateScripts:       *update,
				Setup:               func(env *testscript.Env) error { return enforceSetup(t, env, v) },
				Cmds:                map[string]func(ts *testscript.TestScript, neg bool, args []string){"status": cmdStatus, "netserve": cmdNetserve},
				Condition: func(cond string) (bool, error) {
					if cond == "full" {
						return v != "nouserns", nil
					}
					if cond == "ci" {
						// CI=true: a script needing a missing tool fails there.
						return os.Getenv("CI") == "true", nil
					}
					return false, fmt.Errorf("unknown condition %s", cond)
				},
			})
		})
	}
}

func enforceSetup(t *testing.T, env *testscript.Env, variant string) error {
	base := enforceBase(t)
	home, proj, outside := filepath.Join(base, "home"), filepath.Join(base, "proj"), filepath.Join(base, "outside")
	for _, d := range []string{home, proj, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	env.Setenv("HOME", home)
	env.Setenv("PROJ", proj)
	env.Setenv("OUTSIDE", outside)
	env.Setenv("VARIANT", variant)
	env.Setenv("TIER", map[string]string{"nouserns": "landlock"}[variant])
	if variant != "nouserns" {
		env.Setenv("TIER", "full")
	}
	env.Setenv("XDG_CONFIG_HOME", home+"/.config")
	env.Setenv("XDG_STATE_HOME", home+"/.local/state")
	env.Setenv("GATEKEEP_MANAGED_CONFIG", base+"/managed.toml")
	env.Setenv("PATH", env.Getenv("PATH")+string(filepath.ListSeparator)+filepath.Dir(goBin))
	if out, err := exec.Command(goBin, "env", "GOCACHE").Output(); err == nil {
		env.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	}
	env.Setenv("GOTOOLCHAIN", "local")
	env.Setenv("GOFLAGS", "-mod=mod")
	env.Setenv("GATEKEEP_NONINTERACTIVE", "1")
	for _, k := range []string{"GATEKEEP_MODE", "GATEKEEP_ROOT", "GATEKEEP_DENY_EXIT_CODE", "GATEKEEP_ENFORCE"} {
		env.Setenv(k, "")
	}
	if variant == "nobody" {
		// The work dir, the programs' dir and the base become readable
		// and owned by uid 65534.
		for d := env.WorkDir; d != "/" && d != filepath.Dir(d); d = filepath.Dir(d) {
			if filepath.Clean(d) == filepath.Clean(os.TempDir()) || d == "/tmp" {
				break
			}
			os.Chmod(d, 0o755)
		}
		for _, name := range []string{"gatekeep", "variant"} {
			p, err := exec.LookPath(name)
			if err != nil {
				return err
			}
			os.Chmod(filepath.Dir(p), 0o755)
			os.Chmod(filepath.Dir(filepath.Dir(p)), 0o755)
		}
		if err := filepath.Walk(env.WorkDir, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, 65534, 65534)
		}); err != nil {
			return err
		}
		if err := filepath.Walk(base, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, 65534, 65534)
		}); err != nil {
			return err
		}
	}
	return nil
}

// TestAgentCorpusAutoAllow: the agent corpus in default mode
// with `enforce = "required"` and `auto_allow = true` is at least 95%
// allowed, and every line denied without auto_allow is still denied.
func TestAgentCorpusAutoAllow(t *testing.T) {
	if s := enforce.Probe(); s.Tier() != enforce.TierFull {
		enforceUnavailable(t, fmt.Sprintf("the full tier is unavailable: %s %q", s, s.Errors))
	}
	file := testcases.AgentCorpusFile(t)
	run := func(config string) []string {
		isolate(t)
		if config != "" {
			dir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gatekeep")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(config), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var out, errb bytes.Buffer
		if code := cmd.Run([]string{"check", "--batch", file, "--json"}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("check --batch: exit %d: %s", code, errb.String())
		}
		t.Logf("%s", errb.String())
		var effects []string
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var d struct{ Effect, Code string }
			if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
				t.Fatal(err)
			}
			effects = append(effects, d.Effect+" "+d.Code)
		}
		return effects
	}
	before := run("")
	after := run("[sandbox]\nenforce = \"required\"\nauto_allow = true\n")
	if len(before) != len(after) || len(after) == 0 {
		t.Fatalf("%d and %d decisions", len(before), len(after))
	}
	allowed := 0
	for i := range after {
		if strings.HasPrefix(after[i], "allow ") {
			allowed++
		}
		if strings.HasPrefix(before[i], "deny ") && before[i] != after[i] {
			t.Errorf("line %d: %s became %s", i+1, before[i], after[i])
		}
	}
	if share := float64(allowed) / float64(len(after)); share < 0.95 {
		t.Errorf("%.1f%% allowed with auto_allow, want at least 95%%", 100*share)
	}
}
