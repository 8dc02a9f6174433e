package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/shellparse"
)

// checkOptions are check's own flags, shared by its tool subcommands.
type checkOptions struct {
	json      bool
	explain   bool
	batch     string    // the batch FILE, from --batch=FILE or the operand after the flags
	batchFlag batchFlag // --batch
}

// batchFlag is --batch. Bare, it takes no value: FILE is check's operand,
// wherever the flags stand (`check --batch --json FILE`, `check --batch
// FILE --json`); `--batch=FILE` names it directly. A value-taking flag
// would take `--json` in `check --batch --json FILE` for the file's name.
type batchFlag struct {
	given bool
	file  string
}

func (b *batchFlag) String() string { return b.file }

// Set is pflag's: "true" is the value of a bare --batch (NoOptDefVal);
// a file named "true" is given as ./true.
func (b *batchFlag) Set(v string) error {
	b.given = true
	if v != "true" {
		b.file = v
	}
	return nil
}

// Type is "bool", so that pflag's usage line shows the flag without a
// default value ([="true"]).
func (b *batchFlag) Type() string { return "bool" }

// batchArgs takes check's operand as the --batch FILE; any operand
// without --batch, or more than one, is a usage error.
func (o *checkOptions) batchArgs(c *cobra.Command, args []string) error {
	switch {
	case !o.batchFlag.given && len(args) > 0:
		return usageErr("unknown command %q for %q: check needs a tool (bash, read, write, edit) or --batch FILE", args[0], c.CommandPath())
	case !o.batchFlag.given:
		return nil
	case o.batchFlag.file != "" && len(args) > 0:
		return usageErr("--batch=%s takes no other operand (got %q)", o.batchFlag.file, args[0])
	case o.batchFlag.file != "":
		o.batch = o.batchFlag.file
	case len(args) == 1:
		o.batch = args[0]
	case len(args) == 0:
		return usageErr("--batch needs FILE (- for stdin)")
	default:
		return usageErr("--batch takes one FILE, got %d: %q", len(args), args)
	}
	return nil
}

// newCmdCheck is `check`; runF, when set, gets the options of a --batch
// run in place of batchRun.
func (a *app) newCmdCheck(runF func(*checkOptions) error) *cobra.Command {
	o := &checkOptions{}
	c := &cobra.Command{
		Use:   "check [--json] [--explain] (bash|read|write|edit ... | --batch FILE | --batch=FILE)",
		Short: "Answer allow, ask or deny without running anything",
		Long: `Answer allow, ask or deny without running or prompting.

Exit status: 0 allow, 75 ask, 77 deny. --json prints the Decision on stdout;
--explain shows every layer's verdict in order.

With --batch FILE (- for stdin) it decides one call per line: a line that
is a JSON object must have a "command" field (a transcript), any other line
is a shell command. Each line that asks or is denied is printed on stdout
(LINE: EFFECT [CODE] PART: REASON); --json prints one Decision per line
instead. A summary goes to stderr. The exit status is 0 once every line is
decided; 66 when FILE does not exist or cannot be read. FILE may stand
before or after the other flags; a file named like a tool (bash) is given
as ./bash or --batch=bash.`,
		Args: o.batchArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.batch == "" {
				return usageErr("check needs a tool (bash, read, write, edit) or --batch FILE")
			}
			if runF != nil {
				return runF(o)
			}
			return a.batchRun(o)
		},
	}
	f := c.PersistentFlags()
	f.BoolVar(&o.json, "json", false, "print the Decision as JSON on stdout")
	f.BoolVar(&o.explain, "explain", false, "show every layer's verdict in order")
	c.Flags().Var(&o.batchFlag, "batch", "decide one call per line of `FILE` (- for stdin)")
	c.Flags().Lookup("batch").NoOptDefVal = "true"
	for _, t := range a.toolCmds(o) {
		// "Check a shell command, then run it": under check, nothing runs.
		t.Short, _, _ = strings.Cut(t.Short, ", then")
		t.Short += " (nothing runs)"
		c.AddCommand(t)
	}
	return c
}

// report prints a check decision and returns check's exit status.
func (a *app) report(o *checkOptions, d policy.Decision) error {
	var enf *enforcementJSON
	if a.enf != nil && d.Effect != policy.Deny {
		enf = &enforcementJSON{Level: a.enf.level.String(), Plan: a.enf.plan}
	}
	if o.json {
		writeJSONLine(a.stdout, decisionJSON{Source: "gatekeep", Version: SchemaVersion, Decision: d, Enforcement: enf})
	} else {
		writeDecisionText(a.stdout, d, o.explain)
		if enf != nil {
			network := map[bool]string{true: "on", false: "off"}[enf.Network]
			if enf.Proxy != nil {
				network = "only to " + strings.Join(enf.Proxy.Hosts, ", ") + " (through gatekeep's proxy)"
			}
			fmt.Fprintf(a.stdout, "enforcement: %s tier, network %s\n", enf.Tier, network)
		}
	}
	return silentExit(exitFor(d.Effect))
}

// maxBatchLine is the longest batch line read; a longer one is decided as
// input.too_large without being kept in memory.
const maxBatchLine = shellparse.MaxSize + 64<<10

// batchLine is one decision of check --batch --json.
type batchLine struct {
	Line int `json:"line"`
	policy.Decision
}

// batchRun decides every line of the file o.batch names. Memory stays
// flat: one line at a time, and at most maxBatchLine bytes of it.
func (a *app) batchRun(o *checkOptions) error {
	name := o.batch
	var in io.Reader = a.stdin
	if name != "-" {
		// Never blocks: a FIFO or device is refused (a pipe is read as -).
		f, err := policy.OpenRegular(name)
		if errors.Is(err, policy.ErrNotRegular) {
			return withCode(ExitUsage, fmt.Errorf("the batch file %s is not a regular file: give - to read a pipe on stdin", name))
		}
		if err != nil {
			return withCode(ExitNoInput, fmt.Errorf("opening the batch file: %w", err))
		}
		defer f.Close()
		in = f
	}
	cfg, cwd, err := a.config()
	if err != nil {
		return a.configError(err)
	}
	// Whole lines are handed to stdout: its safeWriter escapes invalid
	// UTF-8 per write, so a write must not end inside a rune (a
	// bufio.Writer flushes at any byte).
	var out bytes.Buffer
	flush := func() {
		a.stdout.Write(out.Bytes())
		out.Reset()
	}
	defer flush()
	r := bufio.NewReaderSize(in, 64<<10)
	glob := shellGlob(findShell()) // the bash every line would run in
	byEffect := map[policy.Effect]int{}
	byCode := map[string]int{}
	start := time.Now()
	n := 0
	for {
		line, tooLong, err := readLine(r, maxBatchLine)
		if err == io.EOF && line == nil && !tooLong {
			break
		}
		if err != nil && err != io.EOF {
			return withCode(ExitInternal, fmt.Errorf("reading the batch file: %w", err))
		}
		n++
		d := a.batchDecide(o, cfg, cwd, glob, line, tooLong)
		byEffect[d.Effect]++
		byCode[d.Code]++
		switch {
		case o.json:
			writeJSONLine(&out, batchLine{Line: n, Decision: d})
		case d.Effect != policy.Allow:
			// Without --json, each line that asked or was denied: its
			// number, effect, code, the part that decided and why.
			subject := d.Command
			if subject == "" {
				subject = string(line)
			}
			fmt.Fprintf(&out, "%d: %s [%s] %s: %s\n", n, d.Effect, d.Code, oneLineReason(subject), oneLineReason(d.Message))
		}
		if out.Len() >= 64<<10 {
			flush()
		}
		if err == io.EOF {
			break
		}
	}
	flush()
	writeSummary(a.stderr, n, time.Since(start), byEffect, byCode)
	return nil
}

// batchDecide decides one batch line.
func (a *app) batchDecide(o *checkOptions, cfg *policy.Config, cwd string, glob shellparse.GlobState, line []byte, tooLong bool) policy.Decision {
	bad := func(code, msg string) policy.Decision {
		return policy.Decision{Effect: policy.Deny, Layer: policy.LayerInput, Code: code, Message: msg, Mode: cfg.Mode, Offset: -1}
	}
	if tooLong {
		// As the chain answers a script over the size cap:
		// ask, which no mode turns into allow.
		d := bad(shellparse.CodeTooLarge, fmt.Sprintf("the command is too large to check: the line is over %d bytes", maxBatchLine))
		d.Effect = policy.Ask
		return d
	}
	text := string(line)
	// A JSON object is a transcript entry; anything else, including a
	// shell brace group such as `{ ls; } | wc`, is a shell command.
	if bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("{")) && json.Valid(line) {
		command, ok := plainCommand(line)
		if !ok {
			var msg string
			if command, msg = transcriptCommand(line); msg != "" {
				return bad(shellparse.CodeInvalid, msg)
			}
		}
		text = command
	}
	// Judged as `gatekeep bash -c LINE` would judge it, in the bash it
	// starts.
	req := policy.Request{Tool: policy.ToolBash, Command: text, Cwd: cwd, Trace: o.explain, ShellGlob: glob}
	return policy.Decide(cfg, policy.Query{Requests: []policy.Request{req}, Enforce: a.enforceQuery(cfg, true, false)}).Decision
}

// transcriptCommand is the "command" string of a transcript line (valid
// JSON), or why the line is refused.
func transcriptCommand(line []byte) (command, refused string) {
	// Keys match exactly: encoding/json would also take "COMMAND".
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil || json.Unmarshal(obj["command"], &command) != nil {
		return "", "the line is JSON without a \"command\" string"
	}
	if err := checkStrictJSON(line); err != nil {
		return "", "the line is ambiguous JSON: " + err.Error()
	}
	return command, ""
}

// plainCommand is transcriptCommand's answer for the plain transcript line,
// found in one pass over the bytes without reflection: line is valid JSON
// (json.Valid), an object whose keys are ASCII without escapes, none twice
// in one object, nested at most maxJSONDepth deep, with a "command" string
// at the top. ok is false for any other line, which transcriptCommand
// then judges (TestPlainCommand compares the two).
func plainCommand(line []byte) (command string, ok bool) {
	type frame struct {
		object   bool
		keys     int  // where this object's keys start in keys
		expected bool // the next string is a key
	}
	var stackBuf [8]frame
	var keysBuf [16][]byte
	stack, keys := stackBuf[:0], keysBuf[:0]
	var cmd []byte
	pending := false // the next value is the top object's "command"
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case ' ', '\t', '\n', '\r', ':':
			continue
		case ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].expected = true
			}
			continue
		case '{', '[':
			if pending || len(stack) >= maxJSONDepth {
				return "", false
			}
			stack = append(stack, frame{object: c == '{', keys: len(keys), expected: c == '{'})
			continue
		case '}', ']':
			if len(stack) == 0 {
				return "", false
			}
			keys = keys[:stack[len(stack)-1].keys]
			stack = stack[:len(stack)-1]
			continue
		case '"':
			start := i
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
			if i >= len(line) || len(stack) == 0 {
				return "", false
			}
			tok := line[start : i+1]
			top := &stack[len(stack)-1]
			if top.object && top.expected {
				key := tok[1 : len(tok)-1]
				for _, b := range key {
					if b == '\\' || b >= utf8.RuneSelf {
						return "", false
					}
				}
				for _, k := range keys[top.keys:] {
					if bytes.Equal(k, key) {
						return "", false
					}
				}
				keys = append(keys, key)
				top.expected = false
				pending = len(stack) == 1 && string(key) == "command"
				continue
			}
			if pending {
				if cmd != nil {
					return "", false
				}
				cmd, pending = tok, false
			}
			continue
		}
		// A number, true, false or null: not the command.
		if pending {
			return "", false
		}
		for i+1 < len(line) && !jsonDelim(line[i+1]) {
			i++
		}
	}
	if cmd == nil || len(stack) != 0 {
		return "", false
	}
	if s, ok := unquoteSimple(cmd[1 : len(cmd)-1]); ok {
		return s, true
	}
	var s string
	if json.Unmarshal(cmd, &s) != nil {
		return "", false
	}
	return s, true
}

// unquoteSimple is the value of the body of a JSON string token that holds
// valid UTF-8 and no escape but the one-letter ones (\" \\ \/ \b \f \n \r
// \t); ok is false for any other body (\u escapes, invalid UTF-8), which
// encoding/json then decodes. TestUnquoteSimple compares the two.
func unquoteSimple(body []byte) (string, bool) {
	if !utf8.Valid(body) {
		return "", false
	}
	i := bytes.IndexByte(body, '\\')
	if i < 0 {
		return string(body), true
	}
	out := make([]byte, 0, len(body))
	for i >= 0 {
		if i+1 >= len(body) {
			return "", false
		}
		out = append(out, body[:i]...)
		switch c := body[i+1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		default:
			return "", false
		}
		body = body[i+2:]
		i = bytes.IndexByte(body, '\\')
	}
	return string(append(out, body...)), true
}

// jsonDelim reports a byte that ends a JSON number or literal.
func jsonDelim(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\r', ',', ']', '}':
		return true
	}
	return false
}

// readLine reads one line without its newline (and a CR before it). A line
// longer than max is skipped to its end and reported as tooLong.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF && len(buf) == 0 && !tooLong {
			return nil, false, io.EOF
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		if buf == nil {
			buf = []byte{}
		}
		return buf, tooLong, err
	}
}

func writeSummary(w io.Writer, n int, took time.Duration, byEffect map[policy.Effect]int, byCode map[string]int) {
	fmt.Fprintf(w, "%d calls decided in %s\n\n", n, took.Round(time.Millisecond))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "effect\tcount\tshare")
	for _, e := range []policy.Effect{policy.Allow, policy.Ask, policy.Deny} {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", e, byEffect[e], pct(byEffect[e], n))
	}
	tw.Flush()
	fmt.Fprintln(w)
	codes := make([]string, 0, len(byCode))
	for c := range byCode {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		if byCode[codes[i]] != byCode[codes[j]] {
			return byCode[codes[i]] > byCode[codes[j]]
		}
		return codes[i] < codes[j]
	})
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "code\tcount\tshare")
	for _, c := range codes {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", c, byCode[c], pct(byCode[c], n))
	}
	tw.Flush()
}

func pct(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
}
