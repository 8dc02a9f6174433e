package cmdmodel

import (
	"slices"
	"strings"
	"sync"
)

// The command model of the tools that erase, format or repartition block
// devices, and of the archivers that extract (cpio, pax): the danger
// layer (policy/danger.go) and the link check (links.go) read their
// command lines through these entries (ReadLine), never by a scanner of
// their own. Each entry lists every option of the version cited, checked
// against the real binary by TestRealTools (getopt_long tools) or
// TestRealToolsHelp (popt and getopt tools, whose --help or usage lists
// every option). None of them names files the sandbox must see beyond the
// ones listed: their operands are devices, which the danger layer judges.

var (
	// badblocks(8), e2fsprogs 1.47 (getopt "b:d:e:fi:o:svwnc:p:h:t:BX"):
	// -w is the destructive write test; -i reads a list of known bad
	// blocks, -o writes the list found.
	badblocksSpec = Spec{kind: beyond, complete: true, exact: true, flags: "f s v w n B X",
		args: "b c d e p t h", reads: "i", writes: "o"}
	// fdisk(8), util-linux 2.38: -l, -x and -s only list.
	fdiskSpec = Spec{kind: beyond, complete: true,
		flags:    "B|protect-boot l|list x|list-details n|noauto-pt s|getsz bytes h|help V|version",
		args:     "b|sector-size o|output t|type w|wipe W|wipe-partitions C|cylinders H|heads S|sectors",
		optional: "c|compatibility L|color u|units lock"}
	// sfdisk(8), util-linux 2.38: the commands (-l, -d, -J ...) take the
	// devices as operands; without one sfdisk reads a script from
	// standard input and writes it to the device.
	sfdiskSpec = Spec{kind: beyond, complete: true,
		flags: "A|activate d|dump J|json B|backup-pt-sectors g|show-geometry G|show-pt-geometry l|list F|list-free " +
			"r|reorder s|show-size T|list-types V|verify delete part-label part-type part-uuid part-attrs disk-id " +
			"relocate a|append b|backup bytes move-use-fsync f|force n|no-act no-reread no-tell-kernel q|quiet " +
			"L|Linux h|help v|version change-id id print-id",
		args:     "N|partno O|backup-file o|output w|wipe W|wipe-partitions X|label Y|label-nested u|unit",
		optional: "move-data color lock"}
	// cfdisk(8), util-linux 2.38: -r opens the device read-only.
	cfdiskSpec = Spec{kind: beyond, complete: true, flags: "z|zero r|read-only h|help V|version",
		optional: "L|color lock"}
	// gdisk(8), GPT fdisk 1.0.9: `gdisk [-l] device`, its own parser
	// (the word -l exactly, before or after the device).
	gdiskSpec = Spec{kind: beyond, complete: true, exact: true, flags: "l"}
	// sgdisk(8), GPT fdisk 1.0.9 (popt: long options spelled whole,
	// `--name=value` or the next word, short options cluster).
	sgdiskSpec = Spec{kind: beyond, complete: true, exact: true,
		flags: "C|recompute-chs D|display-alignment e|move-second-header E|end-of-largest f|first-in-largest " +
			"F|first-aligned-in-largest g|mbrtogpt G|randomize-guids I|align-end L|list-types o|clear " +
			"O|print-mbr p|print P|pretend s|sort v|verify V|version z|zap Z|zap-all ?|help usage",
		args: "A|attributes a|set-alignment B|byte-swap-name c|change-name d|delete h|hybrid i|info " +
			"j|move-main-table m|gpttombr n|new N|largest-new r|transpose R|replicate S|resize-table t|typecode " +
			"T|transform-bsd u|partition-guid U|disk-guid",
		reads: "l|load-backup", writes: "b|backup"}
	// parted(8), GNU parted 3.5: parted [options] [device [command
	// [args]...]]; with no command it reads commands from standard input.
	partedSpec = Spec{kind: beyond, complete: true, stop: true,
		flags: "h|help l|list m|machine j|json s|script f|fix v|version", args: "a|align"}
	// wipefs(8), util-linux 2.38: -n only reports.
	wipefsSpec = Spec{kind: beyond, complete: true,
		flags: "a|all b|backup f|force i|noheadings J|json n|no-act p|parsable q|quiet h|help V|version",
		args:  "o|offset O|output t|types", optional: "lock"}
	// blkdiscard(8), util-linux 2.38.
	blkdiscardSpec = Spec{kind: beyond, complete: true,
		flags: "f|force s|secure z|zeroout v|verbose h|help V|version", args: "o|offset l|length p|step"}
	// cryptsetup(8) 2.6.1 (popt): cryptsetup [OPTION...] <action>
	// <action-specific>.
	cryptsetupSpec = Spec{kind: beyond, complete: true, exact: true,
		flags: "?|help usage V|version allow-discards q|batch-mode cancel-deferred debug debug-json deferred decrypt " +
			"disable-external-tokens disable-keyring disable-locks disable-veracrypt dump-json-metadata " +
			"dump-volume-key encrypt force-password force-offline-reencrypt init-only integrity-legacy-padding " +
			"integrity-no-journal integrity-no-wipe iv-large-sectors keep-key persistent progress-json r|readonly " +
			"refresh resume-only serialize-memory-hard-pbkdf shared tcrypt-backup tcrypt-hidden tcrypt-system " +
			"test-args test-passphrase token-only token-replace unbound use-random use-urandom veracrypt " +
			"veracrypt-query-pim v|verbose y|verify-passphrase N|new use-directio use-fsync write-log " +
			"dump-master-key perf-no_read_workqueue perf-no_write_workqueue perf-same_cpu_crypt " +
			"perf-submit_from_crypt_cpus",
		args: "active-name align-payload c|cipher device-size h|hash header header-backup-file hotzone-size " +
			"I|integrity i|iter-time json-file key-description d|key-file s|key-size S|key-slot keyfile-offset " +
			"l|keyfile-size keyslot-cipher keyslot-key-size label luks2-keyslots-size luks2-metadata-size " +
			"volume-key-file new-keyfile new-key-slot new-keyfile-offset new-keyfile-size new-token-id o|offset " +
			"pbkdf pbkdf-force-iterations pbkdf-memory pbkdf-parallel priority progress-frequency " +
			"reduce-device-size resilience resilience-hash sector-size b|size p|skip subsystem t|timeout " +
			"token-id token-type T|tries M|type uuid veracrypt-pim B|block-size master-key-file"}
	// diskutil(8), macOS: `diskutil [quiet] verb [options]`: no option
	// before the verb; what follows it is the verb's.
	diskutilSpec = Spec{kind: beyond, complete: true, exact: true, stop: true}
	// cpio(1), GNU cpio 2.13 (argp, which takes getopt_long's
	// abbreviations): -i extracts and -p copies into a directory.
	cpioSpec = Spec{kind: beyond, complete: true,
		flags: "i|extract o|create p|pass-through t|list v|verbose V|dot b|swap f|nonmatching n|numeric-uid-gid " +
			"r|rename s|swap-bytes S|swap-halfwords A|append l|link 0|null a|reset-access-time L|dereference " +
			"d|make-directories m|preserve-modification-time u|unconditional ?|help B c absolute-filenames " +
			"device-independent force-local ignore-devno no-absolute-filenames no-preserve-owner only-verify-crc " +
			"quiet renumber-inodes reproducible sparse to-stdout usage version",
		args:  "C|io-size D|directory H|format R|owner W|warning M|message F|file block-size program-name rsh-command",
		reads: "E|pattern-file rename-batch-file I", writes: "O", acts: "rsh-command"}
	// pax(1), MirBSD pax 20201030 (getopt, short options only): -r
	// extracts, -w writes an archive, both copy into a directory.
	paxSpec = Spec{kind: beyond, complete: true, exact: true,
		flags: "a c d i j k l n r t u v w z D H J L O P X Y Z 0",
		args:  "b f o p s x B E G M T U"}
)

// The tools of this file by what the danger layer asks of them; a name
// ending in "*" stands for every name with that prefix (mkfs.ext4).
var (
	// FilesystemMakers write a new file system or swap area onto their
	// operand: mkfs(8) and its mkfs.TYPE helpers, mke2fs(8), mkswap(8),
	// newfs(8) of the BSDs, mkdosfs(8), mkntfs(8).
	FilesystemMakers = []string{"mkfs*", "mke2fs", "mkswap", "newfs*", "mkdosfs", "mkntfs"}
	// DiskWipers erase a device's blocks or signatures: wipefs(8),
	// blkdiscard(8), shred(1), badblocks(8) -w.
	DiskWipers = []string{"wipefs", "blkdiscard", "shred", "badblocks"}
	// VolumeTools erase or re-key a volume through a verb: diskutil(8)
	// eraseDisk and kin, cryptsetup(8) luksFormat and kin.
	VolumeTools = []string{"diskutil", "cryptsetup"}
	// Partitioners rewrite a partition table: fdisk(8), sfdisk(8),
	// cfdisk(8), gdisk(8), sgdisk(8), parted(8).
	Partitioners = []string{"fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted"}
	// FileRemovers delete the files named: rm(1), srm(1), unlink(1),
	// shred(1) -u.
	FileRemovers = []string{"rm", "srm", "unlink", "shred"}
	// NVMeTools erase a namespace through a verb: nvme-cli's nvme(1)
	// (NVMeErasingVerb).
	NVMeTools = []string{"nvme"}
)

// NVMeErasingVerb returns `nvme VERB` when c, a command of NVMeTools,
// runs one of nvme-cli's erasing subcommands (nvme(1): format, sanitize,
// delete-ns, write-zeroes, write-uncor, dsm deallocates). The subcommand
// is the first word that is not an option.
func NVMeErasingVerb(c *Command) (string, bool) {
	var verb Word
	for _, w := range c.Args[1:] {
		if !strings.HasPrefix(w.Text, "-") || w.Dynamic {
			verb = w
			break
		}
	}
	switch v := strings.ToLower(verb.Text); v {
	case "format", "sanitize", "delete-ns", "write-zeroes", "write-uncor", "dsm":
		return "nvme " + v, true
	}
	return "", false
}

// MayWipe reports whether a disk wiper (DiskWipers) erases what it is
// given: always, but badblocks(8) only in its destructive write mode
// (-w), read by the model; a line the model does not understand may hold
// -w.
func MayWipe(c *Command, name string) bool {
	if name == "badblocks" {
		line, _ := ReadLine(c, "badblocks")
		return !line.Understood() || line.Has("w")
	}
	return true
}

// ErasingVerb reports the verb that makes diskutil(8) (also under
// `diskutil apfs` and `diskutil cs`) erase or repartition, or
// cryptsetup(8) format, among c's operands read by the model; name is the
// program (its basename, lowercased). A line the model does not
// understand is judged in every reading: any word may be the verb.
func ErasingVerb(c *Command, name string) (string, bool) {
	verbs := diskutilVerbs()
	if name == "cryptsetup" {
		verbs = cryptsetupVerbs
	}
	line, _ := ReadLine(c, name)
	ops, understood := line.Operands(), line.Understood()
	if !understood {
		ops = c.Args[1:]
	}
	for k, w := range ops {
		v := strings.ToLower(w.Text)
		if verbs[v] {
			return w.Text, true
		}
		if !understood {
			continue
		}
		if k > 0 || name == "cryptsetup" || v != "apfs" && v != "cs" && v != "corestorage" && v != "appleraid" {
			break // the verb is the first operand (diskutil: after apfs or cs)
		}
	}
	return "", false
}

var diskutilVerbs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"erasedisk": true, "erasevolume": true, "reformat": true, "zerodisk": true,
		"randomdisk": true, "secureerase": true, "partitiondisk": true,
		"deletecontainer": true, "deletevolume": true,
	}
})

var cryptsetupVerbs = map[string]bool{"luksformat": true, "erase": true, "lukserase": true}

// OnlyListsPartitions reports whether a partitioner's command line, read
// by the model, only lists (fdisk(8), sfdisk(8), cfdisk(8), gdisk(8),
// sgdisk(8), parted(8)); name is the program. A partitioner given a
// device and no command is interactive and reads its commands from
// standard input, which can be a script. A line the model does not
// understand is not a listing.
func OnlyListsPartitions(c *Command, name string) bool {
	line, _ := ReadLine(c, name)
	readOnly := false
	switch name {
	case "fdisk":
		readOnly = line.Has("l", "list", "x", "list-details", "s", "getsz") &&
			!line.Has("B", "protect-boot", "n", "noauto-pt", "w", "wipe", "W", "wipe-partitions")
	case "cfdisk":
		readOnly = line.Has("r", "read-only") && !line.Has("z", "zero")
	case "gdisk":
		readOnly = line.Has("l")
	case "sfdisk":
		// One of the listing commands and nothing that changes a table.
		readOnly = line.Has("l", "list", "d", "dump", "J", "json", "s", "show-size", "V", "verify", "g",
			"show-geometry", "G", "show-pt-geometry", "F", "list-free", "B", "backup-pt-sectors", "T", "list-types")
		for _, o := range line.Options() {
			readOnly = readOnly && slices.Contains(sfdiskListing, o)
		}
	case "sgdisk":
		opts := line.Options()
		readOnly = len(opts) > 0
		for _, o := range opts {
			readOnly = readOnly && slices.Contains(sgdiskListing, o)
		}
	case "parted":
		// parted [options] [device [command [args]...]]
		ops := line.Operands()
		readOnly = line.Has("l", "list")
		if len(ops) > 1 {
			readOnly = true
			for _, w := range ops[1:] {
				if partedWrites()[strings.ToLower(w.Text)] {
					readOnly = false
				}
			}
		}
	}
	return readOnly && line.Understood()
}

// sfdiskListing are sfdisk's options that list or tune the listing
// (sfdisk(8), util-linux 2.38).
var sfdiskListing = []string{"l", "list", "d", "dump", "J", "json", "s", "show-size", "V", "verify", "g",
	"show-geometry", "G", "show-pt-geometry", "F", "list-free", "B", "backup-pt-sectors", "T", "list-types",
	"bytes", "color", "lock", "o", "output", "q", "quiet", "X", "label", "Y", "label-nested", "u", "unit", "L", "Linux"}

// sgdiskListing are sgdisk's options that only print, or make every
// change pretend (sgdisk(8), GPT fdisk 1.0.9).
var sgdiskListing = []string{"p", "print", "i", "info", "v", "verify", "O", "print-mbr", "P", "pretend", "L",
	"list-types", "D", "display-alignment", "E", "end-of-largest", "f", "first-in-largest", "F",
	"first-aligned-in-largest"}

// partedWrites are parted's commands that change a disk (parted(8)).
var partedWrites = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"mklabel": true, "mktable": true, "mkpart": true, "mkpartfs": true, "mkfs": true,
		"rm": true, "resizepart": true, "resize": true, "move": true, "cp": true,
		"name": true, "set": true, "toggle": true, "disk_set": true, "disk_toggle": true,
		"rescue": true, "type": true,
	}
})
