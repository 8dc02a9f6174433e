package agentcall

import (
	"encoding/json"
	"errors"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// searchRequests judges a search tool (Claude Code's Grep and Glob, Gemini
// CLI's grep_search and glob) as `grep -r` over the directory it searches:
// a read of every file below it that its glob or type filter may let in
// (policy.Request.Tree). A Glob pattern's literal leading directories are
// part of the directory searched (`~/.ssh/*` searches ~/.ssh).
func searchRequests(req policy.Request, tool string, in map[string]json.RawMessage) ([]policy.Request, error) {
	dir, err := InputString(in, "path", "dir_path", "directory")
	if err != nil {
		return nil, err
	}
	if dir == "" {
		dir = req.Cwd
	}
	var glob, typ string
	switch tool {
	case "Grep":
		if glob, err = InputString(in, "glob"); err != nil {
			return nil, err
		}
		if typ, err = InputString(in, "type"); err != nil {
			return nil, err
		}
	case "grep_search", "search_file_content":
		if glob, err = InputString(in, "include_pattern", "include"); err != nil {
			return nil, err
		}
	case "Glob", "glob":
		pattern, err := InputString(in, "pattern")
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
	exts := cmdmodel.RgTypeEndings(typ)
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
