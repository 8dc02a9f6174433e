package agentcall

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// TestMap: each agent tool call and the requests that decide it.
func TestMap(t *testing.T) {
	const cwd = "/work/p"
	type R = policy.Request
	for _, c := range []struct {
		tool, input string
		want        []R
		err         string
	}{
		{"Bash", `{"command":"ls -la","description":"list"}`, []R{{Tool: "Bash", Command: "ls -la", Cwd: cwd}}, ""},
		{"run_shell_command", `{"command":"make","dir_path":"sub"}`, []R{{Tool: "Bash", Command: "make", Cwd: cwd + "/sub"}}, ""},
		{"shell", `{"command":["bash","-lc","ls"]}`, []R{{Tool: "Bash", Argv: []string{"bash", "-lc", "ls"}, Cwd: cwd}}, ""},
		{"Bash", `{"Command":"ls"}`, nil, "tool_input.command is missing"},
		{"Bash", `{"command":42}`, nil, "neither a string nor a list"},
		{"Read", `{"file_path":"/work/p/.env"}`, []R{{Tool: "Read", Path: "/work/p/.env", Cwd: cwd}}, ""},
		{"read_file", `{"file_path":"a.txt"}`, []R{{Tool: "Read", Path: "a.txt", Cwd: cwd}}, ""},
		{"Write", `{"file_path":"/etc/passwd","content":"x"}`, []R{{Tool: "Write", Path: "/etc/passwd", Cwd: cwd}}, ""},
		{"write_file", `{"file_path":"b","content":"x"}`, []R{{Tool: "Write", Path: "b", Cwd: cwd}}, ""},
		{"Edit", `{"file_path":"c","old_string":"a","new_string":"b"}`, []R{{Tool: "Edit", Path: "c", Cwd: cwd}}, ""},
		{"MultiEdit", `{"file_path":"c","edits":[]}`, []R{{Tool: "Edit", Path: "c", Cwd: cwd}}, ""},
		{"replace", `{"file_path":"c"}`, []R{{Tool: "Edit", Path: "c", Cwd: cwd}}, ""},
		// A path that climbs with `..` is judged as the kernel reads it
		// (after a symlink) and as the agent's tool reads it (by the text).
		{"Write", `{"file_path":"/work/p/deep/../../x","content":"x"}`, []R{{Tool: "Write", Path: "/work/p/deep/../../x", Cwd: cwd}, {Tool: "Write", Path: "/work/x", Cwd: cwd}}, ""},
		{"read_file", `{"file_path":"a/../b"}`, []R{{Tool: "Read", Path: "a/../b", Cwd: cwd}, {Tool: "Read", Path: cwd + "/b", Cwd: cwd}}, ""},
		{"Edit", `{"file_path":"/work/p/./c..d"}`, []R{{Tool: "Edit", Path: "/work/p/./c..d", Cwd: cwd}}, ""},
		{"NotebookEdit", `{"notebook_path":"n.ipynb","new_source":""}`, []R{{Tool: "Edit", Path: "n.ipynb", Cwd: cwd}}, ""},
		{"Write", `{"content":"x"}`, nil, "tool_input.file_path is missing"},
		{"Write", `{"file_path":["a"]}`, nil, "tool_input.file_path is not a string"},
		{"Glob", `{"pattern":"**/*.go"}`, []R{{Tool: "Read", Path: cwd, Cwd: cwd}}, ""},
		{"Glob", `{"pattern":"src/*.go","path":"/x"}`, []R{{Tool: "Read", Path: "/x/src", Cwd: cwd}}, ""},
		{"glob", `{"pattern":"~/.ssh/id_*"}`, []R{{Tool: "Read", Path: "~/.ssh", Cwd: cwd}}, ""},
		{"Grep", `{"pattern":"x","path":"src"}`, []R{{Tool: "Read", Path: "src", Cwd: cwd}}, ""},
		{"search_file_content", `{"pattern":"x","dir_path":"/etc"}`, []R{{Tool: "Read", Path: "/etc", Cwd: cwd}}, ""},
		{"grep_search", `{"pattern":"x","include_pattern":"*.env"}`, []R{{Tool: "Read", Path: cwd, Cwd: cwd}}, ""},
		{"read_many_files", `{"include":["docs/","src/**/*.ts","/etc/hosts"]}`, []R{
			{Tool: "Read", Path: "docs/", Cwd: cwd}, {Tool: "Read", Path: "src", Cwd: cwd}, {Tool: "Read", Path: "/etc/hosts", Cwd: cwd}}, ""},
		{"read_many_files", `{"include":[]}`, nil, "tool_input.include is empty"},
		{"LS", `{"path":"/tmp"}`, []R{{Tool: "Read", Path: "/tmp", Cwd: cwd}}, ""},
		// The search and listing tools too: a `..` path is also read by
		// its text.
		{"LS", `{"path":"/work/p/deep/../../h"}`, []R{{Tool: "Read", Path: "/work/p/deep/../../h", Cwd: cwd}, {Tool: "Read", Path: "/work/h", Cwd: cwd}}, ""},
		{"Grep", `{"pattern":"x","path":"deep/../.."}`, []R{{Tool: "Read", Path: "deep/../..", Cwd: cwd}, {Tool: "Read", Path: "/work", Cwd: cwd}}, ""},
		{"Glob", `{"pattern":"deep/../../*.pem"}`, []R{{Tool: "Read", Path: cwd + "/deep/../..", Cwd: cwd}, {Tool: "Read", Path: "/work", Cwd: cwd}}, ""},
		{"read_many_files", `{"include":["a/../../s/*.key","docs"]}`, []R{
			{Tool: "Read", Path: "a/../../s", Cwd: cwd}, {Tool: "Read", Path: "/work/s", Cwd: cwd}, {Tool: "Read", Path: "docs", Cwd: cwd}}, ""},
		{"Monitor", `{"command":"tail -f log","description":"watch"}`, []R{{Tool: "Bash", Command: "tail -f log", Cwd: cwd}}, ""},
		{"PowerShell", `{"command":"Remove-Item -Recurse C:\\"}`, []R{{Tool: "PowerShell", Cwd: cwd, Category: "command"}}, ""},
		{"exec_command", `{"cmd":"ls","workdir":"/tmp"}`, []R{{Tool: "Bash", Command: "ls", Cwd: "/tmp"}}, ""},
		// A workdir is judged as each agent reads it: `..` by the text
		// (Codex's AbsolutePathBuf, Gemini's path.resolve) and after the
		// link it may follow (older Codex: chdir(2)), `~` as written and
		// as the home directory.
		{"exec_command", `{"cmd":"ls","workdir":"link/.."}`, []R{{Tool: "Bash", Command: "ls", Cwd: cwd}, {Tool: "Bash", Command: "ls", Cwd: cwd + "/link/.."}}, ""},
		{"exec_command", `{"cmd":"ls","workdir":"/x/link/../y"}`, []R{{Tool: "Bash", Command: "ls", Cwd: "/x/y"}, {Tool: "Bash", Command: "ls", Cwd: "/x/link/../y"}}, ""},
		{"exec_command", `{"cmd":"ls","workdir":"~/x"}`, []R{{Tool: "Bash", Command: "ls", Cwd: cwd + "/~/x"}, {Tool: "Bash", Command: "ls", Cwd: "/h/x"}}, ""},
		{"run_shell_command", `{"command":"ls","dir_path":"~"}`, []R{{Tool: "Bash", Command: "ls", Cwd: cwd + "/~"}, {Tool: "Bash", Command: "ls", Cwd: "/h"}}, ""},
		{"exec_command", `{"command":"ls"}`, nil, "tool_input.cmd is missing"},
		{"google_web_search", `{"query":"x"}`, []R{{Tool: "WebSearch", Cwd: cwd, Category: "command"}}, ""},
		{"WebFetch", `{"url":"https://example.com/a","prompt":"p"}`, []R{{Tool: "WebFetch", URL: "https://example.com/a", Cwd: cwd, Category: "command"}}, ""},
		{"web_fetch", `{"prompt":"sum up https://a.example/x and (https://b.example/y)."}`, []R{
			{Tool: "WebFetch", URL: "https://a.example/x", Cwd: cwd, Category: "command"},
			{Tool: "WebFetch", URL: "https://b.example/y", Cwd: cwd, Category: "command"}}, ""},
		{"mcp__github__create_issue", `{"title":"x"}`, []R{{Tool: "mcp__github__create_issue", Cwd: cwd, Category: "command"}}, ""},
		{"Task", `{"prompt":"x"}`, []R{{Tool: "Task", Cwd: cwd, Category: "command"}}, ""},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Update File: b.go\n*** Move to: c.go\n@@\n-x\n+y\n*** Delete File: /etc/hosts\n*** End Patch\n"}`, []R{
			{Tool: "Write", Path: "a.txt", Cwd: cwd}, {Tool: "Write", Path: "b.go", Cwd: cwd},
			{Tool: "Write", Path: "c.go", Cwd: cwd}, {Tool: "Write", Path: "/etc/hosts", Cwd: cwd}}, ""},
		{"apply_patch", `{"command":"*** Begin Patch\n*** End Patch"}`, nil, "names no file"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Delete File: l/../../y\n*** End Patch"}`, []R{
			{Tool: "Write", Path: "l/../../y", Cwd: cwd}, {Tool: "Write", Path: "/work/y", Cwd: cwd}}, ""},
		// Codex trims a header line: an indented header after an Add
		// File's lines starts a hunk.
		{"apply_patch", `{"command":"*** Begin Patch\n*** Add File: a.txt\n+hi\n  *** Add File: /outside/x\n+evil\n*** End Patch\n"}`, []R{
			{Tool: "Write", Path: "a.txt", Cwd: cwd}, {Tool: "Write", Path: "/outside/x", Cwd: cwd}}, ""},
		// Inside an Update chunk an indented header is a context line to
		// Codex; gatekeep judges its path anyway.
		{"apply_patch", `{"command":"*** Begin Patch\n*** Update File: a.txt\n@@\n *** Delete File: /etc/hosts\n+x\n*** End Patch"}`, []R{
			{Tool: "Write", Path: "a.txt", Cwd: cwd}, {Tool: "Write", Path: "/etc/hosts", Cwd: cwd}}, ""},
		// The heredoc form Codex accepts.
		{"apply_patch", `{"command":"<<'EOF'\n*** Begin Patch\n*** Delete File: d\n*** End Patch\nEOF\n"}`, []R{{Tool: "Write", Path: "d", Cwd: cwd}}, ""},
		{"apply_patch", `{"command":"*** Add File: a\n+x\n"}`, nil, "first line of the patch"},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Frob File: a\n*** End Patch"}`, nil, "not a valid hunk header"},
	} {
		var in map[string]json.RawMessage
		if err := json.Unmarshal([]byte(c.input), &in); err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.input, err)
		}
		m, err := Map(Call{Tool: c.tool, Input: in, Cwd: cwd, Home: "/h"})
		got := m.Requests
		for i := range got {
			got[i].Tree = nil // searchFilter is tested on its own (TestSearchFilter)
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %s: error %v, want %q", c.tool, c.input, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.input, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", c.tool, c.input, got, c.want)
		}
	}
}

// TestSearchFilter: what a search tool's glob and type leave out.
func TestSearchFilter(t *testing.T) {
	for _, c := range []struct {
		glob, typ, rel string
		dir            bool
		want           shellparse.EntryVerdict
	}{
		{".env", "", ".env", false, shellparse.EntryListed},
		{".env", "", "sub/.env", false, shellparse.EntryListed},
		{".env", "", "main.go", false, shellparse.EntrySkip},
		{"*.go", "", "a/b/main.go", false, shellparse.EntryListed},
		{"*.GO", "", "main.go", false, shellparse.EntryListed},
		{"src/*.go", "", "main.go", false, shellparse.EntrySkip},
		{"src/*.go", "", "src/main.go", false, shellparse.EntryListed},
		{"*.{ts,tsx}", "", "x.tsx", false, shellparse.EntryListed},
		{"*.go", "", "sub", true, shellparse.EntryDefault},
		{"", "go", "main.go", false, shellparse.EntryDefault},
		{"", "go", ".env", false, shellparse.EntrySkip},
		{"", "nosuchtype", ".env", false, shellparse.EntryDefault},
		// rg's negation: one excluding pattern leaves out what it names,
		// with its case, and reads everything else.
		{"!*.pub", "", "id_rsa", false, shellparse.EntryDefault},
		{"!*.pub", "", "id_rsa.pub", false, shellparse.EntrySkip},
		{"!*.PUB", "", "id_rsa.pub", false, shellparse.EntryDefault},
		{"!.env", "", "sub/.env", false, shellparse.EntrySkip},
		// Several patterns: what any may include is read; a `!` among
		// them excludes nothing.
		{"*.go !*_test.go", "", "x_test.go", false, shellparse.EntryListed},
		{"*.md,*.txt", "", "a.txt", false, shellparse.EntryListed},
		{"*.md,*.txt", "", ".env", false, shellparse.EntrySkip},
		{"!*.pub !*.key", "", "id_rsa.pub", false, shellparse.EntryDefault},
		{"!*.pub,id_rsa", "", "id_rsa", false, shellparse.EntryDefault},
		{"*.{md,txt}", "", "b.txt", false, shellparse.EntryListed},
	} {
		f := searchFilter(c.glob, c.typ)
		got := shellparse.EntryDefault
		if f != nil {
			got = f.Entry(c.rel, c.dir)
		}
		if got != c.want {
			t.Errorf("glob %q type %q on %s: %v, want %v", c.glob, c.typ, c.rel, got, c.want)
		}
	}
}
