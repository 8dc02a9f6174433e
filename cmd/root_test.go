package cmd

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestRootCmdFor: the tree Run builds for a call command (that command
// alone under the root) answers as the whole tree does: the same help,
// the same usage errors and exit codes, the same decisions.
func TestRootCmdFor(t *testing.T) {
	tmp := t.TempDir()
	for k, v := range map[string]string{"HOME": tmp, "XDG_CONFIG_HOME": tmp + "/config", "XDG_STATE_HOME": tmp + "/state",
		"XDG_CACHE_HOME": tmp + "/cache", "GATEKEEP_MODE": "", "GATEKEEP_ROOT": "", "GATEKEEP_ENFORCE": "", "CI": "true"} {
		t.Setenv(k, v)
	}
	t.Chdir(tmp)
	hook := `{"session_id":"s","hook_event_name":"PreToolUse","cwd":"` + tmp + `","tool_name":"Bash","tool_input":{"command":"ls"}}`
	for _, tc := range []struct {
		args  []string
		stdin string
	}{
		{args: []string{"bash", "--help"}}, {args: []string{"read", "-h"}}, {args: []string{"write", "--help"}},
		{args: []string{"edit", "--help"}}, {args: []string{"check", "--help"}}, {args: []string{"check", "bash", "--help"}},
		{args: []string{"hook", "--help"}}, {args: []string{"hook", "claude", "--help"}},
		{args: []string{"bash"}}, {args: []string{"bash", "--bogus"}}, {args: []string{"edit", "x"}}, {args: []string{"read"}},
		{args: []string{"check"}}, {args: []string{"check", "nosuch"}}, {args: []string{"hook"}}, {args: []string{"hook", "nosuch"}},
		{args: []string{"check", "bash", "-c", "ls"}}, {args: []string{"check", "--json", "bash", "-c", "rm -rf /"}},
		{args: []string{"check", "--explain", "read", "/etc/passwd"}}, {args: []string{"check", "--mode", "plan", "write", "x"}},
		{args: []string{"hook", "claude"}, stdin: hook}, {args: []string{"hook", "codex"}, stdin: "{"},
	} {
		full := runTree(tc.args, tc.stdin, (*app).rootCmd)
		part := runTree(tc.args, tc.stdin, func(a *app) *cobra.Command { return a.rootCmdFor(tc.args) })
		if full != part {
			t.Errorf("%q: the whole tree says\n%s\nthe call's tree says\n%s", tc.args, full, part)
		}
	}
	a := newApp(nil, nil, nil)
	if n := len(a.rootCmdFor([]string{"bash", "--", "true"}).Commands()); n != 1 {
		t.Errorf("the tree for bash holds %d commands, want 1", n)
	}
	if n := len(a.rootCmdFor([]string{"--mode", "plan", "bash", "--", "true"}).Commands()); n < 10 {
		t.Errorf("the tree for a flag first holds %d commands, want all", n)
	}
}

// runTree runs args on the tree build makes, as Run does, and returns
// the exit code and what was written.
func runTree(args []string, stdin string, build func(*app) *cobra.Command) string {
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(stdin), &out, &errb)
	root := build(a)
	root.SetArgs(args)
	err := root.Execute()
	code, _ := exitCodeOf(err)
	return fmt.Sprintf("exit %d, error %v\nstdout:\n%s\nstderr:\n%s", code, err, out.String(), errb.String())
}

// TestArgvCall: `bash -- ARGV...` run without the tree (execute's
// argvCall) leaves the app and bash's options as the tree does, and fails
// the same way, whatever the environment says.
func TestArgvCall(t *testing.T) {
	for _, env := range []map[string]string{
		{},
		{"GATEKEEP_MODE": "plan", "GATEKEEP_ROOT": "/nowhere", "GATEKEEP_NONINTERACTIVE": "1"},
		{"GATEKEEP_NONINTERACTIVE": "0", "GATEKEEP_DENY_EXIT_CODE": "42", "GATEKEEP_ENFORCE": "best-effort"},
		{"GATEKEEP_ENFORCE": "1"}, {"GATEKEEP_ENFORCE": "sideways"},
		{"GATEKEEP_DENY_EXIT_CODE": "many"}, {"GATEKEEP_DENY_EXIT_CODE": "0"}, {"GATEKEEP_DENY_EXIT_CODE": "256"},
	} {
		for _, k := range []string{"GATEKEEP_MODE", "GATEKEEP_ROOT", "GATEKEEP_NONINTERACTIVE", "GATEKEEP_DENY_EXIT_CODE", "GATEKEEP_ENFORCE"} {
			t.Setenv(k, env[k])
		}
		for _, argv := range [][]string{{"true"}, {"-c", "ls"}, {"--help"}, {"-h"}, {"--", "x"}, {""}, {"git", "--mode", "plan"}} {
			args := append([]string{"bash", "--"}, argv...)
			var out, errb bytes.Buffer
			var treeOpts, callOpts *bashOptions
			tree := newApp(nil, &out, &errb)
			root := tree.bareRootCmd()
			root.AddCommand(tree.newCmdBash(nil, func(o *bashOptions) error { treeOpts = o; return nil }))
			root.CompletionOptions.DisableDefaultCmd = true
			root.SetArgs(args)
			treeErr := root.Execute()
			call := newApp(nil, &out, &errb)
			callErr := call.argvCall(argv, func(o *bashOptions) error { callOpts = o; return nil })
			if fmt.Sprint(treeErr) != fmt.Sprint(callErr) || !reflect.DeepEqual(treeOpts, callOpts) || !reflect.DeepEqual(tree, call) {
				t.Errorf("%v %q: the tree gives %v, %+v, %+v\nargvCall gives %v, %+v, %+v", env, args,
					treeErr, treeOpts, *tree, callErr, callOpts, *call)
			}
			treeCode, _ := exitCodeOf(treeErr)
			callCode, _ := exitCodeOf(callErr)
			if treeCode != callCode {
				t.Errorf("%v %q: exit %d on the tree, %d without", env, args, treeCode, callCode)
			}
			if out.Len()+errb.Len() != 0 {
				t.Errorf("%v %q: wrote %q %q", env, args, out.String(), errb.String())
			}
		}
	}
}
