package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gatekeep/gatekeep/policy"
)

// LocalConfigPath is the local config file of a project root.
func LocalConfigPath(root string) string {
	return filepath.Join(root, ProjectConfigDir, LocalConfigName)
}

// AppendLocalRules appends one [[rule]] block to the project's local config
// file (where `gatekeep rules add` and a prompt's "always allow" save the
// person's own rules): as text, so the person's formatting and comments stay;
// under an exclusive lock (gofrs/flock on a lock file beside it); written to
// a temp file and renamed over, so a reader sees the old file or the new one.
// A new file is created with mode 0600, and in a git work tree the file is
// added to .git/info/exclude. effect is "allow", "ask" or "deny".
//
// The file is the person's own when it is absent or empty, or when the
// trust store holds its hash (gatekeep wrote it, or `gatekeep trust`). Then
// the new version's hash is recorded before the rename and the old one
// dropped after it, so a crash at any point leaves the file on disk
// trusted. An allow rule is refused for a file that is not the person's
// own: it would not apply, and trusting the file would trust what came
// with the project. Temp files of an interrupted earlier write are removed.
// Afterwards the configuration is loaded again, and an error is returned
// unless every rule added is in force.
//
// A rule the file already holds with the same effect is not added again:
// it is returned in present, and when every rule is present the file is
// not written at all. When the trust store exists but cannot be read
// (damaged, unreadable), nothing is changed and the error says so: the
// file's trust record could not be carried over to its new content, and
// the person's allow rules in it would stop applying.
func AppendLocalRules(opts LoadOptions, effect string, rules []string, reason string) (file string, present []string, err error) {
	if len(rules) == 0 {
		return "", nil, errors.New("no rule to add")
	}
	var added []string
	verify := func() error { return verifyRules(opts, LocalConfigPath(opts.Root), effect, added) }
	file, err = editLocal(opts, effect == "allow", "an allow rule", verify, func(old []byte) ([]byte, error) {
		added, present = newRules(old, effect, rules)
		if len(added) == 0 {
			return nil, nil
		}
		block, err := ruleBlock(effect, added, reason)
		if err != nil {
			return nil, err
		}
		return appendBlock(old, block), nil
	})
	return file, present, err
}

// appendBlock is old with a blank line, a "# added by gatekeep" line and
// block after it.
func appendBlock(old, block []byte) []byte {
	var buf bytes.Buffer
	buf.Write(old)
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		buf.WriteByte('\n')
	}
	if len(old) > 0 {
		buf.WriteByte('\n')
	}
	fmt.Fprintf(&buf, "# added by gatekeep on %s\n", time.Now().UTC().Format(time.RFC3339))
	buf.Write(block)
	return buf.Bytes()
}

// editLocal changes the project's local config file as AppendLocalRules
// describes (lock, trust bookkeeping, atomic replace, kept out of git):
// edit gets the file's content (nil when missing) and returns the new
// one, or nil to leave the file as it is. loosens refuses the edit when
// the file is not the person's own; what names the change in that error.
// verify runs after a write, still under the lock: another gatekeep
// writing the file between the write and the check would leave it
// briefly untrusted (its new content, the trust record not yet made) and
// the check would fail for a change that is in force.
func editLocal(opts LoadOptions, loosens bool, what string, verify func() error, edit func(old []byte) ([]byte, error)) (string, error) {
	root := opts.Root
	file := LocalConfigPath(root)
	store := TrustStore{Path: opts.Paths.Trust}
	if err := store.readErr(); err != nil {
		return file, err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return file, err
	}
	lock := NewLock(file + ".lock")
	if err := lock.Lock(); err != nil {
		return file, fmt.Errorf("locking %s: %w", file, err)
	}
	defer lock.Unlock()
	RemoveStaleTemps(file)

	old, err := policy.ReadRegular(file, MaxConfigSize)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return file, err
	}
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	own := len(old) == 0
	if !own {
		if own, err = store.owns(file, old); err != nil {
			return file, err
		}
	}
	if !own && loosens {
		return file, fmt.Errorf("%s is not trusted (gatekeep did not write it, or it changed since), so %s added to it would not apply: review it, run `gatekeep trust %s`, then add it again", file, what, file)
	}
	if own && opts.Paths.Trust == "" {
		return file, fmt.Errorf("no trust store path is known (set HOME or XDG_STATE_HOME), so %s added would not apply", what)
	}
	next, err := edit(old)
	if err != nil || next == nil {
		return file, err
	}
	if own {
		if err := store.Begin(file, old, next); err != nil {
			return file, fmt.Errorf("recording the new version's trust failed, so nothing was written: %w", err)
		}
	}
	if err := WriteFileAtomic(file, next, mode); err != nil {
		if own {
			store.Commit(file, old)
		}
		return file, err
	}
	if own {
		// A failure leaves both versions trusted, which the next write
		// settles: not an error.
		store.Commit(file, next)
	}
	excludeFromGit(root, "/"+ProjectConfigDir+"/"+LocalConfigName+"*")
	return file, verify()
}

// newRules splits rules into those the local file's content old does not
// hold yet with effect (in order, each once) and those it does. A file
// that does not decode holds none.
func newRules(old []byte, effect string, rules []string) (add, present []string) {
	held := map[string]bool{}
	var doc struct {
		Rule []map[string]any `toml:"rule"`
	}
	if CheckTOMLShape("", old) == nil {
		if _, err := toml.Decode(string(old), &doc); err == nil {
			for _, r := range doc.Rule {
				for _, text := range ruleTexts(r[effect]) {
					held[strings.TrimSpace(text)] = true
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, r := range rules {
		t := strings.TrimSpace(r)
		switch {
		case held[t]:
			present = append(present, r)
		case !seen[t]:
			add = append(add, r)
		}
		seen[t] = true
	}
	return add, present
}

// ruleTexts is a [[rule]] key's value as a list: one string or an array
// of them (other items are not rules and are left out).
func ruleTexts(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// verifyRules loads the configuration as the next call will and checks that
// every rule of rules (with effect) from file is in force.
func verifyRules(opts LoadOptions, file, effect string, rules []string) error {
	l, err := Load(opts)
	if err != nil {
		return fmt.Errorf("the rule was written to %s, but the configuration does not load, so it is not in force: %w", file, err)
	}
	want, err := policy.ParseEffect(effect)
	if err != nil {
		return err
	}
	for _, text := range rules {
		found := false
		for _, r := range l.Rules.Rules() {
			if r.Ref.File == file && r.Ref.Rule == strings.TrimSpace(text) && r.Ref.Effect == want && r.Active {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("the rule %s was written to %s but is not in force (is the file trusted? see `gatekeep config path`)", text, file)
		}
	}
	return nil
}

// ruleBlock renders `[[rule]]` with the rules as a TOML array.
func ruleBlock(effect string, rules []string, reason string) ([]byte, error) {
	entry := map[string]any{effect: rules}
	if reason != "" {
		entry["reason"] = reason
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(map[string]any{"rule": []map[string]any{entry}}); err != nil {
		return nil, err
	}
	// The encoder indents table contents; a config file reads better flat.
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimLeft(lines[i], " ")
	}
	return []byte(strings.Join(lines, "\n") + "\n"), nil
}

// excludeFromGit adds pattern to .git/info/exclude of the work tree at root,
// once. Failure is not an error: the file is still the person's own.
func excludeFromGit(root, pattern string) {
	gitDir := filepath.Join(root, ".git")
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return
	}
	path := filepath.Join(gitDir, "info", "exclude")
	data, err := policy.ReadRegular(path, MaxConfigSize)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == pattern {
			return
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		data = append(data, '\n')
	}
	data = append(data, []byte("# gatekeep's local rules are this machine's only\n"+pattern+"\n")...)
	WriteFileAtomic(path, data, 0o644)
}

// ruleHeaderRe matches a `[[rule]]` header line; tableHeaderRe any table
// header, which ends the rule block above it. Compiled on first use (by
// `rules remove`), not in every process's start-up.
var (
	ruleHeaderRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[\s*rule\s*\]\]\s*(#.*)?$`) })
	tableHeaderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[`) })
)

// RemoveLocalRules removes every occurrence of rules from the project's
// local config file, under the same lock, atomic replace and trust
// bookkeeping as AppendLocalRules: a [[rule]] left with no rule is
// removed whole (with the "# added by gatekeep" line above it), one that
// keeps others is written again without them. The file's hash stays
// trusted only when it was trusted before. It returns how many rules were
// removed; none is an error.
//
// When the trust store exists but cannot be read, nothing is changed, as
// for AppendLocalRules.
func RemoveLocalRules(opts LoadOptions, rules []string) (string, int, error) {
	file := LocalConfigPath(opts.Root)
	store := TrustStore{Path: opts.Paths.Trust}
	if err := store.readErr(); err != nil {
		return file, 0, err
	}
	lock := NewLock(file + ".lock")
	if _, err := os.Stat(filepath.Dir(file)); err == nil {
		if err := lock.Lock(); err != nil {
			return file, 0, fmt.Errorf("locking %s: %w", file, err)
		}
		defer lock.Unlock()
		RemoveStaleTemps(file)
	}
	old, err := policy.ReadRegular(file, MaxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return file, 0, fmt.Errorf("%s does not exist", file)
	}
	if err != nil {
		return file, 0, err
	}
	var doc struct {
		Rule []map[string]any `toml:"rule"`
	}
	if err := CheckTOMLShape(file, old); err != nil {
		return file, 0, err
	}
	if _, err := toml.Decode(string(old), &doc); err != nil {
		return file, 0, fmt.Errorf("%s does not parse: %w", file, err)
	}
	lines := strings.Split(string(old), "\n")
	var heads []int
	for i, l := range lines {
		if ruleHeaderRe().MatchString(l) {
			heads = append(heads, i)
		}
	}
	if len(heads) != len(doc.Rule) {
		return file, 0, fmt.Errorf("the [[rule]] blocks of %s cannot be told apart line by line: edit it by hand", file)
	}
	drop := map[string]bool{}
	for _, r := range rules {
		drop[strings.TrimSpace(r)] = true
	}
	removed := 0
	var out []string
	next := 0
	for bi, h := range heads {
		end := len(lines)
		for j := h + 1; j < len(lines); j++ {
			if tableHeaderRe().MatchString(lines[j]) {
				end = j
				break
			}
		}
		kept := map[string]any{}
		n := 0
		for _, eff := range []string{"allow", "deny", "ask"} {
			var keep []string
			switch v := doc.Rule[bi][eff].(type) {
			case string:
				if drop[strings.TrimSpace(v)] {
					n++
				} else {
					keep = append(keep, v)
				}
			case []any:
				for _, x := range v {
					s, _ := x.(string)
					if drop[strings.TrimSpace(s)] {
						n++
					} else {
						keep = append(keep, s)
					}
				}
			}
			if len(keep) > 0 {
				kept[eff] = keep
			}
		}
		if n == 0 {
			continue
		}
		removed += n
		start := h
		if start > next && strings.HasPrefix(strings.TrimSpace(lines[start-1]), "# added by gatekeep on ") {
			start--
		}
		out = append(out, lines[next:start]...)
		if len(kept) > 0 {
			if reason, ok := doc.Rule[bi]["reason"].(string); ok {
				kept["reason"] = reason
			}
			var buf bytes.Buffer
			if err := toml.NewEncoder(&buf).Encode(map[string]any{"rule": []map[string]any{kept}}); err != nil {
				return file, 0, err
			}
			for _, l := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
				out = append(out, strings.TrimLeft(l, " "))
			}
			if end < len(lines) {
				out = append(out, "")
			}
		}
		next = end
	}
	if removed == 0 {
		return file, 0, fmt.Errorf("%s holds none of %s", file, strings.Join(rules, ", "))
	}
	out = append(out, lines[next:]...)
	text := strings.Join(out, "\n")
	for strings.Contains(text, "\n\n\n") {
		text = strings.ReplaceAll(text, "\n\n\n", "\n\n")
	}
	data := []byte(strings.TrimLeft(text, "\n"))
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	own, err := store.owns(file, old)
	if err != nil {
		return file, 0, err
	}
	if own {
		if err := store.Begin(file, old, data); err != nil {
			return file, 0, fmt.Errorf("recording the new version's trust failed, so nothing was written: %w", err)
		}
	}
	if err := WriteFileAtomic(file, data, mode); err != nil {
		if own {
			store.Commit(file, old)
		}
		return file, 0, err
	}
	if own {
		store.Commit(file, data)
	}
	l, err := Load(opts)
	if err != nil {
		return file, removed, fmt.Errorf("the rules were removed from %s, but the configuration does not load: %w", file, err)
	}
	for _, r := range l.Rules.Rules() {
		if r.Ref.File == file && drop[r.Ref.Rule] {
			return file, removed, fmt.Errorf("%s still holds %s", file, r.Ref.Rule)
		}
	}
	return file, removed, nil
}
