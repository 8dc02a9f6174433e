package cmd

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/cmd/enforce"
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/config"
	"github.com/gatekeep/gatekeep/policy/confine"
	"github.com/gatekeep/gatekeep/shellparse"
)

// Version is set at build time with -ldflags "-X .../cmd.Version=...".
var Version = "0.1.0-dev"

// app holds the global options and the streams of one run.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer // both escape control characters (safeWriter)
	rawStdout      io.Writer // stdout as it is, for file contents (read)
	hookMode       bool      // a hook runs: every failure blocks (exit 2)

	mode           string
	root           string
	nonInteractive bool
	planFile       string
	denyExitCode   int
	allowDirs      []string
	promptTimeout  time.Duration
	auditFile      string // the [audit] file of the config; "" logs nothing
	dialect        string // --dialect: the agent's shell

	loaded           *config.Loaded                    // the config layers, once config() ran
	lookCmd          func(name string) (string, error) // the file a bare name runs, from the decision's own PATH search (config.Built.LookCommand)
	modeFromEnv      bool                              // a.mode came from GATEKEEP_MODE, not --mode
	promptTimeoutSet bool

	enforceFlag     policy.EnforceLevel // --enforce or GATEKEEP_ENFORCE
	enforceText     string
	enf             *enforcement     // this call's confinement, once decided
	proxy           *proxyCall       // the call a confined run's proxy serves (proxy.go)
	tree            *confine.Tree    // the project's tree as the plan walked it
	probed          *enforce.Support // the probe's answer, once made
	notedUnconfined bool

	helpPath string // the command whose --help a usage error points to ("gatekeep check"); "" for the root
}

// usageHint is the line after a usage error: the help of the command that
// was run, or the root's.
func (a *app) usageHint() string {
	path := a.helpPath
	if path == "" {
		path = "gatekeep"
	}
	return fmt.Sprintf("run '%s --help' for usage", path)
}

// defaultPromptTimeout is --prompt-timeout's default.
const defaultPromptTimeout = 10 * time.Minute

// newApp is a run's app with the global flags' defaults.
func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, rawStdout: stdout,
		denyExitCode: ExitDeny, promptTimeout: defaultPromptTimeout}
}

// execute runs the command args name. `bash -- ARGV...`, what an agent
// runs for each shell call outside a hook, goes straight to bashRun: no
// flag can follow the `--`, so the cobra tree would be built (the root's
// ten flags, bash and its help flag, the hidden __complete command) only
// to find that no flag was given (docs/benchmarks.md gives the cost).
// Anything else runs on the tree (rootCmdFor).
// TestArgvCall checks that both give the same.
func (a *app) execute(args []string) error {
	if len(args) > 2 && args[0] == "bash" && args[1] == "--" {
		err := a.argvCall(args[2:], a.bashRun)
		a.helpPath = "gatekeep bash"
		return err
	}
	root := a.rootCmdFor(args)
	root.SetArgs(args)
	c, err := root.ExecuteC()
	if c != nil {
		a.helpPath = c.CommandPath()
	}
	return err
}

// argvCall is `bash -- argv...` as the tree runs it: the root's pre-run
// (readEnv, no flag given), then bash's run with argv and no -c.
func (a *app) argvCall(argv []string, run func(*bashOptions) error) error {
	if err := a.readEnv(func(string) bool { return false }); err != nil {
		return err
	}
	return run(&bashOptions{args: argv})
}

// rootCmd is the whole command tree.
func (a *app) rootCmd() *cobra.Command {
	root := a.bareRootCmd()
	root.AddCommand(a.toolCmds(nil)...)
	root.AddCommand(a.newCmdCheck(nil), a.versionCmd(), a.hookCmd())
	root.AddCommand(a.rulesCmd(), a.configCmd(), a.trustCmd(), a.testCmd(), a.doctorCmd(), a.sandboxCmd())
	return root
}

// rootCmdFor is the command tree for args. When they start with the name
// of a command an agent runs on every tool call (callCmd), the root holds
// that command alone: building the dozen others and their flags costs
// each call time, and they play no part in it (cobra reads only
// the path to the command it runs; TestRootCmdFor compares the two trees'
// help and answers). Anything else (a flag first, help, completion, any
// other command, a typo to suggest for) gets the whole tree.
func (a *app) rootCmdFor(args []string) *cobra.Command {
	if len(args) > 0 {
		if c := a.callCmd(args[0]); c != nil {
			root := a.bareRootCmd()
			root.AddCommand(c)
			// Nor the `completion` command cobra would add (args name
			// another), with its four shells' commands.
			root.CompletionOptions.DisableDefaultCmd = true
			return root
		}
	}
	return a.rootCmd()
}

// callCmd builds the command named name when it is one an agent runs on
// every tool call (the tools, check, hook), else nil.
func (a *app) callCmd(name string) *cobra.Command {
	switch name {
	case "bash":
		return a.newCmdBash(nil, nil)
	case "read":
		return a.newCmdRead(nil, nil)
	case "write":
		return a.newCmdWrite(nil, nil)
	case "edit":
		return a.newCmdEdit(nil, nil)
	case "check":
		return a.newCmdCheck(nil)
	case "hook":
		return a.hookCmd()
	}
	return nil
}

// bareRootCmd is the root command with its flags and no subcommand.
func (a *app) bareRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "gatekeep",
		Short: "A permission gate for AI coding agents' tool calls",
		Long: `gatekeep decides allow, ask or deny for an agent's tool call, then runs
exactly what it checked or stops it with a one-line JSON reason.

  gatekeep bash -- git push origin     check, then exec the argv
  gatekeep bash -c 'make test'         check, then run the string with bash -c
  gatekeep check bash -c 'rm -rf /'    answer without running (exit 0/75/77)
  gatekeep hook install claude         put gatekeep in an agent's loop (codex, gemini too)

` + exitCodeHelp,
		SilenceErrors:     true,
		SilenceUsage:      true,
		CompletionOptions: cobra.CompletionOptions{HiddenDefaultCmd: false},
		PersistentPreRunE: func(c *cobra.Command, _ []string) error { return a.readEnv(c.Flags().Changed) },
		Version:           Version,
	}
	root.SetVersionTemplate(fmt.Sprintf("gatekeep {{.Version}} (decision schema %d)\n", SchemaVersion))
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return withCode(ExitUsage, err) })
	f := root.PersistentFlags()
	f.StringVar(&a.mode, "mode", "", "permission mode: default, acceptEdits, plan, custom, bypassPermissions (env GATEKEEP_MODE)")
	f.StringVar(&a.root, "root", "", "project root (env GATEKEEP_ROOT; default: nearest ancestor with .gatekeep/ or .git/)")
	f.BoolVar(&a.nonInteractive, "non-interactive", false, "never prompt: an ask becomes a deny (env GATEKEEP_NONINTERACTIVE=1)")
	f.StringVar(&a.planFile, "plan-file", "", "the file plan mode lets be written")
	f.IntVar(&a.denyExitCode, "deny-exit-code", ExitDeny, "exit status on deny (env GATEKEEP_DENY_EXIT_CODE)")
	f.StringArrayVar(&a.allowDirs, "allow-dir", nil, "an extra sandbox root (repeatable)")
	f.StringVar(&a.enforceText, "enforce", "", "confine what runs with the kernel: required (the default for a bare --enforce), best-effort or off (env GATEKEEP_ENFORCE)")
	f.Lookup("enforce").NoOptDefVal = "required"
	f.DurationVar(&a.promptTimeout, "prompt-timeout", defaultPromptTimeout, "how long a prompt waits before it denies")
	f.StringVar(&a.dialect, "dialect", "", "the shell that runs the agent's commands: bash, zsh or sh (hook mode: default from SHELL)")
	root.RegisterFlagCompletionFunc("mode", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		modes := make([]string, len(policy.Modes))
		for i, m := range policy.Modes {
			modes[i] = string(m)
		}
		return modes, cobra.ShellCompDirectiveNoFileComp
	})
	return root
}

// readEnv applies the environment equivalents of flags that were not
// given (changed reports the ones that were).
func (a *app) readEnv(changed func(name string) bool) error {
	if !changed("mode") {
		a.mode = os.Getenv("GATEKEEP_MODE")
		a.modeFromEnv = a.mode != ""
	}
	a.promptTimeoutSet = changed("prompt-timeout")
	if a.dialect != "" {
		if d, ok := shellparse.ParseDialect(a.dialect); !ok || string(d) != a.dialect {
			return usageErr("--dialect %q: want bash, zsh or sh", a.dialect)
		}
	}
	if !changed("root") {
		a.root = os.Getenv("GATEKEEP_ROOT")
	}
	if !changed("non-interactive") {
		switch os.Getenv("GATEKEEP_NONINTERACTIVE") {
		case "", "0", "false":
		default:
			a.nonInteractive = true
		}
	}
	if !changed("deny-exit-code") {
		if v := os.Getenv("GATEKEEP_DENY_EXIT_CODE"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return usageErr("GATEKEEP_DENY_EXIT_CODE=%q is not a number", v)
			}
			a.denyExitCode = n
		}
	}
	enforceFrom := "--enforce"
	if !changed("enforce") {
		a.enforceText = os.Getenv("GATEKEEP_ENFORCE")
		enforceFrom = "GATEKEEP_ENFORCE"
	}
	l, err := parseEnforceFlag(a.enforceText)
	if err != nil {
		return usageErr("%s: %v", enforceFrom, err)
	}
	a.enforceFlag = l
	if a.denyExitCode < 1 || a.denyExitCode > 255 {
		return usageErr("deny exit code %d is not within 1..255", a.denyExitCode)
	}
	return nil
}

func (a *app) versionCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print gatekeep's version and the JSON schema version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				// "version" is the envelope's: the schema version.
				writeJSONLine(a.stdout, struct {
					envelope
					Gatekeep string `json:"gatekeep_version"`
				}{newEnvelope(), Version})
				return nil
			}
			fmt.Fprintf(a.stdout, "gatekeep %s (decision schema %d)\n", Version, SchemaVersion)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
