//go:build unix

package policy

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRelativeBlockNode: a write target named relative to the directory
// the command runs in is a block device when the node on disk is one (a
// link to /dev/loop0, or a node made with mknod), however the path is
// spelled; a plain file of that name is not.
func TestRelativeBlockNode(t *testing.T) {
	dir := t.TempDir()
	node := filepath.Join(dir, "blk")
	made := false
	if ents, err := os.ReadDir("/dev"); err == nil {
		for _, e := range ents {
			if e.Type()&fs.ModeDevice != 0 && e.Type()&fs.ModeCharDevice == 0 {
				made = os.Symlink(filepath.Join("/dev", e.Name()), node) == nil
				break
			}
		}
	}
	if !made {
		made = syscall.Mknod(node, syscall.S_IFBLK|0o600, 7<<8|200) == nil
	}
	if !made {
		if os.Getenv("CI") == "true" {
			t.Fatal("no block device to link to and mknod refused")
		}
		t.Skip("no block device to link to and mknod refused")
	}
	if err := os.WriteFile(filepath.Join(dir, "plain"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := dangerConfig(t, dir, ModeBypass, dangerHome)
	for _, c := range []struct {
		cmd, cwd string
		deny     bool
	}{
		{"dd if=/dev/zero of=blk", dir, true},
		{"dd if=/dev/zero of=./blk", dir, true},
		{"dd if=/dev/zero of=sub/../blk", dir, true},
		{"cd / && dd if=/dev/zero of=" + strings.TrimPrefix(node, "/"), dir, true},
		{"dd if=/dev/zero of=plain", dir, false},
		{"dd if=/dev/zero of=missing", dir, false},
	} {
		d := Evaluate(cfg, Request{Tool: ToolBash, Command: c.cmd, Cwd: c.cwd})
		if got := d.Effect == Deny && d.Layer == LayerDanger; got != c.deny {
			t.Errorf("%q: %v %s %s, want danger deny %v", c.cmd, d.Effect, d.Layer, d.Code, c.deny)
		}
	}
}
