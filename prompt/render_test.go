package prompt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRender(t *testing.T) {
	tail := strings.Repeat("x", 5000) + "; rm -rf ~"
	tests := []struct {
		name    string
		in      string
		want    string
		altered bool
	}{
		{"plain", "git status", "git status", false},
		{"erase line", "echo safe\x1b[2K", `echo safe\x1b[2K`, true},
		{"carriage return", "rm -rf ~\recho safe", `rm -rf ~\recho safe`, true},
		{"backspace", "rm -rf ~\b\b\b\bls", `rm -rf ~\b\b\b\bls`, true},
		{"bidi override", "cat \u202etxt.exe", `cat \u202etxt.exe`, true},
		{"bidi isolate", "a\u2066b\u2069", `a\u2066b\u2069`, true},
		{"zero-width space", "r\u200bm -rf /", `r\u200bm -rf /`, true},
		{"zero-width joiner and bom", "\ufeffa\u200db", `\ufeffa\u200db`, true},
		{"tag characters", "ok\U000e0041\U000e0042", `ok\U000e0041\U000e0042`, true},
		{"no-break space", "rm a\u00a0b", `rm a\u00a0b`, true},
		{"line separator", "a\u2028b", `a\u2028b`, true},
		{"hangul filler", "echo \u3164", `echo \u3164`, true},
		{"variation selector", "\u2764\ufe0f", `❤\ufe0f`, true},
		{"c1 csi", "\u009b2K", `\u009b2K`, true},
		{"nul and del", "a\x00b\x7f", `a\x00b\x7f`, true},
		{"osc title", "\x1b]0;title\x07ls", `\x1b]0;title\x07ls`, true},
		{"invalid utf-8", "a\xffb\xc3", `a\xffb\xc3`, true},
		{"encoded surrogate", "\xed\xa0\x80", `\xed\xa0\x80`, true},
		{"tabs", "a\tb\t", `a\tb\t`, false},
		{"backslash text stays", `printf '\x1b\n'`, `printf '\x1b\n'`, false},
		{"wide and emoji stay", "echo 日本 😀 é", "echo 日本 😀 é", false},
		{"newlines stay", "a\nb\n", "a\nb\n", false},
		{"two blank lines stay", "a\n\n\nb", "a\n\n\nb", false},
		{"three blank lines collapse", "a\n\n\n\nb", "a\n⋮ [3 blank lines]\nb", true},
		{"300 newlines", "echo hi" + strings.Repeat("\n", 300) + "rm -rf ~", "echo hi\n⋮ [299 blank lines]\nrm -rf ~", true},
		{"space-only lines are blank", "a\n \n  \n   \nb", "a\n⋮ [3 blank lines]\nb", true},
		{"trailing blank run", "a" + strings.Repeat("\n", 10), "a\n⋮ [10 blank lines]", true},
		{"64 spaces stay", "a" + strings.Repeat(" ", 64) + "b", "a" + strings.Repeat(" ", 64) + "b", false},
		{"65 spaces collapse", "a" + strings.Repeat(" ", 65) + "b", "a⋯[65 spaces]⋯b", true},
		{"5000-character tail", "echo hi; " + tail, "echo hi; " + tail, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, altered := RenderFlagged(tt.in)
			if got != tt.want {
				t.Errorf("RenderFlagged(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if altered != tt.altered {
				t.Errorf("RenderFlagged(%q) altered = %v, want %v", tt.in, altered, tt.altered)
			}
			if r := Render(tt.in); r != got {
				t.Errorf("Render(%q) = %q, differs from RenderFlagged", tt.in, r)
			}
		})
	}
}

// TestRenderIsInert checks every rune of planes 0 to 3 and 14, the first
// private-use runes of planes 15 and 16, and every byte that cannot start
// UTF-8: the result never holds a control or invisible character and is
// valid UTF-8. (Planes 4 to 13 are unassigned.)
func TestRenderIsInert(t *testing.T) {
	var b strings.Builder
	for r := rune(0); r <= 0x10ffff; r++ {
		switch {
		case r >= 0xd800 && r <= 0xdfff,
			r >= 0x40000 && r < 0xe0000,
			r >= 0xf0100 && r < 0x100000,
			r >= 0x100100:
			continue
		}
		b.WriteRune(r)
	}
	for c := 0x80; c <= 0xff; c++ {
		b.WriteByte(byte(c))
	}
	out := Render(b.String())
	if !utf8.ValidString(out) {
		t.Fatal("result is not valid UTF-8")
	}
	for _, r := range out {
		if r != '\n' && hidden(r) {
			t.Fatalf("result holds %U", r)
		}
	}
}

func TestRenderInline(t *testing.T) {
	r := render("/tmp/a\nb\x1b", true)
	if got, want := r.String(), `/tmp/a\nb\x1b`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if len(r.lines) != 1 {
		t.Errorf("got %d lines, want 1", len(r.lines))
	}
}

func TestWrap(t *testing.T) {
	line := render(`ab\x1bc`+"\x1b"+"日本", true).lines[0]
	got := wrap(line, 4, false)
	// The escape \x1b (4 columns) is never split; 日 and 本 take 2 each.
	want := []string{`ab\x`, `1bc`, `\x1b`, "日本"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrap = %q, want %q", got, want)
	}

	got = wrap(render("git push origin main", true).lines[0], 12, true)
	// At spaces when it can, the space ending the piece.
	want = []string{"git push ", "origin main"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrap at words = %q, want %q", got, want)
	}

	// Not at a space when the word and the next cell would not fit.
	got = wrap(render("a bbbbbbb\x1b", true).lines[0], 10, true)
	want = []string{"a bbbbbbb", `\x1b`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrap at words = %q, want %q", got, want)
	}
}

// FuzzRender checks the invariants for any input: the result is valid
// UTF-8 without hidden runes, and wrapping a line at any width keeps all of
// it, in order, in pieces that fit (or hold a single cell).
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"git status", "a\x1b[2Kb\rc", "日本 😀\u202e", "a\tb\n\n\n\nc",
		"x" + strings.Repeat(" ", 70) + "y", "\xff\xfe", "a bbbbbbb\x1b",
	} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = 1 + int(uint(width)%100)
		for _, inline := range []bool{false, true} {
			r := render(s, inline)
			out := r.String()
			if !utf8.ValidString(out) {
				t.Fatalf("render(%q) is not valid UTF-8", s)
			}
			for _, c := range out {
				if c != '\n' && hidden(c) {
					t.Fatalf("render(%q) holds %U", s, c)
				}
			}
			for _, l := range r.lines {
				for _, words := range []bool{false, true} {
					pieces := wrap(l, width, words)
					if got := strings.Join(pieces, ""); got != l.text {
						t.Fatalf("wrap(%q, %d, %v) = %q, lost text", l.text, width, words, pieces)
					}
					off := 0
					for _, p := range pieces {
						if cellWidth(p) > width && !oneCell(l, off, len(p)) {
							t.Fatalf("wrap(%q, %d, %v): piece %q is too wide", l.text, width, words, p)
						}
						off += len(p)
					}
				}
			}
		}
	})
}

// oneCell reports whether the n bytes of l at off are one atom or one rune.
func oneCell(l line, off, n int) bool {
	for _, a := range l.atoms {
		if a.start == off && a.end == off+n {
			return true
		}
	}
	_, size := utf8.DecodeRuneInString(l.text[off:])
	return size == n
}

// TestRenderLineShortcut: RenderLine's shortcut (plainLine) answers as
// render does, at the space limit and around it, for every byte value.
func TestRenderLineShortcut(t *testing.T) {
	inputs := []string{"", "git status", "a b", "ls  -la", strings.Repeat(" ", maxSpaces),
		"x" + strings.Repeat(" ", maxSpaces) + "y", "x" + strings.Repeat(" ", maxSpaces+1) + "y",
		strings.Repeat(" ", maxSpaces+1), "tab\there", "é", "\x7f", "~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./"}
	for b := 0; b < 256; b++ {
		inputs = append(inputs, "a"+string(rune(b))+"b", "a"+string([]byte{byte(b)})+"b")
	}
	for _, s := range inputs {
		if got, want := RenderLine(s), render(s, true).String(); got != want {
			t.Errorf("RenderLine(%q) = %q; render gives %q", s, got, want)
		}
	}
	if !plainLine("git commit -m 'x'") || plainLine("a\nb") {
		t.Error("plainLine must take plain text and leave a newline to render")
	}
}
