package cmdmodel

import "testing"

func TestGitLeadingChdirs(t *testing.T) {
	for _, tc := range []struct {
		line string
		dirs int
		next int
		ok   bool
	}{
		{"git status", 0, 1, true},
		{"git -C a status", 1, 3, true},
		{"git -C a -C b diff", 2, 5, true},
		{"git -Ca status", 0, 1, true},
		{"git -p -C a status", 0, 1, true},
		{"git -C", 0, 0, false},
	} {
		dirs, next, ok := GitLeadingChdirs(findWords(tc.line))
		if len(dirs) != tc.dirs || next != tc.next || ok != tc.ok {
			t.Errorf("GitLeadingChdirs(%q) = %d dirs, %d, %v; want %d, %d, %v", tc.line, len(dirs), next, ok, tc.dirs, tc.next, tc.ok)
		}
	}
	args := []Word{{Text: "git"}, {Text: "-C"}, {Text: "$D", Dynamic: true}, {Text: "status"}}
	if _, _, ok := GitLeadingChdirs(args); ok {
		t.Error("GitLeadingChdirs(git -C $D status) is ok: the directory is only known at run time")
	}
}
