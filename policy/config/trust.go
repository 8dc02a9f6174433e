package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gatekeep/gatekeep/policy"
)

// TrustEntry is what the trust store records for one file.
type TrustEntry struct {
	// SHA256 is the hex digest of the file's bytes when it was trusted.
	SHA256 string `json:"sha256"`
	// Next is a second trusted digest, held only while gatekeep replaces
	// a file it owns: recorded before the rename and folded into SHA256
	// after it (see Begin and Commit), so that a crash at any point leaves
	// whichever version is on disk trusted.
	Next string `json:"next_sha256,omitempty"`
	// TrustedAt is when, in UTC.
	TrustedAt time.Time `json:"trusted_at"`
}

// trustFile is the JSON shape of trust.json.
type trustFile struct {
	Version int                   `json:"version"`
	Files   map[string]TrustEntry `json:"files"`
}

const trustVersion = 1

// maxTrustStore bounds the trust store read (16 MiB).
const maxTrustStore = 16 << 20

// TrustStore is the record of trusted project files: a JSON file
// (Paths.Trust, `$XDG_STATE_HOME/gatekeep/trust.json`) mapping each file's
// real path to the SHA-256 of the bytes that were trusted. Changes are made
// under an exclusive lock on Path+".lock" (gofrs/flock) and written
// atomically (a temp file in the same directory, then rename), so readers
// never need the lock.
type TrustStore struct {
	Path string
}

// Trust records the current contents of file as trusted and returns the
// entry. A file that does not exist is an error.
func (s TrustStore) Trust(file string) (TrustEntry, error) {
	data, err := policy.ReadRegular(file, MaxConfigSize)
	if err != nil {
		return TrustEntry{}, fmt.Errorf("trust %s: %w", file, err)
	}
	return s.Commit(file, data)
}

// Commit records data as the trusted content of file, forgetting any other
// digest, and returns the entry.
func (s TrustStore) Commit(file string, data []byte) (TrustEntry, error) {
	entry := TrustEntry{SHA256: digest(data), TrustedAt: time.Now().UTC().Truncate(time.Second)}
	err := s.update(func(files map[string]TrustEntry) bool {
		files[trustKey(file)] = entry
		return true
	})
	if err != nil {
		return TrustEntry{}, fmt.Errorf("trust %s: %w", file, err)
	}
	return entry, nil
}

// Begin records that gatekeep is about to replace file, whose content is
// old (trusted, or empty for a file that does not exist yet), with next:
// until Commit both are trusted, so a crash before, during or after the
// rename leaves the file that is on disk trusted. A failure means the file
// must not be replaced.
func (s TrustStore) Begin(file string, old, next []byte) error {
	entry := TrustEntry{SHA256: digest(old), Next: digest(next), TrustedAt: time.Now().UTC().Truncate(time.Second)}
	err := s.update(func(files map[string]TrustEntry) bool {
		files[trustKey(file)] = entry
		return true
	})
	if err != nil {
		return fmt.Errorf("trust %s: %w", file, err)
	}
	return nil
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Revoke forgets file, so it is untrusted again. It reports whether the
// file was trusted.
func (s TrustStore) Revoke(file string) (bool, error) {
	found := false
	err := s.update(func(files map[string]TrustEntry) bool {
		k := trustKey(file)
		_, found = files[k]
		delete(files, k)
		return found
	})
	if err != nil {
		return false, fmt.Errorf("revoke trust in %s: %w", file, err)
	}
	return found, nil
}

// Entries returns every recorded file (real path) and its entry. A store
// that does not exist yet is empty.
func (s TrustStore) Entries() (map[string]TrustEntry, error) {
	ts := readTrustStore(s.Path)
	if ts.err != nil {
		return nil, ts.err
	}
	return ts.files, nil
}

// Check reports whether file's current contents (data) are trusted, and
// whether the store holds another hash for it (the file changed since).
func (s TrustStore) Check(file string, data []byte) (trusted, changed bool) {
	return readTrustStore(s.Path).check(file, digest(data))
}

// readErr says why the store cannot be read: nil when it can, or when it
// does not exist yet. The error names the store and what to do.
func (s TrustStore) readErr() error {
	return s.unreadable(readTrustStore(s.Path).err)
}

// unreadable is err, from reading the store, as readErr reports it.
func (s TrustStore) unreadable(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("cannot read the trust store (%w), so nothing was changed: the file's trust record could not be kept; repair or move aside %s, then `gatekeep trust` the files you trust", err, s.Path)
}

// owns is Check for a writer: whether the store trusts data as file's
// content, and an error (readErr) when the store cannot be read.
func (s TrustStore) owns(file string, data []byte) (bool, error) {
	ts := readTrustStore(s.Path)
	if ts.err != nil {
		return false, s.unreadable(ts.err)
	}
	trusted, _ := ts.check(file, digest(data))
	return trusted, nil
}

// update runs fn over the recorded files under the lock and writes the
// result when fn reports a change.
func (s TrustStore) update(fn func(map[string]TrustEntry) bool) error {
	if s.Path == "" {
		return errors.New("no trust store path is set")
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	lock := NewLock(s.Path + ".lock")
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("lock the trust store: %w", err)
	}
	defer lock.Unlock()
	RemoveStaleTemps(s.Path)
	ts := readTrustStore(s.Path)
	if ts.err != nil {
		return ts.err
	}
	if !fn(ts.files) {
		return nil
	}
	b, err := json.MarshalIndent(trustFile{Version: trustVersion, Files: ts.files}, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(s.Path, append(b, '\n'), 0o600)
}

// WriteFileAtomic writes data to path through a temp file in the same
// directory, fsync and rename, so a reader sees the old file or the new one
// and a failure leaves the old one intact. The file gets mode perm.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return nil
}

// trustStore is the store as read.
type trustStore struct {
	files map[string]TrustEntry
	err   error // the store exists but cannot be read
}

// readTrustStore reads the store without the lock; a missing store (or an
// empty path) is empty.
func readTrustStore(path string) trustStore {
	ts := trustStore{files: map[string]TrustEntry{}}
	if path == "" {
		return ts
	}
	b, err := policy.ReadRegular(path, maxTrustStore)
	if errors.Is(err, fs.ErrNotExist) {
		return ts
	}
	if err != nil {
		ts.err = err
		return ts
	}
	var tf trustFile
	if err := json.Unmarshal(b, &tf); err != nil {
		ts.err = fmt.Errorf("%s is not valid JSON: %w", path, err)
		return ts
	}
	if tf.Version != trustVersion {
		ts.err = fmt.Errorf("%s has version %d, want %d", path, tf.Version, trustVersion)
		return ts
	}
	if tf.Files != nil {
		ts.files = tf.Files
	}
	return ts
}

// check reports whether the store trusts file with digest sum, and whether
// it holds another digest for it.
func (ts trustStore) check(file, sum string) (trusted, changed bool) {
	if ts.err != nil {
		return false, false
	}
	e, ok := ts.files[trustKey(file)]
	if !ok {
		return false, false
	}
	trusted = e.SHA256 == sum || (e.Next != "" && e.Next == sum)
	return trusted, !trusted
}

// trustKey names a config file by where it is, not by what it links to:
// the real path of the directory holding its directory (the project root,
// for <root>/.gatekeep/config.toml) joined with the last two names as
// written. Trust is for the file at that place with that content; a
// .gatekeep/config.local.toml that is a link to another project's trusted
// file is another key, so it inherits nothing.
func trustKey(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	dir := filepath.Dir(abs)
	return filepath.Join(realOrAbs(filepath.Dir(dir)), filepath.Base(dir), filepath.Base(abs))
}
