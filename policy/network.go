package policy

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// HostEntry is one item of `[sandbox] allowed_hosts` (docs/enforcement.md,
// "Allowed hosts"): a host name, `*.` and a domain for every name below
// it (not the domain itself), or an IP address; with `:PORT` the entry
// admits that port only, without it ports 80 and 443.
type HostEntry struct {
	// Name is the host name in lower case without a final dot, or the
	// domain after `*.`, or the IP address.
	Name string
	// Sub is set for a `*.` entry.
	Sub bool
	// Port is the one port the entry admits; 0 admits 80 and 443.
	Port int
}

// String renders the entry as it is written in the configuration.
func (e HostEntry) String() string {
	s := e.Name
	if e.Sub {
		s = "*." + s
	}
	if strings.Contains(e.Name, ":") {
		s = "[" + s + "]"
	}
	if e.Port != 0 {
		s += ":" + strconv.Itoa(e.Port)
	}
	return s
}

// ParseHostEntry reads one allowed_hosts item. A name is letters, digits,
// hyphens and underscores in dot-separated labels; `*.` needs a domain
// of two labels or more (`*.com` would admit a whole top-level domain);
// an IPv6 address is written in brackets when it has a port. Anything
// else (a URL, a path, `*` alone, a port outside 1-65535) is an error.
func ParseHostEntry(s string) (HostEntry, error) {
	var e HostEntry
	in := strings.ToLower(strings.TrimSpace(s))
	if in == "" {
		return e, errors.New("empty host")
	}
	if strings.Contains(in, "/") {
		return e, fmt.Errorf("%q: want a host name or host:port, not a URL or path", s)
	}
	host, port := in, ""
	switch {
	case strings.HasPrefix(in, "["):
		end := strings.Index(in, "]")
		if end < 0 {
			return e, fmt.Errorf("%q: unbalanced bracket", s)
		}
		host, port = in[1:end], strings.TrimPrefix(in[end+1:], ":")
		if in[end+1:] != "" && !strings.HasPrefix(in[end+1:], ":") {
			return e, fmt.Errorf("%q: want [address]:port", s)
		}
	case strings.Count(in, ":") == 1:
		host, port, _ = strings.Cut(in, ":")
	}
	if port != "" || strings.HasSuffix(in, ":") {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return e, fmt.Errorf("%q: the port must be a number from 1 to 65535", s)
		}
		e.Port = n
	}
	if a, err := netip.ParseAddr(host); err == nil {
		e.Name = a.Unmap().String()
		return e, nil
	}
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		e.Sub, host = true, rest
	}
	host = strings.TrimSuffix(host, ".")
	if !validHostName(host) {
		return e, fmt.Errorf("%q: not a host name (letters, digits, hyphens, dots; `*.` only in front)", s)
	}
	if e.Sub && !strings.Contains(host, ".") {
		return e, fmt.Errorf("%q: `*.` needs a domain of two labels or more", s)
	}
	e.Name = host
	return e, nil
}

// validHostName reports whether s is dot-separated labels of letters,
// digits, hyphens and underscores (not starting or ending with a hyphen),
// at most 253 bytes.
func validHostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}

// Admits reports whether the entry lets a connection to host (a name or
// an address, any case, a final dot ignored) on port through.
func (e HostEntry) Admits(host string, port int) bool {
	if e.Port != 0 && port != e.Port || e.Port == 0 && port != 80 && port != 443 {
		return false
	}
	h := strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if a, err := netip.ParseAddr(h); err == nil {
		h = a.Unmap().String()
	}
	if e.Sub {
		return strings.HasSuffix(h, "."+e.Name)
	}
	return h == e.Name
}

// AllowedHosts is `[sandbox] allowed_hosts` over the config layers: the
// hosts a confined command may reach through gatekeep's proxy. Entries
// come from the managed and user files and the trusted project and local
// files; an untrusted project file can only take hosts away: a host must
// also be on each list such a file sets (Within).
type AllowedHosts struct {
	Allow  []HostEntry
	Within [][]HostEntry
}

// Empty reports whether no host can be reached.
func (h AllowedHosts) Empty() bool {
	if len(h.Allow) == 0 {
		return true
	}
	for _, w := range h.Within {
		if len(w) == 0 {
			return true
		}
	}
	return false
}

// Admits reports whether a connection to host on port may go through.
func (h AllowedHosts) Admits(host string, port int) bool {
	admits := func(list []HostEntry) bool {
		return slices.ContainsFunc(list, func(e HostEntry) bool { return e.Admits(host, port) })
	}
	if !admits(h.Allow) {
		return false
	}
	for _, w := range h.Within {
		if !admits(w) {
			return false
		}
	}
	return true
}

// Strings lists the entries of Allow as written (for `sandbox status`).
func (h AllowedHosts) Strings() []string {
	out := make([]string, 0, len(h.Allow))
	for _, e := range h.Allow {
		out = appendUniqueStr(out, e.String())
	}
	return out
}

func appendUniqueStr(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// NetworkEnv is what destination reasoning reads outside the command
// text: the environment the command inherits and the user's home.
type NetworkEnv struct {
	Getenv func(string) string
	Home   string
}

// destinationsAdmitted reports whether every place the network command c
// (a needsNetwork command) connects to is known from the text and the
// tool's own configuration (cmdmodel.NetworkDestinations) and admitted
// by hosts. Anything else, and anything pushing (git push, npm publish,
// curl -d/-F/-T), is not: it keeps asking.
func destinationsAdmitted(c *shellparse.Command, cwd string, env NetworkEnv, hosts AllowedHosts) bool {
	if hosts.Empty() {
		return false
	}
	known, ok := knownDestinations(c, cwd, env)
	return ok && len(notAdmitted(known, hosts)) == 0
}

// knownDestinations are the places the network command c connects to, when
// the text and the tool's own configuration show them all (ok).
func knownDestinations(c *shellparse.Command, cwd string, env NetworkEnv) ([]cmdmodel.Destination, bool) {
	// Without the environment (a caller that gave none) a registry may
	// be moved by a variable no one can see: not known.
	if env.Getenv == nil || c == nil || !c.Bare() || len(c.Assigns) > 0 || len(c.Via) > 0 || c.TrailingArgs ||
		c.DirDynamic || c.UserFunc || c.Unknown != "" || len(c.Tainted) > 0 {
		return nil, false
	}
	words := make([]string, len(c.Args))
	for i, a := range c.Args {
		if a.Dynamic {
			return nil, false
		}
		words[i] = a.Text
	}
	d, ok := cmdmodel.NetworkDestinations(words, cmdmodel.NetworkEnv{Getenv: env.Getenv, Home: env.Home,
		Dirs: func() []string { return commandDirs(cwd, c) }})
	if !ok || len(d.Hosts) == 0 {
		return nil, false
	}
	for _, f := range d.Configs {
		if !configFileKeeps(f, d.Moves) {
			return nil, false
		}
	}
	return d.Hosts, true
}

// notAdmitted are the destinations hosts does not admit, as allow-host
// entries (host, or host:port for a port other than 80 and 443), each once.
func notAdmitted(ds []cmdmodel.Destination, hosts AllowedHosts) []string {
	var out []string
	for _, h := range ds {
		if hosts.Admits(h.Host, h.Port) {
			continue
		}
		e := h.Host
		if h.Port != 80 && h.Port != 443 {
			e = net.JoinHostPort(h.Host, strconv.Itoa(h.Port))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// noNetworkMessage says why the network tool subject is not run confined
// without asking (sandbox.no_network).
// missing are the known destinations not on the list (none when they are
// not all known): the message names the line that would add them.
func noNetworkMessage(subject string, hosts AllowedHosts, missing []string) string {
	if hosts.Empty() {
		return subject + " needs the network, and the sandbox has no network ([sandbox] network = false)"
	}
	if len(missing) > 0 {
		return subject + " connects to " + strings.Join(missing, ", ") + ", which [sandbox] allowed_hosts does not hold (to let confined commands reach it: gatekeep sandbox allow-host " + strings.Join(missing, " ") + ")"
	}
	return subject + " needs the network, and the sandbox reaches only [sandbox] allowed_hosts, which do not hold every place it connects to as far as the text and the tool's configuration show (a push or upload is never judged from them)"
}

// configFileKeeps reports whether the INI-style config file path (pip.conf,
// npmrc) is missing, or is a regular file that sets no key moves says
// moves the destination. Keys are compared in lower case; a file that
// cannot be read, or is larger than 1 MiB, keeps nothing.
func configFileKeeps(path string, moves func(key string) bool) bool {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return true
	}
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		// An indented line is a key to npm's ini (it trims each line) and
		// a value's continuation to pip's configparser: read as a key, it
		// can only make the answer "moves".
		if t == "" || t[0] == '#' || t[0] == ';' || t[0] == '[' {
			continue
		}
		key, _, ok := strings.Cut(t, "=")
		if k2, _, ok2 := strings.Cut(t, ":"); ok2 && (!ok || len(k2) < len(key)) && !strings.HasPrefix(t, "@") && !strings.HasPrefix(t, "//") {
			key, ok = k2, true
		}
		if !ok {
			// A key without a value (npm reads it as true).
			key = t
		}
		// npm's ini unquotes a quoted key ("registry"=...).
		key = strings.TrimSpace(key)
		if len(key) >= 2 && (key[0] == '"' || key[0] == '\'') && key[len(key)-1] == key[0] {
			key = strings.TrimSpace(key[1 : len(key)-1])
		}
		if moves(strings.ToLower(key)) {
			return false
		}
	}
	return true
}
