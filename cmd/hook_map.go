package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// hookMapping is what gatekeep decides for one agent tool call.
type hookMapping struct {
	reqs []policy.Request
	// ui marks one of the agent's planning or conversation tools (a todo
	// list, a question to the person, entering plan mode): when only the
	// mode's fallback decided, the hook gives no opinion.
	ui bool
	// opaque marks a call whose command gatekeep cannot analyse
	// (PowerShell): unless a rule decides it, it asks, in every mode.
	opaque bool
	// pathKey is the tool_input key holding the one file path of a file
	// tool, for updatedInput; "" when there is none.
	pathKey string
}

// hookRequests maps an agent's tool call to the gatekeep requests that
// decide it. Tool names and input fields are those of the agents'
// documentation and source:
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
func hookRequests(p *hookPayload) (hookMapping, error) {
	in := p.input
	req := policy.Request{Cwd: p.cwd}
	var m hookMapping
	switch p.tool {
	case "PowerShell":
		// Not analysable: judged by rules naming PowerShell alone.
		req.Tool, req.Category = "PowerShell", policy.CatCommand
		if _, err := optString(in, "command"); err != nil {
			return m, err
		}
		m.opaque = true
		m.reqs = []policy.Request{req}
		return m, nil
	case "Bash", "Monitor", "run_shell_command", "shell", "local_shell", "container.exec", "exec_command", "unified_exec":
		req.Tool = policy.ToolBash
		key := "command"
		if p.tool == "exec_command" || p.tool == "unified_exec" {
			key = "cmd" // Codex's unified exec
		}
		if err := shellCommand(in, key, &req); err != nil {
			return m, err
		}
		dir, err := optString(in, "dir_path", "directory", "workdir", "cwd")
		if err != nil {
			return m, err
		}
		m.reqs = []policy.Request{req}
		if dir != "" {
			m.reqs = m.reqs[:0]
			for _, d := range workDirs(p.cwd, dir) {
				r := req
				r.Cwd = d
				m.reqs = append(m.reqs, r)
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
		m.reqs = reqs
		return m, err
	case "LS", "list_directory":
		// A listing shows names, not contents.
		dir, err := optString(in, "path", "dir_path", "directory")
		if err != nil {
			return m, err
		}
		req.Tool, req.Path = policy.ToolRead, p.cwd
		if dir != "" {
			req.Path = dir
		}
		m.reqs = withTextReading(nil, req)
		return m, nil
	case "Grep", "grep_search", "search_file_content", "Glob", "glob":
		reqs, err := searchRequests(req, p.tool, in)
		m.reqs = reqs
		return m, err
	case "read_many_files":
		reqs, err := readManyRequests(req, in)
		m.reqs = reqs
		return m, err
	case "WebFetch", "web_fetch":
		reqs, err := fetchRequests(req, in)
		m.reqs = reqs
		return m, err
	case "WebSearch", "google_web_search", "web_search":
		req.Tool, req.Category = "WebSearch", policy.CatCommand
		m.reqs = []policy.Request{req}
		return m, nil
	}
	req.Tool, req.Category = p.tool, policy.CatCommand
	if p.mcpServer != "" && p.mcpTool != "" && strings.HasPrefix(p.tool, "mcp_") {
		// Gemini CLI names an MCP tool mcp_SERVER_TOOL, and a server's
		// name may hold "_": the server comes from mcp_context, and the
		// call is named as Claude Code and Codex name it, so that one
		// rule covers the server in every agent.
		req.Tool = "mcp__" + p.mcpServer + "__" + p.mcpTool
	}
	m.ui = uiTools()[p.tool]
	m.reqs = []policy.Request{req}
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
func filePath(req policy.Request, tool string, in map[string]json.RawMessage, keys ...string) (hookMapping, error) {
	for _, k := range keys {
		path, err := optString(in, k)
		if err != nil {
			return hookMapping{}, err
		}
		if path != "" {
			req.Tool, req.Path = tool, path
			return hookMapping{reqs: withTextReading(nil, req), pathKey: k}, nil
		}
	}
	return hookMapping{}, fmt.Errorf("tool_input.%s is missing", keys[0])
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

// workDirs are the directories a shell call that names dir as its working
// directory (relative to cwd unless absolute) may run in, since the
// agents read dir differently: Codex joins it to cwd as an
// AbsolutePathBuf, which expands a leading `~` and removes `..` by the
// text, older Codex versions with PathBuf::join and then chdir(2), where
// `..` after a symlink leaves the link's target, and Gemini CLI with
// path.resolve (by the text, no `~`). Each reading is judged and the
// strictest answer stands: judged by the text alone, workdir `link/..`
// with link -> /etc ran in / while the project was judged.
func workDirs(cwd, dir string) []string {
	spellings := []string{dir}
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		if home, err := os.UserHomeDir(); err == nil && filepath.IsAbs(home) {
			spellings = append(spellings, home+dir[1:])
		}
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

// --- search tools: reads of everything they search ---

// searchRequests judges a search tool (Claude Code's Grep and Glob, Gemini
// CLI's grep_search and glob) as `grep -r` over the directory it searches:
// a read of every file below it that its glob or type filter may let in
// (policy.Request.Tree). A Glob pattern's literal leading directories are
// part of the directory searched (`~/.ssh/*` searches ~/.ssh).
func searchRequests(req policy.Request, tool string, in map[string]json.RawMessage) ([]policy.Request, error) {
	dir, err := optString(in, "path", "dir_path", "directory")
	if err != nil {
		return nil, err
	}
	if dir == "" {
		dir = req.Cwd
	}
	var glob, typ string
	switch tool {
	case "Grep":
		if glob, err = optString(in, "glob"); err != nil {
			return nil, err
		}
		if typ, err = optString(in, "type"); err != nil {
			return nil, err
		}
	case "grep_search", "search_file_content":
		if glob, err = optString(in, "include_pattern", "include"); err != nil {
			return nil, err
		}
	case "Glob", "glob":
		pattern, err := optString(in, "pattern")
		if err != nil {
			return nil, err
		}
		if pattern == "" {
			return nil, errors.New("tool_input.pattern is missing")
		}
		var sub string
		sub, glob = splitGlob(pattern)
		if sub != "" {
			dir = joinSearch(dir, sub)
		}
	}
	req.Tool, req.Path = policy.ToolRead, dir
	req.Tree = &shellparse.FileEffect{Via: tool, Filter: searchFilter(glob, typ)}
	return withTextReading(nil, req), nil
}

// readManyRequests judges Gemini CLI's read_many_files: every path or glob
// of tool_input.include is read, a directory as a whole.
func readManyRequests(req policy.Request, in map[string]json.RawMessage) ([]policy.Request, error) {
	raw, ok := in["include"]
	if !ok || string(raw) == "null" {
		return nil, errors.New("tool_input.include is missing")
	}
	var include []string
	if err := json.Unmarshal(raw, &include); err != nil {
		var one string
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, errors.New("tool_input.include is not a list of strings")
		}
		include = []string{one}
	}
	if len(include) == 0 {
		return nil, errors.New("tool_input.include is empty")
	}
	var reqs []policy.Request
	for _, inc := range include {
		if inc == "" {
			return nil, errors.New("tool_input.include holds an empty path")
		}
		dir, glob := splitGlob(inc)
		if dir == "" {
			dir = req.Cwd
		}
		r := req
		r.Tool, r.Path = policy.ToolRead, dir
		r.Tree = &shellparse.FileEffect{Via: "read_many_files", Filter: searchFilter(glob, "")}
		reqs = withTextReading(reqs, r)
	}
	return reqs, nil
}

// joinSearch joins a glob's literal directories to the directory searched,
// keeping a `..` in them: a glob library walks it as the kernel does (after
// a link), a tool that resolves the path first removes it by the text, and
// withTextReading judges both.
func joinSearch(dir, sub string) string {
	if filepath.IsAbs(sub) || strings.HasPrefix(sub, "~") {
		return sub
	}
	return strings.TrimSuffix(dir, string(filepath.Separator)) + string(filepath.Separator) + sub
}

// splitGlob splits a glob into its literal leading directories and the
// rest: "src/**/*.go" is "src" and "**/*.go"; "~/.ssh/id_*" is "~/.ssh"
// and "id_*". A pattern without glob characters is all directory (a path,
// read whole).
func splitGlob(pattern string) (dir, rest string) {
	segs := strings.Split(filepath.ToSlash(pattern), "/")
	for i, s := range segs {
		if strings.ContainsAny(s, "*?[{\\") {
			dir = strings.Join(segs[:i], "/")
			if i == 1 && segs[0] == "" {
				dir = "/"
			}
			return filepath.FromSlash(dir), strings.Join(segs[i:], "/")
		}
	}
	return pattern, ""
}

// searchFilter is what a search tool's glob and rg type leave out of the
// tree it reads. The glob follows rg's --glob (ripgrep's GUIDE: a glob
// without `/` matches the base name anywhere, a leading `!` excludes), read
// toward reading more: includes match ignoring case, and every split an
// agent may make of the string (on white space, on commas outside braces)
// is taken as well as the whole. An exclusion is honoured only when the
// string is one pattern (`!*.pub`), matched with its case as rg matches it;
// any other `!` excludes nothing. A glob that does not compile filters
// nothing.
func searchFilter(glob, typ string) *shellparse.Filter {
	var includes []string
	exclude := ""
	if neg, ok := strings.CutPrefix(glob, "!"); ok && len(globParts(glob)) == 1 && doublestar.ValidatePattern(neg) {
		exclude = neg
	} else {
		for _, g := range append(globParts(glob), glob) {
			g = strings.ToLower(strings.TrimPrefix(g, "!"))
			if g == "" || strings.HasPrefix(glob, "!") || !doublestar.ValidatePattern(g) {
				includes = nil // a pattern not understood: no include filter
				break
			}
			includes = append(includes, g)
		}
	}
	exts := rgTypes()[strings.ToLower(typ)]
	if includes == nil && exclude == "" && exts == nil {
		return nil
	}
	matches := func(pat, rel string) bool {
		return doublestar.MatchUnvalidated(pat, rel) || !strings.Contains(pat, "/") && doublestar.MatchUnvalidated(pat, path.Base(rel))
	}
	return &shellparse.Filter{Entry: func(rel string, dir bool) shellparse.EntryVerdict {
		if dir {
			return shellparse.EntryDefault
		}
		if exclude != "" && matches(exclude, rel) {
			return shellparse.EntrySkip
		}
		lower := strings.ToLower(rel)
		if includes != nil {
			for _, g := range includes {
				if matches(g, lower) {
					return shellparse.EntryListed
				}
			}
			return shellparse.EntrySkip
		}
		if exts == nil {
			return shellparse.EntryDefault
		}
		base := path.Base(lower)
		for _, e := range exts {
			if strings.HasSuffix(base, e) {
				return shellparse.EntryDefault
			}
		}
		return shellparse.EntrySkip
	}}
}

// globParts splits a glob string on white space and on commas outside
// braces, as an agent may before handing each part to rg.
func globParts(glob string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range glob {
		switch {
		case r == '{':
			depth++
		case r == '}' && depth > 0:
			depth--
		case r == ',' && depth == 0, r == ' ' || r == '\t' || r == '\n':
			if i > start {
				parts = append(parts, glob[start:i])
			}
			start = i + 1
		}
	}
	if start < len(glob) {
		parts = append(parts, glob[start:])
	}
	return parts
}

// rgTypes are the file name endings of ripgrep's common --type names
// (`rg --type-list`); Claude Code's Grep passes its type to rg.
var rgTypes = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"go": {".go"}, "py": {".py", ".pyi"}, "js": {".js", ".jsx", ".mjs", ".cjs", ".vue"},
		"ts": {".ts", ".tsx", ".cts", ".mts"}, "rust": {".rs"}, "java": {".java", ".jsp", ".properties"},
		"c": {".c", ".h", ".h.in"}, "cpp": {".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx", ".h", ".c++", ".h++", ".inl", ".ipp"},
		"md":   {".md", ".markdown", ".mdx", ".mkd", ".mkdn", ".mdown", ".mdwn", ".mkdown", ".ron"},
		"json": {".json", ".sarif", ".jsonl"}, "yaml": {".yaml", ".yml"}, "toml": {".toml", "cargo.lock"},
		"sh": {".sh", ".bash", ".zsh", ".ksh", ".csh", ".tcsh", ".bashrc", ".zshrc", ".profile", ".bash_profile",
			".bash_login", ".bash_logout", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc"},
		"ruby": {".rb", ".gemspec", "gemfile", ".rbw", "rakefile", ".rake"}, "html": {".html", ".htm", ".xhtml", ".ejs"},
		"css": {".css", ".scss"},
	}
})

// --- Codex apply_patch ---

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
		reqs = withTextReading(reqs, r)
	}
	return reqs, nil
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

// Patch markers of Codex's apply_patch format (codex-rs/apply-patch/src/parser.rs).
const (
	patchBegin  = "*** Begin Patch"
	patchEnd    = "*** End Patch"
	patchAdd    = "*** Add File: "
	patchDelete = "*** Delete File: "
	patchUpdate = "*** Update File: "
	patchMove   = "*** Move to: "
	patchEOF    = "*** End of File"
)

// patchPaths lists the files an apply_patch touches, in order, each once.
// It follows Codex's own parser (codex-rs/apply-patch/src/parser.rs,
// parse_patch in its lenient mode): the patch is trimmed and split into
// lines (a "\r" before "\n" dropped); the first and last lines, trimmed,
// must be the begin and end markers, possibly inside a <<EOF heredoc; a
// hunk header is read from its line trimmed of white space, so an
// indented "  *** Add File: /x" is a header wherever a header may start;
// "*** Move to: " counts only unindented, right after an Update header.
//
// To err toward judging more, every line that is a header once trimmed
// names a file too, wherever it stands. A patch Codex would refuse, or
// one that names no file, is an error: the call is blocked.
func patchPaths(patch string) ([]string, error) {
	var paths []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	hunks, err := parseCodexPatch(patch)
	if err != nil {
		return nil, fmt.Errorf("the patch cannot be read as Codex reads it: %w", err)
	}
	for _, p := range hunks {
		add(p)
	}
	for _, line := range codexLines(patch) {
		t := strings.TrimSpace(line)
		for _, marker := range []string{patchAdd, patchDelete, patchUpdate, patchMove} {
			if p, ok := strings.CutPrefix(t, marker); ok && p != "" {
				add(p)
			}
		}
	}
	for _, p := range paths {
		if strings.TrimSpace(p) == "" {
			return nil, errors.New("the patch has a file header without a path")
		}
	}
	if len(paths) == 0 {
		return nil, errors.New("the patch names no file")
	}
	return paths, nil
}

// codexLines is Rust's patch.trim().lines(): "\n" ends a line and a "\r"
// before it is dropped.
func codexLines(patch string) []string {
	patch = strings.TrimFunc(patch, isRustSpace)
	if patch == "" {
		return nil
	}
	lines := strings.Split(patch, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// isRustSpace is Rust's char::is_whitespace (Unicode White_Space).
func isRustSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func rustTrim(s string) string { return strings.TrimFunc(s, isRustSpace) }

// parseCodexPatch returns the paths of the hunks Codex's parser finds, in
// order (an Update's move target after its path).
func parseCodexPatch(patch string) ([]string, error) {
	lines := codexLines(patch)
	body, err := patchBody(lines)
	if err != nil {
		if len(lines) >= 4 && (lines[0] == "<<EOF" || lines[0] == "<<'EOF'" || lines[0] == `<<"EOF"`) &&
			strings.HasSuffix(lines[len(lines)-1], "EOF") {
			body, err = patchBody(lines[1 : len(lines)-1])
		}
		if err != nil {
			return nil, err
		}
	}
	var paths []string
	for len(body) > 0 {
		first := rustTrim(body[0])
		n := 1
		switch {
		case strings.HasPrefix(first, patchAdd):
			paths = append(paths, strings.TrimPrefix(first, patchAdd))
			for n < len(body) && strings.HasPrefix(body[n], "+") {
				n++
			}
		case strings.HasPrefix(first, patchDelete):
			paths = append(paths, strings.TrimPrefix(first, patchDelete))
		case strings.HasPrefix(first, patchUpdate):
			paths = append(paths, strings.TrimPrefix(first, patchUpdate))
			if n < len(body) && strings.HasPrefix(body[n], patchMove) {
				paths = append(paths, strings.TrimPrefix(body[n], patchMove))
				n++
			}
			chunks := 0
			for n < len(body) {
				if rustTrim(body[n]) == "" {
					n++
					continue
				}
				if strings.HasPrefix(body[n], "*") {
					break
				}
				used, err := updateChunk(body[n:], chunks == 0)
				if err != nil {
					return nil, err
				}
				chunks++
				n += used
			}
			if chunks == 0 {
				return nil, fmt.Errorf("the update of %s is empty", strings.TrimPrefix(first, patchUpdate))
			}
		default:
			return nil, fmt.Errorf("%q is not a valid hunk header", first)
		}
		body = body[n:]
	}
	return paths, nil
}

// patchBody checks the begin and end markers and returns the lines between.
func patchBody(lines []string) ([]string, error) {
	if len(lines) == 0 || rustTrim(lines[0]) != patchBegin {
		return nil, errors.New("the first line of the patch must be '*** Begin Patch'")
	}
	if len(lines) < 2 || rustTrim(lines[len(lines)-1]) != patchEnd {
		return nil, errors.New("the last line of the patch must be '*** End Patch'")
	}
	return lines[1 : len(lines)-1], nil
}

// updateChunk counts the lines of one chunk of an Update hunk, as Codex's
// parse_update_file_chunk does.
func updateChunk(lines []string, first bool) (int, error) {
	start := 0
	switch {
	case lines[0] == "@@" || strings.HasPrefix(lines[0], "@@ "):
		start = 1
	case !first:
		return 0, fmt.Errorf("expected an update hunk to start with a @@ context marker, got %q", lines[0])
	}
	if start >= len(lines) {
		return 0, errors.New("an update hunk does not contain any lines")
	}
	n := 0
	for _, l := range lines[start:] {
		if l == patchEOF {
			if n == 0 {
				return 0, errors.New("an update hunk does not contain any lines")
			}
			n++
			break
		}
		if l != "" && l[0] != ' ' && l[0] != '+' && l[0] != '-' {
			if n == 0 {
				return 0, fmt.Errorf("unexpected line in an update hunk: %q", l)
			}
			break
		}
		n++
	}
	return n + start, nil
}

// --- web ---

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
