package enforce

import (
	"strconv"
	"strings"

	"github.com/gatekeep/gatekeep/policy/confine/spec"
)

// Proxy is the one way out of a confined command's network namespace
// (spec.Proxy).
type Proxy = spec.Proxy

// DefaultProxyPort is the port the proxy listens on inside the
// namespace (squid's: some tools assume it for a local proxy).
const DefaultProxyPort = 3128

// ProxyEnv are the variables that point the tools at the proxy on port:
// the standard ones in both cases (curl reads http_proxy only in lower
// case, Go and Python read both), npm's own (npm_config_proxy,
// npm_config_https_proxy: npm reads its config before the environment),
// and git's http.proxy through GIT_CONFIG_COUNT, which beats an
// http.proxy in the user's or the repository's config. NO_PROXY keeps
// the namespace's own loopback direct. env is the command's environment,
// whose variables of the same names it replaces.
func ProxyEnv(env []string, port int) []string {
	u := "http://127.0.0.1:" + strconv.Itoa(port)
	set := map[string]string{
		"HTTP_PROXY": u, "HTTPS_PROXY": u, "ALL_PROXY": u, "http_proxy": u, "https_proxy": u, "all_proxy": u,
		"NO_PROXY": "localhost,127.0.0.1,::1", "no_proxy": "localhost,127.0.0.1,::1",
		"npm_config_proxy": u, "npm_config_https_proxy": u, "npm_config_noproxy": "localhost,127.0.0.1,::1",
	}
	count := 0
	out := make([]string, 0, len(env)+len(set)+3)
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if _, ok := set[name]; ok {
			continue
		}
		if name == "GIT_CONFIG_COUNT" {
			if n, err := strconv.Atoi(value); err == nil && n >= 0 {
				count = n
			}
			continue
		}
		out = append(out, kv)
	}
	for _, name := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
		"NO_PROXY", "no_proxy", "npm_config_proxy", "npm_config_https_proxy", "npm_config_noproxy"} {
		out = append(out, name+"="+set[name])
	}
	n := strconv.Itoa(count)
	return append(out, "GIT_CONFIG_KEY_"+n+"=http.proxy", "GIT_CONFIG_VALUE_"+n+"="+u,
		"GIT_CONFIG_COUNT="+strconv.Itoa(count+1))
}
