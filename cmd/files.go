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
// one JSON line on stderr and exit 1 (README, "File tools").
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

func (a *app) readCmd(check bool) *cobra.Command {
	return &cobra.Command{
		Use:   "read PATH",
		Short: "Check a file read, then copy the file to stdout",
		Args:  exactArgs(1, "read needs one PATH"),
		RunE: func(_ *cobra.Command, args []string) error {
			req := policy.Request{Tool: policy.ToolRead, Path: args[0]}
			return a.handleFile(check, req, func(real string) error {
				f, err := openNoFollow(real)
				if err != nil {
					return a.fileFail(fileErrCode(err), args[0], err)
				}
				defer f.Close()
				if _, err := io.Copy(a.rawStdout, f); err != nil {
					return a.fileFail("file.io", args[0], err)
				}
				return nil
			})
		},
	}
}

func (a *app) writeCmd(check bool) *cobra.Command {
	return &cobra.Command{
		Use:   "write PATH",
		Short: "Check a file write, then write stdin to PATH atomically",
		Long: `Check a file write, then write standard input to PATH atomically: a temp
file in the same directory, fsync, rename. An existing file keeps its mode.
Missing parent directories are created (only inside the sandbox roots).`,
		Args: exactArgs(1, "write needs one PATH"),
		RunE: func(_ *cobra.Command, args []string) error {
			req := policy.Request{Tool: policy.ToolWrite, Path: args[0]}
			return a.handleFile(check, req, func(real string) error {
				if err := writeAtomic(real, a.stdin); err != nil {
					return a.fileFail(fileErrCode(err), args[0], err)
				}
				return nil
			})
		},
	}
}

func (a *app) editCmd(check bool) *cobra.Command {
	var old, new string
	var all bool
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
			if old == "" {
				return usageErr("edit --old must not be empty")
			}
			req := policy.Request{Tool: policy.ToolEdit, Path: args[0]}
			return a.handleFile(check, req, func(real string) error {
				f, err := openNoFollow(real)
				if err != nil {
					return a.fileFail(fileErrCode(err), args[0], err)
				}
				data, err := io.ReadAll(f)
				f.Close()
				if err != nil {
					return a.fileFail("file.io", args[0], err)
				}
				n := bytes.Count(data, []byte(old))
				switch {
				case n == 0:
					return a.fileFail("edit.no_match", args[0], errors.New("the old text does not occur in the file"))
				case n > 1 && !all:
					return a.fileFail("edit.ambiguous", args[0], fmt.Errorf("the old text occurs %d times; give more context or --all", n))
				}
				out := strings.Replace(string(data), old, new, map[bool]int{true: -1, false: 1}[all])
				if err := writeAtomic(real, strings.NewReader(out)); err != nil {
					return a.fileFail(fileErrCode(err), args[0], err)
				}
				return nil
			})
		},
	}
	c.Flags().StringVar(&old, "old", "", "the exact text to replace")
	c.Flags().StringVar(&new, "new", "", "the text to put in its place")
	c.Flags().BoolVar(&all, "all", false, "replace every occurrence")
	return c
}

func exactArgs(n int, msg string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErr("%s", msg)
		}
		return nil
	}
}

// handleFile decides a file tool call and runs do with the real path that
// was checked.
func (a *app) handleFile(check bool, req policy.Request, do func(real string) error) error {
	return a.handle(check, req, false, func(d policy.Decision) error {
		if d.UpdatedInput == nil || d.UpdatedInput.Path == "" {
			return withCode(ExitInternal, errors.New("the decision holds no checked path"))
		}
		return a.confinedFile(func() error { return do(d.UpdatedInput.Path) })
	})
}
