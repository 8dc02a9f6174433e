package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/cmd/enforce"
	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
)

// enforcement is the kernel confinement of one call (design §10): its
// level and, when a tier is in effect, the plan.
type enforcement struct {
	level policy.EnforceLevel
	plan  enforce.Plan
}

// enforcementJSON is check --json's `enforcement` member.
type enforcementJSON struct {
	Level string `json:"level"`
	enforce.Plan
}

// parseEnforceFlag reads --enforce and GATEKEEP_ENFORCE: a level name, or
// 1/true (required) and 0/false (off).
func parseEnforceFlag(v string) (policy.EnforceLevel, error) {
	switch v {
	case "", "0", "false":
		return policy.EnforceOff, nil
	case "1", "true":
		return policy.EnforceRequired, nil
	}
	return policy.ParseEnforceLevel(v)
}

// enforceLevel is the strictest of --enforce, GATEKEEP_ENFORCE and the
// configuration: none of them can loosen what another asks for.
func (a *app) enforceLevel() policy.EnforceLevel {
	l := a.enforceFlag
	if a.loaded != nil && a.loaded.Enforce.Enforce > l {
		l = a.loaded.Enforce.Enforce
	}
	return l
}

// support probes the machine once per run.
func (a *app) support() enforce.Support {
	if a.probed == nil {
		s := enforce.Probe()
		a.probed = &s
	}
	return *a.probed
}

// enforceable reports whether a call of this tool can be confined: the
// shell and the file tools.
func enforceable(req policy.Request) bool {
	switch req.Tool {
	case policy.ToolBash, policy.ToolRead, policy.ToolWrite, policy.ToolEdit:
		return true
	}
	return false
}

// applyEnforcement decides how the call d allows (or asks for) is
// confined, before the person is asked: it sets a.enf to the plan, or
// turns d into a deny with sandbox.unavailable when enforcement is
// required and no tier works. Under check the tier comes from the full
// probe; before a run, Landlock's presence is enough to try (Run falls
// back from the full tier, and a failure there is still a deny).
func (a *app) applyEnforcement(cfg *policy.Config, req policy.Request, d policy.Decision, check bool) policy.Decision {
	level := a.enforceLevel()
	if d.Code == policy.CodeSandboxAutoAllow {
		// Allowed because it runs fully confined: required, full tier,
		// no fallback.
		a.enf = &enforcement{level: policy.EnforceRequired, plan: a.enforcePlan(cfg, enforce.TierFull, !check)}
		a.enf.plan.RequireFull = true
		return d
	}
	if why, ok := a.bypassConfines(cfg, req, d); ok {
		return a.confineBypass(cfg, req, d, check, why)
	}
	if level == policy.EnforceOff || d.Effect == policy.Deny || !enforceable(req) {
		return d
	}
	if policy.Unconfined(cfg, a.loaded.Enforce.Unconfined, req) {
		if check {
			a.enf = &enforcement{level: level, plan: enforce.Plan{Tier: enforce.TierNone,
				Limits: []string{"a [sandbox] unconfined pattern names this command: it runs unconfined"}}}
		}
		return d
	}
	var tier enforce.Tier
	switch {
	case check:
		tier = a.support().Tier()
	case enforce.LandlockABI() >= 1:
		tier = enforce.TierFull
	default:
		tier = enforce.TierNone
	}
	if req.Tool != policy.ToolBash && tier != enforce.TierNone {
		// The file tools are gatekeep's own code: Landlock bounds its
		// writes in process; no namespace is made for them.
		tier = enforce.TierLandlock
	}
	if tier == enforce.TierNone {
		if level == policy.EnforceRequired {
			return unavailableDeny(d, "this machine has no working Landlock")
		}
		if check {
			a.enf = &enforcement{level: level, plan: enforce.Plan{Tier: enforce.TierNone, Limits: enforce.Limits(enforce.TierNone, 0)}}
		} else {
			a.noteUnconfined("this machine has no working Landlock")
		}
		return d
	}
	a.enf = &enforcement{level: level, plan: a.enforcePlan(cfg, tier, !check)}
	return d
}

// bypassConfines reports whether a shell call that bypassPermissions lets
// through holds a part whose effects the text does not show
// (policy.Decision.Opaque), so that its files, devices and secrets rest
// on the kernel instead (`[sandbox] bypass`, "confine" by default); why
// names the part. A call enforcement already confines is left to that.
func (a *app) bypassConfines(cfg *policy.Config, req policy.Request, d policy.Decision) (string, bool) {
	if cfg.Mode != policy.ModeBypass || a.loaded.Enforce.BypassOff || req.Tool != policy.ToolBash ||
		d.Effect == policy.Deny || d.Effect == policy.Ask && d.Final || a.enforceLevel() != policy.EnforceOff {
		return "", false
	}
	s, ok := d.Opaque()
	if !ok {
		return "", false
	}
	return s.Subject + " (" + s.Message + ")", true
}

// confineBypass gives a bypassPermissions call the kernel plan of an
// enforced run, with the network left on (the guarantees are about files,
// devices and secrets). Without a working Landlock it runs unconfined as
// before, and says so on stderr once per gatekeep version.
func (a *app) confineBypass(cfg *policy.Config, req policy.Request, d policy.Decision, check bool, why string) policy.Decision {
	tier := enforce.TierFull
	if check {
		tier = a.support().Tier()
	} else if enforce.LandlockABI() < 1 {
		tier = enforce.TierNone
	}
	if tier == enforce.TierNone {
		if !check {
			a.noteBypassUnconfined()
		}
		return d
	}
	plan := a.enforcePlan(cfg, tier, !check)
	plan.Network = true
	plan.Limits = append(plan.Limits, "bypassPermissions runs it confined, since the text does not show all it does: "+why)
	a.enf = &enforcement{level: policy.EnforceBestEffort, plan: plan}
	return d
}

// noteBypassUnconfined says once per gatekeep version, on stderr, that
// bypassPermissions runs what the text cannot show unconfined on this
// machine: a marker file in gatekeep's cache directory remembers it.
func (a *app) noteBypassUnconfined() {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = ""
	}
	marker := ""
	if dir != "" {
		marker = filepath.Join(dir, "gatekeep", "bypass-unconfined-"+strings.ReplaceAll(Version, "/", "_"))
		if _, err := os.Stat(marker); err == nil {
			return
		}
	}
	fmt.Fprintln(a.stderr, "gatekeep: this machine has no working Landlock, so in bypassPermissions what the text cannot show "+
		"(scripts, unknown programs) runs unconfined: its guarantees rest on the text alone (gatekeep doctor)")
	if marker != "" {
		if os.MkdirAll(filepath.Dir(marker), 0o700) == nil {
			_ = os.WriteFile(marker, nil, 0o600)
		}
	}
}

// autoAllow applies `[sandbox] auto_allow` (issue 15) to a shell call
// that asks: it probes the machine (only then) and lets
// policy.SandboxAutoAllow turn the ask into an allow that runs confined.
func (a *app) autoAllow(cfg *policy.Config, req policy.Request, d policy.Decision) policy.Decision {
	s := a.loaded.Enforce
	if !s.AutoAllow || d.Effect != policy.Ask || req.Tool != policy.ToolBash {
		return d
	}
	ad := policy.SandboxAutoAllow(cfg, req, d, policy.AutoAllowOptions{Network: s.Network, Unconfined: s.Unconfined,
		Tier: string(a.support().Tier()), Hosts: s.AllowedHosts, Env: policy.NetworkEnv{Getenv: os.Getenv, Home: cfg.Home}})
	return ad
}

// unavailableDeny is the deny for a call that must be confined and
// cannot be.
func unavailableDeny(d policy.Decision, why string) policy.Decision {
	return policy.Decision{Effect: policy.Deny, Layer: policy.LayerSandbox, Code: policy.CodeSandboxUnavailable,
		Message: "enforcement is required and the command cannot be confined: " + why,
		Command: d.Command, Offset: -1, Category: d.Category, Mode: d.Mode, UpdatedInput: d.UpdatedInput, Trace: d.Trace}
}

// noteUnconfined says once on stderr that best-effort enforcement runs a
// command unconfined.
func (a *app) noteUnconfined(why string) {
	if a.notedUnconfined {
		return
	}
	a.notedUnconfined = true
	fmt.Fprintf(a.stderr, "gatekeep: enforcement is best-effort and %s: running unconfined\n", why)
}

// runArgv execs argv, confined when a.enf is set.
func (a *app) runArgv(args []string) error {
	path, err := a.commandPath(args[0])
	if err != nil {
		return err
	}
	if a.enf == nil {
		return execPath(path, args)
	}
	return a.runConfined(path, args)
}

// runShell execs `shell -c script [args...]`, confined when a.enf is set.
func (a *app) runShell(shell, script string, args []string) error {
	if a.enf == nil {
		return execShell(shell, script, args)
	}
	return a.runConfined(shell, append([]string{shell, "-c", script}, args...))
}

// runConfined runs path under a.enf's plan and returns its exit status.
func (a *app) runConfined(path string, argv []string) error {
	anchors := a.watchAnchors()
	defer func() {
		for _, an := range anchors {
			an.Close()
		}
	}()
	var rootAnchor *enforce.Anchor
	if a.enf.plan.Shapes != nil {
		if an, err := enforce.OpenAnchor(realOrSelf(a.loaded.Root)); err == nil {
			rootAnchor = an
			defer an.Close()
		}
	}
	var git *enforce.Anchor
	var gitState *enforce.GitState
	if d := a.enf.plan.GitDir; d != "" {
		if an, err := enforce.OpenAnchor(d); err == nil {
			git, gitState = an, an.ReadGitState()
			defer an.Close()
		}
	}
	links := recordGitLinks(a.enf.plan)
	plan := a.enf.plan
	a.startProxy(&plan)
	status, err := enforce.Run(plan, path, argv, shellEnv(), func(msg string) {
		fmt.Fprintf(a.stderr, "gatekeep: %s\n", msg)
	})
	a.endProxy()
	if rootAnchor != nil {
		a.sweepShapes(rootAnchor)
	}
	a.checkWatched(anchors)
	a.sweepGitLinks(links, rootAnchor, git)
	if git != nil {
		// The project's git dir stays a repository: else git would
		// look above the project for one.
		for _, msg := range git.RepairGitDir(gitState) {
			fmt.Fprintf(a.stderr, "gatekeep: the confined command changed %s: %s\n", a.enf.plan.GitDir, msg)
		}
	}
	var ue *enforce.UnavailableError
	var ee *enforce.ExecError
	switch {
	case errors.As(err, &ue):
		if a.enf.level == policy.EnforceRequired {
			a.printDeny(unavailableDeny(policy.Decision{Mode: a.mode0()}, ue.Err.Error()))
			return silentExit(a.denyExitCode)
		}
		a.noteUnconfined("the sandbox could not be set up (" + ue.Err.Error() + ")")
		a.enf = nil
		return execPath(path, argv)
	case errors.As(err, &ee):
		if errors.Is(ee.Errno, syscall.ENOENT) {
			return withCode(ExitNotFound, errors.New(argv[0]+": "+ee.Error()))
		}
		return withCode(ExitNotExec, errors.New(argv[0]+": "+ee.Error()))
	case err != nil:
		return withCode(ExitInternal, err)
	}
	return silentExit(status)
}

func (a *app) mode0() policy.Mode {
	if m, err := policy.ParseMode(a.mode); err == nil {
		return m
	}
	return ""
}

// watchAnchors opens, before the command runs, each writable dir that
// holds a watched path (keyed by the dir).
func (a *app) watchAnchors() map[string]*enforce.Anchor {
	anchors := map[string]*enforce.Anchor{}
	for _, p := range a.enf.plan.Watched {
		w := writableRoot(a.enf.plan.Writable, p)
		if w == "" || anchors[w] != nil {
			continue
		}
		if an, err := enforce.OpenAnchor(w); err == nil {
			anchors[w] = an
		}
	}
	return anchors
}

// writableRoot is the innermost writable dir holding p, or "".
func writableRoot(writable []string, p string) string {
	best := ""
	for _, w := range writable {
		if w != p && within(w, p) && len(w) > len(best) {
			best = w
		}
	}
	return best
}

// checkWatched removes the protected files that did not exist when the
// command started and do now: a mount cannot keep a missing path from
// being created, so the full tier takes it away afterwards and says so.
// Only a regular file is removed, found from the writable dir's handle
// taken before the run with no symbolic link on the way (the command may
// have swapped a directory for a link elsewhere); anything else is
// reported and left.
func (a *app) checkWatched(anchors map[string]*enforce.Anchor) {
	for _, p := range a.enf.plan.Watched {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		w := writableRoot(a.enf.plan.Writable, p)
		an := anchors[w]
		if an == nil {
			fmt.Fprintf(a.stderr, "gatekeep: the confined command created the protected path %s; it was not removed (no handle of its directory)\n", p)
			continue
		}
		rel, err := filepath.Rel(w, p)
		if err == nil {
			err = an.RemoveFile(rel)
		}
		switch {
		case errors.Is(err, enforce.ErrNotRegular):
			fmt.Fprintf(a.stderr, "gatekeep: the confined command created the protected path %s, which is not a regular file; it was not removed\n", p)
		case errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EXDEV):
			fmt.Fprintf(a.stderr, "gatekeep: the confined command created the protected path %s through a link; it was not removed\n", p)
		case errors.Is(err, syscall.ENOENT):
		case err != nil:
			fmt.Fprintf(a.stderr, "gatekeep: the confined command created the protected path %s, which could not be removed: %v\n", p, err)
		default:
			fmt.Fprintf(a.stderr, "gatekeep: removed %s: the confined command created it, and it is a protected path\n", p)
		}
	}
}

// sweepShapes looks, after the confined command ended, for the protected
// shapes (pathguard.ShapeOf) it added anywhere in the project: a new
// repository or directory git takes for a git directory (a later git run
// there would follow its config unconfined), new sequencer state in a git
// dir (`git rebase --continue` runs its exec lines), new agent or editor
// settings or .mcp.json (run when the agent or editor next starts),
// whether made in place or through a link. Each is quarantined: renamed,
// from the project's handle taken before the run, to a name nothing
// reads (enforce.QuarantineSuffix), and reported. Nothing is deleted.
func (a *app) sweepShapes(root *enforce.Anchor) {
	realRoot := realOrSelf(a.loaded.Root)
	// A shape counts as the person's only where it was before the run,
	// under the same identity: one made anew in its place (its directory
	// renamed away and remade) is the command's, and so is one of theirs
	// the command moved elsewhere (quarantining it only renames it).
	before := map[string]bool{}
	for _, s := range a.enf.plan.Shapes {
		before[s] = true
	}
	theirs := func(path string) bool {
		if !before[path] {
			return false
		}
		id, ok := enforce.IDOf(path)
		was, known := a.enf.plan.ShapeIDs[path]
		return !ok || !known || was == id
	}
	quarantine := func(path string, kind pathguard.Shape) {
		rel, err := filepath.Rel(realRoot, path)
		if err != nil {
			return
		}
		switch to, err := root.Quarantine(rel); {
		case err == nil:
			unheadQuarantined(root, to, kind)
			fmt.Fprintf(a.stderr, "gatekeep: the confined command created %s (%s), which a later unconfined run would obey; moved it to %s\n", path, kind, filepath.Join(realRoot, to))
		case errors.Is(err, syscall.ENOENT):
		default:
			fmt.Fprintf(a.stderr, "gatekeep: the confined command created %s (%s), which a later unconfined run would obey, and it could not be moved away: %v\n", path, kind, err)
		}
	}
	if a.tree == nil {
		a.tree = planTree(realRoot, nil)
	}
	// The plan's walk recorded every directory's stamp before the run:
	// only those the command changed, and new ones, are read again.
	a.tree.walk(func(path string, d fs.DirEntry) error {
		if path == realRoot {
			return nil
		}
		dir := d.IsDir()
		kind := treeShape(path, d)
		if kind == "" {
			return nil
		}
		if !theirs(path) {
			quarantine(path, kind)
			if dir {
				return filepath.SkipDir
			}
			return nil
		}
		if kind == pathguard.ShapeRepository && dir {
			a.sweepGitDir(path, theirs, quarantine)
			return filepath.SkipDir
		}
		return nil
	})
}

// sweepGitDir is sweepShapes inside a git dir that was there before:
// sequencer state and submodule git dirs below modules/ (where the tier
// could not keep modules/ read-only) that are not the person's (theirs:
// where they were, under the same identity) — the same shapes
// gitStateShapes records before the run.
func (a *app) sweepGitDir(git string, theirs func(string) bool, quarantine func(string, pathguard.Shape)) {
	for _, s := range gitStateShapes(git) {
		if theirs(s) {
			continue
		}
		kind := pathguard.ShapeGitState
		if !slices.Contains(pathguard.GitStateDirs, filepath.Base(s)) {
			kind = pathguard.ShapeGitDir
		}
		quarantine(s, kind)
	}
}

// confinedFile runs a file tool's operation confined when a.enf is set.
func (a *app) confinedFile(do func() error) error {
	if a.enf == nil {
		return do()
	}
	err := enforce.Confined(a.enf.plan, do)
	var ue *enforce.UnavailableError
	if errors.As(err, &ue) {
		if a.enf.level == policy.EnforceRequired {
			a.printDeny(unavailableDeny(policy.Decision{Mode: a.mode0()}, ue.Err.Error()))
			return silentExit(a.denyExitCode)
		}
		a.noteUnconfined("the sandbox could not be set up (" + ue.Err.Error() + ")")
		return do()
	}
	return err
}

// sandboxCmd is `gatekeep sandbox status`.
func (a *app) sandboxCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "sandbox",
		Short: "Kernel enforcement: what this machine supports",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageErr("sandbox needs a subcommand: status or allow-host")
		},
	}
	var asJSON bool
	status := &cobra.Command{
		Use:   "status [--json]",
		Short: "Print what this machine supports and the tier a call would get",
		Long: `Print what this machine supports (Landlock, seccomp, user namespaces, each
probed by trying it), the tier a confined call would get, and what that tier
would confine for a call in the current directory: writable and read-only
paths, hidden secrets, network, and what it cannot enforce.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			cfg, _, err := a.config()
			if err != nil {
				return a.configError(err)
			}
			s := a.support()
			tier := s.Tier()
			out := struct {
				Source  string          `json:"source"`
				Version int             `json:"version"`
				Support enforce.Support `json:"support"`
				enforcementJSON
			}{Source: "gatekeep", Version: SchemaVersion, Support: s,
				enforcementJSON: enforcementJSON{Level: a.enforceLevel().String(), Plan: a.enforcePlan(cfg, tier, false)}}
			a.proxyPlan(&out.Plan)
			if asJSON {
				writeJSONLine(a.stdout, out)
				return nil
			}
			w := a.stdout
			fmt.Fprintf(w, "landlock:    %s\n", yesNo(s.Landlock, fmt.Sprintf("ABI %d", s.LandlockABI)))
			fmt.Fprintf(w, "seccomp:     %s\n", yesNo(s.Seccomp, ""))
			fmt.Fprintf(w, "namespaces:  %s\n", yesNo(s.Namespaces, "user, mount, network"))
			fmt.Fprintf(w, "tier:        %s\n", tier)
			fmt.Fprintf(w, "enforce:     %s\n", a.enforceLevel())
			writePlanText(w, out.Plan)
			if hosts := a.loaded.Enforce.AllowedHosts; out.Plan.Proxy == nil && !hosts.Empty() {
				fmt.Fprintf(w, "allowed:     %s (not reachable in this tier)\n", strings.Join(hosts.Strings(), ", "))
			}
			for _, e := range s.Errors {
				fmt.Fprintf(w, "probe:       %s\n", e)
			}
			return nil
		},
	}
	status.Flags().BoolVar(&asJSON, "json", false, "print the status as one JSON object")
	c.AddCommand(status, a.allowHostCmd())
	return c
}

func yesNo(b bool, detail string) string {
	if !b {
		return "no"
	}
	if detail == "" {
		return "yes"
	}
	return "yes (" + detail + ")"
}

// writePlanText renders a plan for people.
func writePlanText(w io.Writer, p enforce.Plan) {
	list := func(name string, items []string) {
		if len(items) == 0 {
			fmt.Fprintf(w, "%-12s (none)\n", name+":")
			return
		}
		fmt.Fprintf(w, "%-12s %s\n", name+":", strings.Join(items, "\n             "))
	}
	list("writable", p.Writable)
	list("read-only", p.ReadOnly)
	list("hidden", p.Hidden)
	if len(p.Watched) > 0 {
		list("watched", p.Watched)
	}
	fmt.Fprintf(w, "network:     %s\n", map[bool]string{true: "on", false: "off"}[p.Network])
	if p.Proxy != nil {
		list("allowed", p.Proxy.Hosts)
	}
	for _, l := range p.Limits {
		fmt.Fprintf(w, "limit:       %s\n", l)
	}
}
