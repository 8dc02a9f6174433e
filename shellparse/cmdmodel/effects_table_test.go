package cmdmodel

import (
	"strings"
	"testing"
)

func TestSedProgram(t *testing.T) {
	tests := []struct {
		prog          string
		reads, writes string
		runs, ok      bool
	}{
		{prog: `s/a/b/g`, ok: true},
		{prog: `s/where/there/`, ok: true},
		{prog: `s|/usr|/opt|g;s,x,y,`, ok: true},
		{prog: "1d\n$d\n/^#/d", ok: true},
		{prog: `/start/,/end/{s/a/b/;p}`, ok: true},
		{prog: `0~3p;2,+4d;5,~4p`, ok: true},
		{prog: `\%re%Ip`, ok: true},
		{prog: `:a;N;$!ba;s/\n/ /g`, ok: true},
		{prog: `y/abc/xyz/`, ok: true},
		{prog: `a\` + "\n" + `text with e and w`, ok: true},
		{prog: `1i hello; w x`, ok: true},
		{prog: `# comment w x` + "\n" + `p`, ok: true},
		{prog: `s/[/]/x/`, ok: true},
		{prog: `s/[[:alpha:]/]/x/`, ok: true},
		{prog: `s/[]]/x/`, ok: true},
		{prog: `q5`, ok: true},
		{prog: `w out.txt`, writes: "out.txt", ok: true},
		{prog: `s/a/b/w /etc/x`, writes: "/etc/x", ok: true},
		{prog: `s/a/b/gw out`, writes: "out", ok: true},
		{prog: "W a\nr b\nR c", reads: "b c", writes: "a", ok: true},
		{prog: `/x/r /etc/passwd`, reads: "/etc/passwd", ok: true},
		{prog: `e id`, runs: true, ok: true},
		{prog: `1e`, runs: true, ok: true},
		{prog: `s/x/id/e`, runs: true, ok: true},
		{prog: `s/x/id/ge`, runs: true, ok: true},
		{prog: `s/[/]/x/e`, runs: true, ok: true},
		{prog: `s/a/b`, ok: false},
		{prog: `s/a/b/X`, ok: false},
		{prog: `k`, ok: false},
		{prog: `/unterminated`, ok: false},
		{prog: `w`, ok: false},
		{prog: `s/[a/b/`, ok: false},
	}
	for _, tt := range tests {
		reads, writes, runs, ok := sedProgram(tt.prog)
		if ok != tt.ok || runs != tt.runs || strings.Join(reads, " ") != tt.reads || strings.Join(writes, " ") != tt.writes {
			t.Errorf("sedProgram(%q) = reads %q writes %q runs %v ok %v, want %q %q %v %v",
				tt.prog, reads, writes, runs, ok, tt.reads, tt.writes, tt.runs, tt.ok)
		}
	}
}

// TestSpecTables: a name has one model in each table (the map literals
// the tables were had the compiler check it), and get finds each entry
// and no other name, both by scanning and through the index.
func TestSpecTables(t *testing.T) {
	for tname, table := range map[string]*specTable{"effectTable": &effectTable, "wrapperTable": &wrapperTable, "gitSubTable": &gitSubTable} {
		scan, indexed := &specTable{entries: table.entries}, &specTable{entries: table.entries}
		indexed.scans.Store(scanLookups)
		seen := map[string]bool{}
		for i, e := range table.entries {
			if seen[e.name] {
				t.Errorf("%s: %q is listed twice", tname, e.name)
			}
			seen[e.name] = true
			scan.scans.Store(0)
			for how, tb := range map[string]*specTable{"scanning": scan, "indexed": indexed} {
				if s, ok := tb.get(e.name); !ok || s != table.entries[i].spec {
					t.Errorf("%s.get(%q) %s does not find its entry", tname, e.name, how)
				}
			}
		}
		scan.scans.Store(0)
		if len(seen) < 10 || scan.has("no-such-command") || indexed.has("no-such-command") || indexed.index == nil {
			t.Errorf("%s: %d names, or it finds a name it lacks", tname, len(seen))
		}
	}
}

// TestEffectTableSpecs: every option named in the table is understood the
// same way twice (no name in two roles), so a table edit cannot silently
// change an option's argument.
func TestEffectTableSpecs(t *testing.T) {
	for _, table := range []*specTable{&effectTable, &wrapperTable} {
		for _, e := range table.entries {
			name, s := e.name, *e.spec
			seen := map[string]string{}
			for role, names := range map[string]string{"args": s.args, "reads": s.reads, "writes": s.writes,
				"optional": s.optional, "pairs": s.pairs, "pairReads": s.pairReads, "flags": s.flags} {
				for _, n := range strings.Fields(names) {
					if prev, ok := seen[n]; ok {
						t.Errorf("%s: option %q is in %s and %s", name, n, prev, role)
					}
					seen[n] = role
				}
			}
			if s.raw && (s.args != "" || s.reads != "" || s.writes != "") {
				t.Errorf("%s: a raw spec parses no options", name)
			}
		}
	}
}

func TestWildMatch(t *testing.T) {
	for _, tt := range []struct {
		glob, name string
		want       bool
	}{
		{"*", "", true},
		{"*", "a/b", true},
		{".env", ".env", true},
		{".env", ".envx", false},
		{".env*", ".env.local", true},
		{"?.go", "a.go", true},
		{"?.go", "ab.go", false},
		{"*a*b", "xxaxxb", true},
		{"*a*b", "xxaxxbx", false},
		{"é?", "éé", true},
	} {
		if got := wildMatch(tt.glob, tt.name); got != tt.want {
			t.Errorf("wildMatch(%q, %q) = %v", tt.glob, tt.name, got)
		}
	}
}
