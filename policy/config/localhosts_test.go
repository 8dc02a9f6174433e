package config

import (
	"os"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/policy"
)

// TestAllowedHostsLayers: entries add up from the files that need no trust
// and trusted ones; an untrusted file's list only takes hosts away.
func TestAllowedHostsLayers(t *testing.T) {
	for _, tt := range []struct {
		name     string
		files    map[string]string
		trust    bool
		admitted []string
		refused  []string
	}{
		{name: "none", refused: []string{"pypi.org"}},
		{name: "user", files: map[string]string{policy.SourceUser: `allowed_hosts = ["pypi.org", "*.pythonhosted.org"]`},
			admitted: []string{"pypi.org", "files.pythonhosted.org"}, refused: []string{"pythonhosted.org", "npmjs.org"}},
		{name: "managed and user add up", files: map[string]string{policy.SourceManaged: `allowed_hosts = ["github.com"]`,
			policy.SourceUser: `allowed_hosts = ["pypi.org"]`}, admitted: []string{"pypi.org", "github.com"}},
		{name: "untrusted project cannot add", files: map[string]string{policy.SourceProject: `allowed_hosts = ["evil.example"]`},
			refused: []string{"evil.example"}},
		{name: "untrusted project takes away", files: map[string]string{policy.SourceUser: `allowed_hosts = ["pypi.org", "github.com"]`,
			policy.SourceProject: `allowed_hosts = ["github.com", "evil.example"]`},
			admitted: []string{"github.com"}, refused: []string{"pypi.org", "evil.example"}},
		{name: "untrusted empty list takes every host away", files: map[string]string{policy.SourceUser: `allowed_hosts = ["pypi.org"]`,
			policy.SourceProject: `allowed_hosts = []`}, refused: []string{"pypi.org"}},
		{name: "trusted project adds", trust: true, files: map[string]string{policy.SourceProject: `allowed_hosts = ["github.com"]`},
			admitted: []string{"github.com"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := newCfgEnv(t)
			for src, text := range tt.files {
				v.write(v.file(src), "[sandbox]\n"+text+"\n")
			}
			if tt.trust {
				if _, err := (TrustStore{Path: v.paths.Trust}).Trust(v.projectFile()); err != nil {
					t.Fatal(err)
				}
			}
			h := v.load().Enforce.AllowedHosts
			for _, host := range tt.admitted {
				if !h.Admits(host, 443) {
					t.Errorf("%s is not admitted (%+v)", host, h)
				}
			}
			for _, host := range tt.refused {
				if h.Admits(host, 443) {
					t.Errorf("%s is admitted", host)
				}
			}
		})
	}
	for _, text := range []string{`allowed_hosts = ["https://pypi.org/"]`, `allowed_hosts = ["*"]`, `allowed_hosts = "pypi.org:99999"`, `allowed_hosts = [1]`} {
		v := newCfgEnv(t)
		v.write(v.file(policy.SourceUser), "[sandbox]\n"+text+"\n")
		if _, err := Load(v.opts()); err == nil || !IsConfigError(err) || !strings.Contains(err.Error(), "allowed_hosts") {
			t.Errorf("%q: got %v, want a config error naming allowed_hosts", text, err)
		}
	}
}

// TestAddLocalHosts: hosts are added to the local file's text in place,
// once, and are admitted afterwards.
func TestAddLocalHosts(t *testing.T) {
	v := newCfgEnv(t)
	admitted := func(hosts ...string) {
		t.Helper()
		h := v.load().Enforce.AllowedHosts
		for _, host := range hosts {
			if !h.Admits(host, 443) {
				t.Errorf("%s is not admitted", host)
			}
		}
	}
	if _, _, err := AddLocalHosts(v.opts(), []string{"pypi.org"}); err != nil {
		t.Fatal(err)
	}
	admitted("pypi.org")
	// A rule added after it, then more hosts: the list is rewritten where
	// it is, the rest of the text kept.
	if _, _, err := AppendLocalRules(v.opts(), "allow", []string{"Bash(make *)"}, ""); err != nil {
		t.Fatal(err)
	}
	_, present, err := AddLocalHosts(v.opts(), []string{"PyPI.org", "*.pythonhosted.org", "git.example.com:8443"})
	if err != nil {
		t.Fatal(err)
	}
	if len(present) != 1 || present[0] != "pypi.org" {
		t.Errorf("present = %v", present)
	}
	admitted("pypi.org", "files.pythonhosted.org")
	b, _ := os.ReadFile(v.localFile())
	text := string(b)
	if strings.Count(text, "[sandbox]") != 1 || !strings.Contains(text, `allowed_hosts = ["pypi.org", "*.pythonhosted.org", "git.example.com:8443"]`) ||
		!strings.Contains(text, "Bash(make *)") {
		t.Errorf("local file:\n%s", text)
	}
	// A [sandbox] table without the key, and a list over several lines.
	v2 := newCfgEnv(t)
	v2.write(v2.localFile(), "# mine\n[sandbox]\nauto_allow = true\n")
	if _, _, err := AddLocalHosts(v2.opts(), []string{"github.com"}); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(v2.localFile())
	if got := string(b); got != "# mine\n[sandbox]\nallowed_hosts = [\"github.com\"]\nauto_allow = true\n" {
		t.Errorf("local file:\n%s", got)
	}
	v2.write(v2.localFile(), "[sandbox]\nallowed_hosts = [\n  \"github.com\", # code\n  \"pypi.org\",\n]\nauto_allow = true\n")
	if _, _, err := AddLocalHosts(v2.opts(), []string{"registry.npmjs.org"}); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(v2.localFile())
	if got := string(b); got != "[sandbox]\nallowed_hosts = [\"github.com\", \"pypi.org\", \"registry.npmjs.org\"]\nauto_allow = true\n" {
		t.Errorf("local file:\n%s", got)
	}
	// A local file gatekeep did not write (and nobody trusted) is refused.
	v3 := newCfgEnv(t)
	v3.foreign[v3.localFile()] = true
	v3.write(v3.localFile(), "[sandbox]\n")
	if _, _, err := AddLocalHosts(v3.opts(), []string{"github.com"}); err == nil || !strings.Contains(err.Error(), "not trusted") {
		t.Errorf("untrusted local file: %v", err)
	}
}
