package config

import (
	"fmt"

	"github.com/gatekeep/gatekeep/policy"
)

// rawEnforce are the enforcement keys of a `[sandbox]` table.
type rawEnforce struct {
	Enforce    tomlString  `toml:"enforce"`
	Network    any         `toml:"network"`
	Writable   tomlStrings `toml:"writable"`
	Readable   tomlStrings `toml:"readable"`
	AutoAllow  any         `toml:"auto_allow"`
	Unconfined tomlStrings `toml:"unconfined"`
	Bypass     tomlString  `toml:"bypass"`
	// AllowedHosts is read apart: an empty list is meaningful there.
	AllowedHosts tomlStrings `toml:"allowed_hosts"`
}

// enforceFile is one file's enforcement keys, validated.
type enforceFile struct {
	enforce            policy.EnforceLevel
	enforceSet         bool
	network, autoAllow *bool
	writable           []string
	writableSet        bool
	readable           []string
	unconfined         []*policy.Rule
	// bypassOff: `bypass = "off"` (true) or "confine" (false).
	bypassOff *bool
	// hosts are `allowed_hosts` when hostsSet (an empty list included).
	hosts    []policy.HostEntry
	hostsSet bool
}

// enforceKeys validates one file's enforcement keys.
func (c *compiler) enforceKeys(fe *fileErrs, source string, r rawEnforce) enforceFile {
	var f enforceFile
	if r.Enforce.set {
		line := fe.keyLine("sandbox", "enforce")
		if r.Enforce.bad != "" {
			fe.add(line, "sandbox.enforce", "%s", r.Enforce.bad)
		} else if l, err := policy.ParseEnforceLevel(r.Enforce.s); err != nil {
			fe.add(line, "sandbox.enforce", "%v", err)
		} else {
			f.enforce, f.enforceSet = l, true
		}
	}
	boolKey := func(name string, v any) *bool {
		if v == nil {
			return nil
		}
		b, ok := v.(bool)
		if !ok {
			fe.add(fe.keyLine("sandbox", name), "sandbox."+name, "want true or false, got %s", tomlType(v))
			return nil
		}
		return &b
	}
	if r.Bypass.set {
		line := fe.keyLine("sandbox", "bypass")
		switch {
		case r.Bypass.bad != "":
			fe.add(line, "sandbox.bypass", "%s", r.Bypass.bad)
		case r.Bypass.s == "off" || r.Bypass.s == "confine":
			off := r.Bypass.s == "off"
			f.bypassOff = &off
		default:
			fe.add(line, "sandbox.bypass", "want \"confine\" or \"off\", got %q", r.Bypass.s)
		}
	}
	f.network = boolKey("network", r.Network)
	f.autoAllow = boolKey("auto_allow", r.AutoAllow)
	if r.Writable.set {
		f.writableSet = true
		f.writable = c.dirsKey(fe, "writable", r.Writable)
	}
	if r.Readable.set {
		f.readable = c.dirsKey(fe, "readable", r.Readable)
	}
	if r.Unconfined.set {
		line := fe.keyLine("sandbox", "unconfined")
		if r.Unconfined.bad != "" {
			fe.add(line, "sandbox.unconfined", "%s", r.Unconfined.bad)
		}
		for i, text := range r.Unconfined.list {
			r, err := c.rules.Rule(text, policy.RuleRef{Rule: text, Effect: policy.Ask, Source: source, File: fe.path, Line: line})
			if err == nil && r.Tool != policy.ToolBash {
				err = fmt.Errorf("only Bash(...) patterns can run unconfined, not %s", r.Tool)
			}
			if err != nil {
				fe.add(line, fmt.Sprintf("sandbox.unconfined[%d]", i), "%v", err)
				continue
			}
			r.Trusted, r.Active = true, true
			f.unconfined = append(f.unconfined, r)
		}
	}
	if r.AllowedHosts.set {
		f.hosts, f.hostsSet = hostsKey(fe, r.AllowedHosts), true
	}
	return f
}

// hostsKey validates `allowed_hosts`: each item a host entry
// (policy.ParseHostEntry); an empty list is allowed (it takes every host
// away).
func hostsKey(fe *fileErrs, t tomlStrings) []policy.HostEntry {
	line := fe.keyLine("sandbox", "allowed_hosts")
	if t.bad != "" && t.bad != "the list is empty" {
		fe.add(line, "sandbox.allowed_hosts", "%s", t.bad)
	}
	out := []policy.HostEntry{}
	for i, h := range t.list {
		e, err := policy.ParseHostEntry(h)
		if err != nil {
			fe.add(line, fmt.Sprintf("sandbox.allowed_hosts[%d]", i), "%v", err)
			continue
		}
		out = append(out, e)
	}
	return out
}

// dirsKey validates a `[sandbox]` list of directories (writable,
// readable): each made absolute, `~` expanded; an empty list is allowed.
func (c *compiler) dirsKey(fe *fileErrs, name string, t tomlStrings) []string {
	line := fe.keyLine("sandbox", name)
	if t.bad != "" && t.bad != "the list is empty" {
		fe.add(line, "sandbox."+name, "%s", t.bad)
	}
	var out []string
	for i, d := range t.list {
		abs, err := expandPath(d, c.root, c.home)
		if err != nil {
			fe.add(line, fmt.Sprintf("sandbox.%s[%d]", name, i), "%v", err)
			continue
		}
		out = append(out, abs)
	}
	return out
}

// mergeEnforce adds one file's enforcement keys to l, leaving out the
// loosening ones of an untrusted file (their names go to ignored).
func (l *Loaded) mergeEnforce(f enforceFile, trusted bool, ignored *[]string) {
	s := &l.Enforce
	if f.enforceSet && f.enforce > s.Enforce {
		s.Enforce = f.enforce
	}
	tighten := func(name string, v *bool, dst *bool, denied *bool) {
		switch {
		case v == nil:
		case !*v:
			*dst, *denied = false, true
		case !trusted:
			*ignored = append(*ignored, "sandbox."+name)
		case !*denied:
			*dst = true
		}
	}
	tighten("network", f.network, &s.Network, &l.networkOff)
	tighten("auto_allow", f.autoAllow, &s.AutoAllow, &l.autoAllowOff)
	// "off" loosens (a trusted file only), "confine" tightens.
	tighten("bypass", f.bypassOff, &s.BypassOff, &l.bypassConfine)
	if f.writableSet {
		if trusted {
			s.WritableSet = true
			s.Writable = append(s.Writable, f.writable...)
		} else {
			*ignored = append(*ignored, "sandbox.writable")
		}
	}
	if len(f.readable) > 0 {
		if trusted {
			s.Readable = append(s.Readable, f.readable...)
		} else {
			*ignored = append(*ignored, "sandbox.readable")
		}
	}
	// A trusted file adds hosts; any other file can only take them away:
	// a host must be on its list too.
	if f.hostsSet {
		if trusted {
			s.AllowedHosts.Allow = append(s.AllowedHosts.Allow, f.hosts...)
		} else {
			s.AllowedHosts.Within = append(s.AllowedHosts.Within, f.hosts)
		}
	}
	if len(f.unconfined) > 0 {
		if trusted {
			s.Unconfined = append(s.Unconfined, f.unconfined...)
		} else {
			*ignored = append(*ignored, "sandbox.unconfined")
		}
	}
}
