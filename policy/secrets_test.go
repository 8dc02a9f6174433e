package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDefaultSecrets: the agents' own tokens, package registry and cloud
// credentials, gpg private keys and other processes' environments are
// denied to reads (file tool and shell) by the embedded layer, in every
// mode; their neighbours and /proc/self/environ are not.
func TestDefaultSecrets(t *testing.T) {
	v := newCfgEnv(t)
	secrets := []string{
		".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json",
		".npmrc", ".pypirc",
		".config/gcloud/credentials.db", ".config/gcloud/access_tokens.db",
		".config/gcloud/application_default_credentials.json",
		".config/gcloud/legacy_credentials/me@example.com/adc.json",
		".azure/msal_token_cache.json", ".azure/accessTokens.json", ".azure/service_principal_entries.json",
		".gnupg/private-keys-v1.d/ABCDEF.key", ".gnupg/secring.gpg",
		".config/git/credentials", ".cargo/credentials.toml", ".cargo/credentials", ".local/share/uv/credentials/credentials.toml", ".pgpass",
		".cache/huggingface/token", ".huggingface/token", ".vault-token", ".config/rclone/rclone.conf",
		".terraform.d/credentials.tfrc.json", ".gem/credentials", ".m2/settings-security.xml", ".m2/settings.xml",
		".gradle/gradle.properties", ".yarnrc.yml", ".s3cfg", ".boto",
		// ssh private keys under any name.
		".ssh/deploy_key", ".ssh/github_ed25519", ".ssh/keys/prod.pem", ".ssh/ID_RSA.pub",
		// Credential stores of common tools, private keys by name, histories.
		".my.cnf", ".mylogin.cnf", ".aws/sso/cache/0a1b.json", ".aws/cli/cache/role.json", ".config/github-copilot/apps.json",
		".config/github-copilot/hosts.json", ".cache/huggingface/stored_tokens", ".ollama/id_ed25519",
		"backup/id_rsa", "work/deploy/id_ed25519", "id_ecdsa", "old/id_dsa",
		".bash_history", ".zsh_history", ".python_history", ".node_repl_history", ".psql_history", ".mysql_history",
		".sqlite_history", ".irb_history", ".lesshst", ".local/share/fish/fish_history", "work/p/.envrc",
	}
	plain := []string{".claude/settings.json", ".codex/config.toml", ".gemini/GEMINI.md", ".config/gcloud/configurations/config_default", ".gnupg/pubring.kbx",
		".ssh/known_hosts", ".ssh/config", ".ssh/deploy_key.pub", ".ssh/id_ed25519.pub", ".ssh/authorized_keys",
		".cargo/config.toml", ".m2/repository/x.pom", ".gradle/init.gradle", ".config/git/config",
		".ollama/id_ed25519.pub", "backup/id_rsa.pub", ".aws/config", ".local/share/uv/python/x.py", ".cache/huggingface/hub/x.json", ".local/share/fish/fish_variables"}
	for _, f := range append(append([]string(nil), secrets...), plain...) {
		v.write(filepath.Join(v.home, f), "x")
	}
	for _, m := range Modes {
		cfg := v.config(v.load(), m)
		for _, f := range secrets {
			for _, d := range []Decision{
				Evaluate(cfg, Request{Tool: ToolRead, Path: "~/" + f, Cwd: v.root}),
				v.bash(cfg, "cat ~/"+f),
			} {
				if d.Effect != Deny || d.Code != "rule.deny" || d.Rule == nil || d.Rule.Source != SourceDefault || d.Rule.Reason == "" {
					t.Errorf("%s: read ~/%s: %v %s, want deny by a default rule with a reason", m, f, d.Effect, d.Code)
				}
			}
		}
		// A command gatekeep does not know may run its words as a command.
		for _, c := range []string{"flock /tmp/l cat ~/.gnupg/secring.gpg", "taskset 1 cp ~/.npmrc x", "strace -f cat ~/.pypirc",
			"flock /tmp/l -c 'cat ~/.npmrc'", "su -c 'cp ~/.pypirc x' me", "script -qc \"su -c 'cat ~/.npmrc'\" /dev/null"} {
			if d := v.bash(cfg, c); d.Effect != Deny || d.Code != "rule.deny" {
				t.Errorf("%s: %s: %v %s, want deny", m, c, d.Effect, d.Code)
			}
		}
		for _, f := range []string{"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/ssh/ssh_host_ed25519_key"} {
			for _, d := range []Decision{Evaluate(cfg, Request{Tool: ToolRead, Path: f, Cwd: v.root}), v.bash(cfg, "cat "+f)} {
				if d.Effect != Deny || d.Code != "rule.deny" {
					t.Errorf("%s: read %s: %v %s, want deny", m, f, d.Effect, d.Code)
				}
			}
		}
		if d := v.bash(cfg, "cat /proc/1/environ"); d.Effect != Deny || d.Code != "rule.deny" {
			t.Errorf("%s: cat /proc/1/environ: %v %s, want deny", m, d.Effect, d.Code)
		}
		if d := v.bash(cfg, "cat /proc/1/task/1/environ"); d.Effect != Deny || d.Code != "rule.deny" {
			t.Errorf("%s: cat /proc/1/task/1/environ: %v %s, want deny", m, d.Effect, d.Code)
		}
	}
	cfg := v.config(v.load(), ModeDefault)
	for _, f := range plain {
		if d := Evaluate(cfg, Request{Tool: ToolRead, Path: "~/" + f, Cwd: v.root}); d.Effect != Allow {
			t.Errorf("read ~/%s: %v %s, want allow", f, d.Effect, d.Code)
		}
	}
	if _, err := os.Stat("/proc/self/environ"); err == nil {
		// The command's own environment: /proc/self is not resolved to
		// gatekeep's pid.
		if d := v.bash(cfg, "cat /proc/self/environ"); d.Effect != Allow {
			t.Errorf("cat /proc/self/environ: %v %s (%s), want allow", d.Effect, d.Code, d.Message)
		}
	}
}

// TestReadDenySpellings: every spelling of a secret's path
// that the danger and sandbox layers see meets the Read deny rules, in
// every mode; a read of a run-time name in a directory a deny rule
// covers is a final ask; the same spellings of a plain file are not
// denied.
func TestReadDenySpellings(t *testing.T) {
	v := newCfgEnv(t)
	v.write(filepath.Join(v.home, ".ssh", "id_rsa"), "x")
	v.write(filepath.Join(v.root, ".env"), "x")
	v.write(filepath.Join(v.root, "README"), "x")
	v.write(filepath.Join(v.root, "sub", ".env"), "x")
	denied := []string{
		"cat ~/.ssh/id_rsa{,}", "x=.env; cat $x", "cat .e{n,}v", `for f in ~/.ssh/id_rsa; do cat "$f"; done`,
		"find . -name .env -exec cat {} +", `find . -name .env -execdir cat {} \;`, "find sub -name .env -ok cat {} ';'",
		"find . -name .env -print -exec cat {} +", "cat $PWD/.env", "cat ${PWD}/.env", "cat ~+/.env", "cat $HOME/.ssh/id_rsa",
		"read f <<< .env; cat $f", "read -r a b <<< 'README .env'; cat $b", "read -a arr <<< 'x .env'; cat ${arr[1]}",
		`a=(README .env); cat "${a[@]}"`, "a=(.env); cat $a", `for f in ~/.ssh/*; do cat "$f"; done`,
		"echo .env | xargs cat", "find . -name .env | xargs cat", "x=~/.ssh; cat $x/id_rsa", "d=sub; cp $d/.env copy",
	}
	for _, m := range Modes {
		cfg := v.config(v.load(), m)
		for _, c := range denied {
			if d := v.bash(cfg, c); d.Effect != Deny || d.Code != CodeRuleDeny {
				t.Errorf("%s: %s: %v %s (%s), want deny %s", m, c, d.Effect, d.Code, d.Message, CodeRuleDeny)
			}
		}
		for _, c := range []string{"cat ~/.ssh/$x", `cat "$HOME/.ssh/$(ls ~/.ssh | head -1)"`, "grep -r k ~/.ssh/$x"} {
			d := v.bash(cfg, c)
			if m == ModePlan {
				if d.Effect != Deny {
					t.Errorf("plan: %s: %v %s, want deny", c, d.Effect, d.Code)
				}
				continue
			}
			if d.Effect != Ask || !d.Final || d.Code != CodeRuleDenyRuntimeName {
				t.Errorf("%s: %s: %v final=%v %s (%s), want final ask %s", m, c, d.Effect, d.Final, d.Code, d.Message, CodeRuleDenyRuntimeName)
			}
		}
	}
	cfg := v.config(v.load(), ModeBypass)
	for _, c := range []string{"x=README; cat $x", "cat READ{ME,}", "for f in README; do cat \"$f\"; done",
		"find . -name README -exec cat {} +", "cat $PWD/README", "cat ~/$x", "cat $x", "cat ~/.ssh/known_hosts{,}",
		"find . -name '*.go' -exec grep -l TODO {} +"} {
		if d := v.bash(cfg, c); d.Effect != Allow {
			t.Errorf("bypassPermissions: %s: %v %s (%s), want allow", c, d.Effect, d.Code, d.Message)
		}
	}
}
