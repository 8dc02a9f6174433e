package cmdmodel

import "testing"

// TestSedPrintOnly checks the sed script reader on its own.
func TestSedPrintOnly(t *testing.T) {
	for _, tc := range []struct {
		script string
		ok     bool
	}{
		{"", true},
		{"p", true},
		{"1,5p", true},
		{"$!N;P;D", true},
		{"/a/,/b/{/c/!p}", true},
		{"/x/{p;q}", true},
		{"s/a/b/2p", true},
		{"s/a\\/b/c/p", true},
		{"/[]a]/p", true},
		{"/[]/]/p", false}, // GNU: regex "[]", BSD: "[]/]"
		{"/[[:alpha:]]/p", true},
		{"l 40", true},
		{"q5", true},
		{"#n\np", true},
		{"{p", false},
		{"p}", false},
		{"pw x", false},
		{"s/a/b/", true},
		{"s/a/b", false},
		{"s/a/b\\\n/w x", false},
		{"s/a/b/\nw x", false},
		{"s/[a/b/w x", false},
		{"s/[[:alpha:]/]/x/w f", false},
		{"sxaxbxp", false},
		{":a;N;ba", false},
		{"1~p", false},
		{"1,p", false},
		{"F;z", true},
	} {
		if got := sedPrintOnly(tc.script); got != tc.ok {
			t.Errorf("sedPrintOnly(%q) = %v, want %v", tc.script, got, tc.ok)
		}
	}
}

// namesNoFile are the safe-list commands that have no entry in
// the effects table because no word of theirs, in the forms the
// safe list accepts, is a file they read.
var namesNoFile = map[string]string{
	"cd":       "changes directory; the parser follows it for later commands",
	"command":  "only `command -v NAME` is safe: NAME is a command name",
	"type":     "describes command names",
	"env":      "without a command it prints the environment (with one it is a wrapper)",
	"hostname": "only the display options are safe",
	"expr":     "evaluates its operands as strings and numbers",
	"numfmt":   "reads numbers from its operands or standard input",
	"nproc":    "prints a count",
	"arch":     "prints the machine name",
	"groups":   "its operands are user names",
	"tty":      "prints the terminal name",
	"sleep":    "its operands are durations",
	"ps":       "its operands are display options, never files (psArgs)",
	"pip":      "list, freeze and show take no files (pipArgs)",
	"pip3":     "list, freeze and show take no files (pipArgs)",
	"python":   "only --version (VersionOnly)",
	"python3":  "only --version (VersionOnly)",
	"node":     "only --version (VersionOnly)",
	"perl":     "only -v (VersionOnly)",
	"gcc":      "only --version (VersionOnly)",
	"g++":      "only --version (VersionOnly)",
	"cc":       "only --version (VersionOnly)",
	"clang":    "only --version (VersionOnly)",
}

// TestSafeTableHasEffects: every command the safe list allows is in
// the effects table, so the files it reads become reads that the
// Read rules judge (`fmt .env` printed a secret when fmt was missing), or
// it is listed in namesNoFile.
func TestSafeTableHasEffects(t *testing.T) {
	for name := range safeTable {
		has := HasEffectSpec(name)
		_, exempt := namesNoFile[name]
		switch {
		case !has && !exempt:
			t.Errorf("%s is on the safe list but not in the effects table: the files it reads would not meet the Read rules", name)
		case has && exempt:
			t.Errorf("%s is in the effects table: drop it from namesNoFile", name)
		}
	}
	for name := range namesNoFile {
		if _, ok := safeTable[name]; !ok {
			t.Errorf("namesNoFile lists %s, which is not on the safe list", name)
		}
	}
}
