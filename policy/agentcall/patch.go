package agentcall

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gatekeep/gatekeep/policy"
)

// patchRequests makes one Write request per file that a Codex apply_patch
// adds, updates, deletes or moves to. The patch is in tool_input.command
// (or "input" or "patch").
func patchRequests(req policy.Request, in map[string]json.RawMessage) ([]policy.Request, error) {
	patch, err := InputString(in, "command", "input", "patch")
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
