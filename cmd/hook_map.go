package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/gatekeep/gatekeep/policy"
)

// hookRequests maps an agent's tool call to the gatekeep requests that
// decide it (issue 6, item 1). Tool names and input fields are those of
// the agents' documentation:
//
//   - Claude Code tools: https://code.claude.com/docs/en/hooks#pretooluse-input
//     (Bash command; Read, Write, Edit, MultiEdit file_path; NotebookEdit
//     notebook_path; Glob, Grep path; WebFetch url).
//   - Codex: https://developers.openai.com/codex/hooks#pretooluse (tool_name
//     "Bash" with tool_input.command for every shell-like tool;
//     "apply_patch" with the patch text in tool_input.command; MCP tools as
//     mcp__server__tool with their arguments).
//   - Gemini CLI tools: https://geminicli.com/docs/tools (run_shell_command
//     command and dir_path; read_file, write_file, replace file_path; glob,
//     search_file_content/grep_search, list_directory dir_path; web_fetch
//     prompt holding the URLs).
//
// Every other tool (mcp__server__tool, Task, an unknown name) is a request
// of its own name in category command, which no layer allows without a
// rule. A field that is missing or of the wrong type is an error: the call
// is blocked.
func hookRequests(p *hookPayload) ([]policy.Request, error) {
	in := p.input
	req := policy.Request{Cwd: p.cwd}
	switch p.tool {
	case "Bash", "run_shell_command", "shell", "exec_command", "local_shell":
		req.Tool = policy.ToolBash
		if err := shellCommand(in, &req); err != nil {
			return nil, err
		}
		dir, err := optString(in, "dir_path", "directory", "workdir")
		if err != nil {
			return nil, err
		}
		if dir != "" {
			req.Cwd = joinCwd(p.cwd, dir)
		}
		return []policy.Request{req}, nil
	case "Read", "read_file", "NotebookRead":
		return filePath(req, policy.ToolRead, in, "file_path", "notebook_path", "absolute_path", "path")
	case "Write", "write_file":
		return filePath(req, policy.ToolWrite, in, "file_path", "absolute_path", "path")
	case "Edit", "MultiEdit", "replace":
		return filePath(req, policy.ToolEdit, in, "file_path", "absolute_path", "path")
	case "NotebookEdit":
		return filePath(req, policy.ToolEdit, in, "notebook_path", "file_path")
	case "apply_patch":
		return patchRequests(req, in)
	case "Glob", "Grep", "LS", "glob", "search_file_content", "grep_search", "list_directory":
		dir, err := optString(in, "path", "dir_path", "directory")
		if err != nil {
			return nil, err
		}
		req.Tool, req.Path = policy.ToolRead, p.cwd
		if dir != "" {
			req.Path = dir
		}
		return []policy.Request{req}, nil
	case "WebFetch", "web_fetch":
		return fetchRequests(req, in)
	}
	req.Tool, req.Category = p.tool, policy.CatCommand
	return []policy.Request{req}, nil
}

// shellCommand reads tool_input.command: a string is shell text, an array
// of strings an argv (the form of Codex's older shell tool).
func shellCommand(in map[string]json.RawMessage, req *policy.Request) error {
	raw, ok := in["command"]
	if !ok || string(raw) == "null" {
		return errors.New("tool_input.command is missing")
	}
	if err := json.Unmarshal(raw, &req.Command); err == nil {
		return nil
	}
	var argv []string
	if err := json.Unmarshal(raw, &argv); err != nil || len(argv) == 0 {
		return errors.New("tool_input.command is neither a string nor a list of strings")
	}
	req.Argv = argv
	return nil
}

// filePath makes a file request from the first of keys that is present.
func filePath(req policy.Request, tool string, in map[string]json.RawMessage, keys ...string) ([]policy.Request, error) {
	path, err := optString(in, keys...)
	if err != nil {
		return nil, err
	}
	if path == "" {
		return nil, fmt.Errorf("tool_input.%s is missing", keys[0])
	}
	req.Tool, req.Path = tool, path
	return []policy.Request{req}, nil
}

// optString returns the first of keys present in in ("" when none is); a
// present key whose value is not a string is an error.
func optString(in map[string]json.RawMessage, keys ...string) (string, error) {
	for _, k := range keys {
		raw, ok := in[k]
		if !ok || string(raw) == "null" {
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("tool_input.%s is not a string", k)
		}
		return s, nil
	}
	return "", nil
}

func joinCwd(cwd, dir string) string {
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir)
	}
	return filepath.Join(cwd, dir)
}

// patchRequests makes one Write request per file that a Codex apply_patch
// adds, updates, deletes or moves to. The patch is in tool_input.command
// (or "input" or "patch").
func patchRequests(req policy.Request, in map[string]json.RawMessage) ([]policy.Request, error) {
	patch, err := optString(in, "command", "input", "patch")
	if err != nil {
		return nil, err
	}
	paths, err := patchPaths(patch)
	if err != nil {
		return nil, err
	}
	reqs := make([]policy.Request, 0, len(paths))
	for _, path := range paths {
		r := req
		r.Tool, r.Path = policy.ToolWrite, path
		reqs = append(reqs, r)
	}
	return reqs, nil
}

// patchPaths lists the files an apply_patch touches, in order, each once.
// The format is Codex's (codex-rs/apply-patch, apply_patch_tool_instructions.md):
//
//	*** Begin Patch
//	*** Add File: PATH | *** Update File: PATH [*** Move to: PATH] | *** Delete File: PATH
//	...
//	*** End Patch
//
// A patch that names no file is an error.
func patchPaths(patch string) ([]string, error) {
	var paths []string
	seen := map[string]bool{}
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimRight(line, "\r")
		for _, marker := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if strings.HasPrefix(line, marker) {
				path := strings.TrimSpace(strings.TrimPrefix(line, marker))
				if path == "" {
					return nil, errors.New("the patch has a file header without a path")
				}
				if !seen[path] {
					seen[path] = true
					paths = append(paths, path)
				}
			}
		}
	}
	if len(paths) == 0 {
		return nil, errors.New("the patch names no file")
	}
	return paths, nil
}

// urlRe finds the http(s) URLs in Gemini's web_fetch prompt.
var urlRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'<>` + "`" + `]+`) })

// fetchRequests makes one WebFetch request per URL: tool_input.url (Claude
// Code), or every URL in tool_input.prompt (Gemini CLI's web_fetch). With
// none, one request without a URL.
func fetchRequests(req policy.Request, in map[string]json.RawMessage) ([]policy.Request, error) {
	req.Tool, req.Category = "WebFetch", policy.CatCommand
	url, err := optString(in, "url")
	if err != nil {
		return nil, err
	}
	if url != "" {
		req.URL = url
		return []policy.Request{req}, nil
	}
	prompt, err := optString(in, "prompt")
	if err != nil {
		return nil, err
	}
	var reqs []policy.Request
	for _, u := range urlRe().FindAllString(prompt, -1) {
		r := req
		r.URL = strings.TrimRight(u, ".,;:!?)]}")
		reqs = append(reqs, r)
	}
	if len(reqs) == 0 {
		reqs = append(reqs, req)
	}
	return reqs, nil
}
