package policy

import (
	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse"
)

// Decision codes: a Decision's stable dotted identifier (Decision.Code),
// one constant per code, grouped by the layer that gives it. Codes are a
// contract with the agents and scripts that read them: a code is never
// renamed or reused. The table of decision codes in docs/codes.md is Codes, row for
// row (a test keeps the two in step). The sandbox and input codes that
// pathguard and shellparse return are theirs, named here again.
const (
	// input: the call could not be analysed (an ask nothing turns into
	// allow, not even bypassPermissions).
	CodeParseError      = shellparse.CodeParse
	CodeParseTooDeep    = shellparse.CodeTooDeep
	CodeInputTooLarge   = shellparse.CodeTooLarge
	CodeInputInvalid    = shellparse.CodeInvalid
	CodeInputUnanalysed = "input.not_analysable"

	// config: a configuration file could not be loaded.
	CodeConfigInvalid = "config.invalid"

	// plan (1).
	CodePlanFile = "plan.file"
	CodePlanTool = "plan.tool"

	// safe (2).
	CodeSafeReadOnly   = "safe.read_only"
	CodeSafeWrapper    = "safe.wrapper"
	CodeSafeAssignment = "safe.assignment"
	CodeSafeEmpty      = "safe.empty"

	// danger (3).
	CodeDangerRmRoot       = "danger.rm_root"
	CodeDangerRmHome       = "danger.rm_home"
	CodeDangerRmSystem     = "danger.rm_system"
	CodeDangerFindDelete   = "danger.find_delete"
	CodeDangerMkfs         = "danger.mkfs"
	CodeDangerDiskWipe     = "danger.disk_wipe"
	CodeDangerPartition    = "danger.partition"
	CodeDangerDdDevice     = "danger.dd_device"
	CodeDangerDeviceWrite  = "danger.device_write"
	CodeDangerRemoteCode   = "danger.remote_code"
	CodeDangerForkBomb     = "danger.fork_bomb"
	CodeDangerChmodSystem  = "danger.chmod_system"
	CodeDangerChownSystem  = "danger.chown_system"
	CodeDangerMvSystem     = "danger.mv_system"
	CodeDangerRsyncDelete  = "danger.rsync_delete"
	CodeDangerConfigRegexp = "danger.config"

	// sandbox (4).
	CodeSandboxOutside       = pathguard.CodeOutside
	CodeSandboxProtected     = pathguard.CodeProtected
	CodeSandboxDangling      = pathguard.CodeDangling
	CodeSandboxLoop          = pathguard.CodeLoop
	CodeSandboxPermission    = pathguard.CodePermission
	CodeSandboxUnresolvable  = pathguard.CodeUnresolvable
	CodeSandboxInvalidPath   = pathguard.CodeInvalid
	CodeSandboxRuntimeTarget = "sandbox.runtime_target"
	CodeSandboxRootDelete    = "sandbox.root_delete"
	CodeSandboxRuntimeDelete = "sandbox.runtime_delete"
	CodeSandboxNetwork       = "sandbox.network"
	CodeSandboxDevNull       = "sandbox.dev_null"
	CodeSandboxUnavailable   = "sandbox.unavailable"
	CodeSandboxAutoAllow     = "sandbox.auto_allow"
	CodeSandboxNoNetwork     = "sandbox.no_network"
	CodeSandboxLinkOutside   = "sandbox.link_outside"
	// The audit log's records of a confined command's connections
	// through gatekeep's proxy (not decisions of a call).
	CodeSandboxHostAllowed = "sandbox.host_allowed"
	CodeSandboxHostRefused = "sandbox.host_refused"

	// rules (5).
	CodeRuleAllow = "rule.allow"
	CodeRuleAsk   = "rule.ask"
	CodeRuleDeny  = "rule.deny"
	// CodeRuleDenyShellOption: a deny rule matches a file that a glob of
	// the command reaches only under a glob option (dotglob ...) the
	// shell may have but gatekeep cannot see: an ask.
	CodeRuleDenyShellOption = "rule.deny_shell_option"
	// CodeRuleDenyRuntimeName: a read whose name is only known at run
	// time in a directory where a deny rule denies every name
	// (`cat ~/.ssh/$x`), or a git command that prints objects whose paths
	// are only known at run time while a Read deny rule exists (`git
	// cat-file --batch`, `git show ID`): an ask nothing turns into allow.
	CodeRuleDenyRuntimeName = "rule.deny_runtime_name"

	// mode (6).
	CodeModeAllow = "mode.allow"
	CodeModeAsk   = "mode.ask"
	CodeModeDeny  = "mode.deny"

	// human (7): how the caller resolved an ask.
	CodeAskNoTTY       = "ask.no_tty"
	CodeAskTimeout     = "ask.timeout"
	CodeAskDenied      = "ask.denied_by_user"
	CodeAskInterrupted = "ask.interrupted"
	CodeAskAllowedOnce = "ask.allowed_once"
	CodeAskAlways      = "ask.always"

	// internal: a bug in gatekeep; it denies.
	CodeInternalError    = "internal.error"
	CodeInternalNoAnswer = "internal.no_answer"
	CodeInternalPanic    = "internal.panic"
	CodeInternalJSON     = "internal.json"
)

// CodeInfo documents one decision code: docs/codes.md's table has one row per
// CodeInfo, in this order.
type CodeInfo struct {
	Code  string
	Layer Layer
	// Effects are the effects a decision with this code can have.
	Effects []Effect
	// Meaning says when the code is given, for a person.
	Meaning string
}

// Codes is every decision code, in chain order.
var Codes = []CodeInfo{
	{CodeParseError, LayerInput, effAsk, "the script does not parse, holds a comment ending in `\\`, nested backquotes, or `coproc` of a simple command"},
	{CodeParseTooDeep, LayerInput, effAsk, "constructs nest deeper than 100 levels, brackets deeper than 1,000, or more than 20,000 `(`/`{`/`[`/`!` (checked before parsing)"},
	{CodeInputTooLarge, LayerInput, effAskDeny, "over 1 MiB (1,048,576 bytes), or more than 20,000 simple commands (a `--batch` line over the cap is a deny)"},
	{CodeInputInvalid, LayerInput, effAskDeny, "a NUL byte, invalid UTF-8, U+FFFD or a carriage return; no tool or command named"},
	{CodeInputUnanalysed, LayerInput, effAsk, "(hooks) a PowerShell command, which gatekeep does not parse; a `PowerShell` rule decides it"},
	{CodeConfigInvalid, LayerConfig, effDeny, "a configuration file is invalid (exit 78, or a blocking hook answer)"},
	{CodePlanFile, LayerPlan, effAllow, "plan mode: the write is to the plan file"},
	{CodePlanTool, LayerPlan, effAllow, "plan mode: a planning tool (`[plan] tools`)"},
	{CodeSafeReadOnly, LayerSafe, effAllow, "a read-only command of the safe list"},
	{CodeSafeWrapper, LayerSafe, effAllow, "a wrapper such as `env` or `timeout` whose command is judged on its own"},
	{CodeSafeAssignment, LayerSafe, effAllow, "only sets harmless variables or opens files judged on their own"},
	{CodeSafeEmpty, LayerSafe, effAllow, "nothing runs"},
	{CodeDangerRmRoot, LayerDanger, effDeny, "recursive delete of `/`"},
	{CodeDangerRmHome, LayerDanger, effDeny, "recursive delete of the home directory"},
	{CodeDangerRmSystem, LayerDanger, effDeny, "recursive delete of a system directory (`/etc`, `/usr`, `/home` ...)"},
	{CodeDangerFindDelete, LayerDanger, effDeny, "`find -delete` or `find -exec rm` over `/`, `~` or a system directory"},
	{CodeDangerMkfs, LayerDanger, effDeny, "making a file system on a device"},
	{CodeDangerDiskWipe, LayerDanger, effDeny, "wiping or discarding a disk (`wipefs`, `blkdiscard`, `shred`, `nvme format` ...)"},
	{CodeDangerPartition, LayerDanger, effDeny, "writing a partition table (`fdisk`, `sfdisk`, `parted`, `sgdisk -Z` ...)"},
	{CodeDangerDdDevice, LayerDanger, effDeny, "`dd of=` a block device"},
	{CodeDangerDeviceWrite, LayerDanger, effDeny, "any other write to a block device"},
	{CodeDangerRemoteCode, LayerDanger, effDeny, "content from the network or a run-time source piped into something that runs it as code, or downloaded to a file the same call runs"},
	{CodeDangerForkBomb, LayerDanger, effDeny, "a function that calls itself in the background or a pipeline"},
	{CodeDangerChmodSystem, LayerDanger, effDeny, "recursive `chmod` of `/`, `~` or a system directory"},
	{CodeDangerChownSystem, LayerDanger, effDeny, "recursive `chown` of `/`, `~` or a system directory"},
	{CodeDangerMvSystem, LayerDanger, effDeny, "moving `/`, `~` or a system directory"},
	{CodeDangerRsyncDelete, LayerDanger, effDeny, "`rsync --delete` into `/`, `~` or a system directory"},
	{CodeDangerConfigRegexp, LayerDanger, effDeny, "a `[[danger]]` entry of the configuration matched"},
	{CodeSandboxOutside, LayerSandbox, effDeny, "a write whose real target lies outside every sandbox root"},
	{CodeSandboxProtected, LayerSandbox, effAsk, "a write to a protected path inside a root (`.git/`, `.gatekeep/`, rc files, agents' settings ...)"},
	{CodeSandboxDangling, LayerSandbox, effDeny, "a write through a symlink whose target does not exist"},
	{CodeSandboxLoop, LayerSandbox, effDeny, "a path through a symlink loop"},
	{CodeSandboxPermission, LayerSandbox, effDeny, "a path that cannot be resolved for lack of permission"},
	{CodeSandboxUnresolvable, LayerSandbox, effDeny, "a path that cannot be resolved"},
	{CodeSandboxInvalidPath, LayerSandbox, effDeny, "a path that is not valid (a NUL byte, empty)"},
	{CodeSandboxRuntimeTarget, LayerSandbox, effAsk, "a write target with no static directory, only known at run time"},
	{CodeSandboxRuntimeDelete, LayerSandbox, effAsk, "a recursive delete (`rm -r`, `find -delete`, `rsync --delete` ...) whose target is only known at run time: an ask nothing turns into allow, not even bypassPermissions"},
	{CodeSandboxRootDelete, LayerSandbox, effAsk, "a recursive delete of a sandbox root, an ancestor of one, or `.git`"},
	{CodeSandboxNetwork, LayerSandbox, effAsk, "bash's `/dev/tcp` or `/dev/udp`, read or written"},
	{CodeSandboxDevNull, LayerSandbox, effAllow, "a write to `/dev/null`, `/dev/stdout` or `/dev/stderr`"},
	{CodeSandboxUnavailable, LayerSandbox, effDeny, "enforcement is required and no tier works on this machine"},
	{CodeSandboxAutoAllow, LayerSandbox, effAllow, "`[sandbox] auto_allow`: a call whose only asks are the mode's runs confined instead of asking"},
	{CodeSandboxNoNetwork, LayerSandbox, effAsk, "a network tool would have been auto-allowed, but the sandbox has no network, or a destination of it is not on `[sandbox] allowed_hosts` or only known at run time"},
	{CodeSandboxHostAllowed, LayerSandbox, effAllow, "audit log only: a confined command's connection through gatekeep's proxy to a host on `[sandbox] allowed_hosts`"},
	{CodeSandboxHostRefused, LayerSandbox, effDeny, "audit log only: a confined command's connection through gatekeep's proxy that was refused (the host is not on `[sandbox] allowed_hosts`)"},
	{CodeSandboxLinkOutside, LayerSandbox, effAsk, "a link made inside a root whose target resolves outside every root (`ln -s /outside d`, `cp -s`): a later write through it lands outside; every mode but bypassPermissions"},
	{CodeRuleAllow, LayerRules, effAllow, "an allow rule matched"},
	{CodeRuleAsk, LayerRules, effAsk, "an ask rule matched"},
	{CodeRuleDeny, LayerRules, effDeny, "a deny rule matched"},
	{CodeRuleDenyShellOption, LayerRules, effAsk, "a deny rule matches a file a glob reaches only under a glob option (`dotglob`, `nullglob`, `nocaseglob`, `globstar`) the agent's shell may have"},
	{CodeRuleDenyRuntimeName, LayerRules, effAsk, "a read whose file name is only known at run time, in a directory where a deny rule denies every name (`cat ~/.ssh/$x`), or a git command that prints objects whose paths are only known at run time while a Read deny rule exists (`git cat-file --batch`, `git show ID`): an ask nothing turns into allow, not even bypassPermissions"},
	{CodeModeAllow, LayerMode, effAllow, "the mode allows this category"},
	{CodeModeAsk, LayerMode, effAsk, "the mode asks for this category"},
	{CodeModeDeny, LayerMode, effDeny, "the mode denies this category (plan mode)"},
	{CodeAskNoTTY, LayerHuman, effDeny, "an ask with no terminal (`--non-interactive`, CI, a headless agent)"},
	{CodeAskTimeout, LayerHuman, effDeny, "the person did not answer in time"},
	{CodeAskDenied, LayerHuman, effDeny, "the person answered n (or Ctrl-D, Esc, two unknown keys)"},
	{CodeAskInterrupted, LayerHuman, effDeny, "Ctrl-C or a signal while asking"},
	{CodeAskAllowedOnce, LayerHuman, effAllow, "the person answered y"},
	{CodeAskAlways, LayerHuman, effAllow, "the person answered a: the rules shown were saved"},
	{CodeInternalError, LayerInternal, effDeny, "a bug: a layer panicked while deciding"},
	{CodeInternalNoAnswer, LayerInternal, effDeny, "a bug: no layer answered"},
	{CodeInternalPanic, LayerInternal, effDeny, "a bug: gatekeep panicked outside the decision"},
	{CodeInternalJSON, LayerInternal, effDeny, "a bug: the decision could not be rendered as JSON"},
}

var (
	effAllow   = []Effect{Allow}
	effAsk     = []Effect{Ask}
	effDeny    = []Effect{Deny}
	effAskDeny = []Effect{Ask, Deny}
)

// CodeLayer returns the layer that gives code, and whether code is one of
// Codes.
func CodeLayer(code string) (Layer, bool) {
	for _, c := range Codes {
		if c.Code == code {
			return c.Layer, true
		}
	}
	return "", false
}

// ruleCode and modeCode are the codes of a rule's and a mode's answer.
func ruleCode(e Effect) string {
	switch e {
	case Allow:
		return CodeRuleAllow
	case Ask:
		return CodeRuleAsk
	}
	return CodeRuleDeny
}

func modeCode(e Effect) string {
	switch e {
	case Allow:
		return CodeModeAllow
	case Ask:
		return CodeModeAsk
	}
	return CodeModeDeny
}
