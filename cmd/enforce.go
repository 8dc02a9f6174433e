package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/cmd/enforce"
	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/confine"
)

// enforcement is the kernel confinement of one call: its level and, when
// a tier is in effect, the plan.
type enforcement struct {
	level policy.EnforceLevel
	plan  enforce.Plan
	// shapeIDs are the plan's Shapes' FileIDs before the run: a shape
	// that is there after it under another identity (a directory renamed
	// away and a new one made in its place) is new.
	shapeIDs map[string]enforce.FileID
	// early is the full tier's helper, started while the plan was made
	// (startEarly); nil when there is none.
	early *enforce.Early
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
	q := policy.EnforceQuery{Level: a.enforceFlag}
	if a.loaded != nil {
		q.Settings = a.loaded.Enforce
	}
	return q.Strictest()
}

// support probes the machine once per run.
func (a *app) support() enforce.Support {
	if a.probed == nil {
		s := enforce.Probe()
		a.probed = &s
	}
	return *a.probed
}

// enforceQuery is what policy.Decide needs to choose how a call runs
// confined: the settings, --enforce, and this machine's tiers. Under check
// (or with confine false) the tier comes from the full probe; before a
// run, Landlock's presence is enough to try (Run falls back from the full
// tier, and a failure there is still a deny). Auto-allow always asks the
// full probe. Without confine (check --batch) no call is confined. The
// network tools' own configuration is read from the environment and
// cfg's home.
func (a *app) enforceQuery(cfg *policy.Config, check, confine bool) policy.EnforceQuery {
	probed := func() string { return string(a.support().Tier()) }
	q := policy.EnforceQuery{Settings: a.loaded.Enforce, Level: a.enforceFlag, ProbedTier: probed,
		NetworkEnv: policy.NetworkEnv{Getenv: os.Getenv, Home: cfg.Home}}
	switch {
	case !confine:
	case check:
		q.Tier = probed
	default:
		q.Tier = func() string {
			if enforce.LandlockABI() >= 1 {
				return string(enforce.TierFull)
			}
			return string(enforce.TierNone)
		}
	}
	return q
}

// applyConfinement sets a.enf to the plan of c, policy.Decide's
// confinement of the call, worked out from the project (creating the
// caches and the protected dirs that are harmless to create empty, except
// under check); a call that runs unconfined is said on stderr once.
func (a *app) applyConfinement(cfg *policy.Config, c *policy.Confinement, check bool) {
	switch {
	case c == nil:
	case c.BypassUnconfined:
		if !check {
			a.noteBypassUnconfined()
		}
	case c.Tier == policy.TierNone:
		if !check {
			if c.Unconfined != "" {
				a.noteUnconfined(c.Unconfined)
			}
			return
		}
		limits := c.Limits
		if len(limits) == 0 {
			limits = confine.Limits(confine.TierNone, 0)
		}
		a.enf = &enforcement{level: c.Level, plan: enforce.Plan{Tier: enforce.TierNone, Limits: limits}}
	default:
		if !check && a.auditFile != "" {
			// The log is gatekeep's, to be kept read-only like the
			// protected paths: made before the plan, which watches
			// what is missing (and removes what the command created).
			if f, err := openAudit(a.auditFile); err == nil {
				f.Close()
			}
		}
		plan := a.enforcePlan(cfg, enforce.Tier(c.Tier), !check)
		plan.Network, plan.RequireFull = c.Network, c.RequireFull
		plan.Limits = append(plan.Limits, c.Limits...)
		a.enf = &enforcement{level: c.Level, plan: plan, shapeIDs: make(map[string]enforce.FileID, len(plan.Shapes))}
		for _, s := range plan.Shapes {
			if id, ok := enforce.IDOf(s); ok {
				a.enf.shapeIDs[s] = id
			}
		}
	}
}

// enforcePlan is confine.Build for a call in this configuration, keeping
// the project's tree as the plan walked it for the sweep after the run.
func (a *app) enforcePlan(cfg *policy.Config, tier enforce.Tier, create bool) enforce.Plan {
	plan, tree := confine.Build(confine.Input{Config: cfg, Settings: a.loaded.Enforce, Root: a.loaded.Root,
		AuditFile: a.auditFile, Tier: tier, LandlockABI: enforce.LandlockABI(), Create: create,
		Getenv: os.Getenv, LookPath: exec.LookPath})
	a.tree = tree
	return plan
}

// startEarly starts the full tier's helper for a call that will run in
// it, before its plan is worked out (enforce.StartEarly): a start of
// gatekeep in new namespaces takes about as long as the plan, and they
// overlap. None for a call that may still be denied or asked about (the
// person's answer can take minutes), nor for one that reaches the proxy
// (its helper is made with the proxy's socket pair).
func (a *app) startEarly(req policy.Request, ans policy.Answer) *enforce.Early {
	c, d := ans.Confine, ans.Decision
	if c == nil || c.BypassUnconfined || c.Tier != string(enforce.TierFull) || req.Tool != policy.ToolBash {
		return nil
	}
	if d.Effect != policy.Allow && (d.Effect != policy.Ask || !ans.Bypass) {
		return nil
	}
	if !c.Network && a.loaded != nil && !a.loaded.Enforce.AllowedHosts.Empty() {
		return nil
	}
	return enforce.StartEarly(c.Network, shellEnv())
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
		if an, err := enforce.OpenAnchor(confine.RealOrSelf(a.loaded.Root)); err == nil {
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
	status, err := enforce.Run(plan, a.enf.early, path, argv, shellEnv(), func(msg string) {
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
			a.printDeny(policy.UnavailableDeny(policy.Decision{Mode: a.mode0()}, ue.Err.Error()))
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
		if w != p && confine.Within(w, p) && len(w) > len(best) {
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
	realRoot := confine.RealOrSelf(a.loaded.Root)
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
		was, known := a.enf.shapeIDs[path]
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
		a.tree = confine.NewTree(realRoot, nil)
	}
	// The plan's walk recorded every directory's stamp before the run:
	// only those the command changed, and new ones, are read again.
	a.tree.Walk(func(path string, d fs.DirEntry) error {
		if path == realRoot {
			return nil
		}
		dir := d.IsDir()
		kind := confine.TreeShape(path, d)
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
	for _, s := range confine.GitStateShapes(git) {
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
			a.printDeny(policy.UnavailableDeny(policy.Decision{Mode: a.mode0()}, ue.Err.Error()))
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
