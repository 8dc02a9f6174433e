package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gatekeep/gatekeep/policy"
)

func TestRedactSecrets(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// *_TOKEN=, *_KEY=, *_SECRET=, PASSWORD=
		{"GITHUB_TOKEN=ghx123 git push", "GITHUB_TOKEN=[REDACTED] git push"},
		{"export AWS_SECRET_ACCESS_KEY='abc def'", "export AWS_SECRET_ACCESS_KEY=[REDACTED]"},
		{`API_KEY="k-1" OTHER=1 run`, "API_KEY=[REDACTED] OTHER=1 run"},
		{"MY_SECRET=s3cr3t; echo ok", "MY_SECRET=[REDACTED]; echo ok"},
		{"PASSWORD=hunter2 mysql", "PASSWORD=[REDACTED] mysql"},
		{"db_password=hunter2", "db_password=[REDACTED]"},
		{"mysql --password=hunter2 -u root", "mysql --password=[REDACTED] -u root"},
		{"cli --api-key=abc123 run", "cli --api-key=[REDACTED] run"},
		{"cli --token abc123 run", "cli --token [REDACTED] run"},
		// Authorization headers and bearer tokens.
		{`curl -H 'Authorization: Bearer abc.def.ghi' https://x`, `curl -H 'Authorization: [REDACTED]' https://x`},
		{`curl -H "authorization:token ghx" x`, `curl -H "authorization:[REDACTED]" x`},
		{`curl -H "X-Api-Key: 12345" x`, `curl -H "X-Api-Key: [REDACTED]" x`},
		{"wget --header=Bearer abcdefgh12345 x", "wget --header=Bearer [REDACTED] x"},
		// Long base64 or hex blobs in any assignment.
		{"SIG=0123456789abcdef0123456789abcdef make", "SIG=[REDACTED] make"},
		{"BLOB=dGhpcyBpcyBhIHNlY3JldCB2YWx1ZSBoZXJlMQ== x", "BLOB=[REDACTED] x"},
		{`X="0123456789abcdef0123456789abcdef"`, `X="[REDACTED]"`},
		// Well-known token formats anywhere, credentials in URLs, JSON.
		{"git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/x", "git clone https://[REDACTED]@github.com/x"},
		{"git clone https://me:pa55@example.com/r.git", "git clone https://me:[REDACTED]@example.com/r.git"},
		{"echo sk-ant-abcdefghijklmnopqrstuvwx", "echo [REDACTED]"},
		{"aws AKIAABCDEFGHIJKLMNOP", "aws [REDACTED]"},
		{`{"api_key": "abc", "query": "x"}`, `{"api_key": "[REDACTED]", "query": "x"}`},
		{`{"password":"a\"b"}`, `{"password":"[REDACTED]"}`},
		// Left alone: ordinary words and assignments.
		{"MONKEY=banana KEYBOARD=us ls", "MONKEY=banana KEYBOARD=us ls"},
		{"sort --key=2 file", "sort --key=2 file"},
		{"git log --oneline", "git log --oneline"},
		{"DIR=/usr/local/lib/very/long/path/to/some/thing123 make", "DIR=/usr/local/lib/very/long/path/to/some/thing123 make"},
		{"NAME=abcdefghijklmnopqrstuvwxyzabcdefgh make", "NAME=abcdefghijklmnopqrstuvwxyzabcdefgh make"},
		{"echo the token is in the vault", "echo the token is in the vault"},
	} {
		if got := redactSecrets(c.in); got != c.want {
			t.Errorf("redactSecrets(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestAppendAudit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "audit.jsonl")
	rec := newAuditRecord(policy.Decision{Effect: policy.Deny, Layer: policy.LayerDanger, Code: "danger.rm_root"},
		"claude", "s1", "Bash", "GITHUB_TOKEN=abc rm -rf /", "deny")
	if err := appendAudit(path, rec); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("audit file mode %v, want 0600", fi.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%q: %v", data, err)
	}
	for k, want := range map[string]string{"agent": "claude", "session_id": "s1", "tool": "Bash",
		"input": "GITHUB_TOKEN=[REDACTED] rm -rf /", "effect": "deny", "layer": "danger", "code": "danger.rm_root", "answer": "deny"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %q", k, got[k], want)
		}
	}
	if ts, _ := got["time"].(string); !strings.HasSuffix(ts, "Z") || len(ts) != len("2006-01-02T15:04:05.000Z") {
		t.Errorf("time %q is not RFC 3339 UTC", ts)
	}
}

// TestAppendAuditLong: a long input is cut with a marker, the line stays
// within maxAuditLine and is still valid JSON, even when escaping makes
// the input grow.
func TestAppendAuditLong(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	for _, input := range []string{strings.Repeat("a", 100000), strings.Repeat("\x01é\"", 5000)} {
		rec := newAuditRecord(policy.Decision{Effect: policy.Allow, Layer: policy.LayerSafe, Code: "safe.read_only"}, "cli", "", "Bash", input, "")
		if err := appendAudit(path, rec); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := os.Open(path)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		if len(sc.Bytes())+1 > maxAuditLine {
			t.Errorf("line %d is %d bytes", n, len(sc.Bytes())+1)
		}
		var r auditRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		if !strings.HasSuffix(r.Input, truncMarker) || len(r.Input) < 1000 {
			t.Errorf("line %d input %q...: not cut with the marker", n, r.Input[:min(40, len(r.Input))])
		}
	}
	if n != 2 {
		t.Fatalf("%d lines, want 2", n)
	}
}

// TestAppendAuditConcurrent: writers in parallel never interleave lines.
func TestAppendAuditConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	const writers, each = 8, 50
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				in := fmt.Sprintf("w%d-%d %s", w, i, strings.Repeat("x", 3000))
				rec := newAuditRecord(policy.Decision{Effect: policy.Ask, Layer: policy.LayerMode, Code: "mode.ask"}, "codex", "s", "Bash", in, "deny")
				if err := appendAudit(path, rec); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != writers*each {
		t.Fatalf("%d lines, want %d", len(lines), writers*each)
	}
	for i, l := range lines {
		var r auditRecord
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %d is not one record: %v", i+1, err)
		}
	}
}

// TestAuditOff: no audit file configured, nothing is written and no error.
func TestAuditOff(t *testing.T) {
	a := &app{}
	if err := a.audit(policy.Decision{}, policy.Request{Tool: "Bash", Command: "ls"}, "cli", ""); err != nil {
		t.Fatal(err)
	}
}

// TestAuditSymlink: a symlink planted at the log path is not followed.
func TestAuditSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no O_NOFOLLOW")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	os.WriteFile(target, nil, 0o644)
	link := filepath.Join(dir, "audit.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := appendAudit(link, auditRecord{Tool: "Bash"}); err == nil {
		t.Fatal("appended through a symlink")
	}
}
