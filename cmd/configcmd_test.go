package cmd_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/cmd"
)

// TestPolicyTests runs `gatekeep test` on the sample team policy in
// testdata/policy: it passes as committed, and fails, naming the case, when
// one expectation is wrong.
func TestPolicyTests(t *testing.T) {
	for _, tt := range []struct {
		file     string
		wantCode int
		wantOut  string
	}{
		{"config.toml", 0, "11 passed, 0 failed"},
		{"failing.toml", 1, "FAIL"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "testdata", "policy", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			proj := isolate(t)
			if err := os.MkdirAll(".gatekeep", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(proj, ".gatekeep", "config.toml"), src, 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			if code := cmd.Run([]string{"trust"}, strings.NewReader(""), &out, &errb); code != 0 {
				t.Fatalf("trust: exit %d: %s", code, errb.String())
			}
			out.Reset()
			code := cmd.Run([]string{"test"}, strings.NewReader(""), &out, &errb)
			if code != tt.wantCode || !strings.Contains(out.String(), tt.wantOut) {
				t.Fatalf("gatekeep test: exit %d, want %d; output:\n%s\nstderr:\n%s", code, tt.wantCode, out.String(), errb.String())
			}
			if tt.wantCode != 0 && !strings.Contains(out.String(), `"pushes ask": Bash "git push origin main": want allow, got ask (rules: rule.ask`) {
				t.Errorf("a failure should name the deciding layer:\n%s", out.String())
			}
		})
	}
}
