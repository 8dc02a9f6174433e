package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gofrs/flock"

	"github.com/gatekeep/gatekeep/policy"
)

// localConfigPath is the local config file of a project root.
func localConfigPath(root string) string {
	return filepath.Join(root, policy.ProjectConfigDir, policy.LocalConfigName)
}

// appendLocalRules appends one [[rule]] block to the project's local config
// file (design §8): as text, so the person's formatting and comments stay;
// under an exclusive lock (gofrs/flock on a lock file beside it); written to
// a temp file and renamed over, so a reader sees the old file or the new one.
// A new file is created with mode 0600, and in a git work tree the file is
// added to .git/info/exclude. effect is "allow", "ask" or "deny".
//
// When the file was the person's own before (absent, or with the hash the
// trust store holds for it, or shown untracked by git), the new content's
// hash is recorded in the trust store at trustPath, so a file gatekeep wrote
// stays trusted; a file that came with the project stays untrusted.
func appendLocalRules(opts policy.LoadOptions, effect string, rules []string, reason string) (string, error) {
	root := opts.Root
	if len(rules) == 0 {
		return "", errors.New("no rule to add")
	}
	file := localConfigPath(root)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return file, err
	}
	lock := flock.New(file + ".lock")
	if err := lock.Lock(); err != nil {
		return file, fmt.Errorf("locking %s: %w", file, err)
	}
	defer lock.Unlock()

	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return file, err
	}
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	block, err := ruleBlock(effect, rules, reason)
	if err != nil {
		return file, err
	}
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
	wasOwn := len(old) == 0 || localFileTrusted(opts, old)
	if err := policy.WriteFileAtomic(file, buf.Bytes(), mode); err != nil {
		return file, err
	}
	if wasOwn && opts.Paths.Trust != "" {
		if _, err := (policy.TrustStore{Path: opts.Paths.Trust}).Trust(file); err != nil {
			return file, fmt.Errorf("the rule is saved, but recording its trust failed: %w", err)
		}
	}
	excludeFromGit(root, "/"+policy.ProjectConfigDir+"/"+policy.LocalConfigName+"*")
	return file, nil
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
	data, err := os.ReadFile(path)
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
	policy.WriteFileAtomic(path, data, 0o644)
}

// localFileTrusted reports whether the local file with content data counts
// as the person's own: git shows it untracked, or the trust store holds its
// hash.
func localFileTrusted(opts policy.LoadOptions, data []byte) bool {
	file := localConfigPath(opts.Root)
	if opts.Untracked != nil && opts.Untracked(file) {
		return true
	}
	trusted, _ := policy.TrustStore{Path: opts.Paths.Trust}.Check(file, data)
	return trusted
}
