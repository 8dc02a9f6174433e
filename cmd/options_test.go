package cmd

import (
	"io"
	"slices"
	"testing"

	"github.com/spf13/cobra"
)

// TestNewCmdOptions: each command's flags and arguments become its options
// struct, handed to runF in place of running anything (cli/cli's
// NewCmdX(f, runF) shape); a tool command under check carries check's
// options, at the top level none.
func TestNewCmdOptions(t *testing.T) {
	a := newApp(nil, io.Discard, io.Discard)
	run := func(c *cobra.Command, args ...string) {
		t.Helper()
		c.SetArgs(args)
		c.SetOut(io.Discard)
		c.SetErr(io.Discard)
		if err := c.Execute(); err != nil {
			t.Fatalf("%s %q: %v", c.Name(), args, err)
		}
	}
	chk := &checkOptions{}
	var b *bashOptions
	run(a.newCmdBash(chk, func(o *bashOptions) error { b = o; return nil }), "-c", "echo $1", "name", "hi")
	if b == nil || b.check != chk || !b.hasScript || b.script != "echo $1" || !slices.Equal(b.args, []string{"name", "hi"}) {
		t.Errorf("bash -c: %+v", b)
	}
	b = nil
	run(a.newCmdBash(nil, func(o *bashOptions) error { b = o; return nil }), "--", "ls", "-l")
	if b == nil || b.check != nil || b.hasScript || !slices.Equal(b.args, []string{"ls", "-l"}) {
		t.Errorf("bash --: %+v", b)
	}
	var f *fileOptions
	run(a.newCmdEdit(nil, func(o *fileOptions) error { f = o; return nil }), "x.go", "--old", "a", "--new", "", "--all")
	if f == nil || f.path != "x.go" || f.old != "a" || f.new != "" || !f.all {
		t.Errorf("edit: %+v", f)
	}
	f = nil
	run(a.newCmdRead(chk, func(o *fileOptions) error { f = o; return nil }), "notes.md")
	if f == nil || f.path != "notes.md" || f.check != chk {
		t.Errorf("read: %+v", f)
	}
	var c *checkOptions
	run(a.newCmdCheck(func(o *checkOptions) error { c = o; return nil }), "--batch", "-", "--json")
	if c == nil || c.batch != "-" || !c.json || c.explain {
		t.Errorf("check --batch: %+v", c)
	}
}
