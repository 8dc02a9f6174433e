package cmd

import "strings"

// SetProxyRedirectFromEnv makes the proxy of this (test) process dial,
// for each "host:port=address" of the comma-separated value, address
// instead: the enforcement scripts' servers answer for names such as
// allowed.test on loopback ports. Only the test binary calls it.
func SetProxyRedirectFromEnv(v string) {
	if v == "" {
		return
	}
	m := map[string]string{}
	for _, kv := range strings.Split(v, ",") {
		if from, to, ok := strings.Cut(kv, "="); ok {
			m[from] = to
		}
	}
	proxyRedirect = m
}
