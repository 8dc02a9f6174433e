package cmd

import (
	"os"
	"slices"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// hookDialect sets the dialect of the hook's shell commands: the shell the
// agent runs them in, which is the user's login shell as the agent passes
// it to its hook in SHELL (Claude Code runs commands in $SHELL: zsh on
// macOS), or --dialect. A shell gatekeep does not know is bash. Unless the
// dialect is bash, the commands are judged as bash too (the agent may fall
// back to bash), and the strictest answer holds.
func (a *app) hookDialect(cfg *policy.Config, reqs []policy.Request) {
	d := shellparse.Bash
	if a.dialect != "" {
		d = shellparse.Dialect(a.dialect)
	} else if sh, ok := shellparse.ParseDialect(os.Getenv("SHELL")); ok {
		d = sh
	}
	for i := range reqs {
		if reqs[i].Tool == policy.ToolBash {
			reqs[i].Dialect = d
		}
	}
	if d != shellparse.Bash {
		cfg.Dialects = appendDialect(cfg.Dialects, shellparse.Bash)
	}
}

func appendDialect(ds []shellparse.Dialect, d shellparse.Dialect) []shellparse.Dialect {
	if slices.Contains(ds, d) {
		return ds
	}
	return append(ds, d)
}
