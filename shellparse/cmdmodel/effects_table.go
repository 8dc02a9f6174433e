package cmdmodel

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// effectTable lists the commands whose file operands Effects knows, by
// command name (the basename). Each entry cites the man page its options
// and operands come from: GNU coreutils, grep, sed, diffutils, tar, gzip,
// findutils, wget and patch for the GNU tools (Linux is the reference;
// BSD-only options are added where they write, as base64 -o), and each
// project's own page for the rest. Options that take an argument must be
// listed, or the argument would be read as an operand.
var effectTable = specTable{entries: []specEntry{
	// --- print only: no word is a file ---

	// echo(1), printf(1), pwd(1), true(1), false(1), seq(1), tr(1),
	// basename(1), dirname(1), yes(1), printenv(1), whoami(1), id(1),
	// uname(1), and bash(1) for `:`, `test`, `[`, `exit`, `return` and `exec` with no
	// command (`exec >log`).
	{"echo", &Spec{}}, {"printf", &Spec{}}, {"pwd", &Spec{}}, {"true", &Spec{}}, {"false", &Spec{}}, {":", &Spec{}},
	{"seq", &Spec{}}, {"tr", &Spec{}}, {"basename", &Spec{}}, {"dirname", &Spec{}}, {"yes", &Spec{}},
	{"printenv", &Spec{}}, {"whoami", &Spec{}}, {"id", &Spec{}}, {"uname", &Spec{}}, {"test", &Spec{}}, {"[", &Spec{}},
	{"exec", &Spec{}}, {"exit", &Spec{}}, {"return", &Spec{}},
	// The read-only tools below are modelled complete: every option of the
	// version cited, checked against the real binary by TestRealTools
	// (long options and their argument kinds). GNU coreutils 9.1, grep
	// 3.8, diffutils 3.8, util-linux 2.38 (column, hexdump), file 5.44,
	// binutils 2.40 (strings), jq 1.6.

	// Metadata only, not contents: ls(1), dir(1), vdir(1), stat(1),
	// realpath(1), readlink(1), df(1); which(1) (Debian's, -a only).
	{"ls", &lsSpec}, {"dir", &lsSpec}, {"vdir", &lsSpec},
	{"stat", &Spec{complete: true, flags: "dereference file-system help terse version f t L", args: "cached format printf c"}},
	{"realpath", &Spec{complete: true, flags: "canonicalize-existing canonicalize-missing help logical no-symlinks physical quiet strip version zero e m q s z L P", args: "relative-base relative-to"}},
	{"readlink", &Spec{complete: true, flags: "canonicalize canonicalize-existing canonicalize-missing help no-newline quiet silent verbose version zero e f m n q s v z"}},
	{"df", &Spec{complete: true, flags: "all help human-readable inodes local no-sync portability print-type si sync total version a h i k l m v H P T", args: "block-size exclude-type type t x B F", optional: "output"}},
	{"which", &Spec{complete: true, exact: true, flags: "a s"}},
	// du(1): operands are metadata; --files0-from and -X name files read.
	{"du", &Spec{complete: true, flags: "all apparent-size bytes count-links dereference dereference-args help human-readable inodes no-dereference null one-file-system separate-dirs si summarize total version a b c h k l m s x D H L P S 0", args: "block-size exclude max-depth threshold time-style d t B", optional: "time", reads: "files0-from X exclude-from"}},
	// date(1): -f reads dates from a file; -s sets the clock.
	{"date", &Spec{args: "d date r reference rfc-3339 s set", optional: "I iso-8601", reads: "f file", acts: "s set"}},
	// tree(1) 2.1 (its own parser: long options spelled whole, with
	// `=value` or the next word): operands are listed, not read, but with
	// --fromfile (or --fromtabfile) they are files whose lines are printed
	// as the tree; -o writes the listing, --gitfile, --infofile, --hintro
	// and --houtro read files, -R runs tree again with `-o 00Tree.html` in
	// every directory.
	{"tree", &Spec{complete: true, exact: true, flags: "a d l f x q N Q p u g s h D F v t c U r i A S n C X J " +
		"gitignore ignore-case matchdirs metafirst prune info noreport si du inodes device dirsfirst filesfirst " +
		"nolinks fromfile fromtabfile fflinks version help", args: "L P I H T charset filelimit timefmt sort",
		reads: "gitfile infofile hintro houtro", writes: "o", acts: "R", elsewhere: "fromtabfile", ops: treeOps}},
	// --- read the files named and print ---

	// cat(1), tac(1), rev(1) (util-linux), nl(1).
	{"cat", &Spec{complete: true, flags: "help number number-nonblank show-all show-ends show-nonprinting show-tabs squeeze-blank version b e n s t u v A E T", ops: readAll}},
	{"tac", &Spec{complete: true, flags: "before help regex version b r", args: "separator s", ops: readAll}},
	{"rev", &Spec{complete: true, flags: "help version h V", ops: readAll}},
	{"nl", &Spec{complete: true, flags: "help no-renumber version p", args: "body-numbering footer-numbering header-numbering join-blank-lines line-increment number-format number-separator number-width section-delimiter starting-line-number b d f h i l n s v w", ops: readAll}},
	// head(1), tail(1): `head -5`, `tail -5f`, `tail +5` are the obsolete
	// spellings of -n (headTailObsolete). BSD tail -r prints in reverse.
	{"head", &Spec{complete: true, flags: "help quiet silent verbose version zero-terminated q v z", args: "bytes lines c n", obsolete: headTailObsolete, ops: readAll}},
	{"tail", &Spec{complete: true, flags: "r help quiet retry silent verbose version zero-terminated b f l q v z F", args: "bytes lines max-unchanged-stats pid sleep-interval c n s", optional: "follow", obsolete: headTailObsolete, ops: readAll}},
	// wc(1).
	// wc(1), sort(1): --files0-from names a file that lists the files
	// read; the list is read, and what it names is only known at run time
	// (acts: the command is not read-only).
	{"wc", &Spec{complete: true, flags: "bytes chars debug help lines max-line-length version words c l m w L", reads: "files0-from", acts: "files0-from", ops: readAll}},
	// cut(1), paste(1), fold(1), fmt(1), expand(1), unexpand(1). BSD
	// fmt's -p takes no argument (loose).
	{"cut", &Spec{complete: true, flags: "complement help only-delimited version zero-terminated n s z", args: "bytes characters delimiter fields output-delimiter b c d f", ops: readAll}},
	{"paste", &Spec{complete: true, flags: "help serial version zero-terminated s z", args: "delimiters d", ops: readAll}},
	{"fold", &Spec{complete: true, flags: "bytes help spaces version b s 0 1 2 3 4 5 6 7 8 9", args: "width w", ops: readAll}},
	{"fmt", &Spec{complete: true, loose: "p", flags: "crown-margin help split-only tagged-paragraph uniform-spacing version c s t u 0 1 2 3 4 5 6 7 8 9", args: "goal prefix width g p w", ops: readAll}},
	{"expand", &Spec{complete: true, flags: "help initial version i 0 1 2 3 4 5 6 7 8 9", args: "tabs t", ops: readAll}},
	{"unexpand", &Spec{complete: true, flags: "all first-only help version a 0 1 2 3 4 5 6 7 8 9", args: "tabs t", ops: readAll}},
	// column(1) (util-linux).
	{"column", &Spec{complete: true, flags: "fillrows help json keep-empty-lines table table-empty-lines table-header-repeat table-noheadings version d e h t x J L V", args: "columns output-separator output-width separator table-columns table-columns-limit table-hide table-name table-noextreme table-order table-right table-truncate table-wrap tree tree-id tree-parent c i l n o p r s E H N O R T W", ops: readAll}},
	// diff(1), cmp(1), comm(1), join(1). diff compares two directories
	// file by file (one level deep, every level with -r; -N prints a
	// file missing on one side whole), so its operands are read as trees.
	// -l/--paginate pipes the output through pr(1) found on PATH.
	{"diff", &Spec{complete: true, flags: "binary brief ed expand-tabs forward-ed help ignore-all-space ignore-blank-lines ignore-case ignore-file-name-case ignore-space-change ignore-tab-expansion ignore-trailing-space inhibit-hunk-merge initial-tab left-column minimal new-file no-dereference no-ignore-file-name-case normal paginate rcs recursive report-identical-files sdiff-merge-assist show-c-function side-by-side speed-large-files strip-trailing-cr suppress-blank-empty suppress-common-lines text unidirectional-new-file version a b c d e f h i l n p q r s t u v w y B E H N P T Z 0 1 2 3 4 5 6 7 8 9", args: "changed-group-format exclude from-file horizon-lines ifdef ignore-matching-lines label line-format new-group-format new-line-format old-group-format old-line-format palette show-function-line starting-file tabsize to-file unchanged-group-format unchanged-line-format width x C D F I L S U W", optional: "color context unified", reads: "X exclude-from", acts: "l paginate", ops: diffOps}},
	{"cmp", &Spec{complete: true, flags: "help print-bytes print-chars quiet silent verbose version b c l s v", args: "bytes ignore-initial i n", ops: cmpOps}},
	{"comm", &Spec{complete: true, flags: "check-order help nocheck-order total version zero-terminated z 1 2 3", args: "output-delimiter", ops: readAll}},
	{"join", &Spec{complete: true, flags: "check-order header help ignore-case nocheck-order version zero-terminated i z", args: "a e j o t v 1 2", ops: readAll}},
	// grep(1); egrep and fgrep are grep -E and grep -F. The pattern is the
	// first operand unless -e or -f gives it.
	{"grep", &grepSpec},
	{"egrep", &grepSpec},
	{"fgrep", &grepSpec},
	// rg(1) (ripgrep 13, clap: options spelled whole): -r is --replace.
	// --pre and --hostname-bin run a program, -z runs decompressors.
	{"rg", &Spec{complete: true, exact: true,
		args: "e regexp g glob iglob t type T type-not type-add type-clear m max-count A after-context " +
			"B before-context C context M max-columns d max-depth max-filesize j threads E encoding engine " +
			"color colors context-separator field-context-separator field-match-separator path-separator " +
			"r replace sort sortr pre pre-glob hostname-bin hyperlink-format dfa-size-limit regex-size-limit generate",
		reads: "f file ignore-file", flags: "auto-hybrid-regex binary block-buffered b byte-offset s case-sensitive column no-context-separator c count count-matches only-matching crlf debug files l files-with-matches files-without-match F fixed-strings L follow glob-case-insensitive h help heading . hidden i ignore-case ignore-file-case-insensitive include-zero v invert-match json line-buffered n line-number x line-regexp max-columns-preview mmap U multiline multiline-dotall no-config I no-filename no-heading no-ignore no-ignore-dot no-ignore-vcs no-ignore-exclude no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent N no-line-number no-messages no-mmap no-pcre2-unicode no-require-git no-unicode unicode 0 null null-data one-file-system o passthru P pcre2 pcre2-version p pretty q quiet S smart-case stats a text trim type-list u unrestricted V version vimgrep H with-filename w word-regexp no-hidden",
		acts: "pre hostname-bin z search-zip", elsewhere: "hostname-bin hyperlink-format generate", ops: rgOps}},
	// file(1): -C writes a compiled magic file, -z/-Z run decompressors,
	// -m loads magic from a file, -f reads the names to look at: none of
	// them is read-only.
	{"file", &Spec{complete: true, flags: "apple brief checking-printout compile debug dereference extension help keep-going list mime mime-encoding mime-type no-buffer no-dereference no-pad no-sandbox preserve-date print0 raw special-files uncompress uncompress-noreport version b c d h i k l n p r s v z C E L N S Z 0", args: "exclude exclude-quiet parameter separator e F P", reads: "m magic-file f files-from", acts: "C compile z Z uncompress uncompress-noreport m magic-file f files-from", ops: readAll}},
	// md5sum(1), sha1sum(1) ... b2sum(1), cksum(1), sum(1). With -c the
	// files named in the check list are read too; they are not known here.
	{"md5sum", &sumSpec}, {"sha1sum", &sumSpec}, {"sha224sum", &sumSpec},
	{"sha256sum", &sumSpec}, {"sha384sum", &sumSpec}, {"sha512sum", &sumSpec},
	{"b2sum", &Spec{complete: true, flags: "binary check help ignore-missing quiet status strict tag text version warn zero b c t w z", args: "length l", ops: readAll}},
	{"cksum", &Spec{complete: true, flags: "check debug help ignore-missing quiet status strict tag untagged version warn zero b c t w z", args: "algorithm length a l", ops: readAll}},
	{"sum", &Spec{complete: true, flags: "help sysv version r s", ops: readAll}},
	// shasum(1) (Perl 5.36, Getopt::Long with bundling, which also takes
	// abbreviations and any case of long options: the first are modelled,
	// the second are unknown): -a ALGORITHM. md5(1) (macOS, `md5
	// [-pqrtx] [-c string] [-s string] [file ...]`): -s STRING is a
	// string to hash, -c STRING a digest to compare with.
	{"shasum", &Spec{complete: true, flags: "b binary c check t text s status w warn q quiet h help v version 0 01 " +
		"U UNIVERSAL tag strict ignore-missing", args: "a algorithm", ops: readAll}},
	{"md5", &Spec{complete: true, exact: true, flags: "p q r t x", args: "s c", ops: readAll}},
	// base64(1), base32(1), basenc(1). GNU: -w COLS, -i ignore garbage.
	// BSD base64: -i FILE reads, -o FILE writes, -b COUNT: -i is taken as
	// BSD's (it consumes a file name, which is then read).
	{"base64", &base64Spec}, {"base32", &base64Spec}, {"basenc", &basencSpec},
	// od(1), hexdump(1) (util-linux; hd is hexdump -C), strings(1)
	// (binutils: `@FILE` is a response file).
	{"od", &Spec{complete: true, flags: "help output-duplicates traditional version a b c d e f h i l o s v x B D F H I L O X", args: "address-radix endian format read-bytes skip-bytes j t A N S", optional: "strings width w", ops: readAll}},
	{"hexdump", &hexdumpSpec}, {"hd", &hexdumpSpec},
	{"strings", &Spec{complete: true, respFiles: true, flags: "a all d data f print-file-name h help H w include-all-whitespace " +
		"v V version o 0 1 2 3 4 5 6 7 8 9", args: "n bytes t radix e encoding T target s output-separator U unicode",
		ops: readAll}},
	// zcat(1), bzcat(1), xzcat(1), zstdcat(1): decompress to stdout.
	{"zcat", &Spec{ops: readAll}}, {"bzcat", &Spec{ops: readAll}}, {"xzcat", &Spec{ops: readAll}}, {"zstdcat", &Spec{ops: readAll}},
	// jq(1) 1.6 (its own parser: long options spelled whole, short ones
	// cluster, options anywhere): the filter is the first operand unless
	// -f gives it; after --args/--jsonargs operands are values, not files.
	// -L DIR adds a module directory: `import` then reads modules the
	// filter chooses, so it acts beyond the files named.
	{"jq", &Spec{complete: true, exact: true, flags: "s slurp r raw-output j join-output a ascii-output c compact-output " +
		"C color-output M monochrome-output S sort-keys R raw-input n null-input e exit-status h help V version " +
		"tab seq stream stream-errors unbuffered args jsonargs debug-dump-disasm debug-trace raw-output0 b binary",
		args: "indent L", reads: "f from-file", pairs: "arg argjson", pairReads: "slurpfile rawfile argfile",
		optional: "run-tests", acts: "L run-tests", elsewhere: "raw-output0 binary", ops: jqOps}},

	// --- change the files named ---

	// sed(1) (GNU sed 4.9): the script is the first operand unless -e/-f give it; with
	// -i (--in-place) the files are rewritten. The script's own r/w/e
	// commands are read by sedProgram.
	{"sed", &Spec{kind: edits, complete: true, args: "e expression l line-length", reads: "f file", optional: "i in-place",
		flags: "n quiet silent s separate sandbox b binary debug follow-symlinks help null-data z zero-terminated " +
			"posix r E regexp-extended u unbuffered version", acts: "f file", ops: sedOps}},
	// sort(1): -o writes the output, -T holds temporary files.
	{"sort", &Spec{kind: edits, complete: true, flags: "debug dictionary-order general-numeric-sort help human-numeric-sort ignore-case ignore-leading-blanks ignore-nonprinting merge month-sort numeric-sort random-sort reverse stable unique version version-sort zero-terminated b c d f g h i m n r s u z C M R V", args: "compress-program batch-size buffer-size field-separator key parallel sort k t y S", optional: "check", reads: "files0-from random-source", writes: "o output T temporary-directory", acts: "compress-program files0-from", ops: readAll}},
	// uniq(1): uniq [INPUT [OUTPUT]].
	{"uniq", &Spec{kind: edits, complete: true, flags: "count help ignore-case repeated unique version zero-terminated c d i u z D 0 1 2 3 4 5 6 7 8 9", args: "check-chars skip-chars skip-fields f s w", optional: "all-repeated group", ops: uniqOps}},
	// xxd(1): xxd [options] [infile [outfile]]; its own option syntax.
	{"xxd", &Spec{kind: edits, raw: true, complete: true, ops: xxdOps}},
	// split(1): split [INPUT [PREFIX]]; the pieces are PREFIXaa ...
	{"split", &Spec{kind: edits, args: "a suffix-length additional-suffix b bytes C line-bytes l lines n number t separator filter",
		optional: "numeric-suffixes hex-suffixes", acts: "filter", ops: splitOps}},
	// tee(1).
	{"tee", &Spec{kind: edits, complete: true, flags: "a append i ignore-interrupts p help version",
		optional: "output-error", ops: writeAll}},
	// rm(1), rmdir(1) (-p removes each parent too), unlink(1), shred(1).
	{"rm", &Spec{kind: edits, complete: true, flags: "f|force i I d|dir r|R|recursive v|verbose one-file-system " +
		"no-preserve-root help version", optional: "interactive preserve-root", ops: writeAll}},
	{"rmdir", &Spec{kind: edits, flags: "parents", ops: rmdirOps}},
	{"unlink", &Spec{kind: edits, ops: writeAll}},
	{"shred", &Spec{kind: edits, args: "n iterations s size", reads: "random-source", optional: "remove", ops: writeAll}},
	// mkdir(1), mkfifo(1), touch(1) (-r FILE is only read), truncate(1).
	{"mkdir", &Spec{kind: edits, args: "m mode", optional: "context", ops: writeAll}},
	{"mkfifo", &Spec{kind: edits, args: "m mode", optional: "context", ops: writeAll}},
	{"touch", &Spec{kind: edits, args: "d date t time", reads: "r reference", ops: writeAll}},
	{"truncate", &Spec{kind: edits, args: "s size", reads: "r reference", ops: writeAll}},
	// chmod(1), GNU coreutils 9.1: MODE may look like an option (`chmod
	// -w f`; see chmodOps). chown(1),
	// chgrp(1): OWNER/GROUP is the first operand unless --reference.
	{"chmod", &Spec{kind: edits, complete: true, elsewhere: "H L P", flags: "H L P c|changes f|silent|quiet v|verbose R|recursive preserve-root " +
		"no-preserve-root help version", optional: chmodModes, reads: "reference", ops: chmodOps}},
	{"chown", &Spec{kind: edits, complete: true, flags: ownerFlags, args: "from", reads: "reference", ops: ownerOps}},
	{"chgrp", &Spec{kind: edits, complete: true, flags: ownerFlags, reads: "reference", ops: ownerOps}},
	// cp(1), install(1) (GNU coreutils 9.1; newer cp and mv take
	// --update[=WHEN], loose): SOURCE... DEST, or -t DIRECTORY SOURCE...;
	// install -d: every operand is a directory to create; -s runs strip.
	// With -r, -R or -a cp copies directories whole.
	{"cp", &Spec{kind: edits, complete: true, args: "S suffix sparse no-preserve", writes: "t target-directory",
		optional: "backup reflink preserve context", loose: "update", flags: "a archive attributes-only b copy-contents " +
			"d dereference f force i interactive H l link L n no-clobber P no-dereference p no-target-directory T " +
			"x one-file-system parents r R recursive remove-destination s symbolic-link strip-trailing-slashes u " +
			"update v verbose Z help version", ops: cpOps}},
	{"install", &Spec{kind: edits, complete: true, args: "g group m mode o owner S suffix strip-program",
		writes: "t target-directory", optional: "backup context", flags: "b c C compare d directory D p " +
			"preserve-timestamps preserve-context s strip T no-target-directory v verbose Z help version",
		acts: "s strip strip-program", ops: installOps}},
	// mv(1): the sources are removed, so they are written too.
	{"mv", &Spec{kind: edits, complete: true, args: "S suffix", writes: "t target-directory", optional: "backup",
		loose: "update", flags: "b f force i interactive n no-clobber strip-trailing-slashes T no-target-directory " +
			"u update v verbose Z context help version", ops: mvOps}},
	// ln(1): TARGET... LINK_NAME or -t DIRECTORY TARGET...; with one
	// operand the link is made in the current directory. Targets count as
	// reads: the link gives them a name.
	{"ln", &Spec{kind: edits, complete: true, args: "S suffix", writes: "t target-directory", optional: "backup",
		flags: "b d F directory f force i interactive L logical n no-dereference P physical r relative s symbolic " +
			"T no-target-directory v verbose help version", ops: lnOps}},
	// link(1): link FILE1 FILE2.
	{"link", &Spec{kind: edits, ops: inOut}},
	// dd(1): if=FILE and of=FILE operands; no options.
	{"dd", &Spec{kind: edits, raw: true, ops: ddOps}},

	// --- do more than change the files named: never writesOnly ---

	// awk(1) (POSIX, gawk, mawk, BusyBox): the program is the first
	// operand unless -f/-E/-e give it; NAME=value operands are
	// assignments. What the program does is read in awk.go: one that only
	// reads its input and prints is read-only.
	{"awk", &awkSpec}, {"gawk", &awkSpec}, {"mawk", &awkSpec}, {"nawk", &awkSpec}, {"original-awk", &awkSpec},
	// bash(1) `source FILE [ARGS]` and `. FILE [ARGS]`: run the file.
	{"source", &Spec{kind: beyond, stop: true, ops: firstRead}},
	{".", &Spec{kind: beyond, stop: true, ops: firstRead}},
	// less(1), more(1): pagers run commands and editors; +CMD operands are
	// commands. less -o/-O copy the input to a log file.
	{"less", &Spec{kind: beyond, args: "b buffers h max-back-scroll j jump-target p pattern P prompt t tag x tabs " +
		"y max-forw-scroll z window # shift", reads: "k lesskey-file lesskey-src T tag-file",
		writes: "o log-file O LOG-FILE", ops: pagerOps}},
	{"more", &Spec{kind: beyond, args: "n lines", ops: pagerOps}},
	// gzip(1), gunzip, bzip2(1), xz(1), zstd(1) and friends replace or
	// create files next to their operands (f -> f.gz), which are reported
	// as the writes; -c, -t, -l only read.
	{"gzip", &gzipSpec}, {"gunzip", &gzipSpec}, {"bzip2", &compressSpec}, {"bunzip2", &compressSpec},
	{"xz", &xzSpec}, {"unxz", &xzSpec}, {"lzma", &xzSpec}, {"unlzma", &xzSpec},
	{"zstd", &zstdSpec}, {"unzstd", &zstdSpec},
	// tar(1), GNU tar 1.34 (argp: getopt_long's abbreviations): the mode
	// and -C decide; see tarOps. -I, --to-command, --rsh-command,
	// --rmt-command, -F and --checkpoint-action=exec run programs.
	{"tar", &Spec{kind: beyond, bundle: true, complete: true,
		args: "f file C directory b blocking-factor K starting-file N newer after-date L tape-length " +
			"H format V label I use-compress-program F info-script new-volume-script to-command checkpoint-action " +
			"rsh-command rmt-command exclude transform xform owner group mode mtime strip-components suffix " +
			"newer-mtime record-size quoting-style quote-chars no-quote-chars sort hole-detection level " +
			"pax-option sparse-version xattrs-include xattrs-exclude warning exclude-tag exclude-tag-all " +
			"exclude-tag-under program-name",
		reads:    "T files-from X exclude-from owner-map group-map add-file exclude-ignore exclude-ignore-recursive",
		writes:   "g listed-incremental index-file volno-file",
		optional: "occurrence backup checkpoint atime-preserve one-top-level totals",
		flags: "a c d h i j k l m n o p r s t u v w x z A B G J M O P R S U W Z 0 1 2 3 4 5 6 7 8 9 " +
			"absolute-names acls anchored append auto-compress block-number bzip2 catenate check-device " +
			"check-links clamp-mtime compare compress concatenate confirmation create delay-directory-restore " +
			"delete dereference diff exclude-backups exclude-caches exclude-caches-all exclude-caches-under " +
			"exclude-vcs exclude-vcs-ignores extract force-local full-time get gunzip gzip hard-dereference help " +
			"ignore-case ignore-command-error ignore-failed-read ignore-zeros incremental interactive " +
			"keep-directory-symlink keep-newer-files keep-old-files list lzip lzma lzop multi-volume no-acls " +
			"no-anchored no-auto-compress no-check-device no-delay-directory-restore no-ignore-case " +
			"no-ignore-command-error no-null no-overwrite-dir no-recursion no-same-owner no-same-permissions " +
			"no-seek no-selinux no-unquote no-verbatim-files-from no-wildcards no-wildcards-match-slash no-xattrs " +
			"null numeric-owner old-archive one-file-system overwrite overwrite-dir portability posix " +
			"preserve-order preserve-permissions read-full-records recursion recursive-unlink remove-files " +
			"restrict same-order same-owner same-permissions seek selinux show-defaults show-omitted-dirs " +
			"show-snapshot-field-ranges show-stored-names show-transformed-names skip-old-files sparse test-label " +
			"to-stdout touch uncompress ungzip unlink-first unquote update usage utc verbatim-files-from verbose " +
			"verify version wildcards wildcards-match-slash xattrs xz zstd",
		ops: tarOps}},
	// unzip(1): unzip [-opts] file[.zip] [list] [-x xlist] [-d exdir].
	{"unzip", &Spec{kind: beyond, args: "d P O I", ops: unzipOps}},
	// patch(1): patch [options] [originalfile [patchfile]]; without an
	// original file it patches the files the patch names, unknown here.
	{"patch", &Spec{kind: beyond, args: "p strip F fuzz D ifdef V version-control Y basename-prefix z suffix g get " +
		"quoting-style reject-format read-only d directory o output i input r reject-file B prefix",
		optional: "merge", flags: "dry-run", ops: patchOps}},
	// git(1): global options, then a subcommand; see gitOps.
	{"git", &Spec{kind: beyond, raw: true, ops: gitOps, env: "GIT_*"}},
	// make(1) (GNU make 4.3): MAKEFLAGS, MFLAGS and GNUMAKEFLAGS hold
	// options (--eval, -f), MAKEFILES names makefiles read first. go(1):
	// GOFLAGS holds flags (-toolexec, -exec), GOENV names the file that
	// sets them, GOTOOLCHAIN downloads and runs another toolchain, CC/CXX
	// and CGO_* choose the C compiler. npm(1): npm_config_* set any config
	// (script-shell, node-options).
	{"make", &makeSpec},
	{"gmake", &makeSpec},
	{"go", &Spec{kind: beyond, raw: true, ops: goOps, flagFiles: true, env: "GOFLAGS GOENV GOTOOLCHAIN GOROOT CC CXX CGO_*"}},
	{"npm", &Spec{kind: beyond, raw: true, env: "npm_config_* NPM_CONFIG_*"}},
	{"npx", &Spec{kind: beyond, raw: true, env: "npm_config_* NPM_CONFIG_*"}},
	// cargo(1) (cargo 1.95, "Environment Variables" in the Cargo Book):
	// CARGO_* sets any config (CARGO_TARGET_<T>_RUNNER,
	// CARGO_BUILD_RUSTC_WRAPPER), RUSTC, RUSTC_WRAPPER,
	// RUSTC_WORKSPACE_WRAPPER, RUSTDOC choose the programs run,
	// RUSTFLAGS/RUSTDOCFLAGS reach them, RUSTUP_TOOLCHAIN picks a
	// toolchain. pytest (pytest 8, "Environment Variables"):
	// PYTEST_ADDOPTS holds options (-p, --basetemp), PYTEST_PLUGINS loads
	// plugins.
	{"cargo", &Spec{kind: beyond, raw: true, env: "CARGO_* RUSTC RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER RUSTDOC RUSTFLAGS RUSTDOCFLAGS RUSTUP_TOOLCHAIN"}},
	{"pytest", &Spec{kind: beyond, raw: true, env: "PYTEST_ADDOPTS PYTEST_PLUGINS"}},
	// curl(1), wget(1).
	{"curl", &curlSpec},
	{"wget", &wgetSpec},
	// scp(1), rsync(1): the last operand is the destination; host:path
	// operands are remote. With -r (rsync: -r, -a) the sources are
	// copied whole.
	{"scp", &Spec{kind: beyond, args: "c J l o P S X D", reads: "F i", acts: "S", ops: scpOps}},
	// rsync(1) 3.x as `rsync --help` lists it, with the hidden aliases
	// (--del, --remove-sent-files, --protect-args, --log-format, --cc,
	// --zc, --zl, --zt, --i-d) and the --no-OPTION forms it takes (popt:
	// long options spelled whole). --server, --sender and --daemon start
	// the other side's modes.
	{"rsync", &Spec{kind: beyond, complete: true, exact: true,
		args: "info debug stderr suffix confine-root chmod checksum-choice|cc B|block-size rsh|e rsync-path " +
			"max-delete max-size min-size max-alloc usermap groupmap chown timeout contimeout modify-window|@ " +
			"compress-choice|zc compress-level|zl compress-threads|zt skip-compress f|filter exclude include " +
			"copy-as address port sockopts outbuf M|remote-option out-format|log-format log-file-format " +
			"bwlimit stop-after stop-at protocol iconv checksum-seed partial-dir config dparam",
		reads: "exclude-from include-from files-from password-file compare-dest copy-dest link-dest read-batch " +
			"early-input",
		writes: "log-file backup-dir T|temp-dir write-batch only-write-batch",
		flags: "v|verbose q|quiet no-motd c|checksum a|archive r|recursive inc-recursive|i-r no-inc-recursive|no-i-r " +
			"R|relative no-implied-dirs|no-i-d b|backup u|update inplace append append-verify d|dirs old-dirs|old-d " +
			"mkpath l|links L|copy-links copy-unsafe-links safe-links insecure-links munge-links k|copy-dirlinks " +
			"K|keep-dirlinks H|hard-links p|perms E|executability A|acls X|xattrs o|owner g|group devices " +
			"copy-devices write-devices specials drop-D D t|times U|atimes open-noatime N|crtimes " +
			"O|omit-dir-times J|omit-link-times super fake-super S|sparse preallocate n|dry-run W|whole-file " +
			"no-whole-file|no-W x|one-file-system existing|ignore-non-existing ignore-existing " +
			"remove-source-files|remove-sent-files del delete delete-before delete-during delete-delay " +
			"delete-after delete-excluded ignore-missing-args delete-missing-args ignore-errors force partial " +
			"delay-updates m|prune-empty-dirs numeric-ids I|ignore-times size-only y|fuzzy z|compress " +
			"C|cvs-exclude F 0|from0 old-args s|secluded-args|protect-args trust-sender blocking-io stats " +
			"8|8-bit-output h|human-readable progress P i|itemize-changes list-only fsync 4|ipv4 6|ipv6 " +
			"V|version help old-compress new-compress implied-dirs|i-d server sender daemon detach no-detach " +
			"no-verbose no-checksum no-recursive no-relative no-backup no-inplace no-append no-dirs " +
			"no-mkpath no-links no-insecure-links no-munge-links no-hard-links no-perms no-acls no-xattrs " +
			"no-owner no-group no-devices no-write-devices no-specials no-D no-times no-atimes " +
			"no-open-noatime no-crtimes no-omit-dir-times no-omit-link-times no-super no-sparse " +
			"no-one-file-system no-ignore-errors no-force no-partial no-delay-updates no-prune-empty-dirs " +
			"no-numeric-ids no-fuzzy no-compress no-from0 no-old-args no-secluded-args|no-protect-args " +
			"no-blocking-io no-8-bit-output no-human-readable no-progress no-itemize-changes no-iconv " +
			"no-c no-v no-r no-R no-d no-l no-H no-p no-A no-X no-o no-g no-t no-U no-N no-O no-J no-S " +
			"no-x no-m no-y no-z no-s no-i no-h no-8",
		acts: "e rsh rsync-path server sender daemon", ops: rsyncOps}},
	// popd (bash(1) SHELL BUILTIN COMMANDS): `popd [-n] [+N | -N]`; -n
	// keeps the directory. It changes the shell's directory, beyond files.
	{"popd", &Spec{kind: beyond, complete: true, exact: true, flags: "n", obsolete: dirStackIndex}},
	// Disk tools and the archivers cpio and pax (device_table.go).
	{"badblocks", &badblocksSpec}, {"fdisk", &fdiskSpec}, {"sfdisk", &sfdiskSpec}, {"cfdisk", &cfdiskSpec},
	{"gdisk", &gdiskSpec}, {"sgdisk", &sgdiskSpec}, {"parted", &partedSpec}, {"wipefs", &wipefsSpec},
	{"blkdiscard", &blkdiscardSpec}, {"cryptsetup", &cryptsetupSpec}, {"diskutil", &diskutilSpec},
	{"cpio", &cpioSpec}, {"pax", &paxSpec},
	// find(1): -delete removes under the starting points; -fprint*, -fls
	// write a file. The commands of -exec are reported on their own.
	{"find", &Spec{kind: beyond, raw: true, ops: findOps}},
	// sudo(8) -e and sudoedit edit the files named as root. (sudo with a
	// command is a wrapper.)
	{"sudo", sudoEdit(sudoOps)},
	{"sudoedit", sudoEdit(writeAll)},
}}

// ownerFlags are chown(1)'s and chgrp(1)'s (GNU coreutils 9.1).
const ownerFlags = "c changes f silent quiet h no-dereference dereference H L P R recursive v verbose " +
	"preserve-root no-preserve-root help version"

var (
	// grep -C NUM / --context=NUM: GNU takes a separate word, BSD grep
	// (macOS) only an attached one (`-C2`; `grep -C foo .env` reads
	// .env). Taken as attached only, which reads the more files.
	// grep(1) 3.8. -C NUM takes a separate word in GNU grep; BSD grep
	// (macOS) takes only an attached one (loose).
	grepSpec = Spec{complete: true, loose: "C", flags: "basic-regexp binary byte-offset count dereference-recursive extended-regexp files-with-matches files-without-match fixed-regexp help ignore-case initial-tab invert-match line-buffered line-number line-regexp no-filename no-group-separator no-ignore-case no-messages null null-data only-matching perl-regexp quiet recursive silent text unix-byte-offsets version with-filename word-regexp a b c h i l n o q r s u v w x y z E F G H I L P R T U V Z 0 1 2 3 4 5 6 7 8 9", args: "after-context before-context binary-files context devices directories exclude exclude-dir group-separator include label max-count regexp d e m A B C D X", optional: "color|colour", reads: "f file exclude-from", ops: grepOps}
	// make(1), GNU make 4.3: -f reads a makefile, --eval runs text as
	// one, -C and -I make it read others: all of them choose what runs.
	makeSpec = Spec{kind: beyond, complete: true, env: "MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKEFILES",
		flags: "b m B always-make d e environment-overrides h help i ignore-errors k keep-going n just-print " +
			"dry-run recon no-print-directory r no-builtin-rules R no-builtin-variables no-keep-going S stop " +
			"no-silent p print-data-base q question s silent quiet t touch trace v version w print-directory " +
			"warn-undefined-variables check-symlink-times L",
		args: "f file makefile C directory E eval I include-dir o old-file assume-old W what-if new-file " +
			"assume-new jobserver-auth jobserver-fds sync-mutex",
		optional: "debug j jobs l load-average max-load O output-sync",
		acts:     "f file makefile C directory E eval I include-dir"}
	base64Spec = Spec{complete: true, flags: "d decode help ignore-garbage version D", args: "w wrap b break",
		reads: "i input", writes: "o output", elsewhere: "break input output", ops: readAll}
	basencSpec  = Spec{complete: true, flags: "base16 base2lsbf base2msbf base32 base32hex base64 base64url decode help ignore-garbage version z85 d i", args: "wrap w", ops: readAll}
	hexdumpSpec = Spec{complete: true, flags: "canonical help no-squeezing one-byte-char one-byte-octal two-bytes-decimal two-bytes-hex two-bytes-octal version b c d h o v x C V", args: "format length skip e n s", optional: "color L", reads: "f format-file", ops: readAll}
	sumSpec     = Spec{complete: true, flags: "binary check help ignore-missing quiet status strict tag text version warn zero b c t w z", ops: readAll}
	lsSpec      = Spec{complete: true, flags: "all almost-all author context dereference dereference-command-line dereference-command-line-symlink-to-dir directory dired escape file-type full-time group-directories-first help hide-control-chars human-readable ignore-backups inode kibibytes literal no-group numeric-uid-gid quote-name recursive reverse show-control-chars si size version zero a b c d f g h i k l m n o p q r s t u v x A B C D F G H L N Q R S U X Z 1", args: "block-size format hide ignore indicator-style quoting-style sort tabsize time time-style width w I T", optional: "classify color hyperlink"}
	// awkSpec: the options of gawk 5.2 (`gawk --help`), mawk 1.3.4
	// (mawk(1): -F -v -f -W, long options as -W names) and BusyBox awk
	// (-F -v -f -e); option parsing stops at the program.
	awkSpec = Spec{stop: true, complete: true,
		flags: "b characters-as-bytes c traditional C copyright g gen-pot h help I trace k csv M bignum " +
			"N use-lc-numeric n non-decimal-data O optimize P posix r re-interval s no-optimize S sandbox " +
			"t lint-old V version",
		args: "F field-separator v assign e source W", reads: "f file i include E exec l load",
		optional: "d dump-variables D debug L lint o pretty-print p profile",
		acts:     "l load d dump-variables D debug o pretty-print p profile W", ops: awkOps}
	gzipSpec     = Spec{kind: beyond, args: "S suffix", flags: "stdout to-stdout test list", ops: compressOps}
	compressSpec = Spec{kind: beyond, flags: "stdout test", ops: compressOps}
	xzSpec       = Spec{kind: beyond, args: "F format C check T threads M memlimit memory memlimit-compress memlimit-decompress " +
		"memlimit-mt block-size block-list S suffix", optional: "files files0", flags: "stdout to-stdout test list",
		ops: compressOps}
	zstdSpec = Spec{kind: beyond, args: "memory stream-size size-hint target-compressed-block-size format maxdict dictID " +
		"auto-threads priority", optional: "T B M L fast long adapt train train-cover train-fastcover train-legacy",
		reads: "D filelist patch-from", writes: "o trace output-dir-flat output-dir-mirror",
		flags: "stdout test list", ops: compressOps}
	curlSpec = Spec{kind: beyond,
		args: "o output output-dir d data data-ascii data-binary data-raw data-urlencode json F form form-string " +
			"H header proxy-header b cookie w write-out variable url A user-agent e referer X request u user " +
			"U proxy-user x proxy m max-time r range C continue-at Y speed-limit y speed-time z time-cond " +
			"t telnet-option Q quote P ftp-port connect-timeout retry retry-delay retry-max-time max-redirs " +
			"max-filesize limit-rate local-port resolve connect-to interface noproxy proto proto-default " +
			"proto-redir cert-type key-type pass ciphers tls13-ciphers tls-max aws-sigv4 oauth2-bearer " +
			"unix-socket abstract-unix-socket request-target create-file-mode url-query dns-servers " +
			"dns-interface dns-ipv4-addr dns-ipv6-addr doh-url socks4 socks4a socks5 socks5-hostname " +
			"preproxy expect100-timeout happy-eyeballs-timeout-ms keepalive-time parallel-max rate " +
			"mail-from mail-rcpt mail-auth login-options sasl-authzid service-name proxy-service-name " +
			"hostpubmd5 hostpubsha256 pubkey pinnedpubkey proxy-pinnedpubkey delegation krb ftp-account " +
			"ftp-alternative-to-user ftp-method ftp-ssl-ccc-mode curves engine tlsuser tlspassword " +
			"tlsauthtype proxy-tlsuser proxy-tlspassword proxy-tlsauthtype proxy-ciphers proxy-tls13-ciphers " +
			"proxy-cert-type proxy-key-type proxy-pass tftp-blksize",
		reads: "K config netrc-file cacert capath E cert key crlfile proxy-cacert proxy-capath proxy-cert proxy-key " +
			"proxy-crlfile etag-compare random-file egd-file T upload-file",
		writes: "D dump-header c cookie-jar trace trace-ascii stderr libcurl etag-save hsts alt-svc",
		flags:  "remote-name remote-name-all", ops: curlOps}
	wgetSpec = Spec{kind: beyond,
		args: "O output-document P directory-prefix e execute B base t tries T timeout w wait Q quota " +
			"l level A accept R reject D domains I include-directories X exclude-directories U user-agent " +
			"report-speed start-pos progress dns-timeout connect-timeout read-timeout waitretry bind-address " +
			"limit-rate restrict-file-names prefer-family user password use-askpass local-encoding remote-encoding " +
			"cut-dirs http-user http-password default-page header compression proxy-user proxy-password referer " +
			"post-data method body-data secure-protocol certificate-type private-key-type ciphers ftp-user " +
			"ftp-password warc-header warc-max-size warc-dedup warc-tempdir backups accept-regex reject-regex " +
			"regex-type exclude-domains follow-tags ignore-tags retry-on-http-error pinnedpubkey max-redirect",
		reads: "i input-file load-cookies post-file body-file certificate private-key ca-certificate ca-directory " +
			"crl-file config",
		writes: "o output-file a append-output save-cookies rejected-log warc-file",
		flags:  "spider", ops: wgetOps}
)

// specTable is a table of command models in the source's order (grouped
// by kind, each with its citation), found by name by scanning the entries
// for the first lookups (scanLookups), then through an index made once.
// It is static data: the map literals these tables were
// had their few hundred entries inserted, and their values copied, in
// every process's start-up, for the handful one call looks up (about 3% of
// `gatekeep bash -- true`). The models are behind pointers so that making
// the index reads only the names (a few pages), not every model.
// TestSpecTables keeps the names unique, which the map literals' compiler
// checked.
type specTable struct {
	entries []specEntry
	scans   atomic.Int32 // lookups made by scanning entries
	once    sync.Once
	index   map[string]int // name -> entries index, made once
}

// scanLookups is how many lookups a specTable answers by scanning its
// entries before it makes its index: one call looks up a handful of
// names, and scanning the few hundred names costs each about a
// twentieth of making the index, which a batch of calls pays for once.
const scanLookups = 16

// specEntry is one command's model in a specTable (shared, never written:
// a lookup copies it).
type specEntry struct {
	name string
	spec *Spec
}

// get returns the model of name.
func (t *specTable) get(name string) (*Spec, bool) {
	if t.scans.Load() < scanLookups && t.scans.Add(1) <= scanLookups {
		for i := range t.entries {
			if t.entries[i].name == name {
				return t.entries[i].spec, true
			}
		}
		return nil, false
	}
	t.once.Do(func() {
		t.index = make(map[string]int, len(t.entries))
		for i, e := range t.entries {
			if _, dup := t.index[e.name]; !dup {
				t.index[e.name] = i
			}
		}
	})
	i, ok := t.index[name]
	if !ok {
		return nil, false
	}
	return t.entries[i].spec, true
}

// has reports whether the table models name.
func (t *specTable) has(name string) bool {
	_, ok := t.get(name)
	return ok
}

// specs holds the entries of effectTable and wrapperTable with their option
// maps built, each on its first use: building all of them would cost every
// gatekeep process its start-up time. Keyed by the name itself (one map per
// table), a lookup allocates nothing.
var specs struct {
	sync.RWMutex
	effects, wrappers map[string]*Spec
}

// LookupSpec returns the ready entry for a command name, from effectTable
// or (wrapper) wrapperTable.
func LookupSpec(name string, wrapper bool) (*Spec, bool) {
	specs.RLock()
	ready := specs.effects
	if wrapper {
		ready = specs.wrappers
	}
	v, ok := ready[name]
	specs.RUnlock()
	if ok {
		return v, true
	}
	table := &effectTable
	if wrapper {
		table = &wrapperTable
	}
	ts, ok := table.get(name)
	if !ok {
		return nil, false // (before s is made: most names are not in the table)
	}
	s := *ts
	s.init()
	s.wrapper = wrapper
	specs.Lock()
	defer specs.Unlock()
	ready = specs.effects
	if wrapper {
		ready = specs.wrappers
	}
	if v, ok := ready[name]; ok {
		return v, true
	}
	if ready == nil {
		ready = map[string]*Spec{}
		if wrapper {
			specs.wrappers = ready
		} else {
			specs.effects = ready
		}
	}
	ready[name] = &s
	return &s, true
}

// dirStackIndex recognizes popd's `-N`, an index into the directory
// stack counted from the right, which is no option.
func dirStackIndex(t string, _ int) bool {
	return len(t) > 1 && t[0] == '-' && strings.Trim(t[1:], "0123456789") == ""
}

// --- operand readers shared by several commands ---

// readAll: every operand is a file read.
func readAll(l *Cmdline, out *effectList) { out.read(l.Operands()...) }

// writeAll: every operand is a file written.
func writeAll(l *Cmdline, out *effectList) { out.write(l.Operands()...) }

// firstRead: the first operand is read; the rest are arguments.
func firstRead(l *Cmdline, out *effectList) {
	if ops := l.Operands(); len(ops) > 0 {
		out.read(ops[0])
	}
}

// inOut: [INPUT [OUTPUT]] (uniq, link).
func inOut(l *Cmdline, out *effectList) {
	for i, o := range l.Operands() {
		if i == 1 {
			out.write(o)
		} else {
			out.read(o)
		}
	}
}

// uniqOps: uniq [INPUT [OUTPUT]]. A first operand `+N` is the obsolete
// -s N when _POSIX2_VERSION is before 200112 (GNU coreutils, "Standards
// conformance"), and a file otherwise: both readings are reported, so
// `uniq +1 f OUT` writes OUT.
func uniqOps(l *Cmdline, out *effectList) {
	inOut(l, out)
	ops := l.Operands()
	if len(ops) > 2 && len(ops[0].Text) > 1 && ops[0].Text[0] == '+' &&
		strings.Trim(ops[0].Text[1:], "0123456789") == "" {
		out.read(ops[1])
		out.write(ops[2])
	}
}

// cmpOps: cmp FILE1 [FILE2 [SKIP1 [SKIP2]]].
func cmpOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	out.read(ops[:min(2, len(ops))]...)
}

// copyOps: SOURCE... DEST, or -t DIRECTORY SOURCE... (cp, install).
func copyOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	if dirs := l.Values("t", "target-directory"); len(dirs) > 0 || len(ops) == 0 {
		out.read(ops...)
		for _, d := range dirs {
			writeInto(out, d, ops)
		}
		return
	}
	out.read(ops[:len(ops)-1]...)
	out.write(ops[len(ops)-1])
	if !l.Has("T", "no-target-directory") {
		writeInto(out, ops[len(ops)-1], ops[:len(ops)-1])
	}
}

// writeInto reports the files a copy, move or link opens in a destination
// that is (or may be) a directory: DIR/basename(SRC) for each source
// (cp(1): "copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY"). The
// file opened is that one, not DIR: a link planted at DIR/NAME is
// resolved like any other write.
func writeInto(out *effectList, dir Arg, srcs []Arg) {
	for _, src := range srcs {
		base := path.Base(strings.TrimRight(src.Text, "/"))
		if src.Dynamic || dir.Dynamic {
			out.write(made(strings.TrimSuffix(dir.Text, "/")+"/"+base, dir, true))
			continue
		}
		if base == "/" || base == "." || base == ".." {
			continue
		}
		out.write(joinArg(dir, made(base, dir, false)))
	}
}

// cpOps: copyOps, where -r, -R and -a (--recursive, --archive) copy
// the sources' trees.
func cpOps(l *Cmdline, out *effectList) {
	if !l.Has("r", "R", "recursive", "a", "archive") {
		copyOps(l, out)
		return
	}
	ops := l.Operands()
	follow := l.Has("L", "dereference")
	if dirs := l.Values("t", "target-directory"); len(dirs) > 0 || len(ops) == 0 {
		out.readTree(nil, ops...)
		for _, d := range dirs {
			writeInto(out, d, ops)
			out.treeInto(d, ops, false, follow)
		}
		return
	}
	out.readTree(nil, ops[:len(ops)-1]...)
	out.write(ops[len(ops)-1])
	noTarget := l.Has("T", "no-target-directory")
	if !noTarget {
		writeInto(out, ops[len(ops)-1], ops[:len(ops)-1])
	}
	// The entries below each source are written under their own names
	// (`cp -r SRC/. DEST` writes DEST/.envrc): FileEffect.Tree.
	out.treeInto(ops[len(ops)-1], ops[:len(ops)-1], noTarget, follow)
}

// mvOps: every operand is written (the sources are removed), and the
// files opened in a destination directory (writeInto). A directory moved
// puts every entry below it at a new name (FileEffect.Tree).
func mvOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	writeAll(l, out)
	for _, d := range l.Values("t", "target-directory") {
		writeInto(out, d, ops)
		out.treeInto(d, ops, false, false)
	}
	if len(ops) > 1 && !l.Has("t", "target-directory") {
		noTarget := l.Has("T", "no-target-directory")
		if !noTarget {
			writeInto(out, ops[len(ops)-1], ops[:len(ops)-1])
		}
		out.treeInto(ops[len(ops)-1], ops[:len(ops)-1], noTarget, false)
	}
}

func installOps(l *Cmdline, out *effectList) {
	if l.Has("d", "directory") {
		writeAll(l, out)
		return
	}
	copyOps(l, out)
}

func lnOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	if len(ops) == 1 && !l.Has("t", "target-directory") {
		out.read(ops[0])
		out.write(made(path.Base(ops[0].Text), ops[0], false))
		return
	}
	copyOps(l, out)
}

func rmdirOps(l *Cmdline, out *effectList) {
	for _, o := range l.Operands() {
		out.write(o)
		if !l.Has("p", "parents") || o.Dynamic {
			continue
		}
		for p := strings.TrimRight(o.Text, "/"); ; {
			d := path.Dir(p)
			if d == "." || d == "/" || d == p {
				break
			}
			out.write(made(d, o, false))
			p = d
		}
	}
}

func ownerOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	if !l.Has("reference") && len(ops) > 0 {
		ops = ops[1:]
	}
	out.write(ops...)
	followTree(l, out, ops)
}

// followTree reports the trees a recursive chown, chgrp or chmod changes
// when it follows every symbolic link it meets (-R with -L, the last of
// -H, -L and -P; chown(1), chgrp(1), BSD chmod(1)): each entry below an
// operand, through links, is changed as a write of its own.
func followTree(l *Cmdline, out *effectList, ops []Arg) {
	if !l.Has("R", "recursive") {
		return
	}
	follow := false
	for _, it := range l.Items {
		switch it.Opt {
		case "L":
			follow = true
		case "H", "P":
			follow = false
		}
	}
	if !follow {
		return
	}
	for _, o := range ops {
		out.writeTree(o, o, true)
	}
}

// chmodOps follows chmod(1): the first operand is the MODE, unless a
// mode was given as options (`-w`, `-rwx`, `-x,g+r`: GNU chmod parses
// its mode letters as options with an optional argument and takes the
// whole word as the mode) or --reference names the file to copy it from.
func chmodOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	if !l.Has(chmodModeLetters()...) && !l.Has("reference") && len(ops) > 0 {
		ops = ops[1:]
	}
	out.write(ops...)
	followTree(l, out, ops)
}

// chmodModes are the letters of a symbolic or octal mode, which GNU chmod
// reads as options (chmod.c: "Rcfvr::w::x::X::s::t::u::g::o::a::,::+::=::0::1::2::3::4::5::6::7::").
const chmodModes = "r w x X s t u g o a , + = 0 1 2 3 4 5 6 7"

var chmodModeLetters = sync.OnceValue(func() []string { return strings.Fields(chmodModes) })

// grepOps: the pattern is the first operand unless -e/-f give it. With
// -r, -R or -d recurse every operand is read as a tree (the working
// directory when there is none), filtered by --include, --exclude and
// --exclude-dir (grepFilter).
func grepOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	if !l.Has("e", "regexp", "f", "file") && len(ops) > 0 {
		ops = ops[1:]
	}
	recursive := l.Has("r", "R", "recursive", "dereference-recursive")
	for _, d := range l.Values("d", "directories") {
		// grep's argmatch takes any unambiguous prefix of read, recurse
		// or skip (`-d rec`): only a value that can be read or skip alone
		// keeps the walk out.
		v := d.Text
		recursive = recursive || d.Dynamic || v == "" ||
			!(strings.HasPrefix("read", v) && !strings.HasPrefix("recurse", v)) && !strings.HasPrefix("skip", v)
	}
	if !recursive {
		out.read(ops...)
		return
	}
	if len(ops) == 0 && !l.Cmd.TrailingArgs {
		// grep -r with no file searches the working directory.
		ops = []Arg{made(".", Arg{Word: l.Cmd.Args[0]}, false)}
	}
	for _, o := range ops {
		out.readTree(grepFilter(l, o), o)
	}
}

// grepFilter reads grep's --include, --exclude and --exclude-dir for the
// entries below the operand top, as GNU grep(1) and BSD grep(1) (macOS)
// apply them: among --include and --exclude the last matching one wins;
// when none matches a file is read unless the first of them is
// --include (GNU; BSD: unless there is any --include, which reads less).
// --exclude-dir skips a directory whose base name matches (BSD: unless a
// --include-dir follows, so that option turns them all off here).
//
// The two greps match differently (GNU a base name or any trailing part
// of the path, BSD the base name or the whole path, both with fnmatch(3)
// where `*` crosses "/"), so only the matches both agree on are trusted:
// an --exclude counts when it matches the base name, an --include when
// it matches any trailing part. A glob with `[` or `\` is not read: as an
// --exclude it matches nothing, as an --include everything. Patterns from
// --exclude-from are left out (they only exclude). What is read is never
// less than either grep reads.
func grepFilter(l *Cmdline, top Arg) *Filter {
	type pat struct {
		opt  string
		glob string
		ok   bool // a glob of literals, `*` and `?` only
	}
	var files, dirs []pat
	includeDir := false
	for _, it := range l.Items {
		switch it.Opt {
		case "include", "exclude":
			if v := l.Val(it); it.Has {
				files = append(files, pat{it.Opt, v.Text, !v.Dynamic && simpleGlob(v.Text)})
			}
		case "exclude-dir":
			if v := l.Val(it); it.Has && !v.Dynamic && simpleGlob(v.Text) {
				dirs = append(dirs, pat{it.Opt, v.Text, true})
			}
		case "include-dir":
			includeDir = true
		}
	}
	if len(files) == 0 && (len(dirs) == 0 || includeDir) {
		return nil
	}
	prefix := strings.TrimSuffix(top.Text, "/") + "/"
	return &Filter{Entry: func(rel string, dir bool) EntryVerdict {
		base := path.Base(rel)
		if dir {
			if includeDir {
				return EntryDefault
			}
			for _, p := range dirs {
				if wildMatch(p.glob, base) {
					return EntrySkip
				}
			}
			return EntryDefault
		}
		read := len(files) == 0 || files[0].opt != "include"
		full := prefix + rel
		for _, p := range files {
			switch {
			case p.opt == "exclude" && p.ok && wildMatch(p.glob, base):
				read = false
			case p.opt == "include" && (!p.ok || wildSuffix(p.glob, full)):
				read = true
			}
		}
		if !read {
			return EntrySkip
		}
		return EntryDefault
	}}
}

// rgOps: the pattern is the first operand unless -e/-f (or --files,
// --type-list, which take none) say otherwise. Operands are searched as
// trees, the working directory when there is none; --files only lists
// names.
func rgOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	if l.Has("type-list") {
		return
	}
	if l.Has("files") {
		out.read(ops...)
		return
	}
	if !l.Has("e", "regexp", "f", "file") && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 && !l.Cmd.TrailingArgs {
		// With no path rg searches the working directory (or its standard
		// input, when that is a pipe: the directory is the stronger case).
		ops = []Arg{made(".", Arg{Word: l.Cmd.Args[0]}, false)}
	}
	f := rgFilter(l)
	for _, o := range ops {
		out.readTree(f, o)
	}
}

// rgFilter reads what rg(1) leaves out below a directory it searches
// (the ignore crate's precedence: --glob overrides, then ignore files,
// then hidden files). Hidden files are left out unless --hidden, -.,
// -uu, a --type (a type's globs may name a hidden file) or an
// --ignore-file (it may whitelist) is given; an ignore file's `!` line
// is the caller's to check. Globs: the last matching one wins, `!GLOB`
// leaves an entry out, GLOB names it (it is then read even if hidden),
// and with any GLOB a file no GLOB names is left out. Only globs without
// `/`, `[`, `{`, `\` or `**` are read (matched against the base name);
// another GLOB names every entry, another `!GLOB` none.
func rgFilter(l *Cmdline) *Filter {
	f := &Filter{Hidden: true}
	unrestricted := 0
	type glob struct {
		neg, fold, dirOnly, ok bool
		pat                    string
	}
	var globs []glob
	fold := l.Has("glob-case-insensitive")
	for _, it := range l.Items {
		switch it.Opt {
		case "hidden", ".", "t", "type", "type-add", "ignore-file":
			f.Hidden = false
		case "u", "unrestricted":
			unrestricted++
		case "g", "glob", "iglob":
			if !it.Has {
				continue
			}
			v := l.Val(it)
			g := glob{fold: fold || it.Opt == "iglob", pat: v.Text, ok: !v.Dynamic}
			if strings.HasPrefix(g.pat, "!") {
				g.neg, g.pat = true, g.pat[1:]
			}
			if strings.HasSuffix(g.pat, "/") {
				g.dirOnly, g.pat = true, strings.TrimSuffix(g.pat, "/")
			}
			g.ok = g.ok && g.pat != "" && simpleGlob(g.pat) && !strings.ContainsAny(g.pat, "/{") && !strings.Contains(g.pat, "**")
			if g.fold {
				g.pat = strings.ToLower(g.pat)
			}
			globs = append(globs, g)
		}
	}
	if unrestricted >= 2 {
		f.Hidden = false
	}
	if len(globs) == 0 {
		return f
	}
	f.Entry = func(rel string, dir bool) EntryVerdict {
		base := path.Base(rel)
		v, positive := EntryDefault, false
		for _, g := range globs {
			name := base
			if g.fold {
				name = strings.ToLower(base)
			}
			hit := g.ok && (!g.dirOnly || dir) && wildMatch(g.pat, name)
			switch {
			case g.neg && hit:
				v = EntrySkip
			case !g.neg && (hit || !g.ok):
				v = EntryListed
			}
			positive = positive || !g.neg
		}
		if v == EntryDefault && positive && !dir {
			return EntrySkip // overrides with a whitelist leave out what they do not name
		}
		return v
	}
	return f
}

// simpleGlob reports whether a glob uses no special characters but `*`
// and `?`, which every fnmatch(3) and glob library reads alike.
func simpleGlob(g string) bool { return !strings.ContainsAny(g, "[\\") }

// wildMatch matches name against a glob of literals, `*` (any run of
// characters, "/" included) and `?` (one character).
func wildMatch(glob, name string) bool {
	g, n := []rune(glob), []rune(name)
	gi, ni, star, mark := 0, 0, -1, 0
	for ni < len(n) {
		switch {
		case gi < len(g) && g[gi] == '*':
			star, mark = gi, ni
			gi++
		case gi < len(g) && (g[gi] == '?' || g[gi] == n[ni]):
			gi++
			ni++
		case star >= 0:
			mark++
			gi, ni = star+1, mark
		default:
			return false
		}
	}
	for gi < len(g) && g[gi] == '*' {
		gi++
	}
	return gi == len(g)
}

// wildSuffix reports whether the glob matches the whole path or a
// trailing part of it that starts after a "/".
func wildSuffix(glob, p string) bool {
	if wildMatch(glob, p) {
		return true
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && wildMatch(glob, p[i+1:]) {
			return true
		}
	}
	return false
}

// diffOps: every operand, and --from-file/--to-file, is read as a tree.
func diffOps(l *Cmdline, out *effectList) {
	out.readTree(nil, l.Values("from-file", "to-file")...)
	out.readTree(nil, l.Operands()...)
}

// treeOps: with --fromfile or --fromtabfile the operands are files whose
// lines tree prints ("." is standard input); otherwise they are listed.
func treeOps(l *Cmdline, out *effectList) {
	if !l.Has("fromfile", "fromtabfile") {
		return
	}
	for _, o := range l.Operands() {
		if o.Text != "." || o.Dynamic {
			out.read(o)
		}
	}
}

func jqOps(l *Cmdline, out *effectList) {
	filter := l.Has("f", "from-file")
	// A program read from a file is not known; one that imports or
	// includes a module reads files from a search path the program itself
	// may set (`import "x" as $c {search: "~/.claude"}` reads
	// ~/.claude/x.json): either is more than the named files.
	out.acted = out.acted || filter
	values := false
	for _, it := range l.Items {
		switch {
		case it.Opt == "args" || it.Opt == "jsonargs":
			values = true
		case it.Opt != "":
		case !filter:
			filter = true
			if v := l.Val(it); v.Dynamic || jqModules().MatchString(v.Text) {
				out.acted = true
			}
		case !values:
			out.read(l.Val(it))
		}
	}
}

// jqModules finds a jq module directive (jq manual, Modules): import,
// include, and modulemeta, which reads a module's metadata.
var jqModules = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(import|include|modulemeta)\b`) })

func pagerOps(l *Cmdline, out *effectList) {
	for _, o := range l.Operands() {
		if !strings.HasPrefix(o.Text, "+") {
			out.read(o)
		}
	}
}

func splitOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	if len(ops) > 0 {
		out.read(ops[0])
	}
	if len(ops) > 1 {
		// The pieces are PREFIXaa, PREFIXab ... (split(1)): PREFIX
		// itself is never opened, but `dir/` as PREFIX writes dir/xaa.
		out.write(made(ops[1].Text+"aa", ops[1], ops[1].Dynamic))
		out.write(ops[1])
	} else {
		out.write(made(".", Arg{Word: l.Cmd.Args[0]}, false)) // xaa, xab ... here
	}
}

func ddOps(l *Cmdline, out *effectList) {
	for _, o := range l.Operands() {
		key, val, ok := strings.Cut(o.Text, "=")
		if !ok {
			continue
		}
		f := Arg{Word: Word{Text: val, Dynamic: o.Dynamic, Offset: o.Offset}, At: o.At}
		switch key {
		case "if":
			out.read(f)
		case "of":
			out.write(f)
		}
	}
}

// xxdOps follows xxd(1)'s own syntax: each option is one word; -c, -g,
// -l, -n, -o, -s take the rest of the word or, when bare or spelled out
// (`-cols 8`, `-seek 4`), the next word. "-" as outfile is stdout.
func xxdOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	tails := map[byte][]string{'c': {"ols"}, 'g': {"roup"}, 'l': {"en"}, 'n': {"ame"},
		'o': {"ffset"}, 's': {"eek", "kip"}, 'R': nil}
	i := 0
	for ; i < len(ops); i++ {
		t := ops[i].Text
		if t == "--" {
			i++
			break
		}
		if len(t) < 2 || t[0] != '-' {
			break
		}
		tail, ok := tails[t[1]]
		if !ok {
			continue
		}
		next := len(t) == 2
		for _, s := range tail {
			next = next || strings.HasPrefix(t[2:], s)
		}
		if next {
			i++
		}
	}
	if i < len(ops) {
		out.read(ops[i])
	}
	if i+1 < len(ops) && (ops[i+1].Text != "-" || ops[i+1].Dynamic) {
		out.write(ops[i+1])
	}
}

func compressOps(l *Cmdline, out *effectList) {
	for _, f := range l.Values("files", "files0") {
		out.read(f)
	}
	if l.Has("c", "stdout", "to-stdout", "t", "test", "l", "list", "o") {
		readAll(l, out)
		return
	}
	writeAll(l, out)
}

// sudoEdit is sudo's model (wrapperTable) read as a command of its own:
// every operand is a file it edits.
func sudoEdit(ops func(*Cmdline, *effectList)) *Spec {
	s := sudoSpec
	s.stop, s.ops = true, ops
	return &s
}

func sudoOps(l *Cmdline, out *effectList) {
	if l.Has("e", "edit") {
		writeAll(l, out)
	}
}

func nohupOps(l *Cmdline, out *effectList) {
	if l.Cmd.StdoutAway {
		return // a pipe, or a file the enclosing command names
	}
	for _, r := range l.Cmd.Redirects {
		if r.Writes() && (r.Fd < 0 || r.Fd == 1) {
			return
		}
	}
	// ./nohup.out, or $HOME/nohup.out when ./ is not writable (GNU
	// coreutils manual, "nohup invocation").
	out.write(made("nohup.out", Arg{Word: l.Cmd.Args[0]}, false))
	out.write(made("~/nohup.out", Arg{Word: l.Cmd.Args[0]}, false))
}

// --- sed ---

// sedOps: the scripts come from -e/--expression, else the first operand;
// with -i the files are written, else read.
func sedOps(l *Cmdline, out *effectList) {
	scripts := l.Values("e", "expression")
	files := l.Operands()
	if len(scripts) == 0 && !l.Has("f", "file") && len(files) > 0 {
		scripts, files = files[:1], files[1:]
	}
	if len(scripts) > 0 {
		text := make([]string, len(scripts))
		dynamic := false
		for i, s := range scripts {
			text[i] = s.Text
			dynamic = dynamic || s.Dynamic
		}
		reads, writes, runs, ok := sedProgram(strings.Join(text, "\n"))
		if dynamic || runs || !ok {
			out.acted = true
		}
		if !dynamic {
			for _, f := range reads {
				out.add(Read, made(f, scripts[0], false))
			}
			for _, f := range writes {
				out.add(Write, made(f, scripts[0], false))
			}
		}
	}
	if l.Has("i", "in-place") {
		out.write(files...)
		for _, suffix := range l.Values("i", "in-place") {
			for _, f := range files {
				out.write(sedBackup(f, suffix))
			}
		}
	} else {
		out.read(files...)
	}
}

// sedBackup is the backup file GNU sed writes for FILE with -iSUFFIX (the
// GNU sed manual, "--in-place"): each `*` in SUFFIX stands for FILE's
// base name, else SUFFIX is appended to it; a SUFFIX holding "/" names a
// path (from the working directory), else the backup lands in FILE's
// directory. It is written with FILE's mode, so a backup put at
// .git/hooks/pre-commit is a hook.
func sedBackup(f, suffix Arg) Arg {
	dir, base := path.Split(f.Text)
	name := base + suffix.Text
	if strings.Contains(suffix.Text, "*") {
		name = strings.ReplaceAll(suffix.Text, "*", base)
	}
	if !strings.Contains(suffix.Text, "/") {
		name = dir + name
	}
	return made(name, suffix, f.Dynamic || suffix.Dynamic)
}

// --- archives, transfers, version control ---

// remote reports whether an operand names another host: `host:path`,
// `user@host:path`, `host::module`, `scp://` or `rsync://` (scp(1),
// rsync(1), tar(1) --force-local). A colon after a slash is part of a
// local name. A dynamic word may be anything, so it is local.
func remote(a Arg) bool {
	if a.Dynamic {
		return false
	}
	t := a.Text
	if strings.HasPrefix(t, "scp://") || strings.HasPrefix(t, "rsync://") {
		return true
	}
	i := strings.IndexByte(t, ':')
	return i > 0 && !strings.Contains(t[:i], "/")
}

func scpOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	tree := l.Has("r")
	for i, o := range ops {
		switch {
		case remote(o):
		case i == len(ops)-1 && i > 0:
			out.write(o)
		case tree:
			out.readTree(nil, o)
		default:
			out.read(o)
		}
	}
}

func rsyncOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	last := len(ops) - 1
	if len(ops) < 2 || l.Has("list-only") {
		last = -1 // no destination: rsync lists the sources
	}
	moves := l.Has("remove-source-files", "remove-sent-files")
	tree := l.Has("r", "recursive", "a", "archive", "d", "dirs")
	for i, o := range ops {
		switch {
		case remote(o):
		case i == last || moves:
			out.write(o)
		case tree:
			out.readTree(nil, o)
		default:
			out.read(o)
		}
	}
	// A recursive copy writes the entries below each source under their
	// own names (FileEffect.Tree): `rsync -r SRC/ DEST` into DEST, `rsync
	// -r SRC DEST` into DEST/SRC, -R into DEST/SRC-PATH; a remote source's
	// or --files-from's names are only known at run time.
	if last < 1 || remote(ops[last]) {
		return
	}
	dest := ops[last]
	follow := l.Has("L", "copy-links", "k", "copy-dirlinks", "copy-unsafe-links")
	if l.Has("files-from") {
		out.writeTree(dest, Arg{}, follow)
	}
	if !tree {
		return
	}
	for _, o := range ops[:last] {
		if remote(o) {
			out.writeTree(dest, Arg{}, follow)
			continue
		}
		// rsync(1): "a trailing slash on the source ... avoids creating
		// an additional directory level at the destination".
		base := path.Base(strings.TrimRight(o.Text, "/"))
		switch {
		case l.Has("R", "relative"):
			out.writeTree(made(strings.TrimSuffix(dest.Text, "/")+"/"+strings.TrimLeft(o.Text, "/"), dest, o.Dynamic), o, follow)
		case o.Dynamic || dest.Dynamic:
			out.writeTree(dest, o, follow)
			out.writeTree(made(strings.TrimSuffix(dest.Text, "/")+"/"+base, dest, true), o, follow)
		case strings.HasSuffix(o.Text, "/") || base == "." || base == ".." || base == "/":
			out.writeTree(dest, o, follow)
		default:
			out.writeTree(joinArg(dest, made(base, dest, false)), o, follow)
		}
	}
}

// tarOps follows GNU tar(1): -c/-r/-u/-A/--delete write the archive (-f),
// -x/-t/-d read it. Extraction writes into each -C directory, or the
// current one; -P lets member paths escape it. Creation reads the member
// operands, relative to the -C before them (-C is cumulative).
func tarOps(l *Cmdline, out *effectList) {
	modes := map[string]string{"c": "c", "create": "c", "x": "x", "extract": "x", "get": "x", "t": "t",
		"list": "t", "r": "r", "append": "r", "u": "u", "update": "u", "A": "A", "catenate": "A",
		"concatenate": "A", "d": "d", "diff": "d", "compare": "d", "delete": "delete"}
	mode := ""
	for _, it := range l.Items {
		if m, ok := modes[it.Opt]; ok && it.Opt != "" {
			mode = m
		}
	}
	adds := mode == "c" || mode == "r" || mode == "u"
	writesArchive := adds || mode == "A" || mode == "delete"
	for _, f := range l.Values("f", "file") {
		switch {
		case f.Text == "-" && !f.Dynamic, remote(f) && !l.Has("force-local"):
		case writesArchive:
			out.write(f)
		default:
			out.read(f)
		}
	}
	var dir Arg
	var dirs []Arg
	for _, it := range l.Items {
		switch {
		case (it.Opt == "C" || it.Opt == "directory") && it.Has:
			dir = joinArg(dir, l.Val(it))
			dirs = append(dirs, dir)
		case it.Opt == "" && adds:
			out.readTree(nil, joinArg(dir, l.Val(it))) // members are archived whole
		case it.Opt == "" && mode == "A":
			out.read(l.Val(it))
		}
	}
	if mode != "x" || l.Has("O", "to-stdout", "to-command") {
		return
	}
	if len(dirs) == 0 {
		dirs = []Arg{made(".", Arg{Word: l.Cmd.Args[0]}, false)}
	}
	for _, d := range dirs {
		out.writeTree(d, Arg{}, false) // the members' names are in the archive
	}
	if l.Has("P", "absolute-names") {
		out.write(made("(absolute paths in the archive)", Arg{Word: l.Cmd.Args[0]}, true))
	}
}

func unzipOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	if len(ops) > 0 {
		out.read(ops[0])
	}
	if l.Has("l", "v", "t", "z", "p", "c", "Z") {
		return // list, test, comment, pipe: nothing is extracted
	}
	dirs := l.Values("d")
	if len(dirs) == 0 {
		dirs = []Arg{made(".", Arg{Word: l.Cmd.Args[0]}, false)}
	}
	for _, d := range dirs {
		out.writeTree(d, Arg{}, false) // the members' names are in the archive
	}
	if l.Has(":") {
		out.write(made("(paths in the archive)", Arg{Word: l.Cmd.Args[0]}, true))
	}
}

// patchOps: patch changes to -d DIR first; the other paths are relative to
// it. Without an original file the patched files are named by the patch:
// one dynamic write stands for them.
func patchOps(l *Cmdline, out *effectList) {
	var dir Arg
	for _, d := range l.Values("d", "directory") {
		dir = joinArg(dir, d)
		out.write(dir)
	}
	in := func(a Arg) Arg {
		if a.Text == "-" && !a.Dynamic {
			return a
		}
		return joinArg(dir, a)
	}
	for _, f := range l.Values("i", "input") {
		out.read(in(f))
	}
	outs := l.Values("o", "output")
	for _, f := range outs {
		if f.Text != "-" || f.Dynamic {
			out.write(in(f))
		}
	}
	for _, f := range l.Values("r", "reject-file", "B", "prefix") {
		if f.Text != "-" || f.Dynamic {
			out.write(in(f))
		}
	}
	dry := l.Has("dry-run")
	ops := l.Operands()
	switch {
	case len(ops) > 0 && (len(outs) > 0 || dry):
		out.read(in(ops[0]))
	case len(ops) > 0:
		out.write(in(ops[0]))
	case len(outs) == 0 && !dry:
		out.write(made("(files named in the patch)", Arg{Word: l.Cmd.Args[0]}, true))
	}
	if len(ops) > 1 {
		out.read(in(ops[1]))
	}
}

// gitReadOnly are the subcommands that change nothing in the repository
// (git(1), each subcommand's page). See also gitReads.
var gitReadOnly = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"status": true, "log": true, "diff": true, "show": true, "blame": true, "annotate": true, "grep": true,
		"ls-files": true, "ls-tree": true, "ls-remote": true, "rev-parse": true, "rev-list": true,
		"describe": true, "shortlog": true, "cat-file": true, "whatchanged": true, "version": true,
		"help": true, "check-ignore": true, "check-attr": true, "check-ref-format": true, "name-rev": true,
		"merge-base": true, "show-ref": true, "for-each-ref": true, "count-objects": true, "var": true,
		"diff-tree": true, "diff-files": true, "diff-index": true, "cherry": true, "range-diff": true,
		"show-branch": true, "verify-commit": true, "verify-tag": true,
	}
})

// gitReads reports whether a git subcommand with its arguments changes
// nothing in the repository. branch, tag and remote count as reading: their
// listing forms are on the policy's safe list, and their writing forms are
// never safe commands, so they are asked about as commands anyway. stash,
// worktree and reflog read in the forms git-stash(1), git-worktree(1) and
// git-reflog(1) give for listing and showing.
func gitReads(sub Arg, rest []Arg) bool {
	if sub.Dynamic {
		return false
	}
	first := ""
	if len(rest) > 0 {
		first = rest[0].Text
	}
	switch sub.Text {
	case "branch", "tag", "remote":
		return true
	case "stash":
		return first == "list" || first == "show"
	case "worktree":
		return first == "list"
	case "reflog":
		return first != "expire" && first != "delete" && first != "drop" && first != "write"
	}
	return gitReadOnly()[sub.Text]
}

// gitOps follows git(1): `-C DIR` (cumulative), `--git-dir`, `--work-tree`
// and GIT_DIR/GIT_WORK_TREE point git at another repository; with a
// subcommand that is not read-only, those directories are written. Also
// written anywhere: --output (git-diff(1)), -o/--output-directory
// (git-format-patch(1), git-archive(1)), and the directory made by clone,
// init and `worktree add`.
func gitOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	var cdir Arg
	var dirs []Arg
	// git's global options, read by its model (gitGlobalSpec).
	g := GitGlobal(l.Cmd)
	for _, it := range g.Items {
		switch v := g.Val(it); {
		case !it.Has:
		case it.Opt == "C":
			if v.Text != "" || v.Dynamic {
				cdir = joinArg(cdir, v)
			}
		case it.Opt == "git-dir" || it.Opt == "work-tree":
			dirs = append(dirs, v)
		}
	}
	i := len(ops)
	if subs := g.Operands(); len(subs) > 0 {
		i = subs[0].At - 1 // (ops holds every word after the name)
	}
	if i >= len(ops) {
		return // no subcommand: git prints its usage
	}
	for _, a := range l.Cmd.Assigns {
		if a.Name == "GIT_DIR" || a.Name == "GIT_WORK_TREE" {
			dirs = append(dirs, Arg{Word: Word{Text: a.Value, Dynamic: a.Dynamic, Offset: l.Cmd.Offset}, At: -1})
		}
	}
	sub, rest := ops[i], ops[i+1:]
	here := cdir
	if here.Text == "" && !here.Dynamic {
		here = made(".", sub, false)
	}
	if !gitReads(sub, rest) {
		if cdir.Text != "" || cdir.Dynamic {
			out.write(cdir)
		}
		for _, d := range dirs {
			out.write(joinArg(cdir, d))
		}
	}
	name := sub.Text
	short := name == "format-patch" || name == "archive"
	for j := 0; j < len(rest); j++ {
		t := rest[j].Text
		switch {
		case t == "--":
			j = len(rest)
		case t == "--output" || t == "--output-directory" || t == "-o" && short || t == "--separate-git-dir":
			if j+1 < len(rest) {
				j++
				out.write(joinArg(cdir, rest[j]))
			}
		case strings.HasPrefix(t, "--output=") || strings.HasPrefix(t, "--output-directory=") ||
			strings.HasPrefix(t, "--separate-git-dir="):
			_, v, _ := strings.Cut(t, "=")
			out.write(joinArg(cdir, Arg{Word: Word{Text: v, Dynamic: rest[j].Dynamic, Offset: rest[j].Offset}, At: rest[j].At}))
		case strings.HasPrefix(t, "-o") && len(t) > 2 && short:
			out.write(joinArg(cdir, Arg{Word: Word{Text: t[2:], Dynamic: rest[j].Dynamic, Offset: rest[j].Offset}, At: rest[j].At}))
		}
	}
	var created []Arg
	switch {
	case name == "clone":
		created = gitOperands(rest, "o origin b branch u upload-pack reference reference-if-able separate-git-dir "+
			"depth shallow-since shallow-exclude j jobs template c config filter server-option bundle-uri ref-format")
		if len(created) < 2 {
			created = append(created, here, here)
		}
		created = created[1:2]
	case name == "init":
		created = gitOperands(rest, "template separate-git-dir object-format ref-format b initial-branch")
		if len(created) == 0 {
			created = []Arg{here}
		}
		created = created[:1]
	case name == "worktree" && len(rest) > 0 && rest[0].Text == "add":
		created = gitOperands(rest[1:], "b B reason")
		created = created[:min(1, len(created))]
	}
	for _, d := range created {
		if d != cdir {
			out.write(joinArg(cdir, d))
		}
	}
	gitFileReads(sub, rest, cdir, out)
	gitModelReads(l.Cmd, cdir, out)
	gitConfigWrites(sub, rest, cdir, out)
}

// gitFileReads reports the files a git subcommand prints that Read rules
// must see: the working-tree files of `diff --no-index` and
// `grep --no-index`/`--untracked` (as trees), `blame --contents FILE` and
// blame's file operand, the path inside a revision (`show REV:PATH`,
// `cat-file -p :PATH`, `log -L10,20:PATH`), and pathspecs after `--` of
// the commands that print contents. A path inside a revision is relative
// to the top of the work tree (`REV:./x` to the current directory); it
// is reported relative to the current directory, which a Read rule on a
// bare name (`.env`) matches either way (git-rev-parse(1) SPECIFYING
// REVISIONS, git-diff(1), git-grep(1), git-blame(1), git-log(1)).
func gitFileReads(sub Arg, rest []Arg, cdir Arg, out *effectList) {
	name := sub.Text
	part := func(a Arg, text string) Arg {
		return joinArg(cdir, Arg{Word: Word{Text: text, Dynamic: a.Dynamic, Offset: a.Offset}, At: a.At})
	}
	switch name {
	case "show", "cat-file", "log", "whatchanged", "shortlog", "diff", "blame", "annotate", "grep":
	default:
		return
	}
	// grep's options that take the next word (git-grep(1)).
	grepArg := []string{"-e", "-f", "-A", "-B", "-C", "-m", "--max-count", "--max-depth", "--threads",
		"--after-context", "--before-context", "--context"}
	noIndex, untracked, pattern := false, false, false
	var operands, specs []Arg
	for j := 0; j < len(rest); j++ {
		w := rest[j]
		t := w.Text
		switch {
		case t == "--":
			specs = append(specs, rest[j+1:]...)
			j = len(rest)
		case w.Dynamic || !strings.HasPrefix(t, "-") || t == "-":
			operands = append(operands, w)
		case gitLongOpt(t, "--no-index"):
			noIndex = true
		case gitLongOpt(t, "--untracked"):
			untracked = true
		case (name == "blame" || name == "annotate") && (t == "--contents" || strings.HasPrefix(t, "--contents=")):
			f := ""
			if v, ok := strings.CutPrefix(t, "--contents="); ok {
				f = v
			} else if j+1 < len(rest) {
				j++
				w = rest[j]
				f = w.Text
			}
			if f != "-" || w.Dynamic {
				out.read(part(w, f))
			}
		case name == "log" && strings.HasPrefix(t, "-L"):
			r := t[2:]
			if r == "" && j+1 < len(rest) {
				j++
				w = rest[j]
				r = w.Text
			}
			// -L<start>,<end>:<file> or -L:<funcname>:<file>; the range
			// may hold ":" too, so both readings are reported.
			if k := strings.LastIndexByte(r, ':'); k >= 0 {
				out.read(part(w, r[k+1:]))
				if f := strings.IndexByte(r, ':'); f != k && f >= 0 {
					out.read(part(w, r[f+1:]))
				}
			}
		case name == "grep" && slices.Contains(grepArg, t):
			pattern = pattern || t == "-e" || t == "-f"
			if j+1 < len(rest) {
				j++
				if t == "-f" && (rest[j].Text != "-" || rest[j].Dynamic) {
					out.read(joinArg(cdir, rest[j]))
				}
			}
		case name == "grep" && (strings.HasPrefix(t, "-e") || strings.HasPrefix(t, "-f") || strings.HasPrefix(t, "--regexp")):
			pattern = true
			if v, ok := strings.CutPrefix(t, "-f"); ok && v != "-" {
				out.read(part(w, v))
			}
		}
	}
	// Whole-tree output: with no path named, these print the content of
	// every tracked file they touch (git-show(1), git-log(1) -p,
	// git-diff(1), git-grep(1)); a committed .env is among them.
	hasPatch, noPatch := false, false
	for _, w := range rest {
		switch w.Text {
		case "-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "--cc", "-c":
			hasPatch = true
		case "--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "-s", "--no-patch", "--summary", "--raw", "--dirstat", "--quiet", "--exit-code":
			noPatch = true
		}
	}
	whole := len(specs) == 0 && !noIndex && !untracked
	// A pathspec that may match more than one path it names (`.`, `*`,
	// `:!README`, `:(icase).ENV`, a directory) prints whatever tracked files
	// it matches: every tracked file is judged (git-glossary(7) pathspec).
	wide := false
	for _, p := range specs {
		wide = wide || p.Dynamic || strings.ContainsAny(p.Text, "*?[:\\") || p.Text == "." || p.Text == "" ||
			strings.HasSuffix(p.Text, "/") || strings.HasSuffix(p.Text, "/.") || !strings.Contains(path.Base(p.Text), ".")
	}
	for _, o := range operands {
		if _, ok := revPath(o.Text); ok || strings.HasSuffix(o.Text, ":") {
			whole = false // one blob or tree (`HEAD:.env`, `HEAD:`), not a commit
		}
	}
	if name == "cat-file" {
		// An object named by its id (`git ls-files -s` shows them) may be
		// any file's content, and --batch reads the names from stdin:
		// what is printed is only known at run time.
		for _, o := range operands {
			if o.Dynamic || IsObjectID(o.Text) {
				out.acted = true
			}
		}
		for _, w := range rest {
			if strings.HasPrefix(w.Text, "--batch") {
				out.acted = true
			}
		}
	}
	prints := false // the command prints the content of the tracked files it touches
	switch name {
	case "show", "diff":
		prints = hasPatch || !noPatch
	case "log", "whatchanged":
		prints = hasPatch
	case "grep":
		prints = true
	}
	if prints && (whole || wide && !noIndex && !untracked) {
		out.readTracked(joinArg(cdir, made(".", sub, false)))
	}
	switch {
	case name == "grep":
		if !pattern && len(operands) > 0 {
			operands = operands[1:]
		}
		if !noIndex && !untracked {
			// Tracked content only: the trees at the revisions named,
			// and the paths given after --.
			for _, o := range operands {
				if p, ok := revPath(o.Text); ok && !o.Dynamic {
					out.read(part(o, p))
				}
			}
			for _, p := range specs {
				out.readTree(nil, joinArg(cdir, p))
			}
			return
		}
		paths := specs
		if noIndex {
			paths = append(operands, specs...)
		}
		var trees []Arg
		for _, p := range paths {
			if strings.HasPrefix(p.Text, ":") && !p.Dynamic {
				// Pathspec magic (`:!x`, `:(glob)**`): taken as everything.
				p = made(".", p, false)
			}
			trees = append(trees, joinArg(cdir, p))
		}
		if len(trees) == 0 {
			trees = []Arg{joinArg(cdir, made(".", sub, false))}
		}
		out.readTree(nil, trees...)
	case name == "diff":
		// Without --no-index too, git diff compares plain files when an
		// operand lies outside the work tree or names no revision
		// (git-diff(1)): every operand may be a path, read whole; one that
		// is a revision names no file here and matches no rule.
		for _, o := range operands {
			if p, ok := revPath(o.Text); ok && !o.Dynamic && !noIndex {
				out.read(part(o, p))
			}
		}
		for _, p := range append(operands, specs...) {
			out.readTree(nil, joinArg(cdir, p))
		}
	case name == "blame" || name == "annotate":
		for _, o := range operands {
			if p, ok := revPath(o.Text); ok && !o.Dynamic {
				out.read(part(o, p))
				continue
			}
			out.read(joinArg(cdir, o))
		}
		for _, p := range specs {
			out.read(joinArg(cdir, p))
		}
	default:
		for _, o := range operands {
			if p, ok := revPath(o.Text); ok && !o.Dynamic {
				out.read(part(o, p))
			}
		}
		for _, p := range specs {
			if !strings.HasPrefix(p.Text, ":") || p.Dynamic {
				out.read(joinArg(cdir, p))
			}
		}
	}
}

// IsObjectID reports a word that may be an abbreviated object id (four or
// more hex digits, git-rev-parse(1)), with or without a `^{type}` suffix.
func IsObjectID(t string) bool {
	t, _, _ = strings.Cut(t, "^")
	if len(t) < 4 {
		return false
	}
	for _, r := range t {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
			return false
		}
	}
	return true
}

// gitLongOpt reports whether t is long option name or a prefix of it:
// git's parse-options takes an unambiguous prefix (`--untr` is
// --untracked). An ambiguous one is refused by git; reading it as name
// errs toward reading more.
func gitLongOpt(t, name string) bool {
	v, _, _ := strings.Cut(t, "=")
	return len(v) > 2 && strings.HasPrefix(name, v)
}

// revPath returns the path of a `REV:PATH`, `:PATH` or `:N:PATH` object
// name (git-rev-parse(1)); ok is false for a name without one (`HEAD`,
// `:/message`, `HEAD:`, the root tree). A ":" inside `{...}` is part of
// the revision (`HEAD@{1:00}`, `HEAD^{/fix: x}`).
func revPath(t string) (string, bool) {
	var p string
	switch {
	case strings.HasPrefix(t, ":/"):
		return "", false
	case len(t) >= 3 && t[0] == ':' && t[1] >= '0' && t[1] <= '3' && t[2] == ':':
		p = t[3:]
	case strings.HasPrefix(t, ":"):
		p = t[1:]
	default:
		depth, k := 0, -1
		for i := 0; i < len(t) && k < 0; i++ {
			switch t[i] {
			case '{':
				depth++
			case '}':
				depth--
			case ':':
				if depth <= 0 {
					k = i
				}
			}
		}
		if k < 0 {
			return "", false
		}
		p = t[k+1:]
	}
	return p, p != ""
}

// gitOperands returns the operands of a git subcommand's words, skipping
// its options; withArg lists those that take the next word.
func gitOperands(words []Arg, withArg string) []Arg {
	takes := strings.Fields(withArg)
	var ops []Arg
	for i := 0; i < len(words); i++ {
		t := words[i].Text
		switch {
		case t == "--":
			return append(ops, words[i+1:]...)
		case strings.HasPrefix(t, "--"):
			if !strings.Contains(t, "=") && slices.Contains(takes, t[2:]) {
				i++
			}
		case strings.HasPrefix(t, "-") && len(t) == 2 && !words[i].Dynamic:
			if slices.Contains(takes, t[1:]) {
				i++
			}
		case strings.HasPrefix(t, "-") && !words[i].Dynamic:
		default:
			ops = append(ops, words[i])
		}
	}
	return ops
}

// curlOps: -o FILE (under --output-dir), -O (the remote name, in the
// output dir or here), and the @file forms of the data, form, header,
// cookie and write-out options (curl(1)). A file:// URL is a local read.
func curlOps(l *Cmdline, out *effectList) {
	var dir Arg
	for _, d := range l.Values("output-dir") {
		dir = d
		out.write(d)
	}
	for _, o := range l.Values("o", "output") {
		if o.Text != "-" || o.Dynamic {
			out.write(joinArg(dir, o))
		}
	}
	if l.Has("O", "remote-name", "remote-name-all") && dir.Text == "" && !dir.Dynamic {
		out.write(made(".", Arg{Word: l.Cmd.Args[0]}, false))
	}
	at := func(a Arg, from int) {
		if f := a.Text[from:]; f != "-" && f != "" {
			out.read(Arg{Word: Word{Text: f, Dynamic: a.Dynamic, Offset: a.Offset}, At: a.At})
		}
	}
	for _, it := range l.Items {
		if !it.Has {
			continue
		}
		v := l.Val(it)
		t := v.Text
		switch it.Opt {
		case "d", "data", "data-ascii", "data-binary", "json", "H", "header", "proxy-header":
			if strings.HasPrefix(t, "@") {
				at(v, 1)
			}
		case "data-urlencode", "variable":
			if k := strings.IndexByte(t, '@'); k >= 0 && !strings.Contains(t[:k], "=") {
				at(v, k+1)
			}
		case "F", "form":
			if k := strings.Index(t, "=@"); k >= 0 {
				at(Arg{Word: Word{Text: strings.SplitN(t[k+2:], ";", 2)[0], Dynamic: v.Dynamic, Offset: v.Offset}, At: v.At}, 0)
			} else if k := strings.Index(t, "=<"); k >= 0 {
				at(Arg{Word: Word{Text: strings.SplitN(t[k+2:], ";", 2)[0], Dynamic: v.Dynamic, Offset: v.Offset}, At: v.At}, 0)
			}
		case "b", "cookie":
			if !strings.Contains(t, "=") {
				at(v, 0)
			}
		case "w", "write-out":
			if strings.HasPrefix(t, "@") {
				at(v, 1)
			}
			// curl 8.3+: %output{FILE} and %output{>>FILE} send the rest there.
			for rest := t; ; {
				k := strings.Index(rest, "%output{")
				if k < 0 {
					break
				}
				rest = rest[k+len("%output{"):]
				f, _, _ := strings.Cut(rest, "}")
				f = strings.TrimPrefix(f, ">>")
				out.write(Arg{Word: Word{Text: f, Dynamic: v.Dynamic, Offset: v.Offset}, At: v.At})
			}
		}
	}
	for _, o := range append(l.Operands(), l.Values("url")...) {
		t := o.Text
		if len(t) < 7 || !strings.EqualFold(t[:7], "file://") {
			continue
		}
		p := t[7:]
		if strings.HasPrefix(p, "localhost/") {
			p = p[len("localhost"):]
		}
		if strings.HasPrefix(p, "/") {
			out.read(Arg{Word: Word{Text: p, Dynamic: o.Dynamic, Offset: o.Offset}, At: o.At})
		}
	}
}

// wgetOps: -O FILE, else files saved under -P DIR or here (wget(1)).
func wgetOps(l *Cmdline, out *effectList) {
	docs := l.Values("O", "output-document")
	for _, d := range docs {
		if d.Text != "-" || d.Dynamic {
			out.write(d)
		}
	}
	prefixes := l.Values("P", "directory-prefix")
	out.write(prefixes...)
	if len(docs) == 0 && len(prefixes) == 0 && !l.Has("spider") {
		out.write(made(".", Arg{Word: l.Cmd.Args[0]}, false))
	}
}

// findOps: find [-H] [-L] [-P] [-D opts] [-Olevel] [start...] [expr]
// (find(1)). The words of -exec ... ; belong to the command it runs.
func findOps(l *Cmdline, out *effectList) {
	ops := l.Operands()
	f := readFind(ops, func(a Arg) string { return a.Text })
	starts := ops[f.start:f.expr:f.expr]
	if len(starts) == 0 {
		starts = []Arg{made(".", Arg{Word: l.Cmd.Args[0]}, false)}
	}
	del := false
	for _, p := range f.prims {
		switch {
		case isFindExec(p.name):
			for _, a := range ops[p.at+1 : p.end] {
				out.seen.add(a.At)
			}
		case p.name == "-delete":
			del = true
		case p.end > p.at+1 && (p.name == "-fprint" || p.name == "-fprint0" || p.name == "-fls" || p.name == "-fprintf"):
			out.write(ops[p.at+1])
		case p.end > p.at+1 && p.name == "-files0-from":
			out.read(ops[p.at+1])
		}
	}
	if del {
		out.write(starts...)
	}
}
