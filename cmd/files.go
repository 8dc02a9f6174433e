package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/policy"
)

// fileError is how the file tools report a failure that is not a denial:
// one JSON line on stderr and exit 1 (docs/commandline.md, "File tools").
type fileError struct {
	Source  string `json:"source"`
	Version int    `json:"version"`
	Error   string `json:"error"` // stable code: "file.not_found", "edit.no_match" ...
	Message string `json:"message"`
	Path    string `json:"path"`
}

func (a *app) fileFail(code, path string, err error) error {
	writeJSONLine(a.stderr, fileError{Source: "gatekeep", Version: SchemaVersion, Error: code, Message: err.Error(), Path: path})
	return silentExit(ExitFailure)
}

func fileErrCode(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "file.not_found"
	case errors.Is(err, os.ErrPermission):
		return "file.permission"
	case errors.Is(err, errChanged):
		return "file.changed"
	case errors.Is(err, errNotRegular):
		return "file.not_regular"
	}
	return "file.io"
}

// fileOptions are the file tools': read, write, edit.
type fileOptions struct {
	check *checkOptions // check's flags; nil runs what was decided
	path  string        // PATH as given
	// edit's flags
	old, new string
	all      bool
}

// newCmdRead is `read`; runF, when set, gets the options in place of
// readRun.
func (a *app) newCmdRead(chk *checkOptions, runF func(*fileOptions) error) *cobra.Command {
	o := &fileOptions{check: chk}
	return &cobra.Command{
		Use:   "read PATH",
		Short: "Check a file read, then copy the file to stdout",
		Args:  exactArgs(1, "read needs one PATH"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.path = args[0]
			if runF != nil {
				return runF(o)
			}
			return a.readRun(o)
		},
	}
}

// readRun decides the read, then copies the checked file to stdout.
func (a *app) readRun(o *fileOptions) error {
	return a.decideFile(o.check, policy.Request{Tool: policy.ToolRead, Path: o.path}, func(real string) error {
		f, err := openNoFollow(real)
		if err != nil {
			return a.fileFail(fileErrCode(err), o.path, err)
		}
		defer f.Close()
		if _, err := io.Copy(a.rawStdout, f); err != nil {
			return a.fileFail("file.io", o.path, err)
		}
		return nil
	})
}

// newCmdWrite is `write`; runF, when set, gets the options in place of
// writeRun.
func (a *app) newCmdWrite(chk *checkOptions, runF func(*fileOptions) error) *cobra.Command {
	o := &fileOptions{check: chk}
	return &cobra.Command{
		Use:   "write PATH",
		Short: "Check a file write, then write stdin to PATH atomically",
		Long: `Check a file write, then write standard input to PATH atomically: a temp
file in the same directory, fsync, rename. An existing file keeps its mode.
Missing parent directories are created (only inside the sandbox roots).`,
		Args: exactArgs(1, "write needs one PATH"),
		RunE: func(_ *cobra.Command, args []string) error {
			o.path = args[0]
			if runF != nil {
				return runF(o)
			}
			return a.writeRun(o)
		},
	}
}

// writeRun decides the write, then writes stdin to the checked file.
func (a *app) writeRun(o *fileOptions) error {
	return a.decideFile(o.check, policy.Request{Tool: policy.ToolWrite, Path: o.path}, func(real string) error {
		if err := writeAtomic(real, a.stdin); err != nil {
			return a.fileFail(fileErrCode(err), o.path, err)
		}
		return nil
	})
}

// newCmdEdit is `edit`; runF, when set, gets the options in place of
// editRun.
func (a *app) newCmdEdit(chk *checkOptions, runF func(*fileOptions) error) *cobra.Command {
	o := &fileOptions{check: chk}
	c := &cobra.Command{
		Use:   "edit PATH --old TEXT --new TEXT [--all]",
		Short: "Check a file edit, then replace exact text in PATH atomically",
		Long: `Check a file edit, then replace exact text. --old must occur exactly once
unless --all is given; no match or an ambiguous match changes nothing and
exits 1.`,
		Args: exactArgs(1, "edit needs one PATH"),
		RunE: func(c *cobra.Command, args []string) error {
			if !c.Flags().Changed("old") || !c.Flags().Changed("new") {
				return usageErr("edit needs --old TEXT and --new TEXT")
			}
			if o.old == "" {
				return usageErr("edit --old must not be empty")
			}
			o.path = args[0]
			if runF != nil {
				return runF(o)
			}
			return a.editRun(o)
		},
	}
	c.Flags().StringVar(&o.old, "old", "", "the exact text to replace")
	c.Flags().StringVar(&o.new, "new", "", "the text to put in its place")
	c.Flags().BoolVar(&o.all, "all", false, "replace every occurrence")
	return c
}

// editRun decides the edit, then replaces the text in the checked file.
func (a *app) editRun(o *fileOptions) error {
	return a.decideFile(o.check, policy.Request{Tool: policy.ToolEdit, Path: o.path}, func(real string) error {
		f, err := openNoFollow(real)
		if err != nil {
			return a.fileFail(fileErrCode(err), o.path, err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return a.fileFail("file.io", o.path, err)
		}
		n := bytes.Count(data, []byte(o.old))
		switch {
		case n == 0:
			return a.fileFail("edit.no_match", o.path, errors.New("the old text does not occur in the file"))
		case n > 1 && !o.all:
			return a.fileFail("edit.ambiguous", o.path, fmt.Errorf("the old text occurs %d times; give more context or --all", n))
		}
		out := strings.Replace(string(data), o.old, o.new, map[bool]int{true: -1, false: 1}[o.all])
		if err := writeAtomic(real, strings.NewReader(out)); err != nil {
			return a.fileFail(fileErrCode(err), o.path, err)
		}
		return nil
	})
}

func exactArgs(n int, msg string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErr("%s", msg)
		}
		return nil
	}
}

// decideFile decides a file tool call and runs do with the real path that
// was checked.
func (a *app) decideFile(chk *checkOptions, req policy.Request, do func(real string) error) error {
	return a.decide(chk, call{req: req, run: func(d policy.Decision) error {
		if d.UpdatedInput == nil || d.UpdatedInput.Path == "" {
			return withCode(ExitInternal, errors.New("the decision holds no checked path"))
		}
		return a.confinedFile(func() error { return do(d.UpdatedInput.Path) })
	}})
}
