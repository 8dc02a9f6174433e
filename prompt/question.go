package prompt

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Defaults for Options.
const (
	DefaultTTY     = "/dev/tty"
	DefaultTimeout = 10 * time.Minute
)

// Errors of Ask. Whatever the error, the Answer returned with it is Deny.
var (
	// ErrNoTTY: there is no terminal to ask on. The path does not open, is
	// not a terminal, belongs to another (foreground) process group, cannot
	// be put in raw mode or written, or hangs up (end of input) before an
	// answer; or the system has no raw terminal support (Windows). Callers
	// map it to ask.no_tty.
	ErrNoTTY = errors.New("no terminal to ask on")
	// ErrTimeout: no answer within Options.Timeout. Callers map it to
	// ask.timeout.
	ErrTimeout = errors.New("prompt timed out")
	// ErrInterrupted: the person pressed Ctrl-C, or SIGINT, SIGTERM or
	// SIGHUP arrived while asking. The wrapping error names the key or
	// the signal. Callers map it to ask.interrupted.
	ErrInterrupted = errors.New("prompt interrupted")
)

// Answer is the person's answer. The zero value is Deny.
type Answer uint8

const (
	Deny        Answer = iota // n, Ctrl-C, Ctrl-D, Esc, EOF, two unknown keys, any error
	AllowOnce                 // y: run this call, save nothing
	AlwaysAllow               // a: run this call and save Question.AlwaysRules
)

// String returns "deny", "allow once" or "always allow".
func (a Answer) String() string {
	switch a {
	case AllowOnce:
		return "allow once"
	case AlwaysAllow:
		return "always allow"
	default:
		return "deny"
	}
}

// Question is what the person is asked about. Every field is shown through
// Render (Subject as is, the others on one line each with a newline shown
// as \n), so all of them may hold untrusted text.
type Question struct {
	Tool    string   // "Bash", "Write", or a hook's tool name
	Subject string   // the full command or path, shown whole
	Cwd     string   // the working directory of the call
	Layer   string   // the layer that asked: "rules", "mode" ...
	Reason  string   // why it asked, one line
	Rule    string   // the rule that asked as "file:line text"; empty for a mode
	Parts   []string // for a compound command, the sub-commands that asked

	// AlwaysRules are the exact rules answering "a" will save, and
	// AlwaysFile the file they go to. "a" is offered only when
	// AlwaysUnavailable is empty and AlwaysRules is not.
	AlwaysRules []string
	AlwaysFile  string
	// AlwaysUnavailable says why "always" is not offered ("a protected
	// path"); empty when it is.
	AlwaysUnavailable string
}

// alwaysOffered reports whether "a" is a valid key for q.
func (q Question) alwaysOffered() bool {
	return q.AlwaysUnavailable == "" && len(q.AlwaysRules) > 0
}

// Options tunes Ask. The zero value asks on /dev/tty for up to 10 minutes.
type Options struct {
	TTY     string        // terminal device to open; "" means DefaultTTY
	Timeout time.Duration // how long to wait for a key; <= 0 means DefaultTimeout
}

func (o Options) tty() string {
	if o.TTY == "" {
		return DefaultTTY
	}
	return o.TTY
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// Layout of the question on screen.
const (
	minWidth     = 24
	defaultWidth = 80
	labelIndent  = "            " // under the value of a labelled field
	subjectBar   = "  │ "         // before every line of the subject
	subjectWrap  = "  ↳ "         // before a wrapped piece of a subject line
	choiceIndent = "      "       // under the choices line
	answerPrompt = "  answer: "
	reaskLine    = "  press y, n or a; any other key denies"
	reaskLineNoA = "  press y or n; any other key denies"
)

// layout returns the lines that show q on a terminal width columns wide
// and rows tall (0 when unknown), without line endings. The subject is
// shown whole: each of its lines starts with the bar "│ " and each wrapped
// piece of a line with "↳ ", so no part of it can pass for a line of the
// prompt and a wrap never looks like a newline. Other fields are one line
// each (newlines shown as \n), wrapped at spaces under their value. The
// choices come last.
func layout(q Question, width, rows int) []string {
	if width <= 0 {
		width = defaultWidth
	}
	width = max(width-1, minWidth) // never write into the last column
	var lines []string
	subject := render(q.Subject, false)
	escaped, collapsed := subject.escaped, subject.collapsed
	field := func(first, rest string, r rendered) {
		escaped = escaped || r.escaped
		collapsed = collapsed || r.collapsed
		lines = append(lines, indent(first, rest, r.lines, width)...)
	}
	label := func(name string) string { return fmt.Sprintf("  %-10s", name) }

	lines = append(lines, "")
	field("gatekeep: ", "          ", render(orDash(q.Tool)+" needs your permission", true))
	start := len(lines)
	for _, l := range subject.lines {
		for i, piece := range wrap(l, width-cellWidth(subjectBar), false) {
			prefix := subjectBar
			if i > 0 {
				prefix = subjectWrap
			}
			lines = append(lines, prefix+piece)
		}
	}
	subjectLines := len(lines) - start
	field(label("cwd"), labelIndent, render(orDash(q.Cwd), true))
	field(label("layer"), labelIndent, render(orDash(q.Layer), true))
	if q.Rule != "" {
		field(label("rule"), labelIndent, render(q.Rule, true))
	}
	if q.Reason != "" {
		field(label("reason"), labelIndent, render(q.Reason, true))
	}
	for i, p := range q.Parts {
		name := ""
		if i == 0 {
			name = "asking"
		}
		field(label(name), labelIndent, render(p, true))
	}

	if covers := widest(q.AlwaysRules); covers != "" && q.alwaysOffered() {
		// Say what a `name *` rule covers: every later call that starts
		// so, whatever options it adds (--force included).
		field(label("always"), labelIndent, render("it covers every `"+covers+" ...` call, any options", true))
	}

	var choices rendered
	if q.alwaysOffered() {
		text := "[y] allow once  [n] deny  [a] always allow: " + strings.Join(q.AlwaysRules, ", ")
		if q.AlwaysFile != "" {
			text += " → " + q.AlwaysFile
		}
		choices = render(text, true)
	} else {
		why := q.AlwaysUnavailable
		if why == "" {
			why = "no rule to save"
		}
		choices = render("[y] allow once  [n] deny  (always allow not offered: "+why+")", true)
	}
	tail := indent("  ", choiceIndent, choices.lines, width)
	escaped = escaped || choices.escaped

	if escaped {
		lines = append(lines, label("warning")+"this request contains hidden or control characters, shown escaped")
	}
	if collapsed {
		lines = append(lines, label("warning")+"long runs of blank lines or spaces are collapsed and counted (⋮ ⋯)")
	}
	if rows > 0 && len(lines)+len(tail)+2 > rows {
		lines = append(lines, label("note")+fmt.Sprintf("the command is %d lines long; scroll up to see all of it", subjectLines))
	}
	lines = append(lines, "")
	return append(lines, tail...)
}

// indent wraps each line to width at spaces and prefixes the first piece
// with first and every other piece with rest (first and rest have the same
// width).
func indent(first, rest string, lines []line, width int) []string {
	room := max(width-cellWidth(rest), 1)
	var out []string
	for _, l := range lines {
		for _, piece := range wrap(l, room, true) {
			prefix := rest
			if len(out) == 0 {
				prefix = first
			}
			out = append(out, prefix+piece)
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// key is what one read from the terminal means.
type key uint8

const (
	keyUnknown key = iota
	keyAllowOnce
	keyDeny
	keyAlways
	keyInterrupt // Ctrl-C: a deny that says the question was interrupted
)

// classify reads one chunk of raw input as a key. A chunk of more than one
// byte (an arrow key's escape sequence, a paste) is never an answer, so
// pasted text holding a "y" cannot allow anything. "a" is a key only when
// always is offered.
func classify(chunk []byte, alwaysOffered bool) key {
	if len(chunk) != 1 {
		return keyUnknown
	}
	switch chunk[0] {
	case 'y', 'Y':
		return keyAllowOnce
	case 'n', 'N', 0x04, 0x1b: // n, Ctrl-D, Esc
		return keyDeny
	case 0x03: // Ctrl-C, a byte in raw mode, not a signal
		return keyInterrupt
	case 'a', 'A':
		if alwaysOffered {
			return keyAlways
		}
	}
	return keyUnknown
}

// widest returns the command prefix of the first Bash rule among rules
// that ends in ` *` (`Bash(git push *)`: "git push"), or "".
func widest(rules []string) string {
	for _, r := range rules {
		if inner, ok := strings.CutPrefix(r, "Bash("); ok {
			if prefix, ok := strings.CutSuffix(inner, " *)"); ok {
				return prefix
			}
		}
	}
	return ""
}
