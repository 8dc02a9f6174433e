package cmdmodel

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealEnvSplit checks EnvSplit against the real GNU env: each string
// is given to `env -S 'STUB STRING'`, where STUB prints the words it got
// separated by NULs, and the words (or env's refusal) must be what
// envSplit reads. The strings are every pair of a set of fragments that
// exercise quotes, escapes, comments, separators and ${NAME}.
func TestRealEnvSplit(t *testing.T) {
	t.Parallel()
	env := needBinary(t, "env")
	if out, _ := exec.Command(env, "--version").Output(); !bytes.Contains(out, []byte("GNU coreutils")) {
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
			var out, stderr bytes.Buffer
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
