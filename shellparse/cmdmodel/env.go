package cmdmodel

import "strings"

// harmlessEnv reports the environment variables that change only how a program
// formats what it prints: a command assigned one of them stays read-only
// (the safe layer's allow-list; any other name makes it not safe).
// Sources: locale(7) and environ(7) (LANG, LANGUAGE, LC_*, TZ via
// tzset(3), TERM, COLUMNS, LINES), no-color.org (NO_COLOR), the
// CLICOLOR convention (CLICOLOR, CLICOLOR_FORCE, FORCE_COLOR, COLORTERM),
// grep(1) (GREP_COLOR, GREP_COLORS), dircolors(1) (LS_COLORS), ls(1)
// (TIME_STYLE, QUOTING_STYLE, TABSIZE) and the coreutils manual "Block
// size" (BLOCK_SIZE, BLOCKSIZE, DF_BLOCK_SIZE, DU_BLOCK_SIZE,
// LS_BLOCK_SIZE), and CI, which CI systems set to say they run.
//
// A switch rather than a map: a map literal is built in the package's init,
// in every process.
func harmlessEnv(name string) bool {
	switch name {
	case "LANG", "LANGUAGE", "TZ", "TERM", "COLUMNS", "LINES",
		"NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "COLORTERM",
		"GREP_COLOR", "GREP_COLORS", "LS_COLORS", "TIME_STYLE", "QUOTING_STYLE",
		"TABSIZE", "BLOCK_SIZE", "BLOCKSIZE", "DF_BLOCK_SIZE", "DU_BLOCK_SIZE",
		"LS_BLOCK_SIZE", "CI":
		return true
	}
	return false
}

// HarmlessEnv reports whether assigning the variable name to a read-only
// command keeps it read-only: the name is on the published allow-list
// (harmlessEnv) or is a locale category LC_* other than LC_ALL's kin
// that load files (none do: LOCPATH and GCONV_PATH are not LC_*).
func HarmlessEnv(name string) bool {
	return harmlessEnv(name) || strings.HasPrefix(name, "LC_") && len(name) > 3
}

// ToolEnv reports whether the variable name is one the command model marks
// as this command's own variable that changes what it runs or loads
// (MAKEFLAGS for make, GOFLAGS for go ...; spec.env). A wrapper's inner
// command is judged by its own name; wrapper: c runs another command
// the caller found.
func ToolEnv(c *Command, wrapper bool, name string) bool {
	if len(c.Args) == 0 {
		return false
	}
	s, ok := LookupSpec(c.Name(), wrapper)
	if !ok || s.env == "" {
		return false
	}
	for _, v := range strings.Fields(s.env) {
		if v == name || strings.HasSuffix(v, "*") && strings.HasPrefix(name, v[:len(v)-1]) {
			return true
		}
	}
	return false
}

// HasToolEnv reports whether the command model lists variables of the
// command's own (see ToolEnv).
func HasToolEnv(c *Command, wrapper bool) bool {
	if len(c.Args) == 0 {
		return false
	}
	s, ok := LookupSpec(c.Name(), wrapper)
	return ok && s.env != ""
}
