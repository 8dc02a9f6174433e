package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// Tool names of the built-in tools.
const (
	ToolBash  = "Bash"
	ToolRead  = "Read"
	ToolWrite = "Write"
	ToolEdit  = "Edit"
)

// Request is one tool call to decide.
type Request struct {
	// Tool is "Bash", "Read", "Write", "Edit", or an agent's own tool name
	// ("WebFetch", "mcp__server__tool").
	Tool string
	// Command is the shell text of a Bash call given as a string.
	Command string
	// Argv is a Bash call given as an argv that is passed to execve as it
	// is. When set, Command is ignored.
	Argv []string
	// Path is the file of a Read, Write or Edit call.
	Path string
	// URL is the address of a web fetch.
	URL string
	// Cwd is the working directory; relative paths resolve against it.
	Cwd string
	// Category overrides the category of a tool that is not built in.
	Category Category
	// Tree marks a Read of Path as a read of everything below it (an
	// agent's search tool: Grep, Glob): Read rules judge the files there
	// on disk, as for `grep -r` (recursive.go). Its Filter leaves out
	// what the search certainly does not read; Via names the tool.
	Tree *cmdmodel.FileEffect
	// Trace asks for every layer's verdict on every part in
	// Decision.Trace (--explain). Without it no trace is built: the
	// final verdict of each part is in Decision.Parts either way.
	Trace bool
	// Dialect is the shell that runs a Bash call given as a string: the
	// agent's shell (zsh when SHELL says so in hook mode). "" is bash, or
	// POSIX sh under Config.POSIX.
	Dialect shellparse.Dialect
	// ShellGlob is what is known of the glob options (dotglob, nullglob
	// ...) of the shell that runs a Bash call given as a string: known
	// when gatekeep starts that bash itself (shellparse.GlobStateFromEnv),
	// unknown (the zero value) in an agent's shell.
	ShellGlob shellparse.GlobState
}

// Config is the effective configuration a decision is made with, plus the
// few facts about the machine that the core needs, handed in as values.
type Config struct {
	// Root is the project root (absolute; Loaded.Root); "" means the
	// guard's first root.
	Root string
	Mode Mode
	// Guard is the path sandbox. Nil means no roots: every write is outside.
	Guard *pathguard.Guard
	// Home is the user's home directory, for `~` and `$HOME`.
	Home string
	// LookPath resolves a bare command name through PATH to the real path
	// of the file that would run (symlinks resolved). Nil resolves nothing:
	// every bare name counts as not found, which runs nothing. An error
	// wrapping pathguard.ErrUnsafePath (PATH reaches `.`, an empty or
	// relative entry, or a directory inside a root, before the name is
	// found: Guard.LookPath) makes the name unsafe: no safe list, no allow
	// rule.
	LookPath func(name string) (string, error)
	// Rules are the Tool(pattern) rules of every config layer, in the
	// order they are scanned.
	Rules *RuleSet
	// PlanFile is the file that plan mode lets be written (absolute).
	PlanFile string
	// PlanTools are tools that plan mode lets through.
	PlanTools []string
	// POSIX parses shell text as POSIX sh rather than Bash.
	POSIX bool
	// AgentMode is the permission mode an agent reports about itself in a
	// hook call ("" for none). It only tightens: for each category the
	// fallback is the stricter of Mode's and AgentMode's answers, and plan
	// from either applies.
	AgentMode Mode
	// Dialects are more dialects to judge shell text in, from the
	// configuration (`[shell] dialect`): a call is judged in its own
	// dialect and in each of these, and the strictest answer holds, so
	// a configured dialect can only make the analysis stricter.
	Dialects []shellparse.Dialect
	// CDPATH is set when CDPATH is set in the environment the shell
	// inherits: bash's `cd name` may then go elsewhere.
	CDPATH bool
	// Disk reads the trees a recursive read walks (directories, ignore
	// files) and git's index for a read of what git tracks. config.Build
	// sets the real disk (config.Disk); nil reads nothing, so such reads
	// are not known and ask.
	Disk Disk
}

// Disk is what the decision reads of the file system beyond resolving
// paths (Guard). Paths are absolute; errors are those of package os.
type Disk interface {
	// ReadDir, Stat, Lstat and EvalSymlinks are as in os and filepath.
	ReadDir(dir string) ([]fs.DirEntry, error)
	Stat(name string) (fs.FileInfo, error)
	Lstat(name string) (fs.FileInfo, error)
	EvalSymlinks(name string) (string, error)
	// ReadFile reads a regular file of at most max bytes without blocking
	// (ReadRegular): a FIFO, a device or a directory is an error wrapping
	// ErrNotRegular, a larger file another error.
	ReadFile(name string, max int64) ([]byte, error)
	// TrackedPaths lists the paths (slash-separated, relative to the work
	// tree) in the index of gitDir; ok is false when the index cannot be
	// read with certainty.
	TrackedPaths(gitDir string) (paths []string, ok bool)
}

// planning reports whether plan mode applies, from gatekeep's own mode or
// the agent's.
func (c *Config) planning() bool {
	return c.Mode == ModePlan || c.AgentMode == ModePlan
}

// fallback is the mode layer's answer for a category and the mode that
// gave it: the stricter of Mode's and AgentMode's (Mode's on a tie).
func (c *Config) fallback(cat Category) (Effect, Mode) {
	eff, mode := ModeEffect(c.Mode, cat), c.Mode
	if c.AgentMode != "" {
		if ae := ModeEffect(c.AgentMode, cat); stricter(ae, eff) {
			eff, mode = ae, c.AgentMode
		}
	}
	return eff, mode
}

// bypassing reports whether bypassPermissions holds: gatekeep's own mode
// is bypass and the agent reports no stricter one.
func (c *Config) bypassing() bool {
	return c.Mode == ModeBypass && (c.AgentMode == "" || c.AgentMode == ModeBypass)
}

// part is one piece of a call that goes through the chain on its own: a
// simple command of a shell script, or one file the call reads or writes.
type part struct {
	subject  string
	offset   int
	category Category
	// a simple command
	script *shellparse.Script
	index  int
	cmd    *shellparse.Command
	// a file
	access  cmdmodel.Access
	path    string
	dynamic bool                 // the path or command is only known at run time
	dir     string               // directory a relative path resolves against
	tree    *cmdmodel.FileEffect // a read of a whole tree (grep -r), else nil
	why     string               // why a dynamic part is not known, for the message
	tracked bool                 // a read of the files git tracks (git show, log -p, diff, grep)
	tool    string               // the tool whose rules judge the part
	url     string
	// literal is set when the path's own text is static (it may still be
	// dynamic through the directory or a link made earlier); guess when
	// a dynamic word is only taken for a write toward denial
	// (cmdmodel.FileEffect.Guess).
	literal, guess bool
	// substOnly: the path word is dynamic only through command
	// substitutions (shellparse.Word.SubstOnly).
	substOnly bool
	// suffix: a file of an argument suffix of a command gatekeep does not
	// know, read as a command of its own (unknownSuffixes); only a deny
	// from it counts.
	suffix bool
	// members: the write also puts entries below path whose names are
	// only known at run time (an archive's members; treeWrites).
	members bool
	// word is the path's word, when the path is a word of the command.
	word shellparse.Word
	// alts are the alternatives of a command with glob words (glob.go),
	// nil when it has none or cannot be expanded; maybe marks a file of
	// an alternative that needs a glob option other than the expected.
	alts  []globAlt
	maybe bool
}

// verdict is one layer's answer for one part. ok false means "no answer,
// go on".
type verdict struct {
	ok bool
	// layer, when set, is the layer that really decided: the safe layer
	// consults the deny and ask rules before it allows, and such a verdict
	// is the rules layer's.
	layer   Layer
	effect  Effect
	code    string
	message string
	rule    *RuleRef
	// final marks an ask nothing may turn into allow (Decision.Final).
	final bool
}

// layerFunc is one layer of the chain.
type layerFunc func(e *evaluation, p *part) verdict

// chain is the layers in their fixed order, each boundary before the
// looser ones: the plan exception, the safe list, the danger list, the
// path sandbox, the rules, the mode's fallback. The human layer (7) is
// resolved by the caller from the Ask this returns.
var chain = []struct {
	layer Layer
	fn    layerFunc
}{
	{LayerPlan, planLayer},
	{LayerSafe, safeLayer},
	{LayerDanger, dangerLayer},
	{LayerSandbox, sandboxLayer},
	{LayerRules, rulesLayer},
	{LayerMode, modeLayer},
}

// evaluation is the state of one Evaluate call.
type evaluation struct {
	cfg        *Config
	req        Request
	cwd        string
	trace      []Step                 // every layer's verdict, only when req.Trace
	final      []Step                 // the verdict that ended each part's chain
	taintScan  map[*string]*taintScan // notSafeContext's progress per shared Tainted list
	checked    []checkedPath          // Guard.Check per directory and path, once per call
	checkedAt  map[[2]string]int      // index into checked, once it is long
	checked2   [2]checkedPath         // checked's first entries
	facts      *scriptFacts           // the danger checks' facts about factsOf
	factsOf    *shellparse.Script
	gitDirs    map[string]gitDirAnswer // gitDirOf per real directory
	callParts  []part                  // every part of the call, for completesGitDir
	callWrites []string                // the real paths of the call's static writes, worked out once
	in         *Input                  // where input() builds the normalized input
	// creators are the commands of creatorsOf that may create files
	// (glob.go), worked out once per script.
	creatorsOf *shellparse.Script
	creators   []int
	// partsBuf is the parts array of an earlier decision, kept by
	// evalPool for shellParts to fill again; subj is what subjectOf
	// builds, one part at a time.
	partsBuf []part
	subj     subject
	// memo remembers the stats of this decision (pathguard.Memo): the
	// sandbox, the rules and the git-directory checks of every write ask
	// about the same paths and directories.
	memo pathguard.Memo
}

// evalPool keeps evaluations for the next decision (`check --batch`, a
// hook's several requests), with their parts array and subject: only
// the memory is reused. release clears everything a decision left
// (reset), dropping what the parts point to; nothing a
// Decision holds is in an evaluation (the input and the final steps are
// allocated apart).
var evalPool = sync.Pool{New: func() any { return new(evaluation) }}

// maxPooledParts bounds the parts array kept for the next decision: a
// huge script's is left to the collector.
const maxPooledParts = 256

// newEvaluation takes an evaluation from evalPool for cfg and req.
func newEvaluation(cfg *Config, req Request) *evaluation {
	e := evalPool.Get().(*evaluation) // new, or as reset left it
	e.cfg, e.req, e.cwd = cfg, req, req.Cwd
	e.checked = e.checked2[:0]
	return e
}

// release returns e to evalPool once its Decision is made.
func (e *evaluation) release() {
	e.reset()
	evalPool.Put(e)
}

// reset clears e for the next decision, keeping only memory: the parts
// array and the subject's slices, empty and cleared, and the emptied
// memo.
func (e *evaluation) reset() {
	parts := e.callParts
	if parts == nil {
		// A call that stopped before its parts (a parse error): the
		// array kept from before, which it may have begun to fill.
		parts = e.partsBuf[:cap(e.partsBuf)]
	}
	clear(parts)
	e.partsBuf = nil
	if cap(parts) <= maxPooledParts {
		e.partsBuf = parts[:0]
	}
	clear(e.subj.forms[:cap(e.subj.forms)])
	clear(e.subj.code[:cap(e.subj.code)])
	clear(e.subj.expanded[:cap(e.subj.expanded)])
	e.subj = subject{forms: e.subj.forms[:0], code: e.subj.code[:0], expanded: e.subj.expanded[:0]}
	e.memo.Reset()
	*e = evaluation{partsBuf: e.partsBuf, subj: e.subj, memo: e.memo}
}

// Evaluate runs the chain for one request and returns its Decision (with
// the trace of every layer when req.Trace asks), without what Decide adds
// (auto-allow, confinement, suggestions). It never panics on any input: a
// panic inside a layer becomes a deny.
func Evaluate(cfg *Config, req Request) Decision {
	d, _ := evaluateDialects(cfg, req, nil)
	return d
}

// evaluateDialects judges req in each of its dialects (dialects) and
// returns the strictest Decision; with w it also works out, from the same
// parse of each dialect, what w asks about the call's parts (callFacts).
func evaluateDialects(cfg *Config, req Request, w *wants) (d Decision, f callFacts) {
	if cfg == nil {
		cfg = &Config{Mode: ModeDefault}
	}
	var buf [4]shellparse.Dialect
	for i, dl := range dialects(buf[:0], cfg, req) {
		r := req
		r.Dialect = dl
		var xf callFacts
		x := evaluate(cfg, r, w, &xf, i == 0)
		if i == 0 || stricter(x.Effect, d.Effect) {
			d = x
		}
		f.merge(xf, i == 0)
	}
	return d, f
}

// dialects appends to out the dialects a call is judged in: its own, then
// the configured ones (a configured dialect only adds
// strictness).
func dialects(out []shellparse.Dialect, cfg *Config, req Request) []shellparse.Dialect {
	own := req.Dialect
	if own == "" {
		own = shellparse.Bash
		if cfg.POSIX {
			own = shellparse.Sh
		}
	}
	out = append(out, own)
	if req.Tool != ToolBash || req.Argv != nil {
		return out
	}
	for _, d := range cfg.Dialects {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// evaluate judges req in its one dialect. With w it fills f from the
// parts before the evaluation is released; first is set for the call's
// own dialect, the one a suggestion is worked out in.
func evaluate(cfg *Config, req Request, w *wants, f *callFacts, first bool) (d Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = Decision{Effect: Deny, Layer: LayerInternal, Code: CodeInternalError,
				Message: fmt.Sprintf("internal error while deciding: %v", r), Mode: cfg.Mode}
		}
	}()
	e := newEvaluation(cfg, req)
	parts, d, ok := e.parts()
	e.callParts = parts
	// What the Decision keeps of the evaluation, the normalized input
	// and the final steps of a call of one or two parts, is one
	// allocation sized for them; the evaluation is reused (evalPool).
	switch len(parts) {
	case 1:
		out := &struct {
			in    Input
			final [1]Step
		}{}
		e.in, e.final = &out.in, out.final[:0:1]
	case 2:
		out := &struct {
			in    Input
			final [2]Step
		}{}
		e.in, e.final = &out.in, out.final[:0:2]
	default:
		e.in = new(Input)
		if len(parts) > 0 {
			e.final = make([]Step, 0, len(parts))
		}
	}
	if !ok {
		d.Mode = cfg.Mode
		d.UpdatedInput = e.input()
		if w != nil {
			f.unanalysed = true
			if w.next != nil {
				// Under the suggested rules too, this dialect cannot
				// be analysed.
				f.rejected = &d
			}
		}
		e.release()
		return d
	}
	best := e.judge(parts)
	best.Trace = e.trace
	best.Parts = e.final
	best.UpdatedInput = e.input()
	if w != nil {
		e.findFacts(w, f, parts, first, best.Effect)
	}
	e.release()
	return best
}

// judge runs the chain over every part and combines the parts' answers
// into the call's.
func (e *evaluation) judge(parts []part) Decision {
	best := Decision{Effect: Allow, Layer: LayerSafe, Code: CodeSafeEmpty, Message: "nothing to run", Mode: e.cfg.Mode, Offset: -1}
	first := true
	explicit := true
	cmdExplicit := map[int]bool{} // script command index -> its command part was explicit
	for i := range parts {
		p := &parts[i]
		nf, nt := len(e.final), len(e.trace)
		pd := e.decide(i, p)
		if p.suffix && (pd.Effect != Deny || pd.Layer == LayerMode) {
			// (Plan mode's deny of every write is not about this file.)
			e.final, e.trace = e.final[:nf], e.trace[:nt]
			continue
		}
		// Between parts of equal effect, a deny or ask from the harder
		// boundary explains the call better; an allow names the command,
		// unless only the mode allowed another part's write or command:
		// that part decided the call (acceptEdits' write in `echo x >
		// out.txt`). A read every mode allows decides nothing.
		// A final ask explains the call over any other ask: it is what
		// holds even in bypassPermissions.
		if first || stricter(pd.Effect, best.Effect) ||
			pd.Effect == Allow && best.Effect == Allow && pd.Layer == LayerMode && pd.Category != CatRead && best.Layer != LayerMode ||
			pd.Effect == best.Effect && pd.Effect == Ask && pd.Final && !best.Final ||
			pd.Effect == best.Effect && pd.Effect != Allow && pd.Final == best.Final && layerRank(pd.Layer) > layerRank(best.Layer) {
			best, first = pd, false
		}
		ok := pd.Effect == Allow && explicitLayer(pd.Layer)
		switch {
		case p.cmd != nil:
			cmdExplicit[p.index] = ok
		case !ok && p.script != nil && p.access == cmdmodel.Read && pd.Effect == Allow && pd.Layer == LayerMode:
			// A file a command reads is judged with its command: a safe
			// command's reads are part of what the safe list allows.
			ok = cmdExplicit[p.index]
		}
		explicit = explicit && ok
	}
	best.Explicit = best.Effect == Allow && explicit
	best.Mode = e.cfg.Mode
	return best
}

// layerRank breaks ties between parts with the same effect: the harder
// boundary explains the call better (a danger deny over a plan-mode deny).
// Other layers rank 0.
func layerRank(l Layer) int {
	switch l {
	case LayerPlan, LayerSafe:
		return 1
	case LayerMode:
		return 2
	case LayerRules:
		return 3
	case LayerSandbox:
		return 4
	case LayerDanger:
		return 5
	}
	return 0
}

// explicitLayer: layers whose allow is gatekeep's own judgement rather
// than the mode's fallback.
func explicitLayer(l Layer) bool {
	switch l {
	case LayerPlan, LayerSafe, LayerRules, LayerSandbox:
		return true
	}
	return false
}

// decide runs the chain over one part. Every layer's verdict goes to the
// trace only when the request asks for it; the verdict that ends the chain
// is kept for Decision.Parts either way.
func (e *evaluation) decide(i int, p *part) Decision {
	for _, l := range chain {
		v := l.fn(e, p)
		layer := l.layer
		if v.layer != "" {
			layer = v.layer
		}
		if !v.ok {
			if e.req.Trace {
				e.trace = append(e.trace, Step{Part: i, Subject: p.subject, Layer: layer, Verdict: VerdictPass, Category: p.category})
			}
			continue
		}
		if p.maybe && v.effect == Deny && v.code == CodeRuleDeny {
			// Only a glob option the shell may have (dotglob ...) makes
			// the command reach this file.
			v.effect, v.code = Ask, CodeRuleDenyShellOption
			v.message += "; a glob in the command reaches " + p.path + " only if the shell's glob options (dotglob, nullglob, nocaseglob, globstar) differ from bash's defaults, which gatekeep cannot see"
		}
		step := Step{Part: i, Subject: p.subject, Layer: layer, Verdict: VerdictOf(v.effect), Category: p.category,
			Code: v.code, Message: v.message, Rule: v.rule, runTime: p.dynamic}
		if e.req.Trace {
			e.trace = append(e.trace, step)
		}
		e.final = append(e.final, step)
		return Decision{Effect: v.effect, Layer: layer, Code: v.code, Message: v.message,
			Rule: v.rule, Command: p.subject, Offset: p.offset, Category: p.category, Final: v.final && v.effect == Ask}
	}
	// The mode layer always answers; reaching here is a bug. Fail closed.
	return Decision{Effect: Deny, Layer: LayerInternal, Code: CodeInternalNoAnswer, Message: "no layer decided", Command: p.subject, Offset: p.offset}
}

// parts splits the request into the parts the chain judges. When the
// request cannot be analysed it returns the Decision for that instead.
func (e *evaluation) parts() ([]part, Decision, bool) {
	switch e.req.Tool {
	case ToolBash:
		return e.shellParts()
	case ToolRead, "ReadFile":
		return e.fileParts(cmdmodel.Read, CatRead)
	case ToolWrite, ToolEdit, "WriteFile":
		return e.fileParts(cmdmodel.Write, CatWrite)
	case "":
		return nil, Decision{Effect: Deny, Layer: LayerInput, Code: CodeInputInvalid, Message: "no tool named", Offset: -1}, false
	}
	cat := e.req.Category
	if cat == "" {
		cat = CatCommand
	}
	subject := e.req.Tool
	if e.req.URL != "" {
		subject += " " + e.req.URL
	} else if e.req.Path != "" {
		subject += " " + e.req.Path
	}
	return append(e.partsBuf[:0], part{subject: subject, category: cat, tool: e.req.Tool, url: e.req.URL, path: e.req.Path, dir: e.cwd, offset: -1}), Decision{}, true
}

func (e *evaluation) fileParts(access cmdmodel.Access, cat Category) ([]part, Decision, bool) {
	if err := shellparse.CheckInput(e.req.Path); err != nil || e.req.Path == "" {
		msg := "no path given"
		code := CodeInputInvalid
		if err != nil {
			msg, code = err.Error(), err.(*shellparse.Error).Code
		}
		return nil, Decision{Effect: Ask, Final: true, Layer: LayerInput, Code: code, Message: msg, Offset: -1}, false
	}
	tool := ToolRead
	if access == cmdmodel.Write {
		tool = ToolWrite
	}
	p := part{subject: e.req.Path, category: cat, access: access, path: e.req.Path, dir: e.cwd, tool: tool, offset: -1}
	if e.req.Tree != nil && access == cmdmodel.Read {
		t := *e.req.Tree
		t.Access, t.Recursive = cmdmodel.Read, true
		p.tree = &t
	}
	return append(e.partsBuf[:0], p), Decision{}, true
}

func (e *evaluation) shellParts() ([]part, Decision, bool) {
	opt := shellparse.Options{Home: e.cfg.Home, Dialect: e.req.Dialect, CDPATH: e.cfg.CDPATH, Glob: e.req.ShellGlob}
	var script *shellparse.Script
	var err error
	if e.req.Argv != nil {
		if len(e.req.Argv) == 0 {
			return nil, Decision{Effect: Deny, Layer: LayerInput, Code: CodeInputInvalid, Message: "no command given", Offset: -1}, false
		}
		script, err = shellparse.ParseArgv(e.req.Argv, opt)
	} else {
		script, err = shellparse.Parse(e.req.Command, opt)
	}
	if err != nil {
		d := Decision{Effect: Ask, Final: true, Layer: LayerInput, Code: shellparse.CodeParse, Message: err.Error(), Offset: -1}
		var pe *shellparse.Error
		if errors.As(err, &pe) {
			d.Code, d.Offset = pe.Code, pe.Offset
			d.Message = inputMessage(pe)
		}
		return nil, d, false
	}
	// Most commands make one part, and one more for the file they name.
	parts := e.partsBuf[:0]
	if cap(parts) < 2*len(script.Commands) {
		parts = make([]part, 0, 2*len(script.Commands))
	}
	var dirBuf [4]string
	for i := range script.Commands {
		c := &script.Commands[i]
		dir := e.cwd
		if d, ok := commandDir(e.cwd, c.Dir); ok {
			dir = d
		}
		start := len(parts) // the parts of the commands before this one end here
		parts = append(parts, part{subject: commandText(c), offset: c.Offset, script: script, index: i, cmd: c,
			dir: dir, dynamic: c.DirDynamic, tool: ToolBash})
		cp := &parts[len(parts)-1]
		ec := c
		var gitDirs []string
		if g, gdirs := e.plainGitIn(c); g != nil {
			// Git in the project's own repository from another directory:
			// its files as plain git there has them (samerepo.go), its
			// relative paths resolved where git runs.
			ec, gitDirs = g, gdirs
		}
		effects, writesOnly := shellparse.Effects(ec)
		if alts, ok := e.globAlts(script, c); ok && ec == c {
			// What it reads is what its alternatives read (each the
			// whole argv bash may run); its writes are judged as written
			// too (a pattern's static directory).
			cp.alts = alts
			effects = slices.DeleteFunc(slices.Clone(effects), func(fe cmdmodel.FileEffect) bool {
				return fe.Access == cmdmodel.Read
			})
		}
		cp.category = CatCommand
		// A command that only changes the files it names is a file edit
		// (acceptEdits allows it), unless something changes what runs.
		if writesOnly && len(c.Args) > 0 && e.notRuleContext(c) == "" && e.resolvesOutsideRoots(c.Args[0].Text) {
			cp.category = CatWrite
		}
		// A command gatekeep does not know may run any suffix of its
		// words (`flock /tmp/l cat ~/.ssh/id_rsa`): the files each would
		// read or write are judged toward denial.
		for _, sc := range unknownSuffixes(c) {
			sc.Redirects = nil // the command's own, judged below
			parts = suffixParts(parts, &sc, func(p string) []string { return fileDirs(nil, e.cwd, c, p) }, c, script, i)
		}
		// Its words may be code it runs with `sh -c` (`flock f -c
		// 'cat ~/.ssh/id_rsa'`): that code's files likewise.
		if code := codeArgCommands(c, e.cfg.Home); len(code) > 0 {
			for j := range code {
				sc := &code[j]
				parts = suffixParts(parts, sc, func(p string) []string {
					var dirs []string
					for _, od := range fileDirs(nil, e.cwd, c, ".") {
						for _, d := range fileDirs(nil, od, sc, p) {
							if !filepath.IsAbs(d) {
								d = "" // only known at run time
							}
							dirs = append(dirs, d)
						}
					}
					return dirs
				}, c, script, i)
			}
		}
		// A part a file, at least (one a directory it may be opened
		// from): a command naming 500,000 files grows its list once.
		parts = slices.Grow(parts, len(effects))
		for _, fe := range effects {
			if fe.Access == cmdmodel.Read && fe.Path.ProcIn {
				continue // a pipe from commands judged on their own (procInStatic)
			}
			cat, tool := CatRead, ToolRead
			if fe.Access == cmdmodel.Write {
				cat, tool = CatWrite, ToolWrite
			}
			// A relative path is judged in every directory the command
			// may run in (a cd before it may have failed or not run).
			dirs := fileDirs(dirBuf[:0], e.cwd, c, fe.Path.Text)
			if gitDirs != nil && !filepath.IsAbs(fe.Path.Text) && !strings.HasPrefix(fe.Path.Text, "~") {
				dirs = gitDirs
			}
			var tree *cmdmodel.FileEffect
			if fe.Recursive && fe.Access == cmdmodel.Read {
				t := fe
				tree = &t
			}
			for j, d := range dirs {
				fp := part{subject: fe.Path.Text, offset: fe.Path.Offset, category: cat, access: fe.Access,
					path: fe.Path.Text, dynamic: fe.Path.Dynamic || (c.DirDynamic || d == "") && !filepath.IsAbs(fe.Path.Text) || c.AfterLink, dir: d, tool: tool, script: script, index: i,
					cmd: nil, literal: !fe.Path.Dynamic, guess: fe.Guess, substOnly: fe.Path.SubstOnly, word: fe.Path}
				if c.AfterLink && !fe.Path.Dynamic {
					// The path is checked before the script runs; a link made
					// earlier in it can send the access anywhere.
					fp.why = "a link made earlier in this command can redirect " + fe.Path.Text + ", so where it lands is only known at run time"
				}
				if j > 0 && fp.why == "" {
					fp.why = "the directory changes before this command may not have happened, so " + fe.Path.Text + " may be opened from " + d
				}
				fp.tree = tree
				parts = append(parts, fp)
				if fe.Tracked {
					parts[len(parts)-1].tracked = true
				}
				if fe.Tree != nil && fe.Access == cmdmodel.Write {
					// The entries it writes below the path (tree.go).
					parts = e.treeWrites(parts, parts[:start], fp, fe.Tree, fe.Path.Dynamic, c.AfterLink)
				}
			}
		}
		parts = e.globParts(parts, script, i)
	}
	return parts, Decision{}, true
}

// globParts appends the files the alternatives of the command at index i
// read and write (glob.go), each judged in the directory of its
// alternative, once per file.
func (e *evaluation) globParts(parts []part, script *shellparse.Script, i int) []part {
	var cp *part
	for k := len(parts) - 1; k >= 0; k-- {
		if parts[k].cmd != nil && parts[k].index == i {
			cp = &parts[k]
			break
		}
	}
	if cp == nil || cp.alts == nil {
		return parts
	}
	alts := cp.alts
	type key struct {
		access    cmdmodel.Access
		path, dir string
		recursive bool
		filter    *cmdmodel.Filter
	}
	seen := map[key]int{}
	for _, a := range alts {
		for _, fe := range globEffects(a) {
			k := key{fe.Access, fe.Path.Text, a.dir, fe.Recursive, fe.Filter}
			if j, ok := seen[k]; ok {
				parts[j].maybe = parts[j].maybe && a.maybe
				continue
			}
			cat, tool := CatRead, ToolRead
			if fe.Access == cmdmodel.Write {
				cat, tool = CatWrite, ToolWrite
			}
			fp := part{subject: fe.Path.Text, offset: fe.Path.Offset, category: cat, access: fe.Access,
				path: fe.Path.Text, dynamic: fe.Path.Dynamic, dir: a.dir, tool: tool, script: script, index: i,
				literal: !fe.Path.Dynamic, guess: fe.Guess, substOnly: fe.Path.SubstOnly, word: fe.Path, maybe: a.maybe}
			if fe.Recursive && fe.Access == cmdmodel.Read {
				fe := fe
				fp.tree = &fe
			}
			fp.tracked = fe.Tracked
			seen[k] = len(parts)
			parts = append(parts, fp)
		}
	}
	return parts
}

func inputMessage(pe *shellparse.Error) string {
	switch pe.Code {
	case shellparse.CodeParse:
		return "the command does not parse as shell: " + pe.Msg
	case shellparse.CodeTooLarge:
		return "the command is too large to check: " + pe.Msg
	case shellparse.CodeTooDeep:
		return "the command nests too deeply to check: " + pe.Msg
	}
	return "the command cannot be checked: " + pe.Msg
}

// commandText is the sub-command as shown to the model: the argv for a
// command that came out of a wrapper, else its source text.
func commandText(c *shellparse.Command) string {
	if len(c.Args) == 0 {
		return c.Text
	}
	if c.Parent >= 0 || len(c.Via) > 0 {
		return shellparse.JoinArgv(c.Argv())
	}
	return c.Text
}

// fileDirs appends to out where a path a command names may be opened
// from: for a relative path, every directory the command may run in
// (Command.Dirs), made absolute against cwd; for an absolute one, the
// first.
func fileDirs(out []string, cwd string, c *shellparse.Command, path string) []string {
	dirs := c.Dirs()
	if filepath.IsAbs(path) || strings.HasPrefix(path, "~") || len(dirs) == 1 {
		dirs = dirs[:1]
	}
	for _, d := range dirs {
		a, ok := commandDir(cwd, d)
		if !ok {
			a = "" // only known at run time
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// suffixParts appends the files sc opens, each judged in the directories
// dirs gives for its path ("" for one only known at run time), as parts
// of the command c at index i that only a deny may come from
// (part.suffix).
func suffixParts(parts []part, sc *shellparse.Command, dirs func(path string) []string, c *shellparse.Command, script *shellparse.Script, i int) []part {
	sfx, _ := shellparse.Effects(sc)
	for _, fe := range sfx {
		cat, tool := CatRead, ToolRead
		if fe.Access == cmdmodel.Write {
			cat, tool = CatWrite, ToolWrite
		}
		for _, d := range dirs(fe.Path.Text) {
			parts = append(parts, part{subject: fe.Path.Text, offset: c.Offset, category: cat, access: fe.Access,
				path: fe.Path.Text, dynamic: fe.Path.Dynamic || (c.DirDynamic || sc.DirDynamic || d == "") && !filepath.IsAbs(fe.Path.Text) || c.AfterLink,
				dir: d, tool: tool, script: script, index: i, literal: !fe.Path.Dynamic, guess: fe.Guess,
				substOnly: fe.Path.SubstOnly, suffix: true})
		}
	}
	return parts
}

// commandDir is the absolute directory d (one of Command.Dirs) names
// against cwd. Where `cd -P` resolved links (shellparse.PhysicalMark), the
// path is resolved on the disk; ok is false when it cannot be.
func commandDir(cwd, d string) (string, bool) {
	if !strings.Contains(d, shellparse.PhysicalMark) {
		if d == "" {
			return cwd, true
		}
		return joinPath(cwd, d), true
	}
	if filepath.Separator != '/' || !filepath.IsAbs(cwd) {
		return "", false
	}
	return shellparse.ResolveDir(cwd, d, func(p string) (string, bool) {
		r, err := pathguard.Resolve(p)
		return r, err == nil
	})
}

func joinPath(cwd, dir string) string {
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir)
	}
	return filepath.Join(cwd, dir)
}

func (e *evaluation) input() *Input {
	in := e.in
	if in == nil {
		in = new(Input)
	}
	*in = Input{Tool: e.req.Tool, Command: e.req.Command, Argv: e.req.Argv, Cwd: e.cwd}
	if e.req.Argv != nil {
		in.Command = shellparse.JoinArgv(e.req.Argv)
	}
	if e.req.Path != "" {
		in.Path = e.req.Path
		if e.cfg.Guard != nil {
			if r := e.cfg.Guard.CheckWith(&e.memo, e.cwd, e.req.Path); r.Real != "" {
				in.Path = r.Real
			}
		} else if !filepath.IsAbs(in.Path) && e.cwd != "" {
			in.Path = filepath.Join(e.cwd, in.Path)
		}
	}
	return in
}

// modeSentence is string(mode) + verb + string(cat) + " calls", made once
// for the known modes and categories.
func modeSentence(mode Mode, verb string, cat Category) string {
	if s, ok := modeSentences()[[3]string{string(mode), verb, string(cat)}]; ok {
		return s
	}
	return string(mode) + verb + string(cat) + " calls"
}

var modeSentences = sync.OnceValue(func() map[[3]string]string {
	m := map[[3]string]string{}
	for mode := range modeMatrix {
		for _, verb := range []string{" mode allows ", " mode asks before "} {
			for _, cat := range []Category{CatRead, CatWrite, CatCommand} {
				m[[3]string{string(mode), verb, string(cat)}] = string(mode) + verb + string(cat) + " calls"
			}
		}
	}
	return m
})

func describe(p *part) string {
	if p.cmd != nil {
		return "the command"
	}
	return "the path " + p.path
}

// membersVerdict: a write of names only known at run time below a
// directory (an archive extracted, a tree copied from a remote or dynamic
// source) may write protected names there (.git/hooks, .envrc, an agent's
// settings), which take effect in any directory: it asks, as a protected
// path does.
func membersVerdict(p *part) verdict {
	return verdict{ok: true, effect: Ask, code: CodeSandboxProtected,
		message: "writes names only known at run time below " + p.path + ", and a protected name among them (.git/, .envrc, an agent's settings) would take effect there"}
}

// check is cfg.Guard.Check, once per directory and path in one call: the
// sandbox and the file rules both resolve a file part's path.
func (e *evaluation) check(dir, path string) pathguard.Result {
	key := [2]string{dir, path}
	if e.checkedAt != nil {
		if i, ok := e.checkedAt[key]; ok {
			return e.checked[i].r
		}
	} else {
		for i := range e.checked {
			if e.checked[i].key == key {
				return e.checked[i].r
			}
		}
	}
	r := e.cfg.Guard.CheckWith(&e.memo, dir, path)
	e.checked = append(e.checked, checkedPath{key, r})
	// A call names few paths: a list is searched until it is long.
	if e.checkedAt == nil && len(e.checked) > 16 {
		e.checkedAt = make(map[[2]string]int, len(e.checked))
		for i, c := range e.checked {
			e.checkedAt[c.key] = i
		}
	} else if e.checkedAt != nil {
		e.checkedAt[key] = len(e.checked) - 1
	}
	return r
}

// checkedPath is one Guard.Check result of a call.
type checkedPath struct {
	key [2]string // directory, path
	r   pathguard.Result
}

// isNetworkPath: bash's /dev/tcp/HOST/PORT and /dev/udp/HOST/PORT.
func isNetworkPath(path string) bool {
	return strings.HasPrefix(path, "/dev/tcp/") || strings.HasPrefix(path, "/dev/udp/")
}

// isDevSink: writes to these never change a file.
func isDevSink(path string) bool {
	switch path {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2":
		return true
	}
	return false
}
