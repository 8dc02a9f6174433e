package config

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/gatekeep/gatekeep/policy"
)

// sandboxHeaderRe matches a `[sandbox]` table header line;
// allowedHostsRe the first line of an `allowed_hosts` key.
var (
	sandboxHeaderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\s*sandbox\s*\]\s*(#.*)?$`) })
	allowedHostsRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*"?allowed_hosts"?\s*=`) })
)

// AddLocalHosts adds hosts (allowed_hosts entries, policy.ParseHostEntry)
// to `[sandbox] allowed_hosts` of the project's local config file, as
// AppendLocalRules adds rules: under the file's lock, with its trust
// carried over, replaced atomically. The file's text is kept: the key's
// value is rewritten in place, or the key added to an existing
// `[sandbox]` table, or a `[sandbox]` table appended. Entries the file
// holds already are returned in present and not added again. Afterwards
// the configuration is loaded again, and an error is returned unless
// every host is admitted.
func AddLocalHosts(opts LoadOptions, hosts []string) (file string, present []string, err error) {
	var want []policy.HostEntry
	for _, h := range hosts {
		e, err := policy.ParseHostEntry(h)
		if err != nil {
			return "", nil, err
		}
		want = append(want, e)
	}
	if len(want) == 0 {
		return "", nil, errors.New("no host to add")
	}
	var added []policy.HostEntry
	verify := func() error {
		file := LocalConfigPath(opts.Root)
		l, err := Load(opts)
		if err != nil {
			return fmt.Errorf("the host was written to %s, but the configuration does not load, so it is not in force: %w", file, err)
		}
		for _, e := range added {
			host, port := e.Name, e.Port
			if e.Sub {
				host = "x." + host
			}
			if port == 0 {
				port = 443
			}
			if !l.Enforce.AllowedHosts.Admits(host, port) {
				return fmt.Errorf("%s was written to %s but is not in force (an untrusted project file's allowed_hosts leaves it out, or the local file is not trusted: see `gatekeep config path`)", e, file)
			}
		}
		return nil
	}
	file, err = editLocal(opts, true, "an allowed host", verify, func(old []byte) ([]byte, error) {
		var doc struct {
			Sandbox map[string]any `toml:"sandbox"`
		}
		if err := CheckTOMLShape("", old); err != nil {
			return nil, err
		}
		if _, err := toml.Decode(string(old), &doc); err != nil {
			return nil, fmt.Errorf("%s does not parse: %w", LocalConfigPath(opts.Root), err)
		}
		var list []string
		_, hasKey := doc.Sandbox["allowed_hosts"]
		if hasKey {
			items, ok := doc.Sandbox["allowed_hosts"].([]any)
			if !ok {
				return nil, errors.New("allowed_hosts in the local config file is not a list: edit it by hand")
			}
			for _, it := range items {
				s, ok := it.(string)
				if !ok {
					return nil, errors.New("allowed_hosts in the local config file holds a non-string: edit it by hand")
				}
				list = append(list, s)
			}
		}
		held := map[policy.HostEntry]bool{}
		for _, s := range list {
			if e, err := policy.ParseHostEntry(s); err == nil {
				held[e] = true
			}
		}
		for _, e := range want {
			switch {
			case held[e]:
				present = append(present, e.String())
			case !slices.Contains(added, e):
				added = append(added, e)
				list = append(list, e.String())
			}
		}
		if len(added) == 0 {
			return nil, nil
		}
		line := "allowed_hosts = " + tomlList(list)
		var next []byte
		lines := strings.Split(string(old), "\n")
		switch {
		case doc.Sandbox == nil:
			next = appendBlock(old, []byte("[sandbox]\n"+line+"\n"))
		case !hasKey:
			i := slices.IndexFunc(lines, func(l string) bool { return sandboxHeaderRe().MatchString(l) })
			if i < 0 {
				return nil, errors.New("the [sandbox] table of the local config file cannot be found line by line: edit it by hand")
			}
			next = []byte(strings.Join(slices.Insert(lines, i+1, line), "\n"))
		default:
			start, end := keyExtent(lines)
			if start < 0 {
				return nil, errors.New("allowed_hosts of the local config file cannot be found line by line: edit it by hand")
			}
			next = []byte(strings.Join(slices.Concat(lines[:start], []string{line}, lines[end:]), "\n"))
		}
		// The edit must leave the file as it was but for the list.
		var check struct {
			Sandbox map[string]any `toml:"sandbox"`
		}
		if _, err := toml.Decode(string(next), &check); err != nil || !sameStrings(check.Sandbox["allowed_hosts"], list) {
			return nil, errors.New("allowed_hosts could not be added to the local config file's text: edit it by hand")
		}
		return next, nil
	})
	return file, present, err
}

// keyExtent finds the allowed_hosts key inside the [sandbox] table of
// lines: its first line and the line after its value (a list may span
// lines; the value ends at the first line where it decodes).
func keyExtent(lines []string) (int, int) {
	in := false
	for i, l := range lines {
		if sandboxHeaderRe().MatchString(l) {
			in = true
			continue
		}
		if tableHeaderRe().MatchString(l) {
			in = false
			continue
		}
		if !in || !allowedHostsRe().MatchString(l) {
			continue
		}
		for j := i; j < len(lines); j++ {
			var v map[string]any
			if _, err := toml.Decode(strings.Join(lines[i:j+1], "\n"), &v); err == nil {
				return i, j + 1
			}
		}
		return -1, -1
	}
	return -1, -1
}

// tomlList renders host entries as a TOML array of strings (entries hold
// no quote or backslash: policy.ParseHostEntry).
func tomlList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = `"` + s + `"`
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func sameStrings(v any, want []string) bool {
	items, ok := v.([]any)
	if !ok || len(items) != len(want) {
		return false
	}
	for i, it := range items {
		if s, ok := it.(string); !ok || s != want[i] {
			return false
		}
	}
	return true
}
