//go:build linux || darwin

package prompt

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gatekeep/gatekeep/prompt/ptytest"
)

// wait bounds every wait of these tests; nothing sleeps to make a point.
const wait = ptytest.Wait

// screen is the person's side of a pseudo-terminal (package ptytest).
type screen struct {
	*ptytest.Screen
	t *testing.T
}

func newScreen(t *testing.T) screen { return screen{ptytest.Open(t), t} }

type result struct {
	answer Answer
	err    error
}

// ask runs Ask on the screen's terminal in the background.
func (s screen) ask(q Question, opt Options) <-chan result {
	opt.TTY = s.TTY.Name()
	ch := make(chan result, 1)
	go func() {
		a, err := Ask(q, opt)
		ch <- result{a, err}
	}()
	return ch
}

func (s screen) result(ch <-chan result) result {
	s.t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(wait):
		s.t.Fatalf("Ask did not return in %v; the screen shows:\n%s", wait, s.String())
		return result{}
	}
}

var question = Question{
	Tool:        "Bash",
	Subject:     "npm publish",
	Cwd:         "/home/me/project",
	Layer:       "rules",
	Reason:      "npm publish needs a person's ok",
	AlwaysRules: []string{"Bash(npm publish *)"},
	AlwaysFile:  "/home/me/project/.gatekeep/config.local.toml",
}

func TestAskKeys(t *testing.T) {
	noAlways := question
	noAlways.AlwaysUnavailable = "a protected path"
	tests := []struct {
		name  string
		q     Question
		keys  []string // each sent after the answer prompt shows
		want  Answer
		shows string // the last line, after the answer prompt
	}{
		{"y allows once", question, []string{"y"}, AllowOnce, "allow once"},
		{"n denies", question, []string{"n"}, Deny, "deny"},
		{"a always allows", question, []string{"a"}, AlwaysAllow, "always allow"},
		{"ctrl-d denies", question, []string{"\x04"}, Deny, "deny"},
		{"esc denies", question, []string{"\x1b"}, Deny, "deny"},
		{"unknown key asks again", question, []string{"x", "y"}, AllowOnce, "allow once"},
		{"two unknown keys deny", question, []string{"x", "\r"}, Deny, "deny (unknown key)"},
		{"arrow key is unknown", question, []string{"\x1b[A", "n"}, Deny, "deny"},
		{"a paste is unknown", question, []string{"yes", "yes"}, Deny, "deny (unknown key)"},
		{"a not offered is unknown", noAlways, []string{"a", "y"}, AllowOnce, "allow once"},
		{"a not offered twice denies", noAlways, []string{"a", "a"}, Deny, "deny (unknown key)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(t)
			before := s.State()
			ch := s.ask(tt.q, Options{})
			for i, k := range tt.keys {
				if i > 0 {
					reask := reaskLine
					if !tt.q.alwaysOffered() {
						reask = reaskLineNoA
					}
					s.Expect(reask)
				}
				s.Expect(answerPrompt)
				s.Send(k)
			}
			r := s.result(ch)
			if r.err != nil || r.answer != tt.want {
				t.Errorf("Ask = %v, %v; want %v, nil", r.answer, r.err, tt.want)
			}
			s.Expect(tt.shows + "\r\n")
			if after := s.State(); !reflect.DeepEqual(before, after) {
				t.Error("the terminal state was not restored")
			}
		})
	}
}

// TestAskShows reads the whole question off the terminal: every field, the
// warning, and the whole of a command far longer than a line.
func TestAskShows(t *testing.T) {
	s := newScreen(t)
	tail := strings.Repeat("x", 5000) + "; rm -rf ~"
	q := question
	q.Subject = "echo hi\x1b[2K\r\u202e" + strings.Repeat("\n", 300) + tail
	q.Rule = `.gatekeep/config.toml:12 ask "npm publish *"`
	q.Parts = []string{"npm publish", "git push"}
	ch := s.ask(q, Options{})
	shown := s.Expect(answerPrompt)
	s.Send("n")
	if r := s.result(ch); r.err != nil || r.answer != Deny {
		t.Errorf("Ask = %v, %v; want deny, nil", r.answer, r.err)
	}

	lines := strings.Split(shown, "\r\n")
	var subject strings.Builder
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, subjectBar); ok {
			subject.WriteString("\n" + rest)
		}
		if rest, ok := strings.CutPrefix(l, subjectWrap); ok {
			subject.WriteString(rest)
		}
	}
	want := "\n" + `echo hi\x1b[2K\r\u202e` + "\n⋮ [299 blank lines]\n" + tail
	if subject.String() != want {
		t.Errorf("the command shown is\n%q\nwant\n%q", subject.String(), want)
	}
	for _, line := range []string{
		"gatekeep: Bash needs your permission",
		"  cwd       /home/me/project",
		"  layer     rules",
		`  rule      .gatekeep/config.toml:12 ask "npm publish *"`,
		"  reason    npm publish needs a person's ok",
		"  asking    npm publish",
		"            git push",
		"  warning   this request contains hidden or control characters, shown escaped",
		"  warning   long runs of blank lines or spaces are collapsed and counted (⋮ ⋯)",
		"  always    it covers every `npm publish ...` call, any options",
		"  [y] allow once  [n] deny  [a] always allow: Bash(npm publish *) → ",
		"      /home/me/project/.gatekeep/config.local.toml",
	} {
		if !strings.Contains(shown, "\r\n"+line+"\r\n") {
			t.Errorf("the screen lacks the line %q", line)
		}
	}
	if strings.ContainsAny(shown, "\x1b\u202e") || strings.Contains(shown, "hi\r") {
		t.Error("a control or bidi character reached the terminal")
	}
	// The note points up; the choices are the last lines.
	if !strings.Contains(shown, "  note      the command is ") {
		t.Error("no note that the command is taller than the screen")
	}
	if got := lines[len(lines)-1]; got != answerPrompt {
		t.Errorf("the last line is %q, want the answer prompt", got)
	}
}

func TestAskCtrlCRestoresTerminal(t *testing.T) {
	s := newScreen(t)
	before := s.State()
	ch := s.ask(question, Options{})
	s.Expect(answerPrompt)
	if during := s.State(); reflect.DeepEqual(before, during) {
		t.Fatal("the terminal is not in raw mode while asking")
	}
	s.Send("\x03")
	// Ctrl-C is the question interrupted, as docs/codes.md's table says
	// (ask.interrupted), not the person's n.
	if r := s.result(ch); !errors.Is(r.err, ErrInterrupted) || r.answer != Deny {
		t.Errorf("Ask = %v, %v; want deny, ErrInterrupted", r.answer, r.err)
	}
	s.Expect("deny (interrupted)\r\n")
	if after := s.State(); !reflect.DeepEqual(before, after) {
		t.Error("the terminal state was not restored after Ctrl-C")
	}
}

// TestAskTypeAhead: a key pressed before the question was shown does not
// answer it.
func TestAskTypeAhead(t *testing.T) {
	s := newScreen(t)
	s.Send("y")
	ch := s.ask(question, Options{})
	s.Expect(answerPrompt)
	s.Send("n")
	if r := s.result(ch); r.err != nil || r.answer != Deny {
		t.Errorf("Ask = %v, %v; want deny, nil", r.answer, r.err)
	}
}

// TestAskEOF: the terminal hangs up (its master closes) while asking.
func TestAskEOF(t *testing.T) {
	s := newScreen(t)
	ch := s.ask(question, Options{})
	s.Expect(answerPrompt)
	s.Hangup()
	r := s.result(ch)
	if r.answer != Deny || !errors.Is(r.err, ErrNoTTY) {
		t.Errorf("Ask = %v, %v; want deny, ErrNoTTY", r.answer, r.err)
	}
}

func TestAskTimeout(t *testing.T) {
	s := newScreen(t)
	before := s.State()
	start := time.Now()
	ch := s.ask(question, Options{Timeout: 200 * time.Millisecond})
	s.Expect(answerPrompt)
	r := s.result(ch)
	if r.answer != Deny || !errors.Is(r.err, ErrTimeout) {
		t.Errorf("Ask = %v, %v; want deny, ErrTimeout", r.answer, r.err)
	}
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("Ask timed out after %v, before the 200ms timeout", d)
	}
	s.Expect("deny (no answer in 200ms)\r\n")
	if after := s.State(); !reflect.DeepEqual(before, after) {
		t.Error("the terminal state was not restored after the timeout")
	}
}

func TestAskSignalRestoresTerminal(t *testing.T) {
	s := newScreen(t)
	before := s.State()
	ch := s.ask(question, Options{})
	s.Expect(answerPrompt) // the handler is in place before the question shows
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	r := s.result(ch)
	if r.answer != Deny || !errors.Is(r.err, ErrInterrupted) {
		t.Errorf("Ask = %v, %v; want deny, ErrInterrupted", r.answer, r.err)
	}
	if after := s.State(); !reflect.DeepEqual(before, after) {
		t.Error("the terminal state was not restored after SIGHUP")
	}
}

func TestAskPanicRestoresTerminal(t *testing.T) {
	s := newScreen(t)
	before := s.State()
	testHookRaw = func() { panic("boom") }
	defer func() { testHookRaw = nil }()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic did not reach the caller")
			}
		}()
		Ask(question, Options{TTY: s.TTY.Name()})
	}()
	if after := s.State(); !reflect.DeepEqual(before, after) {
		t.Error("the terminal state was not restored after a panic")
	}
}

func TestAskNoTTY(t *testing.T) {
	regular := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(regular, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(t.TempDir(), "missing"), os.DevNull, regular} {
		a, err := Ask(question, Options{TTY: path})
		if a != Deny || !errors.Is(err, ErrNoTTY) {
			t.Errorf("Ask on %s = %v, %v; want deny, ErrNoTTY", path, a, err)
		}
	}
}

// helperEnv makes the test binary a helper process for the tests below.
const helperEnv = "GATEKEEP_PROMPT_HELPER"

// TestHelperAsk is not a test: run as a helper it asks on the default
// terminal (/dev/tty) and prints the result on stdout.
func TestHelperAsk(t *testing.T) {
	switch os.Getenv(helperEnv) {
	case "":
		return
	case "ask":
		a, err := Ask(question, Options{Timeout: wait})
		fmt.Printf("%v|%v\n", a, err)
	case "background":
		// Ask from a new process group of the same session: a background
		// job of the terminal.
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAsk$")
		cmd.Env = append(os.Environ(), helperEnv+"=ask")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Printf("helper: %v\n", err)
		}
	}
	os.Exit(0)
}

// runHelper starts the test binary as a helper in a new session whose
// controlling terminal is the screen, with stdin and stdout pipes as an
// agent gives them. The returned func waits for it and returns its stdout.
func (s screen) runHelper(mode string) func() string {
	s.t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAsk$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	var stdout, stderr bytes.Buffer
	cmd.Stdin = strings.NewReader("")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	s.Attach(cmd)
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return func() string {
		s.t.Helper()
		select {
		case err := <-done:
			if err != nil {
				s.t.Fatalf("helper: %v\n%s", err, stderr.String())
			}
		case <-time.After(wait):
			cmd.Process.Kill()
			s.t.Fatalf("the helper did not finish in %v; the screen shows:\n%s", wait, s.String())
		}
		return stdout.String()
	}
}

// TestAskControllingTerminal: with stdin and stdout as pipes, the question
// goes to the controlling terminal and the answer comes from it; the pipes
// carry none of it.
func TestAskControllingTerminal(t *testing.T) {
	s := newScreen(t)
	finish := s.runHelper("ask")
	s.Expect("gatekeep: Bash needs your permission")
	s.Expect(answerPrompt)
	s.Send("y")
	if got, want := finish(), "allow once|<nil>\n"; got != want {
		t.Errorf("helper printed %q, want %q", got, want)
	}
}

// TestAskInBackground: a background job of the terminal gets ErrNoTTY at
// once instead of being stopped by SIGTTOU when it sets raw mode.
func TestAskInBackground(t *testing.T) {
	s := newScreen(t)
	got := s.runHelper("background")()
	if want := "deny|no terminal to ask on: /dev/tty: running in the background"; !strings.HasPrefix(got, want) {
		t.Errorf("helper printed %q, want %q...", got, want)
	}
	if strings.Contains(s.String(), "gatekeep:") {
		t.Error("the question was shown by a background job")
	}
}
