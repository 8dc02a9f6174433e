package cmd

import "testing"

func TestCheckStrictJSON(t *testing.T) {
	for _, tt := range []struct {
		in string
		ok bool
	}{
		{`{"command":"ls"}`, true},
		{`{"a":{"b":1,"c":[1,{"d":2}]},"e":"f"}`, true},
		{`{"a":{"x":1},"b":{"x":2}}`, true},
		{`{"command":"rm -rf ~","command":"ls"}`, false},
		{`{"tool_input":{"command":"rm -rf ~","command":"ls"}}`, false},
		{`{"a":[{"k":1,"k":2}]}`, false},
		{`{"a":{"b":1},"a":2}`, false},
		{`[` + repeat("[", 70) + repeat("]", 71), false},
	} {
		if err := checkStrictJSON([]byte(tt.in)); (err == nil) != tt.ok {
			t.Errorf("checkStrictJSON(%s) = %v, want ok %v", tt.in, err, tt.ok)
		}
	}
}

func repeat(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}
