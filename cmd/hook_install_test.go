package cmd

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestHookInstallRoundTrip: on settings files of every layout a person
// or an agent writes (compact, indented with spaces or tabs, CRLF, no
// final newline, other hooks on the same and other events, empty
// containers), install adds gatekeep's entries and leaves every other
// value as it was, installing again changes nothing, and uninstall gives
// the original bytes back: by reversing the recorded edits while the file
// is as install left it, and by taking gatekeep's entries out by their
// shape once the agent has changed it (then a "hooks" object or an event
// array left empty goes too, and so does the white space of an empty
// container install filled).
func TestHookInstallRoundTrip(t *testing.T) {
	jsonFiles := []string{
		`{}`,
		"{}\n",
		`{ }`,
		`{"model":"opus"}`,
		"{\n  \"model\": \"opus\"\n}",
		"{\n  \"model\": \"opus\"\n}\n",
		"{\r\n  \"model\": \"opus\",\r\n  \"env\": {\"A\": \"1\"}\r\n}\r\n",
		"{\n\t\"theme\": \"Dracula\",\n\t\"hooks\": {}\n}\n",
		`{"hooks":{}}`,
		`{"hooks":{"PreToolUse":[]}}`,
		`{"hooks":{"BeforeTool":[],"PreSkillShellCommand":[]}}`,
		"{\n    \"hooks\": {\n        \"PostToolUse\": [\n            {\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"prettier --write\"}]}\n        ]\n    },\n    \"x\": [1, 2]\n}\n",
		"{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"my-linter\"}]}\n    ],\n    \"BeforeTool\": [\n      {\"matcher\": \"run_shell_command\", \"hooks\": [{\"type\": \"command\", \"command\": \"my-linter\"}]}\n    ]\n  },\n  \"s\": \"\\u00e9 \\\"q\\\" \\\\\"\n}",
		"  {\"a\": {\"b\": [ ]}, \"hooks\" : { \"PreToolUse\" : [ ] } }  \n",
	}
	for _, agent := range []string{"claude", "gemini"} {
		d := dialectNamed(agent)
		snippet, _ := hookSnippet(d, "/usr/local/bin/gatekeep hook "+agent)
		for _, old := range jsonFiles {
			next, edits, err := jsonInstall("settings.json", []byte(old), []byte(snippet), agent)
			if err != nil {
				t.Errorf("%s: install on %q: %v", agent, old, err)
				continue
			}
			var oldV, nextV map[string]any
			if json.Unmarshal([]byte(old), &oldV) != nil || json.Unmarshal(next, &nextV) != nil {
				t.Errorf("%s: install on %q gives invalid JSON:\n%s", agent, old, next)
				continue
			}
			for k, v := range oldV {
				if k != "hooks" && !jsonEqual(v, nextV[k]) {
					t.Errorf("%s: install on %q changed %q:\n%s", agent, old, k, next)
				}
			}
			entries := 0
			for _, event := range jsonHookEvents(agent) {
				for _, h := range jsonHookEntries("settings.json", nextV, event) {
					if strings.Contains(h.command, "gatekeep hook "+agent) {
						entries++
					}
				}
			}
			if entries != len(jsonHookEvents(agent)) {
				t.Errorf("%s: install on %q gives %d gatekeep entries, want one per event:\n%s", agent, old, entries, next)
			}
			again, _, err := jsonInstall("settings.json", next, []byte(snippet), agent)
			if err != nil || !bytes.Equal(again, next) {
				t.Errorf("%s: a second install on %q changed the file (%v):\n%s", agent, old, err, again)
			}
			rec := hookRecord{Sum: fmt.Sprintf("%x", sha256.Sum256(next)), Edits: edits}
			if back, ok := rec.undo(next); !ok || string(back) != old {
				t.Errorf("%s: uninstall after install on %q gives %q (undone: %v)", agent, old, back, ok)
			}
			if _, ok := rec.undo(append(next, ' ')); ok {
				t.Errorf("%s: a file changed since install was undone by the record", agent)
			}
			// A record whose edit would put back more than white space
			// was not written by install: it is not followed.
			if len(edits) > 0 {
				forged := hookRecord{Sum: rec.Sum, Edits: append([]hookEdit{}, edits...)}
				forged.Edits[0].Del = `"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"evil"}]}]}`
				if _, ok := forged.undo(next); ok {
					t.Errorf("%s: a record putting back more than white space was followed", agent)
				}
			}
			back, err := jsonUninstall("settings.json", next, agent)
			var backV map[string]any
			if err != nil || json.Unmarshal(back, &backV) != nil {
				t.Errorf("%s: uninstall by shape after install on %q: %v\n%s", agent, old, err, back)
				continue
			}
			hooks, _ := oldV["hooks"].(map[string]any)
			emptyEvent := false
			for _, groups := range hooks {
				g, _ := groups.([]any)
				emptyEvent = emptyEvent || len(g) == 0
			}
			if _, ok := oldV["hooks"]; ok && (len(hooks) == 0 || emptyEvent) || len(oldV) == 0 && strings.TrimSpace(old) != "{}" {
				continue // an empty hooks object or event array goes, and the space in { }
			}
			if string(back) != old {
				t.Errorf("%s: uninstall by shape after install on %q gives %q", agent, old, back)
			}
		}
	}

	tomlFiles := []string{
		"",
		"model = \"o3\"",
		"model = \"o3\"\n",
		"model = \"o3\"\n\n",
		"# only a comment\n",
		"model = \"o3\"\r\n",
		"[projects.\"/src/app\"]\ntrust_level = \"trusted\"",
		"[[hooks.PreToolUse]]\nmatcher = \"^Bash$\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"my-linter\"\n",
		"[hooks]\n[[hooks.PostToolUse]]\n[[hooks.PostToolUse.hooks]]\ntype = \"command\"\ncommand = \"x\"\n",
	}
	command := "/usr/local/bin/gatekeep hook codex"
	snippet, _ := hookSnippet(dialectNamed("codex"), command)
	for _, old := range tomlFiles {
		next, err := tomlInstall("config.toml", []byte(old), []byte(snippet), command)
		if err != nil {
			t.Errorf("codex: install on %q: %v", old, err)
			continue
		}
		if !strings.HasPrefix(string(next), old) {
			t.Errorf("codex: install on %q changed what was there:\n%s", old, next)
		}
		again, err := tomlInstall("config.toml", next, []byte(snippet), command)
		if err != nil || !bytes.Equal(again, next) {
			t.Errorf("codex: a second install on %q changed the file (%v):\n%s", old, err, again)
		}
		back, err := tomlUninstall("config.toml", next)
		if err != nil || string(back) != old {
			t.Errorf("codex: uninstall after install on %q gives %q (%v)", old, back, err)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
