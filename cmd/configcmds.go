package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/config"
)

// rulesCmd: `gatekeep rules [--json]` lists the effective rules in the
// order the chain scans them.
func (a *app) rulesCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "rules [--json]",
		Short: "List the effective rules in evaluation order",
		Long: `List every rule of every config layer in the order the chain scans them:
managed, user, project, local, default; inside a layer from the bottom up
(the last matching rule of a layer wins). Rules of an untrusted project file
that do not apply yet are marked inactive. The default layer's allow rules
are listed as "except": they exempt paths from the denies above them there
(key files inside the project, .env.example) and never allow a call.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if _, _, err := a.config(); err != nil {
				return a.configError(err)
			}
			rules, danger := a.loaded.Rules.Rules(), a.loaded.Rules.DangerRules()
			if asJSON {
				type listed struct {
					*policy.Rule
					// CarveOut marks an allow rule of the default layer: it
					// only exempts paths from the denies above it there and
					// never allows a call (the mode decides).
					CarveOut bool `json:"carve_out,omitempty"`
				}
				out := make([]listed, len(rules))
				for i, r := range rules {
					out[i] = listed{r, carveOut(r)}
				}
				writeJSONLine(a.stdout, struct {
					envelope
					Rules  []listed             `json:"rules"`
					Danger []*policy.DangerRule `json:"danger"`
				}{newEnvelope(), out, danger})
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "#\tlayer\teffect\trule\twhere\tstate")
			for i, r := range rules {
				effect, state := r.Ref.Effect.String(), ruleState(r)
				if carveOut(r) {
					effect, state = "except", "exempts it from the denies above; the mode decides"
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", i+1, r.Ref.Source, effect, r.Ref.Rule, where(r.Ref), state)
			}
			for _, d := range danger {
				fmt.Fprintf(tw, "-\t%s\tdeny\t[[danger]] %s\t%s\tactive\n", d.Ref.Source, d.Ref.Rule, where(d.Ref))
			}
			return flushOut(tw)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the rules as JSON")
	c.AddCommand(a.rulesAddCmd(), a.rulesRemoveCmd())
	return c
}

// flushOut writes out what tw holds; stdout failing is gatekeep's own
// error (exit 70), not the command line's.
func flushOut(tw *tabwriter.Writer) error {
	if err := tw.Flush(); err != nil {
		return withCode(ExitInternal, fmt.Errorf("writing to stdout: %w", err))
	}
	return nil
}

// carveOut: an allow rule of the embedded default layer, which only
// carves an exception out of a default deny and never allows anything
// itself.
func carveOut(r *policy.Rule) bool {
	return r.Ref.Source == policy.SourceDefault && r.Ref.Effect == policy.Allow
}

func where(r policy.RuleRef) string {
	if r.File == "" {
		return r.Source
	}
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d", r.File, r.Line)
	}
	return r.File
}

func ruleState(r *policy.Rule) string {
	switch {
	case r.Active:
		return "active"
	case !r.Trusted:
		return "inactive (untrusted: run gatekeep trust)"
	}
	return "inactive"
}

// configCmd: `gatekeep config path|validate`.
func (a *app) configCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "config (path | validate)",
		Short: "Show where the config files are, or validate them",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return usageErr("config needs a subcommand: path or validate")
		},
	}
	var asJSON bool
	path := &cobra.Command{
		Use:   "path [--json]",
		Short: "Print each config layer's file: where it is or would be, and its trust state",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, opts, err := a.loadOptions()
			if err != nil {
				return err
			}
			files := config.ConfigFiles(opts)
			if asJSON {
				writeJSONLine(a.stdout, struct {
					envelope
					Files []config.FileInfo `json:"files"`
				}{newEnvelope(), files})
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "layer\tfile\tstate")
			for _, f := range files {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Source, f.Path, fileState(f))
			}
			return flushOut(tw)
		},
	}
	path.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	var validateJSON bool
	validate := &cobra.Command{
		Use:   "validate [--json]",
		Short: "Load every config layer, report errors (exit 78) and lint warnings",
		Long: `Load every config layer and report all errors at once (exit 78), then lint
warnings: a rule shadowed by a later rule of the same file, a duplicated rule,
an allow rule that opens a shell or interpreter to any arguments, an allow
rule in an untrusted file. Warnings alone exit 0. --json prints one object:
ok, errors (file, line, key, message) and warnings (code, file, line, key,
rule, message).`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, opts, err := a.loadOptions()
			if err != nil {
				return err
			}
			_, lints, err := config.Validate(opts)
			if validateJSON {
				out := validateJSONOut{envelope: newEnvelope(), OK: err == nil, Errors: config.ConfigErrors(err), Warnings: lints}
				if err != nil && len(out.Errors) == 0 {
					out.Errors = []*config.ConfigError{{Msg: err.Error()}}
				}
				if out.Errors == nil {
					out.Errors = []*config.ConfigError{}
				}
				if out.Warnings == nil {
					out.Warnings = []policy.Lint{}
				}
				writeJSONLine(a.stdout, out)
				if err != nil {
					return silentExit(ExitConfig)
				}
				return nil
			}
			if err != nil {
				for _, ce := range config.ConfigErrors(err) {
					fmt.Fprintf(a.stdout, "error: %s\n", ce)
				}
				if len(config.ConfigErrors(err)) == 0 {
					fmt.Fprintf(a.stdout, "error: %v\n", err)
				}
				return silentExit(ExitConfig)
			}
			for _, l := range lints {
				fmt.Fprintf(a.stdout, "warning: %s [%s]\n", l, l.Code)
			}
			fmt.Fprintf(a.stdout, "config ok (%d warning(s))\n", len(lints))
			return nil
		},
	}
	validate.Flags().BoolVar(&validateJSON, "json", false, "print the result as JSON")
	c.AddCommand(path, validate)
	return c
}

// validateJSONOut is what `config validate --json` prints.
type validateJSONOut struct {
	envelope
	// OK: every layer loads (warnings may remain); exit 0, else 78.
	OK       bool                  `json:"ok"`
	Errors   []*config.ConfigError `json:"errors"`
	Warnings []policy.Lint         `json:"warnings"`
}

func fileState(f config.FileInfo) string {
	switch {
	case !f.Exists:
		return "absent"
	case f.NeedsTrust && f.Changed:
		return "changed since trusted: only its deny and ask rules apply (gatekeep trust)"
	case f.NeedsTrust && !f.Trusted:
		return "untrusted: only its deny and ask rules apply (gatekeep trust)"
	case f.NeedsTrust:
		return "trusted"
	}
	return "in use"
}

// trustCmd: `gatekeep trust [--revoke] [FILE]` records (or forgets) the
// SHA-256 of the project config file, so its allow rules and settings apply.
func (a *app) trustCmd() *cobra.Command {
	var revoke bool
	c := &cobra.Command{
		Use:   "trust [--revoke] [FILE]",
		Short: "Trust the project's config file as it is now (or revoke that)",
		Long: `A project config file (.gatekeep/config.toml) comes from whoever wrote the
repository, so until you trust it only its deny and ask rules and [[danger]]
entries apply. trust records the file's SHA-256 in
$XDG_STATE_HOME/gatekeep/trust.json; any later edit makes it untrusted
again. FILE defaults to the project file of the current project.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			_, opts, err := a.loadOptions()
			if err != nil {
				return err
			}
			file := filepath.Join(opts.Root, config.ProjectConfigDir, config.ProjectConfigName)
			if len(args) == 1 {
				file, _ = filepath.Abs(args[0])
			}
			store := config.TrustStore{Path: opts.Paths.Trust}
			if revoke {
				ok, err := store.Revoke(file)
				if err != nil {
					return withCode(ExitFailure, err)
				}
				if !ok {
					fmt.Fprintf(a.stdout, "%s was not trusted\n", file)
					return nil
				}
				fmt.Fprintf(a.stdout, "revoked trust in %s\n", file)
				return nil
			}
			if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
				return withCode(ExitNoInput, fmt.Errorf("%s does not exist", file))
			} else if err != nil {
				return withCode(ExitNoInput, err)
			}
			// Refuse to trust a file that does not even load.
			if _, err := config.Load(opts); err != nil {
				return a.reportConfigFailure(err)
			}
			e, err := store.Trust(file)
			if err != nil {
				return withCode(ExitFailure, err)
			}
			fmt.Fprintf(a.stdout, "trusted %s (sha256 %s)\n", file, e.SHA256)
			return nil
		},
	}
	c.Flags().BoolVar(&revoke, "revoke", false, "forget the recorded hash: the file only tightens again")
	return c
}

// testCmd: `gatekeep test` runs the [[test]] entries of every layer.
func (a *app) testCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "test [--json]",
		Short: "Run the [[test]] entries of the config against the effective policy",
		Long: `Run every [[test]] entry (tool, input, optional mode, expect) of every
config layer against the effective policy. Each failure names the case, the
effect it got, and the layer and rule that decided. Exit 0 only when all
pass, 1 otherwise.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			cfg, _, err := a.config()
			if err != nil {
				return a.configError(err)
			}
			results := config.RunTests(cfg, a.loaded.Root, a.loaded.Tests)
			failed := 0
			for _, r := range results {
				if !r.Pass {
					failed++
				}
				if asJSON {
					writeJSONLine(a.stdout, r)
				} else if !r.Pass {
					fmt.Fprintf(a.stdout, "FAIL %s\n", r)
				}
			}
			if !asJSON {
				fmt.Fprintf(a.stdout, "%d passed, %d failed\n", len(results)-failed, failed)
			}
			if failed > 0 {
				return silentExit(ExitFailure)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one result per line as JSON")
	return c
}

// rulesAddCmd: `gatekeep rules add [--deny|--ask] [--reason R] RULE...`
// appends a [[rule]] to the project's local config file.
func (a *app) rulesAddCmd() *cobra.Command {
	var deny, ask bool
	var reason string
	c := &cobra.Command{
		Use:   "add [--deny | --ask] [--reason TEXT] RULE...",
		Short: "Add a rule to this project's local config file (.gatekeep/config.local.toml)",
		Long: `Add one [[rule]] with the given Tool(pattern) rules to the project's local
config file, the person's own file for this machine. Each rule is checked
first; the file is appended under a lock and replaced atomically, and kept
out of git (.git/info/exclude). Without --deny or --ask the rules allow.

  gatekeep rules add 'Bash(npm run test *)'
  gatekeep rules add --deny --reason 'use the release job' 'Bash(npm publish *)'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, rules []string) error {
			effect := "allow"
			switch {
			case deny && ask:
				return usageErr("give --deny or --ask, not both")
			case deny:
				effect = "deny"
			case ask:
				effect = "ask"
			}
			_, opts, err := a.loadOptions()
			if err != nil {
				return err
			}
			if err := policy.CheckRules(rules, opts.Root, opts.Home); err != nil {
				return usageErr("%v", err)
			}
			file, present, err := config.AppendLocalRules(opts, effect, rules, reason)
			if err != nil {
				return withCode(ExitFailure, fmt.Errorf("saving the rule: %w", err))
			}
			if len(present) > 0 {
				fmt.Fprintf(a.stdout, "already present: %s %s in %s (not added again)\n", effect, strings.Join(present, ", "), file)
			}
			if added := withoutRules(rules, present); len(added) > 0 {
				fmt.Fprintf(a.stdout, "added %s %s to %s\n", effect, strings.Join(added, ", "), file)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&deny, "deny", false, "the rules deny")
	c.Flags().BoolVar(&ask, "ask", false, "the rules ask")
	c.Flags().StringVar(&reason, "reason", "", "the reason shown to the model on deny")
	return c
}

// withoutRules is rules without those in present (each once, in order).
func withoutRules(rules, present []string) []string {
	var out []string
	for _, r := range rules {
		if !slices.Contains(present, r) && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func (a *app) rulesRemoveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "remove RULE...",
		Short: "Remove rules from this project's local config file (.gatekeep/config.local.toml)",
		Long: `Remove every occurrence of each RULE (as written, whatever its effect)
from the project's local config file, under the same lock and atomic
replace as rules add. A [[rule]] left empty is removed whole. Rules of
other files are edited in those files.

  gatekeep rules remove 'Bash(npm run test *)'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, rules []string) error {
			_, opts, err := a.loadOptions()
			if err != nil {
				return err
			}
			file, n, err := config.RemoveLocalRules(opts, rules)
			if err != nil {
				return withCode(ExitFailure, fmt.Errorf("removing the rule: %w", err))
			}
			fmt.Fprintf(a.stdout, "removed %s from %s (%d occurrence(s))\n", strings.Join(rules, ", "), file, n)
			return nil
		},
	}
}
