package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gatekeep/gatekeep/cmd/netproxy"
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/agentcall"
)

// auditRecord is one line of the audit log (docs/hooks.md, "Audit log"): one
// decision, with secrets in its input redacted.
type auditRecord struct {
	Time      string          `json:"time"`             // RFC 3339, UTC, milliseconds
	Agent     string          `json:"agent"`            // claude, codex, gemini, or cli for the wrapper and file tools
	SessionID string          `json:"session_id"`       // the agent's session id; "" for the wrapper
	Tool      string          `json:"tool"`             // the tool as the agent named it
	Input     string          `json:"input"`            // the command, path or arguments, redacted and possibly truncated
	Effect    string          `json:"effect"`           // allow, ask, deny: gatekeep's decision
	Answer    string          `json:"answer,omitempty"` // hooks: what the agent was told (allow, ask, deny, none)
	Layer     string          `json:"layer"`
	Code      string          `json:"code"`
	Rule      *policy.RuleRef `json:"rule,omitempty"`
	// Connection is set on the record of a confined command's connection
	// through gatekeep's proxy (proxy.go).
	Connection *netproxy.Event `json:"connection,omitempty"`
}

// maxAuditLine is the longest audit line, newline included. The log is a
// regular file (a FIFO or device is refused: it could block every call);
// O_APPEND and one write per line keep concurrent writers from
// interleaving.
const maxAuditLine = 4000

// truncMarker ends an input that was cut to fit maxAuditLine.
const truncMarker = "…[truncated]"

// openAudit opens the audit log at path for appending: created with mode
// 0600 (its directory 0700) when missing; it must be a regular file.
func openAudit(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating the audit log directory: %w", err)
	}
	f, err := os.OpenFile(path, auditOpenFlags, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the audit log: %w", err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = policy.ErrNotRegular
		}
		return nil, fmt.Errorf("opening the audit log %s: %w", path, err)
	}
	return f, nil
}

// appendAudit appends rec as one JSON line to the file at path: created
// with mode 0600 (its directory 0700) when missing, opened O_APPEND, and
// written with a single write call. The input is redacted, then cut so the
// line stays within maxAuditLine.
func appendAudit(path string, rec auditRecord) error {
	rec.Input = redactSecrets(rec.Input)
	line, err := auditLine(rec)
	if err != nil {
		return err
	}
	f, err := openAudit(path)
	if err != nil {
		return err
	}
	_, werr := f.Write(line)
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("writing the audit log: %w", werr)
	}
	if cerr != nil {
		return fmt.Errorf("writing the audit log: %w", cerr)
	}
	return nil
}

// auditLine renders rec as one line within maxAuditLine: when it is too
// long, the input is cut to the longest prefix (at a rune boundary) that
// fits with truncMarker after it, found by bisection since escaping makes
// the rendered length differ from the raw one.
func auditLine(rec auditRecord) ([]byte, error) {
	line, err := marshalLine(rec)
	if err != nil || len(line) <= maxAuditLine {
		return line, err
	}
	input := rec.Input
	fits := func(n int) ([]byte, bool) {
		rec.Input = cutRunes(input, len(input)-n) + truncMarker
		l, _ := marshalLine(rec)
		return l, len(l) <= maxAuditLine
	}
	lo, hi := 0, len(input) // fits(lo) is checked below; fits(hi) is not true
	best, ok := fits(0)
	if !ok {
		return nil, fmt.Errorf("the audit record does not fit in %d bytes", maxAuditLine)
	}
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if l, ok := fits(mid); ok {
			lo, best = mid, l
		} else {
			hi = mid
		}
	}
	return best, nil
}

func marshalLine(rec auditRecord) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, fmt.Errorf("rendering the audit record: %w", err)
	}
	return buf.Bytes(), nil
}

// cutRunes drops at least n bytes from the end of s, at a rune boundary.
func cutRunes(s string, n int) string {
	end := len(s) - n
	if end <= 0 {
		return ""
	}
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end]
}

// capField cuts an identifier the agent sent to 256 bytes, so that the
// input keeps most of the line.
func capField(s string) string {
	if len(s) <= 256 {
		return s
	}
	return cutRunes(s, len(s)-256) + truncMarker
}

// redacted replaces a secret value.
const redacted = "[REDACTED]"

// secretName is a variable, option or JSON key name that holds a secret:
// one whose _- separated words include token, secret, password ... anywhere
// (GITHUB_TOKEN, db_password, --auth), or key after another word (API_KEY,
// AWS_SECRET_ACCESS_KEY_ID, --api-key), but not a name that only contains
// such letters (MONKEY, KEYBOARD) nor a bare key (sort --key=2).
const secretName = `(?:(?:[A-Za-z0-9]+[_-])*(?i:token|secret|password|passwd|passphrase|credentials?|apikey|auth)(?:[_-][A-Za-z0-9]+)*` +
	`|(?:[A-Za-z0-9]+[_-])+(?i:key)(?:[_-][A-Za-z0-9]+)*)`

// redactions are applied in order to an audit input. Each keeps the name
// and replaces the value, so the log still says what was set.
// They are compiled on first use: most runs write no audit log.
var redactions = sync.OnceValue(func() []redaction {
	return []redaction{
		// Authorization and API-key headers, to the end of the header value.
		{re: regexp.MustCompile(`(?i)\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|cookie)(\s*:\s*)[^'"\r\n]+`), repl: "${1}${2}" + redacted},
		// Bearer and Basic credentials anywhere.
		{re: regexp.MustCompile(`(?i)\b(bearer|basic)(\s+)[A-Za-z0-9._~+/=-]{8,}`), repl: "${1}${2}" + redacted},
		// NAME=value and --name=value with a secret-looking name; the value
		// may be quoted.
		{re: regexp.MustCompile(`(^|[^A-Za-z0-9_-])((?:--?)?` + secretName + `)=("[^"]*"|'[^']*'|[^\s'";&|]+)`), repl: "${1}${2}=" + redacted},
		// --password VALUE, --token VALUE (option and value as two words).
		{re: regexp.MustCompile(`(?i)(^|\s)(--?(?:password|passwd|token|api-key|apikey|secret|auth-token|access-token))(\s+)("[^"]*"|'[^']*'|[^\s'";&|]+)`), repl: "${1}${2}${3}" + redacted},
		// "name": "value" in JSON arguments.
		{re: regexp.MustCompile(`("` + secretName + `"\s*:\s*)"(?:[^"\\]|\\.)*"`), repl: "${1}\"" + redacted + "\""},
		// Any assignment of a long base64 or hex blob: 32 or more characters
		// with a digit in them, that is not a path.
		{re: regexp.MustCompile(`(^|[^A-Za-z0-9_-])([A-Za-z_][A-Za-z0-9_]*)=(["']?)([A-Za-z0-9+/_-]{32,}={0,2})(["']?)`), repl: "${1}${2}=${3}" + redacted + "${5}",
			keep: func(sub []string) bool {
				return !strings.ContainsAny(sub[4], "0123456789") || strings.HasPrefix(sub[4], "/")
			}},
		// user:password@ in URLs.
		{re: regexp.MustCompile(`(\b[a-z][a-z0-9+.-]*://[^\s:/@]+:)[^\s@/]+@`), repl: "${1}" + redacted + "@"},
		// Well-known token formats, wherever they appear.
		{re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})\b`), repl: redacted},
	}
})

// redaction is one pattern of redactSecrets.
type redaction struct {
	re   *regexp.Regexp
	repl string
	keep func(sub []string) bool // when set and true for the submatches, the match stays
}

// redactSecrets replaces values that look like secrets in s.
func redactSecrets(s string) string {
	for _, r := range redactions() {
		if r.keep == nil {
			s = r.re.ReplaceAllString(s, r.repl)
			continue
		}
		s = r.re.ReplaceAllStringFunc(s, func(m string) string {
			if r.keep(r.re.FindStringSubmatch(m)) {
				return m
			}
			return r.re.ReplaceAllString(m, r.repl)
		})
	}
	return s
}

// audit appends a wrapper or file-tool decision to the audit log; a no-op
// while no audit file is configured.
func (a *app) audit(d policy.Decision, req policy.Request, agent, session string) error {
	if a.auditFile == "" {
		return nil
	}
	input := req.Command
	switch {
	case req.Argv != nil:
		input = strings.Join(req.Argv, " ")
	case req.Path != "":
		input = req.Path
	case req.URL != "":
		input = req.URL
	}
	return appendAudit(a.auditFile, newAuditRecord(d, agent, session, req.Tool, input, ""))
}

// auditHook appends a hook decision: the tool and input as the agent sent
// them, gatekeep's decision, and the answer the agent was given.
func (a *app) auditHook(agent string, p *hookPayload, d policy.Decision, ans hookAnswer) error {
	if a.auditFile == "" {
		return nil
	}
	input := string(p.rawIn)
	for _, k := range []string{"command", "file_path", "notebook_path", "path", "url"} {
		if s, err := agentcall.InputString(p.input, k); err == nil && s != "" {
			input = s
			break
		}
	}
	return appendAudit(a.auditFile, newAuditRecord(d, agent, p.session, p.tool, input, ans.kind.String()))
}

func newAuditRecord(d policy.Decision, agent, session, tool, input, answer string) auditRecord {
	return auditRecord{
		Time:      time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		Agent:     agent,
		SessionID: capField(session),
		Tool:      capField(tool),
		Input:     input,
		Effect:    d.Effect.String(),
		Answer:    answer,
		Layer:     string(d.Layer),
		Code:      d.Code,
		Rule:      d.Rule,
	}
}
