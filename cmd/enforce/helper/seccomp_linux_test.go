package helper

import "testing"

// TestFilterShape: every jump of the seccomp programs stays inside the
// program, and the program ends in a return.
func TestFilterShape(t *testing.T) {
	for _, rules := range [][]sysRule{networkRules, proxyNetworkRules, ttyRules, {{nr: 1, argMask: 4, errno: 1}}} {
		prog, err := buildFilter(rules)
		if err != nil {
			t.Fatal(err)
		}
		for i, ins := range prog {
			if ins.Code&0x07 == bpfJMP && (i+1+int(ins.Jt) >= len(prog) || i+1+int(ins.Jf) >= len(prog)) {
				t.Errorf("instruction %d jumps out of the program", i)
			}
		}
		if last := prog[len(prog)-1]; last.Code != bpfRET|bpfK {
			t.Errorf("the program ends with %#x, not a return", last.Code)
		}
	}
}
