package cmd

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/cmd/enforce"
	"github.com/gatekeep/gatekeep/cmd/netproxy"
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/config"
)

// proxyRedirect maps "host:port" to the address gatekeep's proxy dials
// instead, for names that resolve nowhere (allowed.test). Only the test
// binary sets it (export_test.go), from its own environment: no flag,
// variable or configuration of the gatekeep binary reaches it, so nothing
// an agent controls can make an allowed name lead to another place.
var proxyRedirect map[string]string

// proxyCall is the call a confined run's proxy serves: its connections
// are audited with it.
type proxyCall struct {
	req policy.Request
	srv *netproxy.Server
}

// attachProxy gives a confined shell call with the network off its way
// to `[sandbox] allowed_hosts` (docs/enforcement.md, "Allowed hosts"): in
// the full tier, gatekeep's proxy; the landlock tier has no network
// namespace, in which a port rule alone would also admit that port on
// every other host, so there the network stays off and a limit says so.
// With no allowed host nothing changes.
func (a *app) attachProxy(req policy.Request) {
	if a.enf == nil || a.enf.plan.Network || a.loaded == nil || req.Tool != policy.ToolBash {
		return
	}
	a.proxyPlan(&a.enf.plan)
	if a.enf.plan.Proxy != nil {
		a.proxy = &proxyCall{req: req}
	}
}

// proxyPlan adds the proxy (or the limit that says why there is none) to
// plan p.
func (a *app) proxyPlan(p *enforce.Plan) {
	hosts := a.loaded.Enforce.AllowedHosts
	if p.Network || hosts.Empty() {
		return
	}
	switch p.Tier {
	case enforce.TierFull:
		p.Proxy = &enforce.Proxy{Port: enforce.DefaultProxyPort, Hosts: hosts.Strings()}
	case enforce.TierLandlock:
		p.Limits = append(p.Limits, "the landlock tier has no network namespace to confine the proxy's port to, so [sandbox] allowed_hosts are not reachable: the network stays off")
	}
}

// startProxy makes the server of plan p's proxy (nil without one) and
// hands its Serve to enforce.Run.
func (a *app) startProxy(p *enforce.Plan) {
	if p.Proxy == nil || a.proxy == nil {
		p.Proxy = nil
		return
	}
	hosts := a.loaded.Enforce.AllowedHosts
	srv := &netproxy.Server{Admit: hosts.Admits}
	if proxyRedirect != nil {
		srv.Dial = func(ctx context.Context, host string, port int) (net.Conn, error) {
			hp := net.JoinHostPort(host, strconv.Itoa(port))
			if to, ok := proxyRedirect[hp]; ok {
				hp = to
			}
			var d net.Dialer
			return d.DialContext(ctx, "tcp", hp)
		}
	}
	proxy := *p.Proxy
	proxy.Serve = srv.Serve
	p.Proxy = &proxy
	a.proxy.srv = srv
}

// endProxy reports the proxy's connections after the run: each goes to
// the audit log with the call, and each refused destination gets one
// line on stderr with the command that would allow it.
func (a *app) endProxy() {
	if a.proxy == nil || a.proxy.srv == nil {
		return
	}
	events, dropped := a.proxy.srv.Events()
	seen := map[string]bool{}
	for _, e := range events {
		if a.auditFile != "" {
			if err := a.auditConnection(a.proxy.req, e); err != nil {
				fmt.Fprintf(a.stderr, "gatekeep: cannot write the audit log: %v\n", err)
			}
		}
		if e.Allowed || e.Reason != netproxy.NotAllowed {
			continue
		}
		dest := net.JoinHostPort(e.Host, strconv.Itoa(e.Port))
		if seen[dest] {
			continue
		}
		seen[dest] = true
		if len(seen) > maxRefusedLines {
			continue
		}
		entry := e.Host
		if e.Port != 80 && e.Port != 443 {
			entry = dest
		}
		if he, err := policy.ParseHostEntry(entry); err == nil {
			fmt.Fprintf(a.stderr, "gatekeep: refused the connection to %s (not on [sandbox] allowed_hosts); to allow it: gatekeep sandbox allow-host %s\n", dest, he)
		} else {
			fmt.Fprintf(a.stderr, "gatekeep: refused the connection to %q (not on [sandbox] allowed_hosts)\n", dest)
		}
	}
	if n := len(seen) - maxRefusedLines; n > 0 {
		fmt.Fprintf(a.stderr, "gatekeep: and %d more refused destinations\n", n)
	}
	if dropped > 0 {
		fmt.Fprintf(a.stderr, "gatekeep: %d more connections through the proxy were not recorded\n", dropped)
		if a.auditFile != "" {
			// The log says so too: past the bounds, refused connections
			// are only counted (netproxy's record).
			e := netproxy.Event{Reason: fmt.Sprintf("%d more connections were not recorded one by one", dropped), Count: dropped}
			if err := a.auditConnection(a.proxy.req, e); err != nil {
				fmt.Fprintf(a.stderr, "gatekeep: cannot write the audit log: %v\n", err)
			}
		}
	}
}

// maxRefusedLines bounds the refused destinations printed after a run.
const maxRefusedLines = 20

// auditConnection appends one proxied connection to the audit log, with
// the call it belonged to.
func (a *app) auditConnection(req policy.Request, e netproxy.Event) error {
	d := policy.Decision{Effect: policy.Allow, Layer: policy.LayerSandbox, Code: policy.CodeSandboxHostAllowed}
	if !e.Allowed {
		d.Effect, d.Code = policy.Deny, policy.CodeSandboxHostRefused
	}
	input := req.Command
	if req.Argv != nil {
		input = strings.Join(req.Argv, " ")
	}
	rec := newAuditRecord(d, "cli", "", req.Tool, input, "")
	rec.Connection = &e
	return appendAudit(a.auditFile, rec)
}

// allowHostCmd is `gatekeep sandbox allow-host HOST...`.
func (a *app) allowHostCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "allow-host HOST...",
		Short: "Let confined commands reach HOST through gatekeep's proxy ([sandbox] allowed_hosts of the local config file)",
		Long: `Add each HOST to [sandbox] allowed_hosts of the project's local config file
(.gatekeep/config.local.toml), the person's own file for this machine: under
its lock, replaced atomically, as 'rules add' writes. HOST is a name
(registry.npmjs.org), *. and a domain for every name below it
(*.pythonhosted.org), or an address; ports 80 and 443, unless HOST:PORT
names another.

  gatekeep sandbox allow-host pypi.org files.pythonhosted.org
  gatekeep sandbox allow-host 'git.example.com:8443'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, hosts []string) error {
			for _, h := range hosts {
				if _, err := policy.ParseHostEntry(h); err != nil {
					return usageErr("%v", err)
				}
			}
			_, opts, err := a.loadOptions()
			if err != nil {
				return err
			}
			file, present, err := config.AddLocalHosts(opts, hosts)
			if err != nil {
				return withCode(ExitFailure, fmt.Errorf("saving the host: %w", err))
			}
			if len(present) > 0 {
				fmt.Fprintf(a.stdout, "already allowed: %s in %s (not added again)\n", strings.Join(present, ", "), file)
			}
			var added []string
			for _, h := range hosts {
				e, _ := policy.ParseHostEntry(h)
				if s := e.String(); !slices.Contains(present, s) && !slices.Contains(added, s) {
					added = append(added, s)
				}
			}
			if len(added) > 0 {
				fmt.Fprintf(a.stdout, "allowed %s in %s\n", strings.Join(added, ", "), file)
			}
			return nil
		},
	}
}
