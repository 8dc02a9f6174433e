// Package agentcall maps an agent's tool call, as its hook reports it
// (Claude Code, Codex, Gemini CLI), to the gatekeep requests that decide
// it: a shell command, the files a file or search tool reads or writes,
// the URLs a fetch reaches, or a request of the tool's own name. It reads
// the tool's input and nothing else: no file, no environment, no network;
// decoding the hook's JSON and answering the agent are the caller's.
package agentcall

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gatekeep/gatekeep/policy"
)

// Call is one agent tool call: the fields of a hook's payload the mapping
// reads.
type Call struct {
	Tool  string                     // tool_name
	Input map[string]json.RawMessage // tool_input
	Cwd   string                     // cwd, absolute
	// Home is the home directory a working directory's leading `~`
	// expands to; "" (or a relative path) expands nothing.
	Home string
	// MCPServer and MCPTool are Gemini CLI's mcp_context: the MCP server
	// and its own name for the tool.
	MCPServer, MCPTool string
}

// Mapping is what gatekeep decides for one agent tool call.
type Mapping struct {
	// Requests decide the call: the strictest of their answers stands.
	Requests []policy.Request
	// UI marks one of the agent's planning or conversation tools (a todo
	// list, a question to the person, entering plan mode): when only the
	// mode's fallback decided, the hook gives no opinion.
	UI bool
	// Opaque marks a call whose command gatekeep cannot analyse
	// (PowerShell): unless a rule decides it, it asks, in every mode.
	Opaque bool
	// PathKey is the tool_input key holding the one file path of a file
	// tool, for updatedInput; "" when there is none.
	PathKey string
}

// Map maps an agent's tool call to the gatekeep requests that decide it.
// Tool names and input fields are those of the agents' documentation and
// source:
//
//   - Claude Code tools: https://code.claude.com/docs/en/hooks#pretooluse-input
//     (Bash and Monitor command; PowerShell command; Read, Write, Edit,
//     MultiEdit file_path; NotebookEdit notebook_path; Glob pattern and
//     path; Grep path, glob and type; WebFetch url), and the
//     PreSkillShellCommand event (tool_name Bash or PowerShell,
//     tool_input.command).
//   - Codex: https://developers.openai.com/codex/hooks#pretooluse (tool_name
//     "Bash" with tool_input.command for every shell-like tool; the older
//     shell/local_shell argv and unified exec_command cmd forms;
//     "apply_patch" with the patch text in tool_input.command; MCP tools as
//     mcp__server__tool with their arguments).
//   - Gemini CLI tools (packages/core/src/tools, 0.61): run_shell_command
//     command and dir_path; read_file, write_file, replace file_path;
//     read_many_files include; glob pattern and dir_path; grep_search
//     pattern, dir_path and include_pattern; list_directory dir_path;
//     web_fetch prompt holding the URLs; google_web_search; MCP tools named
//     mcp_SERVER_TOOL, with the server in mcp_context.server_name.
//
// Every other tool (mcp__server__tool, Task, an unknown name) is a request
// of its own name in category command, which no layer allows without a
// rule. A field that is missing or of the wrong type is an error: the call
// is blocked.
func Map(c Call) (Mapping, error) {
	in := c.Input
	req := policy.Request{Cwd: c.Cwd}
	var m Mapping
	switch c.Tool {
	case "PowerShell":
		// Not analysable: judged by rules naming PowerShell alone.
		req.Tool, req.Category = "PowerShell", policy.CatCommand
		if _, err := InputString(in, "command"); err != nil {
			return m, err
		}
		m.Opaque = true
		m.Requests = []policy.Request{req}
		return m, nil
	case "Bash", "Monitor", "run_shell_command", "shell", "local_shell", "container.exec", "exec_command", "unified_exec":
		req.Tool = policy.ToolBash
		key := "command"
		if c.Tool == "exec_command" || c.Tool == "unified_exec" {
			key = "cmd" // Codex's unified exec
		}
		if err := shellCommand(in, key, &req); err != nil {
			return m, err
		}
		dir, err := InputString(in, "dir_path", "directory", "workdir", "cwd")
		if err != nil {
			return m, err
		}
		m.Requests = []policy.Request{req}
		if dir != "" {
			m.Requests = m.Requests[:0]
			for _, d := range workDirs(c.Cwd, c.Home, dir) {
				r := req
				r.Cwd = d
				m.Requests = append(m.Requests, r)
			}
		}
		return m, nil
	case "Read", "read_file", "NotebookRead":
		return filePath(req, policy.ToolRead, in, "file_path", "notebook_path", "absolute_path", "path")
	case "Write", "write_file":
		return filePath(req, policy.ToolWrite, in, "file_path", "absolute_path", "path")
	case "Edit", "MultiEdit", "replace":
		return filePath(req, policy.ToolEdit, in, "file_path", "absolute_path", "path")
	case "NotebookEdit":
		return filePath(req, policy.ToolEdit, in, "notebook_path", "file_path")
	case "apply_patch":
		reqs, err := patchRequests(req, in)
		m.Requests = reqs
		return m, err
	case "LS", "list_directory":
		// A listing shows names, not contents.
		dir, err := InputString(in, "path", "dir_path", "directory")
		if err != nil {
			return m, err
		}
		req.Tool, req.Path = policy.ToolRead, c.Cwd
		if dir != "" {
			req.Path = dir
		}
		m.Requests = withTextReading(nil, req)
		return m, nil
	case "Grep", "grep_search", "search_file_content", "Glob", "glob":
		reqs, err := searchRequests(req, c.Tool, in)
		m.Requests = reqs
		return m, err
	case "read_many_files":
		reqs, err := readManyRequests(req, in)
		m.Requests = reqs
		return m, err
	case "WebFetch", "web_fetch":
		reqs, err := fetchRequests(req, in)
		m.Requests = reqs
		return m, err
	case "WebSearch", "google_web_search", "web_search":
		req.Tool, req.Category = "WebSearch", policy.CatCommand
		m.Requests = []policy.Request{req}
		return m, nil
	}
	req.Tool, req.Category = c.Tool, policy.CatCommand
	if c.MCPServer != "" && c.MCPTool != "" && strings.HasPrefix(c.Tool, "mcp_") {
		// Gemini CLI names an MCP tool mcp_SERVER_TOOL, and a server's
		// name may hold "_": the server comes from mcp_context, and the
		// call is named as Claude Code and Codex name it, so that one
		// rule covers the server in every agent.
		req.Tool = "mcp__" + c.MCPServer + "__" + c.MCPTool
	}
	m.UI = uiTools()[c.Tool]
	m.Requests = []policy.Request{req}
	return m, nil
}

// uiTools are the agents' own planning and conversation tools: they change
// nothing outside the agent's session (a todo list, a question to the
// person, plan mode, a skill's instructions, a subagent whose own calls
// come through the hook, the output of a command already checked), so the
// mode's fallback gives no opinion on them; a rule naming one still
// decides.
var uiTools = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		// Claude Code
		"TodoWrite": true, "TodoRead": true, "AskUserQuestion": true, "EnterPlanMode": true, "ExitPlanMode": true,
		"Task": true, "Agent": true, "BashOutput": true,
		// Gemini CLI
		"write_todos": true, "ask_user": true, "enter_plan_mode": true, "exit_plan_mode": true, "update_topic": true,
		"activate_skill": true,
		// Codex
		"update_plan": true,
	}
})

// shellCommand reads tool_input[key] (command, or Codex's unified exec
// cmd): a string is shell text, an array of strings an argv (the form of
// Codex's older shell tool).
func shellCommand(in map[string]json.RawMessage, key string, req *policy.Request) error {
	raw, ok := in[key]
	if !ok || string(raw) == "null" {
		return fmt.Errorf("tool_input.%s is missing", key)
	}
	if err := json.Unmarshal(raw, &req.Command); err == nil {
		return nil
	}
	var argv []string
	if err := json.Unmarshal(raw, &argv); err != nil || len(argv) == 0 {
		return fmt.Errorf("tool_input.%s is neither a string nor a list of strings", key)
	}
	req.Argv = argv
	return nil
}

// filePath makes a file request from the first of keys that is present.
func filePath(req policy.Request, tool string, in map[string]json.RawMessage, keys ...string) (Mapping, error) {
	for _, k := range keys {
		path, err := InputString(in, k)
		if err != nil {
			return Mapping{}, err
		}
		if path != "" {
			req.Tool, req.Path = tool, path
			return Mapping{Requests: withTextReading(nil, req), PathKey: k}, nil
		}
	}
	return Mapping{}, fmt.Errorf("tool_input.%s is missing", keys[0])
}

// InputString returns the string value of the first of keys present in
// in ("" when none is); a present key whose value is not a string is an
// error.
func InputString(in map[string]json.RawMessage, keys ...string) (string, error) {
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

// workDirs are the directories a shell call that names dir as its working
// directory (relative to cwd unless absolute; a leading `~` is home) may
// run in, since the agents read dir differently: Codex joins it to cwd as
// an AbsolutePathBuf, which expands a leading `~` and removes `..` by the
// text, older Codex versions with PathBuf::join and then chdir(2), where
// `..` after a symlink leaves the link's target, and Gemini CLI with
// path.resolve (by the text, no `~`). Each reading is judged and the
// strictest answer stands: judged by the text alone, workdir `link/..`
// with link -> /etc ran in / while the project was judged.
func workDirs(cwd, home, dir string) []string {
	spellings := []string{dir}
	if (dir == "~" || strings.HasPrefix(dir, "~/")) && filepath.IsAbs(home) {
		spellings = append(spellings, home+dir[1:])
	}
	var out []string
	for _, d := range spellings {
		raw := d
		if !filepath.IsAbs(d) {
			raw = cwd + string(filepath.Separator) + d
		}
		for _, w := range []string{filepath.Clean(raw), raw} {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// withTextReading appends r to reqs, and when r's path climbs with `..`,
// r again for the path with `..` removed by the text: the agents' file
// tools read a path that way (Claude Code and Gemini CLI with Node's
// path.resolve, Codex's AbsolutePathBuf), while gatekeep resolves `..`
// after a symlink as the kernel does. Judged only as the kernel reads it,
// `/p/deep/../../x` with deep -> /p/a/b/c was a project write
// (/p/a/x) to the agent writing /x. The strictest answer stands.
func withTextReading(reqs []policy.Request, r policy.Request) []policy.Request {
	reqs = append(reqs, r)
	p := r.Path
	if !slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "..") {
		return reqs
	}
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, "~") {
		p = r.Cwd + string(filepath.Separator) + p
	}
	if clean := filepath.Clean(p); clean != r.Path {
		r.Path = clean
		reqs = append(reqs, r)
	}
	return reqs
}

// urlRe finds the http(s) URLs in Gemini's web_fetch prompt.
var urlRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'<>` + "`" + `]+`) })

// fetchRequests makes one WebFetch request per URL: tool_input.url (Claude
// Code), or every URL in tool_input.prompt (Gemini CLI's web_fetch). With
// none, one request without a URL.
func fetchRequests(req policy.Request, in map[string]json.RawMessage) ([]policy.Request, error) {
	req.Tool, req.Category = "WebFetch", policy.CatCommand
	url, err := InputString(in, "url")
	if err != nil {
		return nil, err
	}
	if url != "" {
		req.URL = url
		return []policy.Request{req}, nil
	}
	prompt, err := InputString(in, "prompt")
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
