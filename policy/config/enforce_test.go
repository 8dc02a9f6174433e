package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/policy"
)

// TestEnforceSettings: the stricter enforcement counts from any file; a
// setting that loosens (network, writable, auto_allow, unconfined) only
// from a file that needs no trust or is trusted.
func TestEnforceSettings(t *testing.T) {
	tests := []struct {
		name                     string
		files                    map[string]string
		trust                    bool
		enforce                  policy.EnforceLevel
		network, autoAllow, wset bool
		unconfined, readable     int
		warn                     string
	}{
		{name: "nothing set"},
		{name: "user required", files: map[string]string{policy.SourceUser: "[sandbox]\nenforce = \"required\""}, enforce: policy.EnforceRequired},
		{name: "untrusted project makes it stricter", files: map[string]string{
			policy.SourceUser: "[sandbox]\nenforce = \"best-effort\"", policy.SourceProject: "[sandbox]\nenforce = \"required\""}, enforce: policy.EnforceRequired},
		{name: "off never loosens", files: map[string]string{
			policy.SourceManaged: "[sandbox]\nenforce = \"required\"", policy.SourceUser: "[sandbox]\nenforce = \"off\""}, enforce: policy.EnforceRequired},
		{name: "untrusted project cannot open the network", files: map[string]string{
			policy.SourceProject: "[sandbox]\nnetwork = true\nauto_allow = true\nwritable = [\"~/x\"]\nreadable = [\"~/.config/gh\"]\nunconfined = [\"Bash(docker *)\"]"},
			warn: "sandbox.network, sandbox.auto_allow, sandbox.writable, sandbox.readable, sandbox.unconfined"},
		{name: "trusted project opens the network", trust: true, files: map[string]string{
			policy.SourceProject: "[sandbox]\nnetwork = true\nauto_allow = true\nwritable = []\nreadable = [\"~/.config/gh\"]\nunconfined = [\"Bash(docker *)\"]"},
			network: true, autoAllow: true, wset: true, unconfined: 1, readable: 1},
		{name: "user readable", files: map[string]string{policy.SourceUser: "[sandbox]\nreadable = [\"~/.config/gh\", \"/opt/x\"]"}, readable: 2},
		{name: "user on, untrusted project off", files: map[string]string{
			policy.SourceUser: "[sandbox]\nnetwork = true\nauto_allow = true", policy.SourceProject: "[sandbox]\nnetwork = false\nauto_allow = false"}},
		{name: "managed off wins over user on", files: map[string]string{
			policy.SourceManaged: "[sandbox]\nnetwork = false", policy.SourceUser: "[sandbox]\nnetwork = true\nauto_allow = true"}, autoAllow: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newCfgEnv(t)
			for src, text := range tt.files {
				v.write(v.file(src), text+"\n")
			}
			if tt.trust {
				if _, err := (TrustStore{Path: v.paths.Trust}).Trust(v.projectFile()); err != nil {
					t.Fatal(err)
				}
			}
			l := v.load()
			s := l.Enforce
			if s.Enforce != tt.enforce || s.Network != tt.network || s.AutoAllow != tt.autoAllow || s.WritableSet != tt.wset || len(s.Unconfined) != tt.unconfined || len(s.Readable) != tt.readable {
				t.Errorf("got enforce=%v network=%v auto_allow=%v writable set=%v unconfined=%d readable=%v", s.Enforce, s.Network, s.AutoAllow, s.WritableSet, len(s.Unconfined), s.Readable)
			}
			if tt.warn != "" && !slices.ContainsFunc(l.Untrusted, func(n Notice) bool { return strings.Contains(n.Text, tt.warn) }) {
				t.Errorf("untrusted notices %v lack %q", l.Untrusted, tt.warn)
			}
		})
	}
}

func TestEnforceSettingsErrors(t *testing.T) {
	for _, text := range []string{
		"[sandbox]\nenforce = \"yes\"",
		"[sandbox]\nnetwork = \"true\"",
		"[sandbox]\nauto_allow = 1",
		"[sandbox]\nunconfined = [\"Read(x)\"]",
		"[sandbox]\nwritable = [1]",
		"[sandbox]\nreadable = [1]",
		"[sandbox]\nenforced = \"required\"",
	} {
		v := newCfgEnv(t)
		v.write(v.file(policy.SourceUser), text+"\n")
		if _, err := Load(v.opts()); err == nil || !IsConfigError(err) {
			t.Errorf("%q: got %v, want a config error", text, err)
		}
	}
}
