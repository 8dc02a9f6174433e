package prompt

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	// maxBlankLines is the longest run of blank lines shown as is; a longer
	// run becomes one marker line "⋮ [N blank lines]".
	maxBlankLines = 2
	// maxSpaces is the longest run of spaces shown as is; a longer run
	// becomes the marker "⋯[N spaces]⋯". Deep indentation stays intact.
	maxSpaces = 64
)

// Render returns s made safe to show on a terminal. Newlines stay real line
// breaks; everything that could move the cursor, change the terminal or be
// invisible is shown as a visible escape instead:
//
//   - tab as \t, carriage return as \r, backspace as \b;
//   - other C0 controls and DEL as \xNN, so ESC is \x1b and an ANSI CSI or
//     OSC sequence ("\x1b[2K", "\x1b]0;title\x07") is shown inert, whole;
//   - C1 controls, Unicode format characters (category Cf: the bidi
//     controls U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C, the
//     zero-width U+200B–U+200D, U+2060, U+FEFF, U+180E, the tags
//     U+E0000–U+E007F), separators other than the ASCII space (U+00A0,
//     U+2028 ...), private-use and unassigned code points as \uXXXX, or
//     \UXXXXXXXX above U+FFFF (lowercase hex);
//   - printable but invisible runes, the Default_Ignorable_Code_Point set
//     of Unicode's DerivedCoreProperties.txt (variation selectors, Hangul
//     fillers, U+034F ...) plus the blank braille pattern U+2800, the same;
//   - each byte of invalid UTF-8 as \xNN.
//
// A run of more than 2 blank lines (empty or only spaces) becomes one line
// "⋮ [N blank lines]", and a run of more than 64 spaces becomes
// "⋯[N spaces]⋯", so a short visible head cannot push the rest off the
// screen. Nothing is ever cut: every other rune of s is in the result.
//
// A backslash in s is shown as is, so the text `\x1b` and a real ESC render
// alike; RenderFlagged reports whether any real escape was made.
// "Unassigned" follows the standard library's tables (unicode.Version), so
// a rune newer than those is shown escaped.
func Render(s string) string {
	return render(s, false).String()
}

// RenderLine is Render for text that must stay on one line (an error, a
// path, a message in a log line): a newline is shown as \n as well.
func RenderLine(s string) string {
	if plainLine(s) {
		return s
	}
	return render(s, true).String()
}

// plainLine reports whether render leaves s as it is: printable ASCII with
// no run of more than maxSpaces spaces (most commands and messages).
func plainLine(s string) bool {
	spaces := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if spaces++; spaces > maxSpaces {
				return false
			}
		case c > ' ' && c < 0x7f:
			spaces = 0
		default:
			return false
		}
	}
	return true
}

// Hidden reports whether Render shows the rune c (at or above U+0080) as
// an escape: a C1 control, a format character, a separator other than the
// ASCII space, a private-use or unassigned code point, or a printable rune
// that draws nothing.
func Hidden(c rune) bool { return hidden(c) }

// RenderFlagged is Render that also reports whether the result differs from
// s in a way a person must be told about: a hidden or control character was
// escaped, or blank lines or spaces were collapsed. Tabs shown as \t alone
// do not count.
func RenderFlagged(s string) (text string, altered bool) {
	r := render(s, false)
	return r.String(), r.escaped || r.collapsed
}

// rendered is text split into lines, ready for a terminal.
type rendered struct {
	lines     []line
	escaped   bool // a hidden or control character became an escape
	collapsed bool // blank lines or spaces became a marker
}

// line is one rendered line. Its atoms are the escapes and markers in it,
// which wrapping must not split; any other rune is a cell of its own.
type line struct {
	text  string
	atoms []span // in order, not overlapping
}

// span is the byte range [start, end) of an atom in line.text.
type span struct{ start, end int }

// String joins the lines with real newlines.
func (r rendered) String() string {
	var b strings.Builder
	for i, l := range r.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
	}
	return b.String()
}

const hexDigits = "0123456789abcdef"

// render makes s safe as Render describes. With inline set, a newline is
// shown as \n (not flagged) and the result is a single line, for fields
// that must not start lines of their own (a path, a rule, a sub-command).
func render(s string, inline bool) rendered {
	var r rendered
	var b strings.Builder
	var atoms []span
	atom := func(parts ...string) {
		start := b.Len()
		for _, p := range parts {
			b.WriteString(p)
		}
		atoms = append(atoms, span{start, b.Len()})
	}
	hex := func(prefix string, v uint32, digits int) {
		start := b.Len()
		b.WriteString(prefix)
		for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
			b.WriteByte(hexDigits[v>>shift&0xf])
		}
		atoms = append(atoms, span{start, b.Len()})
	}
	for i := 0; i < len(s); {
		// Fast path: a run of printable ASCII other than space.
		if j := i; s[j] > ' ' && s[j] < 0x7f {
			for j < len(s) && s[j] > ' ' && s[j] < 0x7f {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			hex(`\x`, uint32(s[i]), 2)
			r.escaped = true
		case c == '\n' && inline:
			atom(`\n`)
		case c == '\n':
			r.lines = append(r.lines, line{b.String(), atoms})
			b.Reset()
			atoms = nil
		case c == '\t':
			atom(`\t`)
		case c == ' ':
			size = len(s[i:]) - len(strings.TrimLeft(s[i:], " "))
			if size > maxSpaces {
				atom("⋯[", strconv.Itoa(size), " spaces]⋯")
				r.collapsed = true
			} else {
				b.WriteString(s[i : i+size])
			}
		case c == '\r':
			atom(`\r`)
			r.escaped = true
		case c == '\b':
			atom(`\b`)
			r.escaped = true
		case c < 0x20 || c == 0x7f:
			hex(`\x`, uint32(c), 2)
			r.escaped = true
		case hidden(c):
			if c > 0xffff {
				hex(`\U`, uint32(c), 8)
			} else {
				hex(`\u`, uint32(c), 4)
			}
			r.escaped = true
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	r.lines = append(r.lines, line{b.String(), atoms})
	if !inline {
		r.collapseBlankLines()
	}
	return r
}

// collapseBlankLines replaces each run of more than maxBlankLines blank
// lines (empty or only spaces) with one marker line.
func (r *rendered) collapseBlankLines() {
	blank := func(l line) bool { return strings.Trim(l.text, " ") == "" }
	out := make([]line, 0, len(r.lines))
	for i := 0; i < len(r.lines); {
		j := i
		for j < len(r.lines) && blank(r.lines[j]) {
			j++
		}
		switch n := j - i; {
		case n > maxBlankLines:
			text := "⋮ [" + strconv.Itoa(n) + " blank lines]"
			out = append(out, line{text, []span{{0, len(text)}}})
			r.collapsed = true
			i = j
		case n > 0:
			out = append(out, r.lines[i:j]...)
			i = j
		default:
			out = append(out, r.lines[i])
			i++
		}
	}
	r.lines = out
}

// hidden reports whether a valid rune other than tab, newline and space must
// be shown as an escape: it is not printable (C0 and C1 controls, format
// characters, separators other than U+0020, private use, surrogates,
// unassigned) or it is printable but draws nothing.
func hidden(c rune) bool {
	return !unicode.IsPrint(c) || unicode.Is(invisible, c)
}

// invisible holds the runes unicode.IsPrint accepts that draw nothing: the
// Default_Ignorable_Code_Point runes of Unicode's DerivedCoreProperties.txt
// outside categories Cf and Cn, plus U+2800 BRAILLE PATTERN BLANK.
var invisible = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x034f, Hi: 0x034f, Stride: 1}, // combining grapheme joiner
		{Lo: 0x115f, Hi: 0x1160, Stride: 1}, // hangul choseong and jungseong fillers
		{Lo: 0x17b4, Hi: 0x17b5, Stride: 1}, // khmer inherent vowels
		{Lo: 0x180b, Hi: 0x180f, Stride: 1}, // mongolian free variation selectors
		{Lo: 0x2800, Hi: 0x2800, Stride: 1}, // braille pattern blank
		{Lo: 0x3164, Hi: 0x3164, Stride: 1}, // hangul filler
		{Lo: 0xfe00, Hi: 0xfe0f, Stride: 1}, // variation selectors
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1}, // halfwidth hangul filler
	},
	R32: []unicode.Range32{
		{Lo: 0xe0100, Hi: 0xe01ef, Stride: 1}, // variation selectors supplement
	},
}

// cellWidth is the number of terminal columns text may take, erring high:
// a rune from U+1100 up counts 2 (wide CJK and emoji start there), anything
// below counts 1. Overestimating only wraps a line early; underestimating
// would let the terminal wrap it outside our control.
func cellWidth(text string) int {
	w := 0
	for _, r := range text {
		if r >= 0x1100 {
			w += 2
		} else {
			w++
		}
	}
	return w
}

// wrap splits l into pieces at most width columns wide, never splitting an
// atom or a rune. With words set it breaks after the last space of a piece
// when that makes room, the space ending the piece. A cell wider than width
// gets a piece of its own. An empty line gives one empty piece.
func wrap(l line, width int, words bool) []string {
	var pieces []string
	start, w := 0, 0      // the current piece: its first byte and its width
	space, after := -1, 0 // its last space (byte after it), width since
	atoms := l.atoms
	for i := 0; i < len(l.text); {
		var end int
		if len(atoms) > 0 && atoms[0].start == i {
			end = atoms[0].end
			atoms = atoms[1:]
		} else {
			_, size := utf8.DecodeRuneInString(l.text[i:])
			end = i + size
		}
		cell := l.text[i:end]
		cw := cellWidth(cell)
		if w+cw > width && w > 0 {
			if words && space > start+1 && after+cw <= width {
				pieces = append(pieces, l.text[start:space])
				start, w = space, after
			} else {
				pieces = append(pieces, l.text[start:i])
				start, w = i, 0
			}
			space, after = -1, 0
		}
		w += cw
		if cell == " " {
			space, after = end, 0
		} else {
			after += cw
		}
		i = end
	}
	return append(pieces, l.text[start:])
}
