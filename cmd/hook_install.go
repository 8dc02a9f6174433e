package cmd

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/config"
)

// hookInstallCmd is `gatekeep hook install AGENT [--project] [--dry-run]`
// and, with uninstall set, `gatekeep hook uninstall AGENT [--project]`.
func (a *app) hookInstallCmd(uninstall bool) *cobra.Command {
	var project, dryRun bool
	verb := "install"
	short := "Add gatekeep's hook to the agent's settings file, then check it as doctor does"
	long := `Merge the entries ` + "`gatekeep hook print AGENT`" + ` prints into the agent's settings
file, keeping everything else in it as it is, then run doctor's checks and
say what is left to do.

  claude   ~/.claude/settings.json ($CLAUDE_CONFIG_DIR/settings.json);
           --project: .claude/settings.json in the current directory
  codex    ~/.codex/config.toml ($CODEX_HOME/config.toml);
           --project: .codex/config.toml in the current directory
  gemini   ~/.gemini/settings.json; --project: .gemini/settings.json

JSON files get gatekeep's hook groups appended to the hooks' event arrays;
Codex's config.toml gets one block between "# >>> gatekeep hook" and
"# <<< gatekeep hook" lines at its end. A file that is not valid JSON or
TOML (exit 78), or whose hooks cannot take the entries (exit 1), is left as
it is. An existing Gemini settings file gets no hooksConfig (Gemini CLI
runs hooks unless hooksConfig.enabled is false; install refuses a file that
sets it so). Installing twice changes nothing; a gatekeep hook of another binary
is replaced. --dry-run prints the change as a diff and writes nothing.`
	if uninstall {
		verb = "uninstall"
		short = "Remove gatekeep's hook from the agent's settings file"
		long = `Remove exactly the entries ` + "`gatekeep hook install AGENT`" + ` added to the agent's
settings file (see ` + "`gatekeep hook install --help`" + ` for where each file is): the
file is as it was before install, byte for byte; a file install created is
removed, with the directories install created for it once they are empty.
Once the file was changed after install, gatekeep's entries are removed
by their shape (an event or "hooks" object left empty goes too).
--dry-run prints the change as a diff and writes nothing.`
	}
	c := &cobra.Command{
		Use:       verb + " (claude|codex|gemini) [--project] [--dry-run]",
		Short:     short,
		Long:      long,
		Args:      exactArgs(1, "hook "+verb+" needs one agent: claude, codex or gemini"),
		ValidArgs: []string{"claude", "codex", "gemini"},
		RunE: func(_ *cobra.Command, args []string) error {
			d := dialectNamed(args[0])
			if d == nil {
				return usageErr("unknown agent %q (want claude, codex or gemini)", args[0])
			}
			return a.hookInstall(d, project, dryRun, uninstall)
		},
	}
	c.Flags().BoolVar(&project, "project", false, "the project's settings file in the current directory, not the user's")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "print the change as a diff; write nothing")
	return c
}

// hookSettingsFile is the settings file hook install writes for agent:
// the user's, or with project the one in cwd (the same files doctor
// reads).
func hookSettingsFile(agent string, project bool, home, cwd string) string {
	h := pathguard.AgentHomesOf(os.Getenv, home)
	switch agent {
	case "codex":
		if project {
			return filepath.Join(cwd, ".codex", "config.toml")
		}
		return filepath.Join(h.Codex, "config.toml")
	case "gemini":
		if project {
			return filepath.Join(cwd, ".gemini", "settings.json")
		}
		return filepath.Join(h.Gemini, "settings.json")
	}
	if project {
		return filepath.Join(cwd, ".claude", "settings.json")
	}
	return filepath.Join(h.Claude, "settings.json")
}

// errUnmergeable: the file is valid, but its hooks have a shape gatekeep's
// entries cannot be merged into (or removed from) safely.
var errUnmergeable = errors.New("cannot merge")

// hookInstall installs (or removes) d's hook in the settings file, under a
// lock, written atomically, then runs doctor's checks after an install.
func (a *app) hookInstall(d *dialect, project, dryRun, uninstall bool) error {
	command, err := hookCommand(d)
	if err != nil {
		return err
	}
	home, _ := os.UserHomeDir()
	cwd, err := os.Getwd()
	if err != nil {
		return withCode(ExitInternal, fmt.Errorf("reading the working directory: %w", err))
	}
	file := hookSettingsFile(d.name, project, home, cwd)
	// A settings file that is a symlink (a dotfiles checkout) is edited
	// where it points, so the link stays.
	if real, err := filepath.EvalSymlinks(file); err == nil {
		file = real
	}
	// gatekeep's state directory holds the lock and what install did
	// (hookRecordFile); "" when there is none.
	stateDir := ""
	if p := config.DefaultPaths(os.Getenv, home).Trust; p != "" {
		stateDir = filepath.Dir(p)
	}
	if !dryRun {
		if stateDir != "" && os.MkdirAll(stateDir, 0o700) != nil {
			stateDir = ""
		}
		lockFile := filepath.Join(stateDir, "hook-install.lock")
		if stateDir == "" {
			// No state directory: the lock goes beside the settings file.
			lockFile = file + ".lock"
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				return withCode(ExitFailure, err)
			}
		}
		lock := config.NewLock(lockFile)
		if err := lock.Lock(); err != nil {
			return withCode(ExitFailure, fmt.Errorf("locking %s: %w", lockFile, err))
		}
		defer lock.Unlock()
		config.RemoveStaleTemps(file)
	}
	old, err := policy.ReadRegular(file, config.MaxConfigSize)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return withCode(ExitFailure, fmt.Errorf("reading %s: %w", file, err))
	}
	records := readHookRecords(stateDir)
	text, _ := hookSnippet(d, command)
	snippet := []byte(text)
	var next []byte
	var edits []hookEdit
	switch {
	case d.name == "codex" && uninstall:
		next, err = tomlUninstall(file, old)
	case d.name == "codex":
		next, err = tomlInstall(file, old, snippet, command)
	case uninstall:
		var undone bool
		if next, undone = records[file].undo(old); !undone {
			next, err = jsonUninstall(file, old, d.name)
		}
	default:
		next, edits, err = jsonInstall(file, old, snippet, d.name)
	}
	if err != nil {
		var ce *config.ConfigError
		if errors.As(err, &ce) {
			return withCode(ExitConfig, fmt.Errorf("%s; nothing was changed", err))
		}
		return withCode(ExitFailure, fmt.Errorf("%w; nothing was changed", err))
	}
	// A file install created holds nothing else: uninstall removes it.
	remove := uninstall && exists && createdByInstall(d, old, next, snippet)
	if remove {
		next = nil
	}
	switch {
	case !exists && uninstall:
		fmt.Fprintf(a.stdout, "%s does not exist: nothing to remove\n", file)
		if !dryRun {
			a.forgetInstall(stateDir, records, file)
		}
		return nil
	case exists && !remove && bytes.Equal(old, next):
		if uninstall {
			fmt.Fprintf(a.stdout, "%s holds no gatekeep hook: nothing changed\n", file)
			return nil
		}
		fmt.Fprintf(a.stdout, "gatekeep's hook is already in %s: nothing changed\n", file)
	case dryRun:
		verb := "install"
		if uninstall {
			verb = "uninstall"
		}
		a.stdout.Write(diff.Diff(file+" (now)", old, file+" (after hook "+verb+" "+d.name+")", next))
		return nil
	case remove:
		if err := os.Remove(file); err != nil {
			return withCode(ExitFailure, err)
		}
		fmt.Fprintf(a.stdout, "removed %s (gatekeep's hook was all it held)\n", file)
		a.forgetInstall(stateDir, records, file)
		return nil
	default:
		mode := fs.FileMode(0o600)
		if fi, err := os.Stat(file); err == nil {
			mode = fi.Mode().Perm()
		}
		made := missingDirs(filepath.Dir(file))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return withCode(ExitFailure, err)
		}
		if err := config.WriteFileAtomic(file, next, mode); err != nil {
			return withCode(ExitFailure, fmt.Errorf("writing %s: %w", file, err))
		}
		if uninstall {
			fmt.Fprintf(a.stdout, "removed gatekeep's hook from %s\n", file)
			a.forgetInstall(stateDir, records, file)
			return nil
		}
		rec := records[file]
		if !exists {
			rec.Dirs = made
		}
		rec.Sum, rec.Edits = fmt.Sprintf("%x", sha256.Sum256(next)), edits
		records[file] = rec
		writeHookRecords(stateDir, records)
		fmt.Fprintf(a.stdout, "installed `%s` in %s\n", command, file)
	}
	if dryRun {
		return nil
	}
	return a.doctorAfterInstall(d.name)
}

// hookRecordFile, in gatekeep's state directory, records what install did
// that the settings file cannot show, so that uninstall can undo exactly
// that: a JSON object from each settings file's path to its hookRecord.
// A missing or damaged record only makes uninstall take gatekeep's entries
// out by their shape and leave the directories.
const hookRecordFile = "hook-install.json"

// hookRecord is what one install did to one settings file.
type hookRecord struct {
	// Dirs are the directories install created for the file, deepest
	// first: uninstall removes those that are empty then, and only those
	// (an empty ~/.claude the person made stays).
	Dirs []string `json:"dirs,omitempty"`
	// Sum is the SHA-256 (hex) of the file install wrote, and Edits the
	// edits that made it, in order. While the file still has those bytes,
	// uninstall reverses the edits, giving back the original byte for
	// byte, including the empty "hooks" or event array the removal by
	// shape would drop. Edits hold only gatekeep's entries and the white
	// space they replaced, never the person's settings.
	Sum   string     `json:"sha256,omitempty"`
	Edits []hookEdit `json:"edits,omitempty"`
}

// hookEdit replaced Del at At with Ins.
type hookEdit struct {
	At  int    `json:"at"`
	Del string `json:"del,omitempty"`
	Ins string `json:"ins"`
}

// undo reverses r's edits on b when b is the file install wrote.
func (r hookRecord) undo(b []byte) ([]byte, bool) {
	if r.Sum == "" || len(r.Edits) == 0 || fmt.Sprintf("%x", sha256.Sum256(b)) != r.Sum {
		return nil, false
	}
	out := append([]byte{}, b...)
	for i := len(r.Edits) - 1; i >= 0; i-- {
		e := r.Edits[i]
		// install only ever replaces white space: a record that says
		// otherwise was not written by it.
		if e.At < 0 || e.At+len(e.Ins) > len(out) || string(out[e.At:e.At+len(e.Ins)]) != e.Ins ||
			strings.Trim(e.Del, " \t\r\n") != "" {
			return nil, false
		}
		out = splice(out, e.At, e.At+len(e.Ins), e.Del)
	}
	return out, true
}

// missingDirs are dir and its ancestors that do not exist, deepest first.
func missingDirs(dir string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			return out
		}
		out = append(out, d)
		if filepath.Dir(d) == d {
			return out
		}
	}
}

func readHookRecords(stateDir string) map[string]hookRecord {
	rec := map[string]hookRecord{}
	if stateDir == "" {
		return rec
	}
	if b, err := policy.ReadRegular(filepath.Join(stateDir, hookRecordFile), config.MaxConfigSize); err == nil {
		if json.Unmarshal(b, &rec) != nil {
			return map[string]hookRecord{}
		}
	}
	return rec
}

// writeHookRecords saves the records; a failure only costs uninstall its
// exactness, so it is not an error of the install.
func writeHookRecords(stateDir string, rec map[string]hookRecord) {
	if stateDir == "" {
		return
	}
	p := filepath.Join(stateDir, hookRecordFile)
	if len(rec) == 0 {
		os.Remove(p)
		return
	}
	b, _ := json.Marshal(rec)
	config.WriteFileAtomic(p, append(b, '\n'), 0o600)
}

// forgetInstall removes, deepest first, the directories install created
// for file that are empty now, says which, and drops file's record.
func (a *app) forgetInstall(stateDir string, records map[string]hookRecord, file string) {
	rec, ok := records[file]
	if !ok {
		return
	}
	for _, d := range rec.Dirs {
		if d != filepath.Clean(d) || !strings.HasPrefix(file, strings.TrimSuffix(d, string(filepath.Separator))+string(filepath.Separator)) {
			break // not a directory install could have made for file
		}
		entries, err := os.ReadDir(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || len(entries) > 0 {
			break // not empty: neither it nor its parents go
		}
		if err := os.Remove(d); err != nil {
			break
		}
		fmt.Fprintf(a.stdout, "removed %s (install created it; it is empty now)\n", d)
	}
	delete(records, file)
	writeHookRecords(stateDir, records)
}

// doctorAfterInstall runs doctor's checks for agent and says what is left.
func (a *app) doctorAfterInstall(agent string) error {
	env, err := newDoctorEnv()
	if err != nil {
		return withCode(ExitInternal, err)
	}
	cr := a.doctorConfig()
	cr.print(a.stdout)
	r := env.check(agent)
	r.print(a.stdout)
	if r.ok() && cr.ok() {
		return nil
	}
	if !r.found {
		fmt.Fprintf(a.stdout, "left to do: doctor finds no hook that runs a program named gatekeep: install this binary as gatekeep (./install.sh), then `gatekeep hook install %s` again\n", agent)
		return nil
	}
	if agent == "codex" && !r.working {
		fmt.Fprintln(a.stdout, "left to do: open codex, run /hooks and trust gatekeep's hook (Codex runs no new hook before that); then `gatekeep doctor codex`")
		return nil
	}
	fmt.Fprintf(a.stdout, "left to do: fix the problems above, then `gatekeep doctor %s`\n", agent)
	// The hook is written, but doctor finds it does not work: not a
	// success a script may read as "done".
	return silentExit(ExitFailure)
}

// createdByInstall: what is left of old once gatekeep's entries are gone
// (next) is what is left of the file install writes when there is none,
// so the file holds nothing of the person's.
func createdByInstall(d *dialect, old, next, snippet []byte) bool {
	if d.name == "codex" {
		return len(bytes.TrimSpace(next)) == 0
	}
	rest, err := jsonUninstall("", snippet, d.name)
	return err == nil && bytes.Equal(next, rest)
}

// --- JSON settings (Claude Code, Gemini CLI) ---

// jnode is one JSON value of a settings file with its byte span, so that
// an edit replaces only the bytes it changes.
type jnode struct {
	start, end int      // the value's bytes
	kind       byte     // '{', '[', or 0 for a scalar
	keys       []string // an object's member names, in order
	keyStart   []int    // where each member's name starts
	kids       []*jnode // an object's member values, an array's elements
}

// member is the value of the object member key, -1 when absent.
func (n *jnode) member(key string) (*jnode, int) {
	for i := len(n.keys) - 1; i >= 0; i-- { // the last one wins, as in encoding/json
		if n.keys[i] == key {
			return n.kids[i], i
		}
	}
	return nil, -1
}

// itemStart is where the i'th member (its name) or element starts.
func (n *jnode) itemStart(i int) int {
	if n.kind == '{' {
		return n.keyStart[i]
	}
	return n.kids[i].start
}

// parseJSONSpans parses a settings file; a syntax error names the line.
func parseJSONSpans(file string, b []byte) (*jnode, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		ce := &config.ConfigError{File: file, Msg: "not valid JSON: " + err.Error()}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			ce.Line = 1 + bytes.Count(b[:min(int(se.Offset), len(b))], []byte("\n"))
		}
		return nil, ce
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return spanValue(dec, b)
}

// skipSep skips white space and the ',' and ':' between JSON tokens.
func skipSep(b []byte, i int) int {
	for i < len(b) && strings.IndexByte(" \t\r\n,:", b[i]) >= 0 {
		i++
	}
	return i
}

func spanValue(dec *json.Decoder, b []byte) (*jnode, error) {
	n := &jnode{start: skipSep(b, int(dec.InputOffset()))}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'), json.Delim('['):
		n.kind = byte(tok.(json.Delim))
		for dec.More() {
			if n.kind == '{' {
				ks := skipSep(b, int(dec.InputOffset()))
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				n.keys, n.keyStart = append(n.keys, k), append(n.keyStart, ks)
			}
			kid, err := spanValue(dec, b)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, kid)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
	}
	n.end = int(dec.InputOffset())
	return n, nil
}

// splice replaces b[start:end] with s.
func splice(b []byte, start, end int, s string) []byte {
	out := make([]byte, 0, len(b)+len(s))
	out = append(out, b[:start]...)
	out = append(out, s...)
	return append(out, b[end:]...)
}

// lineIndent is the white space that starts the line holding offset i.
func lineIndent(b []byte, i int) string {
	ls := bytes.LastIndexByte(b[:i], '\n') + 1
	j := ls
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	return string(b[ls:j])
}

// appendItem appends a member `"key": raw` (key != "" and n an object)
// or an element raw to the container n, laid out as its other items are:
// after the last item as `,` + the white space before that item + the
// new one, so that removeItem of the new item gives b back byte for byte
// (in an empty container, the white space it held is replaced: the edit
// returned says what was replaced with what).
func appendItem(b []byte, n *jnode, key string, raw []byte) ([]byte, hookEdit) {
	// A file on one line (its final newline aside) stays on one line.
	multiline := bytes.IndexByte(bytes.TrimRight(b, " \t\r\n"), '\n') >= 0
	var sep, closeSep string
	if len(n.kids) > 0 {
		last := len(n.kids) - 1
		from := n.start + 1
		if last > 0 {
			from = n.kids[last-1].end
		}
		gap := string(b[from:n.itemStart(last)])
		sep = gap[strings.LastIndexAny(gap, ",{[")+1:]
	} else if multiline {
		sep = "\n" + lineIndent(b, n.start) + indentUnit(b)
		closeSep = "\n" + lineIndent(b, n.start)
	}
	childIndent := sep[strings.LastIndexByte(sep, '\n')+1:]
	var val bytes.Buffer
	if strings.Contains(sep, "\n") {
		json.Indent(&val, raw, childIndent, indentUnit(b))
	} else {
		json.Compact(&val, raw)
	}
	item := val.String()
	if key != "" {
		kb, _ := json.Marshal(key)
		colon := ": "
		if !multiline {
			colon = ":"
		}
		item = string(kb) + colon + item
	}
	if len(n.kids) == 0 {
		e := hookEdit{At: n.start + 1, Del: string(b[n.start+1 : n.end-1]), Ins: sep + item + closeSep}
		return splice(b, e.At, e.At+len(e.Del), e.Ins), e
	}
	e := hookEdit{At: n.kids[len(n.kids)-1].end, Ins: "," + sep + item}
	return splice(b, e.At, e.At, e.Ins), e
}

// indentUnit is the file's indent step: the white space of its first
// indented line, two spaces when none.
func indentUnit(b []byte) string {
	for _, line := range bytes.Split(b, []byte("\n")) {
		if ind := lineIndent(line, 0); ind != "" {
			return ind
		}
	}
	return "  "
}

// removeItem removes the i'th member or element of the container n: with
// the `,` and white space before it (the bytes appendItem adds), or for
// the first of several the white space after it; the only item leaves
// `{}` or `[]`.
func removeItem(b []byte, n *jnode, i int) []byte {
	switch {
	case len(n.kids) == 1:
		return splice(b, n.start+1, n.end-1, "")
	case i > 0:
		return splice(b, n.kids[i-1].end, n.kids[i].end, "")
	}
	return splice(b, n.itemStart(0), n.itemStart(1), "")
}

// jsonHookEvents are the events gatekeep's JSON snippet installs under
// "hooks", in its order.
func jsonHookEvents(agent string) []string {
	if agent == "gemini" {
		return []string{"BeforeTool"}
	}
	return []string{"PreToolUse", claudeSkillEvent}
}

// isGatekeepHandler: a handler object that runs `gatekeep hook AGENT`.
func isGatekeepHandler(b []byte, h *jnode, agent string) bool {
	if h.kind != '{' {
		return false
	}
	c, i := h.member("command")
	if i < 0 {
		return false
	}
	var cmd string
	if json.Unmarshal(b[c.start:c.end], &cmd) != nil {
		return false
	}
	_, why := gatekeepArgv(cmd, agent)
	return why == ""
}

// jsonUninstall removes every handler that runs `gatekeep hook AGENT` from
// the file's hook events, then each group, event and "hooks" object that
// removal left empty.
func jsonUninstall(file string, old []byte, agent string) ([]byte, error) {
	if len(bytes.TrimSpace(old)) == 0 {
		return old, nil
	}
	b := old
	for _, event := range jsonHookEvents(agent) {
		for {
			root, err := parseJSONSpans(file, b)
			if err != nil {
				return nil, err
			}
			if root.kind != '{' {
				return nil, fmt.Errorf("%w: %s is not a JSON object", errUnmergeable, file)
			}
			hooks, hi := root.member("hooks")
			if hi < 0 {
				break
			}
			groups, gi := hooks.member(event)
			if hooks.kind != '{' || gi < 0 || groups.kind != '[' {
				break
			}
			next := removeGatekeepHandler(b, root, hooks, hi, groups, gi, agent)
			if next == nil {
				break
			}
			b = next
		}
	}
	return b, nil
}

// removeGatekeepHandler removes the first gatekeep handler of the event
// array groups (member gi of hooks, member hi of root), and the group,
// event and hooks object it leaves empty; nil when there is none.
func removeGatekeepHandler(b []byte, root, hooks *jnode, hi int, groups *jnode, gi int, agent string) []byte {
	for g, group := range groups.kids {
		if group.kind != '{' {
			continue
		}
		handlers, i := group.member("hooks")
		if i < 0 || handlers.kind != '[' {
			continue
		}
		for h, handler := range handlers.kids {
			if !isGatekeepHandler(b, handler, agent) {
				continue
			}
			switch {
			case len(handlers.kids) > 1:
				return removeItem(b, handlers, h)
			case len(groups.kids) > 1:
				return removeItem(b, groups, g)
			case len(hooks.kids) > 1:
				return removeItem(b, hooks, gi)
			}
			return removeItem(b, root, hi)
		}
	}
	return nil
}

// jsonInstall appends each of the snippet's hook groups to its event in
// the file (creating the event and "hooks" when missing), after removing
// any other gatekeep handler. A file with exactly the snippet's gatekeep
// entries is returned as it is. An absent or empty file becomes the
// snippet. edits are the edits that follow the removal of another
// gatekeep handler, in order (hookRecord).
func jsonInstall(file string, old, snippet []byte, agent string) (_ []byte, edits []hookEdit, _ error) {
	if len(bytes.TrimSpace(old)) == 0 {
		return snippet, nil, nil
	}
	root, err := parseJSONSpans(file, old)
	if err != nil {
		return nil, nil, err
	}
	if root.kind != '{' {
		return nil, nil, fmt.Errorf("%w: %s is not a JSON object", errUnmergeable, file)
	}
	want, _ := parseJSONSpans("", snippet)
	wantHooks, _ := want.member("hooks")
	if hooks, i := root.member("hooks"); i >= 0 {
		if hooks.kind != '{' {
			return nil, nil, fmt.Errorf(`%w: "hooks" in %s is not an object`, errUnmergeable, file)
		}
		for _, event := range jsonHookEvents(agent) {
			if groups, i := hooks.member(event); i >= 0 && groups.kind != '[' {
				return nil, nil, fmt.Errorf(`%w: "hooks.%s" in %s is not an array`, errUnmergeable, event, file)
			}
		}
	}
	if agent == "gemini" {
		// Gemini CLI runs hooks unless hooksConfig.enabled is false; a
		// file that turns them off is the person's choice to undo.
		if hc, i := root.member("hooksConfig"); i >= 0 && hc.kind == '{' {
			if en, i := hc.member("enabled"); i >= 0 && string(old[en.start:en.end]) == "false" {
				return nil, nil, fmt.Errorf("%w: %s turns Gemini CLI's hooks off (hooksConfig.enabled is false), so gatekeep's hook would not run: set it to true first", errUnmergeable, file)
			}
		}
	}
	if hasExactly(old, root, snippet, wantHooks, agent) {
		return old, nil, nil
	}
	b, err := jsonUninstall(file, old, agent)
	if err != nil {
		return nil, nil, err
	}
	for i, event := range wantHooks.keys {
		groupRaw := snippet[wantHooks.kids[i].kids[0].start:wantHooks.kids[i].kids[0].end]
		root, _ = parseJSONSpans(file, b)
		hooks, hi := root.member("hooks")
		var e hookEdit
		if hi < 0 {
			b, e = appendItem(b, root, "hooks", []byte(`{`+quoteJSON(event)+`:[`+string(groupRaw)+`]}`))
		} else if groups, gi := hooks.member(event); gi < 0 {
			b, e = appendItem(b, hooks, event, []byte(`[`+string(groupRaw)+`]`))
		} else {
			b, e = appendItem(b, groups, "", groupRaw)
		}
		edits = append(edits, e)
	}
	if _, err := parseJSONSpans(file, b); err != nil {
		return nil, nil, fmt.Errorf("%w: the merged file would not be valid JSON (%v)", errUnmergeable, err)
	}
	return b, edits, nil
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// hasExactly: each of the snippet's events holds its group once, and the
// file holds no other gatekeep handler.
func hasExactly(b []byte, root *jnode, snippet []byte, wantHooks *jnode, agent string) bool {
	hooks, i := root.member("hooks")
	if i < 0 {
		return false
	}
	for k, event := range wantHooks.keys {
		groups, i := hooks.member(event)
		if i < 0 || groups.kind != '[' {
			return false
		}
		want := wantHooks.kids[k].kids[0]
		var wantV any
		json.Unmarshal(snippet[want.start:want.end], &wantV)
		same, others := 0, 0
		for _, g := range groups.kids {
			var gv any
			json.Unmarshal(b[g.start:g.end], &gv)
			if reflect.DeepEqual(gv, wantV) {
				same++
				continue
			}
			if h, i := g.member("hooks"); i >= 0 {
				for _, handler := range h.kids {
					if isGatekeepHandler(b, handler, agent) {
						others++
					}
				}
			}
		}
		if same != 1 || others != 0 {
			return false
		}
	}
	return true
}

// --- Codex config.toml ---

// The lines around the block hook install adds to Codex's config.toml.
const (
	tomlBlockBegin = "# >>> gatekeep hook: added by `gatekeep hook install codex`, removed by `gatekeep hook uninstall codex` >>>"
	tomlBlockEnd   = "# <<< gatekeep hook <<<"
)

// tomlBlock finds the block's bytes in b (its begin line through the end
// line's newline); ok false when absent, an error when it is broken.
func tomlBlock(file string, b []byte) (start, end int, ok bool, err error) {
	begin := bytes.Index(b, []byte(tomlBlockBegin+"\n"))
	if begin < 0 {
		if bytes.Contains(b, []byte(tomlBlockEnd)) {
			return 0, 0, false, fmt.Errorf("%w: %s has gatekeep's end line without its begin line; fix it by hand", errUnmergeable, file)
		}
		return 0, 0, false, nil
	}
	if begin > 0 && b[begin-1] != '\n' {
		return 0, 0, false, fmt.Errorf("%w: gatekeep's begin line in %s does not start a line; fix it by hand", errUnmergeable, file)
	}
	e := bytes.Index(b[begin:], []byte("\n"+tomlBlockEnd+"\n"))
	if e < 0 {
		return 0, 0, false, fmt.Errorf("%w: %s has gatekeep's begin line without its end line; fix it by hand", errUnmergeable, file)
	}
	end = begin + e + len("\n"+tomlBlockEnd+"\n")
	if bytes.Contains(b[end:], []byte(tomlBlockBegin)) {
		return 0, 0, false, fmt.Errorf("%w: %s has gatekeep's block twice; fix it by hand", errUnmergeable, file)
	}
	return begin, end, true, nil
}

// parseTOML checks that b is valid TOML; an error names the line.
func parseTOML(file string, b []byte) (map[string]any, error) {
	var v map[string]any
	if err := config.CheckTOMLShape(file, b); err != nil {
		return nil, err
	}
	if _, err := toml.Decode(string(b), &v); err != nil {
		ce := &config.ConfigError{File: file, Msg: "not valid TOML: " + err.Error()}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			ce.Line, ce.Msg = pe.Position.Line, "not valid TOML: "+pe.Message
		}
		return nil, ce
	}
	return v, nil
}

// tomlUninstall removes the block, and the newline tomlInstall put
// before it.
func tomlUninstall(file string, old []byte) ([]byte, error) {
	if _, err := parseTOML(file, old); err != nil {
		return nil, err
	}
	start, end, ok, err := tomlBlock(file, old)
	if err != nil || !ok {
		return old, err
	}
	if start >= 1 && old[start-1] == '\n' {
		start--
	}
	return splice(old, start, end, ""), nil
}

// tomlInstall appends the snippet between the block's lines at the end of
// the file after one newline (a blank line when the file ends with its
// own newline), replacing an earlier block, so that tomlUninstall gives
// back the file's bytes. A gatekeep
// hook outside the block (added by hand) is left alone: install refuses,
// or, when it runs this very command, changes nothing. The result must
// parse, with the snippet's hook in it.
func tomlInstall(file string, old, snippet []byte, command string) ([]byte, error) {
	rest, err := tomlUninstall(file, old)
	if err != nil {
		return nil, err
	}
	cfg, _ := parseTOML(file, rest)
	for _, h := range tomlHookEntries(file, cfg) {
		if _, why := gatekeepArgv(h.command, "codex"); why != "" {
			continue
		}
		if h.command == command {
			return old, nil
		}
		return nil, fmt.Errorf("%w: %s already runs `%s` as a hook, outside the lines gatekeep manages: remove that [[hooks.PreToolUse]] entry by hand and install again", errUnmergeable, file, h.command)
	}
	next := append([]byte{}, rest...)
	if len(next) > 0 {
		next = append(next, '\n')
	}
	next = append(next, tomlBlockBegin+"\n"...)
	next = append(next, snippet...)
	next = append(next, tomlBlockEnd+"\n"...)
	if bytes.Equal(next, old) {
		return old, nil
	}
	merged, err := parseTOML(file, next)
	if err != nil {
		return nil, fmt.Errorf("%w: %s defines its hooks in a way gatekeep's [[hooks.PreToolUse]] cannot be added to (%v); add the entries `gatekeep hook print codex` prints by hand", errUnmergeable, file, err)
	}
	found := false
	for _, h := range tomlHookEntries(file, merged) {
		found = found || h.command == command
	}
	if !found {
		return nil, fmt.Errorf("%w: gatekeep's hook would not be read from %s", errUnmergeable, file)
	}
	return next, nil
}
