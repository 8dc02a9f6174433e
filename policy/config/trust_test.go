package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestTrustStore(t *testing.T) {
	dir := t.TempDir()
	store := TrustStore{Path: filepath.Join(dir, "state", "gatekeep", "trust.json")}
	file := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(file, []byte("mode = \"plan\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, changed := store.Check(file, []byte("mode = \"plan\"\n")); ok || changed {
		t.Errorf("empty store: trusted %v changed %v", ok, changed)
	}
	if _, err := store.Trust(filepath.Join(dir, "missing.toml")); err == nil {
		t.Error("trusting a missing file succeeded")
	}
	e, err := store.Trust(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.SHA256) != 64 || e.TrustedAt.IsZero() {
		t.Errorf("entry = %+v", e)
	}
	if ok, changed := store.Check(file, []byte("mode = \"plan\"\n")); !ok || changed {
		t.Errorf("after trust: trusted %v changed %v", ok, changed)
	}
	if ok, changed := store.Check(file, []byte("mode = \"bypassPermissions\"\n")); ok || !changed {
		t.Errorf("changed file: trusted %v changed %v", ok, changed)
	}
	// A link elsewhere to a trusted file is another place: it inherits
	// nothing (a project's .gatekeep/config.local.toml linked to another
	// project's trusted file).
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if ok, _ := store.Check(link, []byte("mode = \"plan\"\n")); ok {
		t.Error("a link to a trusted file inherits its trust")
	}
	// The same place reached through a link to the directory above (a
	// project root reached through a symlink) is the same entry.
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(filepath.Dir(dir), alias); err != nil {
		t.Fatal(err)
	}
	if ok, _ := store.Check(filepath.Join(alias, filepath.Base(dir), "config.toml"), []byte("mode = \"plan\"\n")); !ok {
		t.Error("the trusted file through a link to its project is not trusted")
	}
	fi, err := os.Stat(store.Path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("store mode = %v", fi.Mode())
	}
	entries, err := store.Entries()
	if err != nil || len(entries) != 1 {
		t.Errorf("entries = %v, %v", entries, err)
	}
	found, err := store.Revoke(file)
	if err != nil || !found {
		t.Errorf("revoke = %v, %v", found, err)
	}
	if ok, _ := store.Check(file, []byte("mode = \"plan\"\n")); ok {
		t.Error("still trusted after revoke")
	}
	if found, err := store.Revoke(file); err != nil || found {
		t.Errorf("second revoke = %v, %v", found, err)
	}
	// No temp files are left behind.
	names, _ := os.ReadDir(filepath.Dir(store.Path))
	for _, n := range names {
		if strings.Contains(n.Name(), ".tmp-") {
			t.Errorf("left behind: %s", n.Name())
		}
	}
}

func TestTrustStoreConcurrent(t *testing.T) {
	dir := t.TempDir()
	store := TrustStore{Path: filepath.Join(dir, "trust.json")}
	var wg sync.WaitGroup
	const n = 20
	for i := range n {
		f := filepath.Join(dir, fmt.Sprintf("c%d.toml", i))
		if err := os.WriteFile(f, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := store.Trust(f); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	entries, err := store.Entries()
	if err != nil || len(entries) != n {
		t.Errorf("%d entries after %d concurrent trusts (%v)", len(entries), n, err)
	}
}

func TestTrustStoreCorrupt(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.projectFile(), "[[rule]]\nallow = \"Bash(make *)\"\n")
	store := TrustStore{Path: v.paths.Trust}
	if _, err := store.Trust(v.projectFile()); err != nil {
		t.Fatal(err)
	}
	v.write(v.paths.Trust, "{not json")
	l := v.load()
	if l.Files[2].Trusted {
		t.Error("a corrupt store trusts")
	}
	if len(l.Warnings) != 1 || len(l.Untrusted) != 1 || !strings.Contains(l.Warnings[0], "cannot be read") {
		t.Errorf("warnings = %q", l.Warnings)
	}
	if _, err := store.Trust(v.projectFile()); err == nil {
		t.Error("trust over a corrupt store succeeded")
	}
}

// The store is read only when a file that needs trust exists: with none,
// a corrupt store is never read and warns of nothing; once a project file
// appears, the corruption is found and the file is untrusted.
func TestTrustStoreReadOnlyWhenNeeded(t *testing.T) {
	v := newCfgEnv(t)
	v.write(v.paths.Trust, "{not json")
	v.write(v.paths.User, "mode = \"bypassPermissions\"\n")
	l := v.load()
	if len(l.Warnings) != 0 {
		t.Errorf("no file needs trust, warnings = %q", l.Warnings)
	}
	v.write(v.projectFile(), "[[rule]]\nallow = \"Bash(make *)\"\n")
	l = v.load()
	if l.Files[2].Trusted || len(l.Untrusted) != 1 {
		t.Errorf("a project file is trusted by a corrupt store: %+v", l.Files[2])
	}
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "trust store") {
		t.Errorf("warnings = %q", l.Warnings)
	}
}
