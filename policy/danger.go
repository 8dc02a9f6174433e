package policy

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gatekeep/gatekeep/pathguard"
	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// finding is one dangerous form found in a script.
type finding struct {
	code    string // "danger.rm_root"
	message string // names a safer alternative
}

// dangerLayer (3) denies the forms of the danger table. Nothing later in
// the chain can turn it into allow.
func dangerLayer(e *evaluation, p *part) verdict {
	if v := configDanger(e, p); v.ok {
		return v
	}
	if p.cmd == nil {
		// A file written by a redirect, a command or a file tool: the
		// command may have been allowed by the safe layer already (`echo x
		// > /dev/sda`), so its target is judged here too.
		if p.access == cmdmodel.Write && writtenDevice(&e.memo, p) {
			return verdict{ok: true, effect: Deny, code: CodeDangerDeviceWrite,
				message: fmt.Sprintf(deviceWriteMsg, p.path)}
		}
		return verdict{}
	}
	if e.facts == nil || e.factsOf != p.script {
		e.facts, e.factsOf = newScriptFacts(p.script), p.script
	}
	if f := findDangerIn(p.script, p.index, e.cfg.Home, e.cwd, e.facts); f != nil {
		return verdict{ok: true, effect: Deny, code: f.code, message: f.message}
	}
	return verdict{}
}

// findDanger checks the command at index i of script against the danger
// table and returns the first form it matches, or nil. home is the user's
// home directory ("" when unknown); cwd is the absolute directory the script
// starts in ("" when unknown), against which relative operands resolve.
func findDanger(s *shellparse.Script, i int, home, cwd string) *finding {
	if s == nil {
		return nil
	}
	return findDangerIn(s, i, home, cwd, newScriptFacts(s))
}

// findDangerIn is findDanger with the script's facts already worked out.
func findDangerIn(s *shellparse.Script, i int, home, cwd string, facts *scriptFacts) *finding {
	if s == nil || i < 0 || i >= len(s.Commands) {
		return nil
	}
	// The command is judged in every directory it may run in.
	for _, d := range s.Commands[i].Dirs() {
		x := newDangerCtx(s, i, home, cwd, d)
		x.facts = facts
		for _, r := range dangerTable {
			if !r.appliesTo(x.name) {
				continue
			}
			if what, ok := r.check(x); ok {
				return &finding{code: r.code, message: fmt.Sprintf(r.msg, what)}
			}
		}
		if f := findDangerShapes(x); f != nil {
			return f
		}
	}
	return nil
}

// dangerRule is one entry of the danger table.
type dangerRule struct {
	code string
	// names are the command names (basenames, lowercased) the rule looks
	// at; "mkfs*" matches by prefix. Nil means every command, including a
	// command that is only redirects.
	names []string
	// check reports whether the command is this form, and the operand or
	// construct that makes it so (for the message).
	check func(x *dangerCtx) (string, bool)
	// msg is the message, with %s for what check returned: lowercase, no
	// final period, and it names a safer way to do the job.
	msg string
}

func (r *dangerRule) appliesTo(name string) bool {
	if r.names == nil {
		return true
	}
	for _, n := range r.names {
		if n == name || strings.HasSuffix(n, "*") && strings.HasPrefix(name, n[:len(n)-1]) {
			return true
		}
	}
	return false
}

var rmNames = cmdmodel.TreeRemovers

// dangerTable is the danger layer: the forms that break the system or
// the home directory whatever the rules say, checked top to bottom
// against every simple command of a script. Wrappers and the commands they
// run are separate commands (`sudo rm -rf /` is caught at `rm -rf /`), as
// are `bash -c`, `eval`, `$(...)`, `xargs` and `find -exec` code, so each
// entry looks at one command only.
var dangerTable = []dangerRule{
	// rm -r of the file system root, or of everything in it: `rm -rf /`,
	// `rm -fr /*`, `rm -r -- /usr/../`, `cd / && rm -rf *`, and `rm -rf /$X`
	// (an empty X makes it `/`). Also plain `rm /*`: on merged-/usr systems
	// /bin and /lib are symlinks in /, and removing them stops everything.
	{code: CodeDangerRmRoot, names: rmNames, check: rmCheck(placeRoot),
		msg: "deleting %s would erase the whole file system; remove only the specific paths you mean, inside the project"},
	// rm -r of the home directory, everything in it, or a directory above
	// it: `rm -rf ~`, `rm -rf $HOME/`, `rm -rf ~/*`, `rm -rf ~user`.
	{code: CodeDangerRmHome, names: rmNames, check: rmCheck(placeHome),
		msg: "deleting %s would erase the home directory; remove only the specific paths you mean, inside the project"},
	// rm -r of a system directory or everything in it (systemDirs):
	// `rm -rf /etc`, `rm -rf /usr/*`, and plain `rm /etc/*`.
	{code: CodeDangerRmSystem, names: rmNames, check: rmCheck(placeSystem),
		msg: "deleting %s would break the operating system; remove only the specific paths you mean, inside the project"},
	// find over /, the home directory or a system directory that deletes
	// what it finds: `find / -delete`, `find ~ -name x -delete`, and the
	// rm, unlink or shred run by `find /etc -exec rm {} \;` (the exec'd
	// command is a command of its own whose parent is the find).
	{code: CodeDangerFindDelete, names: cmdmodel.Finders, check: findDeletes,
		msg: "find over %s deletes whatever it matches there; run find inside the project, and -print the matches before deleting"},
	{code: CodeDangerFindDelete, names: cmdmodel.FileRemovers, check: execByFind,
		msg: "find over %s deletes whatever it matches there; run find inside the project, and -print the matches before deleting"},
	// Making a file system or swap on a block device: `mkfs.ext4 /dev/sda1`,
	// `mkfs -t ext4 /dev/sdb`, `mkswap /dev/sdb2`, `newfs_apfs /dev/disk2`.
	// On a regular file (`mkfs.ext4 disk.img`, `mkswap /swapfile`) it only
	// writes that file, which the sandbox judges.
	{code: CodeDangerMkfs, names: cmdmodel.FilesystemMakers, check: deviceOperand,
		msg: "formatting %s erases everything on the device; build the file system in an image file (mkfs.ext4 disk.img) instead"},
	// Erasing a block device: `wipefs -a /dev/sda`, `blkdiscard /dev/nvme0n1`,
	// `shred /dev/sda`, `badblocks -w /dev/sdb`. shred, wipefs and badblocks
	// on a regular file (`shred -u secret.txt`) are ordinary file writes.
	{code: CodeDangerDiskWipe, names: cmdmodel.DiskWipers, check: wipesDevice,
		msg: "wiping %s destroys everything on the device; work on an image file, not a disk device"},
	// Erasing or encrypting a disk by its tool's verb, whatever the operand
	// looks like: `diskutil eraseDisk APFS X disk2`, `cryptsetup luksFormat
	// /dev/sdb`.
	{code: CodeDangerDiskWipe, names: cmdmodel.VolumeTools, check: diskVerb,
		msg: "%s destroys everything on the disk; work on an image file, not a disk device"},
	// nvme-cli's erasing verbs, whatever the operand: `nvme format
	// /dev/nvme0n1`, `nvme sanitize`, `nvme delete-ns` (danger_shape.go).
	{code: CodeDangerDiskWipe, names: cmdmodel.NVMeTools, check: nvmeVerb,
		msg: "%s destroys everything on the disk; work on an image file, not a disk device"},
	// Rewriting the partition table of a block device: `fdisk /dev/sda`,
	// `sgdisk --zap-all /dev/sda`, `parted /dev/sda mklabel gpt`. Listing
	// forms (`fdisk -l`, `sfdisk -d`, `parted /dev/sda print`) only read.
	{code: CodeDangerPartition, names: cmdmodel.Partitioners, check: partitions,
		msg: "repartitioning %s can destroy every file system on the device; inspect it read-only (lsblk, fdisk -l) instead"},
	// dd writing onto a block device: `dd if=/dev/zero of=/dev/sda`.
	// Reading one (`dd if=/dev/sda of=disk.img`) is fine.
	{code: CodeDangerDdDevice, names: cmdmodel.BlockCopiers, check: ddOntoDevice,
		msg: "dd onto %s overwrites the device's raw blocks; write to an image file (of=disk.img) instead"},
	// Any redirect onto a block device (`> /dev/sda`, `>> /dev/nvme0n1`,
	// `&> /dev/sdb`, `{ ...; } > /dev/sda`), and tee, cp, mv or install
	// writing one (`... | sudo tee /dev/sda`, `cp disk.img /dev/sdb`).
	{code: CodeDangerDeviceWrite, check: writesDevice, msg: deviceWriteMsg},
	// Remote content run as code: a shell or interpreter reading its
	// program from a pipeline that holds a downloader (`curl ... | sh`,
	// `wget -qO- ... | sudo bash -s`), or running code that a downloader
	// produces (`sh -c "$(curl ...)"`, `bash <(curl ...)`, `source <(curl
	// ...)`, `eval "$(wget -O- ...)"`, `python3 -c "$(curl ...)"`).
	{code: CodeDangerRemoteCode, check: remoteCode,
		msg: "running the output of %s as code executes content nobody reviewed; download it to a file, read it, then run it"},
	// Remote content run as code through a file, in one call: a file a
	// downloader writes (`curl -o F`, `curl -O URL`, `wget -O F`, `wget -P
	// D URL`, `curl URL > F`) that a command of the same call runs (`sh
	// F`, `bash F`, `python3 F`, `source F`, `. F`, `./F`, `chmod +x F &&
	// F`) is the same as `curl ... | sh` (download.go).
	{code: CodeDangerRemoteCode, check: runsDownload,
		msg: "running %s, which this call downloads, executes content nobody reviewed; download it, read it, then run it in another call"},
	// A fork bomb: a function that calls itself at least twice, at least
	// once in the background or in a pipeline (`:(){ :|:& };:`,
	// `bomb(){ bomb | bomb & }; bomb`, `f(){ f & f; }`).
	{code: CodeDangerForkBomb, check: forkBomb,
		msg: "function %s is a fork bomb: it spawns processes until the machine stops; bound parallel work with xargs -P or a counted loop"},
	// Recursive permission or owner change of / or a system directory:
	// `chmod -R 777 /`, `chmod -R 755 /etc`, `chown -R user /usr`. Also a
	// plain change of / itself (`chmod 777 /`). The home directory is not
	// on this list: `sudo chown -R $USER ~` is the usual repair of it.
	{code: CodeDangerChmodSystem, names: cmdmodel.ModeChangers, check: permCheck,
		msg: "changing the permissions of %s can leave the system unusable or open; change only the project files you mean"},
	{code: CodeDangerChownSystem, names: cmdmodel.OwnerChangers, check: permCheck,
		msg: "changing the owner of %s can leave the system unusable; change only the project files you mean"},
	// Moving /, the home directory or a system directory away, or all of
	// its content: `mv /etc /tmp/x`, `mv /usr /usr.bak`, `mv ~ /tmp`.
	// Copying into a system directory (`cp -r x /usr`) only adds x; the
	// sandbox judges that write.
	{code: CodeDangerMvSystem, names: cmdmodel.Movers, check: mvSource,
		msg: "moving %s away breaks the operating system or the home directory; move only the specific files you mean, inside the project"},
	// rsync --delete into /, the home directory or a system directory:
	// everything there that the source lacks is erased.
	{code: CodeDangerRsyncDelete, names: cmdmodel.Syncers, check: rsyncDelete,
		msg: "rsync --delete into %s erases whatever the source lacks there; sync into a directory inside the project"},
}

// dangerCtx is the command under check with what the checks need.
type dangerCtx struct {
	s    *shellparse.Script
	i    int
	c    *shellparse.Command
	name string // lowercased basename, ".exe" removed ("" for redirects only)
	home string // the home directory, cleaned, or ""
	dir  string // absolute directory relative operands resolve against, or ""
	seen map[shellparse.Word]placeRef
	// facts are about the whole script.
	facts *scriptFacts
}

// newDangerCtx is the context of the command at index i of s, run in dir
// (one of its Dirs).
func newDangerCtx(s *shellparse.Script, i int, home, cwd, dir string) *dangerCtx {
	c := &s.Commands[i]
	x := &dangerCtx{s: s, i: i, c: c, name: commandName(c)}
	if path.IsAbs(home) {
		x.home = path.Clean(home)
	}
	switch {
	case c.DirDynamic:
	case strings.Contains(dir, shellparse.PhysicalMark):
		x.dir, _ = commandDir(cwd, dir) // "" when it cannot be resolved
	case path.IsAbs(dir):
		x.dir = path.Clean(dir)
	case path.IsAbs(cwd) && dir == "":
		x.dir = path.Clean(cwd)
	case path.IsAbs(cwd):
		x.dir = path.Join(cwd, dir)
	}
	return x
}

// commandName normalizes toward denial, so a spelling the checks do not
// expect cannot slip past them: the basename, lowercased
// (macOS file systems run `RM` as rm), without a Windows ".exe".
func commandName(c *shellparse.Command) string {
	return strings.TrimSuffix(strings.ToLower(c.Name()), ".exe")
}

// place is what an operand names, for the checks that care where it points.
type place int

const (
	placeOther  place = iota
	placeRoot         // "/"
	placeHome         // the home directory, or a directory above it
	placeSystem       // one of systemDirs
)

// systemDirs are the directories whose loss breaks the operating system:
// the top level of the Filesystem Hierarchy Standard 3.0 (and /lib32,
// /lib64, /libx32 of multilib systems), the macOS top level (hier(7)), and
// the /usr and /var directories that hold the installed system. /tmp and
// /var/tmp are not here: they are sandbox roots and their content is
// disposable. Compared lowercased, as macOS file systems ignore case.
// Built on first use (start-up: most calls never look it up).
var systemDirs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true,
		"/lib": true, "/lib32": true, "/lib64": true, "/libx32": true, "/media": true,
		"/mnt": true, "/opt": true, "/proc": true, "/root": true, "/run": true,
		"/sbin": true, "/srv": true, "/sys": true, "/usr": true, "/var": true,
		"/nix": true, "/snap": true,
		"/system": true, "/library": true, "/users": true, "/applications": true,
		"/volumes": true, "/private": true, "/private/etc": true, "/private/var": true, "/cores": true,
		"/usr/bin": true, "/usr/sbin": true, "/usr/lib": true, "/usr/lib32": true,
		"/usr/lib64": true, "/usr/libexec": true, "/usr/share": true, "/usr/include": true,
		"/var/lib": true, "/var/log": true, "/var/db": true,
		"/system/library": true,
	}
})

// placeRef is an operand resolved for the checks: where it points and how.
type placeRef struct {
	place place
	// glob is true when the operand is a pattern for everything in the
	// place (`/*`, `~/.*`) rather than the place itself.
	glob bool
	text string // the operand as shown in the message
}

// classify resolves an operand word: `~`, `$HOME` and `..` chains, globs
// and brace lists, relative paths against the command's directory. Several
// rules ask about the same operands, so the answers are kept.
func (x *dangerCtx) classify(w shellparse.Word) placeRef {
	if t, ok := x.seen[w]; ok {
		return t
	}
	t := x.resolve(w)
	if x.seen == nil {
		x.seen = map[shellparse.Word]placeRef{}
	}
	x.seen[w] = t
	return t
}

func (x *dangerCtx) resolve(w shellparse.Word) placeRef {
	switch {
	case w.Text == "":
		return placeRef{} // rm "" removes nothing
	case !w.Dynamic:
		return placeRef{place: x.placeOf(x.abs(w.Text)), text: w.Text}
	}
	// A brace list names each alternative (`/{etc,usr}`): the first that
	// is a place wins.
	for _, a := range expandBraces(w.Text) {
		if r := x.classifyDynamic(a); r.place != placeOther {
			r.text = w.Text
			return r
		}
	}
	return placeRef{text: w.Text}
}

// classifyDynamic resolves one alternative of a dynamic word.
func (x *dangerCtx) classifyDynamic(t string) placeRef {
	out := placeRef{text: t}
	// `~`, `$HOME`, `${HOME}` left unresolved (no home known, or the
	// script assigned HOME): judge the part after it.
	if rest, ok := homeRef(t); ok {
		rel := path.Clean("." + rest)
		switch {
		case rel == "." || rel == ".." || strings.HasPrefix(rel, "../"):
			out.place = placeHome
		case catchAll(rel):
			out.place, out.glob = placeHome, true
		}
		return out
	}
	// `/$X`, `/${X}/`, `/$X/*`: an empty X makes it `/`.
	if rootVarRe().MatchString(t) {
		out.place = placeRoot
		return out
	}
	if strings.ContainsAny(t, "$`") || strings.Contains(t, "<(") {
		return out // depends on a value only known at run time
	}
	// A glob: what can it match?
	p := x.abs(t)
	if p == "" {
		return out
	}
	if pl := x.placeOf(p); pl != placeOther {
		out.place = pl // the glob characters were escaped or inert
		return out
	}
	if !hasGlob(p) || strings.Count(p, "/") > max(3, strings.Count(x.home, "/")+1) {
		return out // no pattern, or deeper than any place and its content
	}
	dir, base := path.Split(p)
	dir = path.Clean(dir)
	if catchAll(base) && !hasGlob(dir) {
		if pl := x.placeOf(dir); pl != placeOther {
			out.place, out.glob = pl, true
			return out
		}
	}
	// A pattern that matches a system directory or the home directory
	// (`/e*`, `/[u]sr`, `/*/*`).
	lp, ldir := strings.ToLower(p), strings.ToLower(dir)
	direct, content := false, false
	for d := range systemDirs() {
		direct = direct || globMatch(lp, d)
		content = content || catchAll(base) && globMatch(ldir, d)
	}
	if direct || content {
		out.place, out.glob = placeSystem, content
		return out
	}
	if x.home != "" && (globMatch(p, x.home) || catchAll(base) && globMatch(dir, x.home)) {
		out.place, out.glob = placeHome, !globMatch(p, x.home)
	}
	return out
}

// rootVarRe: a first path component that is only a variable.
var rootVarRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^/+\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)/*(\*)?$`)
})

// homeRef splits an unresolved home reference (`~`, `$HOME`, `${HOME}`,
// `${HOME:-x}`, or `~user`) from the rest of the word, which must be empty
// or start with a slash.
func homeRef(t string) (rest string, ok bool) {
	m := homeRe().FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	rest = t[len(m[1]):]
	if rest != "" && rest[0] != '/' {
		return "", false
	}
	return rest, true
}

var homeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(~[A-Za-z0-9._-]*|\$HOME|\$\{HOME(?:[^A-Za-z0-9_}][^}]*)?\})`)
})

// abs makes a path absolute against the command's directory and cleans it
// (`//`, `/./`, `/usr/../`). It returns "" for a relative path when the
// directory is unknown.
func (x *dangerCtx) abs(p string) string {
	if !path.IsAbs(p) {
		if x.dir == "" {
			return ""
		}
		p = path.Join(x.dir, p)
	}
	return path.Clean(p)
}

// placeOf says what an absolute, cleaned path is.
func (x *dangerCtx) placeOf(p string) place {
	switch {
	case p == "":
		return placeOther
	case p == "/":
		return placeRoot
	case x.home != "" && p == x.home:
		return placeHome
	case systemDirs()[strings.ToLower(p)]:
		return placeSystem
	case x.home != "" && strings.HasPrefix(x.home, p+"/"):
		return placeHome // a directory above home
	}
	return placeOther
}

// catchAll reports a glob that matches every name in a directory, or every
// hidden one: `*`, `.*`, `*.*`, `{*,.*}`, `.[!.]*`, `..?*`.
func catchAll(base string) bool {
	if !strings.Contains(base, "*") {
		return false
	}
	return strings.Trim(base, "*?.[]!^{},") == ""
}

func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

func globMatch(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return ok && err == nil
}

// expandBraces expands the brace lists of a word (`/{etc,usr}` is `/etc`
// and `/usr`); a word without one comes back alone. Sequences (`{1..3}`)
// are left as they are. It stops after 8 lists or 64 results, and leaves
// words over 256 bytes alone (no dangerous path is that long), so a
// hostile word costs little.
func expandBraces(t string) []string {
	out := []string{t}
	if len(t) > 256 || !strings.Contains(t, "{") {
		return out
	}
	for range 8 {
		var next []string
		changed := false
		for _, s := range out {
			pre, alts, post, ok := braceList(s)
			if !ok {
				next = append(next, s)
				continue
			}
			changed = true
			for _, a := range alts {
				if e := pre + a + post; !slices.Contains(next, e) {
					next = append(next, e)
				}
			}
		}
		out = next
		if !changed || len(out) > 64 {
			break
		}
	}
	return out[:min(len(out), 64)]
}

// braceList finds an innermost `{a,b}` of s in one pass: the text before
// it, its alternatives, and the text after it.
func braceList(s string) (pre string, alts []string, post string, ok bool) {
	type level struct{ open, comma int } // comma: the last one, or -1
	var stack []level
	for j := 0; j < len(s); j++ {
		switch s[j] {
		case '{':
			stack = append(stack, level{j, -1})
		case ',':
			if len(stack) > 0 {
				stack[len(stack)-1].comma = j
			}
		case '}':
			if len(stack) == 0 {
				continue
			}
			l := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if l.comma < 0 {
				continue
			}
			// Innermost: no list inside it, so its commas are its own.
			return s[:l.open], strings.Split(s[l.open+1:j], ","), s[j+1:], true
		}
	}
	return "", nil, "", false
}

// rmCheck: rm -r of a place, or rm of every name in / or a system dir.
func rmCheck(want place) func(x *dangerCtx) (string, bool) {
	return func(x *dangerCtx) (string, bool) {
		ops, recursive := cmdmodel.RmLine(&x.c.Command)
		for _, w := range ops {
			t := x.classify(w)
			if t.place != want {
				continue
			}
			if recursive || t.glob && want != placeHome {
				return t.text, true
			}
		}
		return "", false
	}
}

// findTarget returns the first starting point of find that is /, the home
// directory or a system directory.
func (x *dangerCtx) findTarget(c *shellparse.Command) (string, bool) {
	starts := cmdmodel.FindStarts(c.Args[1:])
	for _, w := range starts {
		if t := x.classify(w); t.place != placeOther {
			return t.text, true
		}
	}
	return "", false
}

// findDeletes: `find <place> ... -delete`, read by find's model.
func findDeletes(x *dangerCtx) (string, bool) {
	if cmdmodel.FindDeletes(x.c.Args[1:]) {
		return x.findTarget(x.c)
	}
	return "", false
}

// execByFind: an rm (or unlink, shred) run by `find <place> -exec`, directly
// or through wrappers and `sh -c`.
func execByFind(x *dangerCtx) (string, bool) {
	viaFind := false
	for _, v := range x.c.Via {
		viaFind = viaFind || strings.HasPrefix(v, "find -")
	}
	if !viaFind {
		return "", false
	}
	for j, n := x.c.Parent, 0; j >= 0 && j < x.i && n <= shellparse.MaxDepth*2; j, n = x.s.Commands[j].Parent, n+1 {
		if f := &x.s.Commands[j]; cmdmodel.IsFind(commandName(f)) {
			return x.findTarget(f)
		}
	}
	return "", false
}

// blockDeviceRe matches the block devices of Linux (devices.txt: sd, hd, vd,
// xvd, nvme, mmcblk, md, loop, dm-, nbd, zd, rbd, sr, bcache, mapper, the
// /dev/disk/by-* links, /dev/root), of macOS (disk, rdisk), and physical
// memory (/dev/mem, /dev/kmem, /dev/port).
var blockDeviceRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^/dev/(sd|hd|vd|xvd|nvme|mmcblk|md|loop|dm-|nbd|zd|rbd|sr|bcache|ubi|mtd|mapper/|disk|rdisk|block/|root$|mem$|kmem$|port$)`)
})

// writtenDevice reports whether a file part is a block device. A dynamic
// path counts only as a redirect target: shellparse.Effects reports every
// dynamic word of a command that can write as a write, so `find /dev/sd*
// -print` has one.
func writtenDevice(m *pathguard.Memo, p *part) bool {
	if !p.dynamic {
		return blockDevice(m, p.path, false, p.dir)
	}
	if p.script == nil || p.index < 0 || p.index >= len(p.script.Commands) {
		return false
	}
	for _, r := range p.script.Commands[p.index].Redirects {
		if r.Writes() && r.Target.Offset == p.offset && r.Target.Text == p.path {
			return blockDevice(m, p.path, true, "")
		}
	}
	return false
}

// device reports whether a word names a block device.
func (x *dangerCtx) device(w shellparse.Word) bool {
	return blockDevice(nil, w.Text, w.Dynamic, x.dir)
}

// blockDevice reports whether a path names a block device: a literal path
// that cleans to one (relative paths resolve against dir, when known), or a
// dynamic word whose literal start does (`/dev/sd$X`) or is only `/dev/`
// (`/dev/$DISK`). The stat of a relative path is remembered in m (the
// decision's, which the sandbox asks again; nil: not).
func blockDevice(m *pathguard.Memo, t string, dynamic bool, dir string) bool {
	t = stripProcRoot(t)
	if dynamic {
		if cut := strings.IndexAny(t, "$`*?[{"); cut >= 0 {
			t = t[:cut]
			return t == "/dev/" || blockDeviceRe().MatchString(t) || path.IsAbs(t) && blockDeviceShape(t, true)
		}
	}
	if !path.IsAbs(t) {
		if dynamic || !path.IsAbs(dir) {
			return false
		}
		// Below a directory outside /dev and /proc, a relative path
		// without ".." (or a trailing "/") names no device by its text:
		// only a block node on the disk makes it one, stat'ed without
		// building the joined path.
		if d := path.Clean(dir); d != "/" && !strings.HasPrefix(d, "/dev") && !strings.HasPrefix(d, "/proc") &&
			!strings.HasPrefix(d, "//") && !strings.Contains(t, "..") && !strings.HasSuffix(t, "/") {
			return isBlockNodeAt(m, d, t)
		}
		t = path.Join(dir, t)
	}
	t = stripProcRoot(path.Clean(t))
	return blockDeviceRe().MatchString(t) || blockDeviceShape(t, false)
}

// deviceOperand: any operand is a block device.
func deviceOperand(x *dangerCtx) (string, bool) {
	for _, w := range x.c.Args[1:] {
		if x.device(w) {
			return w.Text, true
		}
	}
	return "", false
}

// wipesDevice: a disk wiper on a device, badblocks only in its
// destructive write mode (cmdmodel.MayWipe).
func wipesDevice(x *dangerCtx) (string, bool) {
	if !cmdmodel.MayWipe(&x.c.Command, x.name) {
		return "", false
	}
	return deviceOperand(x)
}

// diskVerb: diskutil's erasing verbs and cryptsetup's formatting ones
// (cmdmodel.ErasingVerb).
func diskVerb(x *dangerCtx) (string, bool) {
	if v, ok := cmdmodel.ErasingVerb(&x.c.Command, x.name); ok {
		return x.name + " " + v, true
	}
	return "", false
}

// partitions: a partitioner given a device, unless it only lists
// (cmdmodel.OnlyListsPartitions).
func partitions(x *dangerCtx) (string, bool) {
	if cmdmodel.OnlyListsPartitions(&x.c.Command, x.name) {
		return "", false
	}
	for _, w := range x.c.Args[1:] {
		if x.device(w) {
			return w.Text, true
		}
	}
	return "", false
}

// ddOntoDevice: a dd operand `of=` naming a block device.
func ddOntoDevice(x *dangerCtx) (string, bool) {
	for _, of := range cmdmodel.DdOutputs(&x.c.Command) {
		if x.device(of) {
			return of.Text, true
		}
	}
	return "", false
}

// writesDevice: a redirect, or tee, cp, mv, install writing a block device.
func writesDevice(x *dangerCtx) (string, bool) {
	for _, r := range x.c.Redirects {
		if r.Writes() && x.device(r.Target) {
			return r.Target.Text, true
		}
	}
	for _, w := range cmdmodel.CopyDestinations(&x.c.Command, x.name) {
		if x.device(w) {
			return w.Text, true
		}
	}
	return "", false
}

const deviceWriteMsg = "writing onto %s overwrites the device's raw blocks; write to a regular file instead"

// remoteCode: a command that runs code it reads from standard input or
// from a substitution, when a downloader is among what feeds it.
func remoteCode(x *dangerCtx) (string, bool) {
	c := x.c
	if !c.StdinCode && c.Unknown == "" || !x.facts.fetches {
		return "", false
	}
	for _, j := range x.codeSources() {
		if j >= 0 && j < len(x.s.Commands) && remoteSource(&x.s.Commands[j]) {
			return x.s.Commands[j].Name(), true
		}
	}
	return "", false
}

// codeSources lists the commands whose output the command may run as code:
// its Feeders; for a command whose code is unknown, every command nested in
// its words (`$(curl ...)` as the command name); and the substitutions in
// the words and redirects of the wrappers around it (`sudo sh -c
// "$(curl ...)"`, `sudo sh < <(curl ...)`), which the parser attaches to
// the wrapper rather than to the command it runs.
func (x *dangerCtx) codeSources() []int {
	out := append([]int(nil), x.c.Feeders...)
	if x.c.Unknown != "" {
		for j := x.i + 1; j < len(x.s.Commands) && x.descends(j, x.i); j++ {
			out = append(out, j)
		}
	}
	for j, n := x.i, 0; n <= shellparse.MaxDepth*2; n++ {
		p := x.s.Commands[j].Parent
		if p < 0 || p >= j || x.s.Commands[p].Inner != j {
			break
		}
		for k := p + 1; k < j; k++ {
			out = append(out, k)
		}
		j = p
	}
	return out
}

// descends reports whether command j is nested in command anc.
func (x *dangerCtx) descends(j, anc int) bool {
	for n := 0; j >= 0 && n <= shellparse.MaxDepth*2; n++ {
		p := x.s.Commands[j].Parent
		if p == anc {
			return true
		}
		if p >= j {
			return false
		}
		j = p
	}
	return false
}

// permCheck: chmod, chown, chgrp -R of / or a system directory, or of /
// itself without -R, the files as cmdmodel.PermChanged reads them.
func permCheck(x *dangerCtx) (string, bool) {
	files, recursive := cmdmodel.PermChanged(&x.c.Command, x.name)
	for _, w := range files {
		t := x.classify(w)
		if t.place == placeRoot && (recursive || !t.glob) || recursive && t.place == placeSystem {
			return t.text, true
		}
	}
	return "", false
}

// mvSource: an operand moved away (cmdmodel.MovedAway) is /, the home
// directory or a system directory, or all of its content.
func mvSource(x *dangerCtx) (string, bool) {
	sources := cmdmodel.MovedAway(&x.c.Command)
	for _, w := range sources {
		if t := x.classify(w); t.place != placeOther {
			return t.text, true
		}
	}
	return "", false
}

// rsyncDelete: rsync deleting in a destination that is /, the home
// directory or a system directory (cmdmodel.SyncDeleteDests).
func rsyncDelete(x *dangerCtx) (string, bool) {
	dests := cmdmodel.SyncDeleteDests(&x.c.Command)
	for _, dest := range dests {
		if t := x.classify(dest); t.place != placeOther {
			return t.text, true
		}
	}
	return "", false
}

// forkBomb: the command calls a function that the script defines as a fork
// bomb (shellparse.Script.ForkBombs).
func forkBomb(x *dangerCtx) (string, bool) {
	if x.c.UserFunc && slices.Contains(x.s.ForkBombs, x.c.Args[0].Text) {
		return x.c.Args[0].Text, true
	}
	return "", false
}

// scriptFacts is what the checks need to know about a whole script, worked
// out once per script (the chain asks findDanger once per command).
type scriptFacts struct {
	fetches bool                // some command is a remoteSource
	vals    map[string][]string // literal values assigned to variables (scriptValues)
	depth   int                 // how deep in words read as code (codeArgs)
}

func newScriptFacts(s *shellparse.Script) *scriptFacts {
	f := &scriptFacts{vals: scriptValues(s)}
	for j := range s.Commands {
		f.fetches = f.fetches || remoteSource(&s.Commands[j])
	}
	return f
}
