package cmdmodel

import (
	"strconv"
	"strings"
)

// gitSubCodeOpts are, per git subcommand, the options whose value git
// runs as a command (git-clone(1) --upload-pack, git-fetch(1), git-pull(1),
// git-ls-remote(1), git-push(1) --receive-pack/--exec, git-archive(1)
// --exec, git-rebase(1) --exec, git-filter-branch(1) filters,
// git-difftool(1) --extcmd, git-grep(1) --open-files-in-pager): long
// names, and the short letter that means the same.
var gitSubCodeOpts = map[string][]string{
	"clone":         {"upload-pack", "u"},
	"fetch":         {"upload-pack"},
	"pull":          {"upload-pack"},
	"ls-remote":     {"upload-pack", "u"},
	"fetch-pack":    {"upload-pack", "exec"},
	"push":          {"receive-pack", "exec"},
	"send-pack":     {"receive-pack", "exec"},
	"archive":       {"exec"},
	"rebase":        {"exec", "x"},
	"difftool":      {"extcmd", "x"},
	"grep":          {"open-files-in-pager", "O"},
	"filter-branch": {"env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter", "commit-filter", "tag-name-filter"},
}

// GitSubCodeOpts returns the options of git's subcommand sub whose value
// git runs as a command (gitSubCodeOpts), or nil.
func GitSubCodeOpts(sub string) []string { return gitSubCodeOpts[sub] }

// GitBool reports a value git reads as a boolean (git-config(1)
// "boolean").
func GitBool(v string) bool {
	switch strings.ToLower(v) {
	case "", "true", "false", "yes", "no", "on", "off":
		return true
	}
	_, err := strconv.Atoi(v)
	return err == nil
}
