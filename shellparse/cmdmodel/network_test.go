package cmdmodel

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNetworkDestinations: the model names the hosts a network line
// reaches, and the config files that could move a registry, and knows
// nothing of a line it cannot read whole.
func TestNetworkDestinations(t *testing.T) {
	env := NetworkEnv{Getenv: func(string) string { return "" }, Home: "/home/u",
		Dirs: func() []string { return []string{"/home/u/proj"} }}
	for _, c := range []struct {
		line    string
		hosts   []Destination
		configs []string // files that must be among Configs
	}{
		{"curl -sS allowed.test/x", []Destination{{"allowed.test", 80}}, nil},
		{"curl --url https://a.test:8443/x", []Destination{{"a.test", 8443}}, nil},
		{"wget -q https://a.test/x", []Destination{{"a.test", 443}}, nil},
		{"git clone --depth 1 https://github.com/a/b dir", []Destination{{"github.com", 443}}, nil},
		{"pip install demo", []Destination{{"pypi.org", 443}, {"files.pythonhosted.org", 443}},
			[]string{"/etc/pip.conf", "/home/u/.config/pip/pip.conf", "/home/u/.pip/pip.conf"}},
		{"pip3 download -i https://a.test/simple demo", []Destination{{"a.test", 443}}, []string{"/etc/pip.conf"}},
		{"npm ci", []Destination{{"registry.npmjs.org", 443}},
			[]string{"/etc/npmrc", "/home/u/.npmrc", "/home/u/proj/.npmrc", "/home/.npmrc", "/.npmrc"}},
		{"npm install --registry=https://a.test/ x", []Destination{{"a.test", 443}}, []string{"/home/u/proj/.npmrc"}},
		// --proto-default takes a value (curl(1)), as the command
		// model's curl says, and moves a bare host to another scheme and
		// port: not known (the words read as two hosts before).
		{"curl --proto-default https allowed.test", nil, nil},
		{"curl -m 5 allowed.test", []Destination{{"allowed.test", 80}}, nil},
		{"wget -T 5 https://a.test/x", []Destination{{"a.test", 443}}, nil},
		{"curl -d x https://a.test/", nil, nil},
		{"curl -X POST https://a.test/", nil, nil},
		{"wget -i list", nil, nil},
		{"git push https://github.com/a/b", nil, nil},
		{"git -C x fetch https://github.com/a/b", nil, nil},
		{"pip install -r req.txt", nil, nil},
		{"npm publish", nil, nil},
		{"ssh host", nil, nil},
	} {
		d, ok := NetworkDestinations(strings.Fields(c.line), env)
		if ok != (c.hosts != nil) || !slices.Equal(d.Hosts, c.hosts) {
			t.Errorf("%s: got %v %v, want %v", c.line, d.Hosts, ok, c.hosts)
		}
		for _, f := range c.configs {
			if !slices.Contains(d.Configs, f) {
				t.Errorf("%s: %s not among the config files %v", c.line, f, d.Configs)
			}
		}
		if len(d.Configs) > 0 && d.Moves == nil {
			t.Errorf("%s: config files without the keys that move a registry", c.line)
		}
	}
	// npm run in a directory known only at run time reads npmrc files
	// from places not known.
	env.Dirs = func() []string { return []string{""} }
	if _, ok := NetworkDestinations([]string{"npm", "install"}, env); ok {
		t.Error("npm in an unknown directory is known")
	}
	env.Getenv = func(k string) string {
		if k == "npm_config_registry" || k == "PIP_PROXY" {
			return "https://corp.test/"
		}
		return ""
	}
	env.Dirs = func() []string { return []string{"/p"} }
	for _, l := range []string{"npm install", "pip install demo"} {
		if _, ok := NetworkDestinations(strings.Fields(l), env); ok {
			t.Errorf("%s: known with the registry moved by the environment", l)
		}
	}
	for _, k := range []string{"registry", "@corp:registry", "https-proxy"} {
		if !NpmMoves(k) {
			t.Errorf("npmrc key %s does not move the registry", k)
		}
	}
	for _, k := range []string{"extra_index_url", "index-url", "find-links"} {
		if !PipMoves(k) {
			t.Errorf("pip.conf key %s does not move the index", k)
		}
	}
	if NpmMoves("cafile") || PipMoves("cert") {
		t.Error("a key that moves nothing moves the registry")
	}
}

// TestNetworkOptsRealTools: the options destination reasoning admits for
// curl and wget take a value exactly when the real tool does, as the
// command model's curl and wget say (the one description readOpts reads):
// given `OPT --version`, a tool whose OPT takes a value takes --version
// as it and finds no URL; one whose OPT is a flag prints its version.
func TestNetworkOptsRealTools(t *testing.T) {
	for _, spec := range []optSpec{curlOpts, wgetOpts} {
		bin := needBinary(t, spec.model)
		m, _ := LookupSpec(spec.model, false)
		for _, opt := range strings.Fields(spec.allowed) {
			cmd := exec.Command(bin, opt, "--version")
			cmd.Dir = t.TempDir()
			out, err := cmd.CombinedOutput()
			flagReal := err == nil && (strings.Contains(string(out), "curl ") || strings.Contains(string(out), "GNU Wget"))
			k, known := m.opts[strings.TrimLeft(opt, "-")]
			flagModel := !known || k == flag || k == optional
			if flagReal != flagModel {
				t.Errorf("%s %s: the real tool reads it as a flag: %v, the model: %v (%q)", spec.model, opt, flagReal, flagModel, firstLine(string(out)))
			}
		}
	}
}
