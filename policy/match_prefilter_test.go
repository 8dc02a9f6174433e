package policy

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gatekeep/gatekeep/policy/testcases"
)

// refFileMatch is fileMatcher.match by its definition, with none of the
// shortcuts: every glob and its "/**" twin through doublestar, on the
// path made absolute and on its real location, and for deny and ask rules
// also lowercased against the lowercased globs.
func refFileMatch(m *fileMatcher, s *subject, eff Effect) bool {
	if s.kind != m.kind {
		return false
	}
	any := func(p string, fold bool) bool {
		if p == "" {
			return false
		}
		lp := strings.ToLower(p)
		for _, g := range m.globs {
			if doublestar.MatchUnvalidated(g.glob, p) || doublestar.MatchUnvalidated(g.glob+"/**", p) {
				return true
			}
			if fold {
				lg := strings.ToLower(g.glob)
				if doublestar.MatchUnvalidated(lg, lp) || doublestar.MatchUnvalidated(lg+"/**", lp) {
					return true
				}
			}
		}
		return false
	}
	if eff == Allow {
		if s.dynamic || s.real == "" || len(s.treeHits) > 0 {
			return false
		}
		return m.all || any(s.abs, false) && any(s.real, false)
	}
	if m.all || s.treeHits[m] {
		return true
	}
	if any(s.abs, true) || any(s.real, true) {
		return true
	}
	for _, x := range s.expanded {
		if any(x[0], true) || any(x[1], true) {
			return true
		}
	}
	return false
}

// globSamples makes paths a glob matches, or nearly does: its wildcards
// filled in several ways, with a name below it, and in upper case.
func globSamples(g string) []string {
	fills := []struct{ dstar, star, q, class string }{
		{"", "", "q", "5"},
		{"a/b/", "x", "Q", "7"},
		{"src/", "id_rsa", "z", "0"},
	}
	class := regexp.MustCompile(`\[[^\]]*\]`)
	var out []string
	for _, f := range fills {
		p := strings.ReplaceAll(g, "**/", f.dstar)
		p = strings.ReplaceAll(p, "**", f.dstar)
		p = class.ReplaceAllString(p, f.class)
		p = strings.ReplaceAll(p, "*", f.star)
		p = strings.ReplaceAll(p, "?", f.q)
		p = strings.ReplaceAll(p, `\`, "")
		if !strings.HasPrefix(p, "/") {
			p = "/w/" + p
		}
		out = append(out, p, p+"/sub/x", strings.ToUpper(p), strings.ToLower(p), p+".bak", filepath.Dir(p))
	}
	return out
}

// TestFileMatchPrefilter: the pre-checks of file rules (a literal prefix
// and piece the path must hold, the real location matched once when it is
// the path itself, the folded glob skipped where folding changes nothing)
// decide every file rule of the embedded default config exactly as
// doublestar alone does, over paths made from the rules' own globs, the
// project's usual files and the agent corpus's words that look like paths;
// and so does each rule with its quick reject (Rule.fileMaybe: the piece
// and its pair set) in front of its matcher.
func TestFileMatchPrefilter(t *testing.T) {
	dir := t.TempDir()
	root, home := filepath.Join(dir, "proj"), filepath.Join(dir, "home")
	loaded, err := testLoad(root, home, TestPaths{Managed: dir + "/none", User: dir + "/none", Trust: dir + "/trust.json"})
	if err != nil {
		t.Fatal(err)
	}
	var ms []*fileMatcher
	var rules []*Rule
	paths := []string{"/", root, home, root + "/main.go", root + "/.ENV", home + "/.SSH/ID_RSA", root + "/certs/dev.PEM",
		root + "/x.pem/y", home + "/.ssh/id_ed25519.pub", "/etc/shadow", "/proc/123/environ", "/proc/self/environ"}
	for _, layer := range loaded.Rules.layers {
		for _, r := range layer {
			fm, ok := r.matcher().(*fileMatcher) // the embedded default's rules are compiled on first use
			if !ok {
				continue
			}
			ms = append(ms, fm)
			rules = append(rules, r)
			for _, g := range fm.globs {
				paths = append(paths, globSamples(g.glob)...)
			}
		}
	}
	for _, c := range testcases.AgentSample(t, 250) {
		for _, w := range strings.Fields(c) {
			w = strings.Trim(w, `"'();|&<>`)
			if strings.ContainsAny(w, "/.") && !strings.ContainsAny(w, "$`*?[{") {
				if !filepath.IsAbs(w) {
					w = filepath.Join(root, w)
				}
				paths = append(paths, filepath.Clean(w))
			}
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	if len(ms) < 20 || len(paths) < 1000 {
		t.Fatalf("only %d file rules and %d paths", len(ms), len(paths))
	}
	matched := 0
	for ri, m := range ms {
		for i, abs := range paths {
			// The real location: the path itself, or another sample.
			for _, real := range []string{abs, paths[(i*7+3)%len(paths)]} {
				for _, eff := range []Effect{Allow, Deny} {
					s := &subject{kind: m.kind, abs: abs, real: real}
					want := refFileMatch(m, s, eff)
					if got := m.match(s, eff); got != want {
						t.Fatalf("%v rule %v, abs %q real %q: match = %v, doublestar alone %v", eff, m.globs, abs, real, got, want)
					}
					r := rules[ri]
					if got := r.match(&subject{kind: m.kind, abs: abs, real: real}, eff); got != want {
						t.Fatalf("%v rule %v (piece %q), abs %q real %q: Rule.match = %v, doublestar alone %v", eff, m.globs, r.piece, abs, real, got, want)
					}
					if want {
						matched++
					}
				}
			}
		}
	}
	// The samples reach the rules: a filter that dropped matches would
	// show.
	if matched < 1000 {
		t.Errorf("only %d matches among the samples", matched)
	}
	t.Logf("%d file rules, %d paths, %d matches", len(ms), len(paths), matched)
}

// TestPairSet: a string's pair set holds the set of each of its
// substrings (so a missing bit proves a piece absent), and the set tells
// apart pieces that are not there, or fileMaybe would search every time.
func TestPairSet(t *testing.T) {
	paths := []string{"", "a", "/home/u/.ssh/id_rsa", "/work/proj/main.go", "/home/u/.config/gcloud/credentials.db",
		"/x/\xff\x00\x01/CREDENTIALS", strings.Repeat("ab", 40)}
	for _, p := range paths {
		ps := pairsOf(p)
		for i := 0; i <= len(p); i++ {
			for j := i; j <= len(p); j++ {
				if q := pairsOf(p[i:j]); !ps.has(&q) {
					t.Fatalf("pairsOf(%q) lacks a bit of its substring %q", p, p[i:j])
				}
			}
		}
	}
	rejected := 0
	main := pairsOf("/work/proj/main.go")
	for _, piece := range []string{"credentials", ".ssh", ".pem", "secring.gpg", "rclone.conf", ".vault-token"} {
		if q := pairsOf(piece); !main.has(&q) {
			rejected++
		}
	}
	if rejected < 5 {
		t.Errorf("only %d of 6 absent pieces rejected by their pair sets", rejected)
	}
}

// TestRecursiveReadsFoldCase: a tree walk meets deny rules regardless of
// case, by a file's own path and by where its symlink points.
func TestRecursiveReadsFoldCase(t *testing.T) {
	v := newCfgEnv(t)
	v.write(filepath.Join(v.root, "upper", ".ENV"), "x")
	v.write(filepath.Join(v.root, "plain", "a.go"), "x")
	v.write(filepath.Join(v.root, "other", "CERTS", "DEV.KEY"), "x")
	v.write(filepath.Join(v.home, "KEYS", "DEPLOY.PEM"), "x")
	for _, l := range [][2]string{
		{filepath.Join(v.root, "upper", ".ENV"), "uplink/notes.txt"},
		{filepath.Join(v.home, "KEYS", "DEPLOY.PEM"), "homelink/notes.txt"},
	} {
		if err := os.MkdirAll(filepath.Join(v.root, filepath.Dir(l[1])), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(l[0], filepath.Join(v.root, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	cfg := v.config(v.load(), ModeDefault)
	for _, tt := range []struct {
		cmd  string
		want Effect
		msg  string
	}{
		{"grep -r x upper", Deny, "upper/.ENV"},
		{"grep -r x uplink", Deny, "uplink/notes.txt"},
		{"grep -r x homelink", Deny, "homelink/notes.txt"},
		{"grep -r x plain", Allow, ""},
		// The allow rule for keys inside the project keeps its case.
		{"grep -r x other", Deny, "other/CERTS/DEV.KEY"},
	} {
		d := v.bash(cfg, tt.cmd)
		if d.Effect != tt.want || tt.msg != "" && !strings.Contains(d.Message, tt.msg) {
			t.Errorf("%s: %s %s: %s; want %s %q", tt.cmd, d.Effect, d.Code, d.Message, tt.want, tt.msg)
		}
	}
}

// TestTreeCandidatesFollowAdd: the rules a tree walk checks are those of
// the rule set as it is: active deny and ask Read rules only, and a rule
// added later counts.
func TestTreeCandidatesFollowAdd(t *testing.T) {
	c := NewCompiler("/p", "/h")
	rule := func(text string, eff Effect, active bool) *Rule {
		r, err := c.Rule(text, RuleRef{Rule: text, Effect: eff, Source: SourceUser})
		if err != nil {
			t.Fatal(err)
		}
		r.Trusted, r.Active = true, active
		return r
	}
	var rs RuleSet
	rs.Add(SourceUser, []*Rule{rule("Read(*.pem)", Deny, true), rule("Read(src/**)", Allow, true),
		rule("Write(.env)", Deny, true), rule("Read(x)", Ask, false)}, nil)
	if got := rs.treeCandidates(); len(got) != 1 || got[0].rule.Pattern != "*.pem" {
		t.Fatalf("candidates %v, want Read(*.pem) alone", got)
	}
	rs.Add(SourceDefault, []*Rule{rule("Read(.env)", Ask, true)}, nil)
	if got := rs.treeCandidates(); len(got) != 2 || got[1].rule.Pattern != ".env" {
		t.Fatalf("after Add: candidates %v, want Read(*.pem) and Read(.env)", got)
	}
}
