package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/shellparse"
)

// hookTimeout is the hook timeout written into the snippets, in seconds.
// A decision takes milliseconds; the limit only bounds a stuck process.
const hookTimeout = 30

func (a *app) hookPrintCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "print (claude|codex|gemini)",
		Short: "Print the settings snippet that installs gatekeep as the agent's hook",
		Long: `Print the settings snippet that makes the agent call this gatekeep binary
before every tool call, on stdout; where to put it goes to stderr.

  claude   JSON for ~/.claude/settings.json (or .claude/settings.json)
  codex    TOML for ~/.codex/config.toml
  gemini   JSON for ~/.gemini/settings.json (or .gemini/settings.json)`,
		Args:      exactArgs(1, "hook print needs one agent: claude, codex or gemini"),
		ValidArgs: []string{"claude", "codex", "gemini"},
		RunE: func(_ *cobra.Command, args []string) error {
			d := dialectNamed(args[0])
			if d == nil {
				return usageErr("unknown agent %q (want claude, codex or gemini)", args[0])
			}
			command, err := hookCommand(d)
			if err != nil {
				return err
			}
			snippet, where := hookSnippet(d, command)
			fmt.Fprint(a.stdout, snippet)
			fmt.Fprintln(a.stderr, where)
			return nil
		},
	}
}

// hookCommand is the hook command of d's snippet: this binary's real
// path (symlinks resolved), `hook`, the agent's name, quoted for a shell.
func hookCommand(d *dialect) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", withCode(ExitInternal, fmt.Errorf("finding the gatekeep binary: %w", err))
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return shellparse.JoinArgv([]string{exe, "hook", d.name}), nil
}

// hookSnippet renders the settings that install command as d's pre-tool
// hook for every tool, and a line that says where they go.
//
// Claude Code (https://code.claude.com/docs/en/hooks#configuration): an
// empty or "*" matcher matches every tool; onFailure "block" (Claude Code
// 2.1.295 and later) makes a hook that cannot start, times out or exits
// with an unexpected status block the call instead of letting it through.
// The same hook answers PreSkillShellCommand (a skill's inline shell
// command; Claude Code 2.1.332 and later).
//
// Codex (https://developers.openai.com/codex/hooks#config-shape): hooks
// live inline in config.toml as [[hooks.PreToolUse]] (or in hooks.json); a
// group without a matcher matches every tool, Bash, apply_patch and MCP
// tools alike. timeout is in seconds.
//
// Gemini CLI (https://geminicli.com/docs/hooks#configuration): hooks live
// in settings.json under hooks.BeforeTool, the matcher "*" matches every
// tool, timeout is in milliseconds, and hooksConfig.enabled turns the hook
// system on (0.61: settings.hooksConfig.enabled, on by default; a hook is
// turned off by its name in hooksConfig.disabled).
func hookSnippet(d *dialect, command string) (snippet, where string) {
	switch d.name {
	case "codex":
		return fmt.Sprintf(`[[hooks.PreToolUse]]

[[hooks.PreToolUse.hooks]]
type = "command"
command = %s
timeout = %d
statusMessage = "gatekeep: checking the tool call"
`, tomlString(command), hookTimeout),
			"add this to ~/.codex/config.toml (or .codex/config.toml in a trusted project); Codex asks you to trust a new hook once (/hooks)"
	case "gemini":
		type handler struct {
			Name        string `json:"name"`
			Type        string `json:"type"`
			Command     string `json:"command"`
			Timeout     int    `json:"timeout"`
			Description string `json:"description"`
		}
		type group struct {
			Matcher string    `json:"matcher"`
			Hooks   []handler `json:"hooks"`
		}
		type settings struct {
			HooksConfig struct {
				Enabled bool `json:"enabled"`
			} `json:"hooksConfig"`
			Hooks struct {
				BeforeTool []group `json:"BeforeTool"`
			} `json:"hooks"`
		}
		var s settings
		s.HooksConfig.Enabled = true
		s.Hooks.BeforeTool = []group{{Matcher: "*", Hooks: []handler{{Name: "gatekeep", Type: "command", Command: command,
			Timeout: hookTimeout * 1000, Description: "gatekeep decides allow, ask or deny for every tool call"}}}}
		return indentJSON(s), "merge this into ~/.gemini/settings.json (or .gemini/settings.json in the project)"
	}
	type handler struct {
		Type      string `json:"type"`
		Command   string `json:"command"`
		Timeout   int    `json:"timeout"`
		OnFailure string `json:"onFailure"`
	}
	type group struct {
		Matcher string    `json:"matcher"`
		Hooks   []handler `json:"hooks"`
	}
	var s struct {
		Hooks struct {
			PreToolUse           []group `json:"PreToolUse"`
			PreSkillShellCommand []group `json:"PreSkillShellCommand"`
		} `json:"hooks"`
	}
	g := []group{{Matcher: "*", Hooks: []handler{{Type: "command", Command: command, Timeout: hookTimeout, OnFailure: "block"}}}}
	s.Hooks.PreToolUse, s.Hooks.PreSkillShellCommand = g, g
	return indentJSON(s), "merge this into ~/.claude/settings.json (or .claude/settings.json in the project); " +
		"PreSkillShellCommand checks the shell commands skills run inline: Claude Code 2.1.331 and older do not know that event " +
		"and show a dialog about it, so there leave it out"
}

// indentJSON renders v with two-space indents.
func indentJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
	return buf.String()
}

// tomlString quotes s as a TOML literal string when it can, else as a basic
// string with escapes.
func tomlString(s string) string {
	if !strings.ContainsAny(s, "'\n\r") {
		return "'" + s + "'"
	}
	b, _ := json.Marshal(s) // a JSON string is a valid TOML basic string here
	return string(b)
}
