package cmdmodel

import (
	"slices"
	"strings"
	"sync"
)

// The command model of git: the options git reads before its
// subcommand, and the options of the subcommands gatekeep may judge
// read-only. git 2.39 (Debian 12) is the version modelled; every entry is
// checked against the real git by TestRealGit, which asks git itself:
// `git SUB --git-completion-helper-all` (every long option of a
// parse-options subcommand, with its negations), `git SUB --help-all`
// (its short options), and the names in git-SUB(1) for the options
// revision.c and diff.c read (log, show, diff, rev-list, shortlog); each
// name is then run and its argument kind read from git's messages.
//
// How git reads them: git.c reads the global options as whole words (no
// clusters, no abbreviations; -C and -c take the next word). A subcommand
// built on parse-options (status, grep, blame, branch ...) takes short
// clusters, `--name=value` or the next word, an unambiguous prefix of a
// long option, and `--no-NAME`; an optional argument is attached only.
// revision.c and diff.c (log, show, diff, rev-list) take long options
// spelled whole. Options whose value is optional but taken from the next
// word when one follows that does not start with "-" (parse-options'
// LASTARG_DEFAULT: branch and tag --contains, --merged ...) are read as
// attached only, so that word counts as an operand, which for the listing
// forms of branch and tag is a pattern either way.

// gitGlobalSpec is git(1)'s options before the subcommand (git.c
// handle_options): -C changes directory; -c, --config-env, --exec-path
// and -p (the pager) choose what runs; --git-dir, --work-tree and --bare
// another repository.
var gitGlobalSpec = Spec{kind: beyond, complete: true, exact: true, stop: true,
	flags: "v version h help html-path man-path info-path p paginate P no-pager no-replace-objects bare " +
		"literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs no-optional-locks no-advice no-lazy-fetch",
	args:      "C c git-dir work-tree namespace super-prefix config-env attr-source",
	optional:  "exec-path list-cmds",
	chdir:     "C",
	acts:      "c config-env exec-path p paginate git-dir work-tree bare super-prefix h help",
	elsewhere: "no-advice no-lazy-fetch attr-source",
}

// The options revision.c and diff.c read: gitDiffCommon* are diff's
// options that log, show and rev-list take too; gitLog* the revision
// and log options; gitDiffOnly* diff's own.
const (
	gitDiffCommonFlags = "D E F P R W a b c g i m p q r s t u v w z binary cc check combined-all-paths compact-summary " +
		"cumulative exit-code ext-diff find-copies-harder follow full-index function-context histogram " +
		"ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-space-at-eol ignore-space-change " +
		"indent-heuristic irreversible-delete ita-invisible-in-index ita-visible-in-index minimal name-only " +
		"name-status no-abbrev no-color no-color-moved no-color-moved-ws no-compact-summary no-exit-code " +
		"no-ext-diff no-find-copies-harder no-follow no-full-index no-function-context " +
		"no-ignore-matching-lines no-indent-heuristic no-minimal no-patch no-prefix no-quiet no-relative " +
		"no-rename-empty no-renames no-text no-textconv numstat patch patch-with-raw patch-with-stat " +
		"patience pickaxe-all pickaxe-regex quiet raw rename-empty shortstat summary text textconv "
	gitDiffCommonArgs = "G I O S l n anchored color-moved-ws diff-algorithm diff-filter diff-merges dst-prefix find-object " +
		"ignore-matching-lines inter-hunk-context line-prefix output output-indicator-context " +
		"output-indicator-new output-indicator-old rotate-to skip-to src-prefix stat-count stat-graph-width " +
		"stat-name-width stat-width word-diff-regex ws-error-highlight "
	gitDiffCommonOptional = "B C M U X abbrev break-rewrites color color-moved color-words dirstat dirstat-by-file find-copies " +
		"find-renames ignore-submodules relative stat submodule unified word-diff "
	gitLogFlags = "abbrev-commit all all-match alternate-refs author-date-order basic-regexp bisect bisect-all " +
		"bisect-vars boundary cherry cherry-mark cherry-pick children clear-decorations commit-header count " +
		"date-order dense do-walk exclude-first-parent-only exclude-promisor-objects extended-regexp " +
		"filter-print-omitted filter-provided-objects first-parent fixed-strings full-diff full-history " +
		"graph header ignore-missing in-commit-order indexed-objects invert-grep left-only left-right " +
		"log-size mailmap merge merges no-abbrev-commit no-commit-header no-decorate no-decorate-refs " +
		"no-decorate-refs-exclude no-diff-merges no-expand-tabs no-filter no-mailmap no-max-parents " +
		"no-merges no-min-parents no-notes no-object-names no-source no-use-mailmap not object-names " +
		"objects objects-edge objects-edge-aggressive oneline parents perl-regexp reflog regexp-ignore-case " +
		"relative-date remerge-diff remove-empty reverse right-only show-pulls show-signature " +
		"simplify-by-decoration simplify-merges single-worktree source sparse stdin timestamp topo-order " +
		"use-bitmap-index use-mailmap walk-reflogs "
	gitLogArgs = "L after author before committer date decorate-refs decorate-refs-exclude encoding exclude " +
		"exclude-hidden glob grep grep-reflog max-age max-count min-age since since-as-filter skip until "
	gitLogOptional = "h no-walk ancestry-path branches decorate disk-usage expand-tabs filter format max-parents min-parents " +
		"missing notes pretty progress remotes show-linear-break show-notes tags unpacked "
	gitDiffOnlyFlags = "0 1 2 3 h base cached no-index ours staged theirs "
)

// gitNumber recognizes `-NUM`: a commit count for log and its kin
// (git-log(1) -<number>), the context for grep (git-grep(1) -NUM).
func gitNumber(t string, _ int) bool {
	return len(t) > 1 && t[0] == '-' && strings.Trim(t[1:], "0123456789") == ""
}

// gitDiffActs are the diff options that write or run something:
// --output writes a file; --ext-diff and --textconv run the programs the
// configuration names; -O reads an order file the sandbox does not see.
// The log family adds --show-signature (runs gpg, gpgsm or ssh-keygen).
// `--help` makes git run man or a browser.
const gitDiffActs = "output ext-diff textconv O help"

// gitSubTable lists the subcommands modelled, by name; a subcommand of a
// subcommand is named with both words (`stash list`). Each cites its page.
var gitSubTable = specTable{entries: []specEntry{
	// git-log(1), git-show(1), git-rev-list(1) (revision.c, diff.c),
	// git-stash(1) `stash list` (takes log's options), git-reflog(1)
	// `reflog show` (an alias of `git log -g`), and `reflog` alone.
	{"log", &gitLogSpec}, {"show", &gitLogSpec}, {"rev-list", &gitLogSpec}, {"whatchanged", &gitLogSpec},
	{"stash list", &gitLogSpec}, {"reflog show", &gitLogSpec}, {"reflog", &gitLogSpec},
	// git-diff(1); git-stash(1) `stash show` takes diff's options too.
	{"diff", &Spec{complete: true, exact: true, flags: gitDiffCommonFlags + gitDiffOnlyFlags + "help",
		args: gitDiffCommonArgs, optional: gitDiffCommonOptional, acts: gitDiffActs}},
	{"stash show", &Spec{complete: true, exact: true,
		flags: gitDiffCommonFlags + "u include-untracked no-include-untracked only-untracked help",
		args:  gitDiffCommonArgs, optional: gitDiffCommonOptional, acts: gitDiffActs}},
	// git-rev-parse(1): its own parser (whole words; `--name=value` for
	// the options that take one, attached only, but --default, --prefix,
	// --git-path and --resolve-git-dir take the next word). An option it
	// does not know it prints back, which the model calls unknown.
	{"rev-parse", &Spec{complete: true, exact: true,
		flags: "absolute-git-dir all bisect end-of-options flags git-common-dir git-dir is-bare-repository " +
			"is-inside-git-dir is-inside-work-tree is-shallow-repository keep-dashdash local-env-vars no-flags " +
			"no-revs not parseopt revs-only shared-index-path show-cdup show-prefix " +
			"show-superproject-working-tree show-toplevel sq sq-quote stop-at-non-option stuck-long symbolic " +
			"symbolic-full-name verify q quiet S h help-all help",
		args: "default prefix git-path resolve-git-dir",
		optional: "abbrev-ref short branches tags remotes glob show-object-format disambiguate path-format " +
			"exclude exclude-hidden since after until before max-age min-age",
		acts: "help"}},
	// git-reflog(1) `reflog exists <ref>`.
	{"reflog exists", &Spec{complete: true, exact: true}},
	// The subcommands built on parse-options: git-shortlog(1) (its own
	// options; the revision options it passes to revision.c whole),
	// git-status(1), git-ls-files(1), git-ls-tree(1), git-show-ref(1),
	// git-merge-base(1), git-describe(1), git-blame(1), git-version(1),
	// git-grep(1), git-cat-file(1), git-branch(1), git-tag(1),
	// git-remote(1), git-worktree(1) `list`. Acting: blame -S and
	// --ignore-revs-file, ls-files -X, --exclude-from and
	// --exclude-per-directory (a name read in every directory, `../x` too) read files the
	// sandbox does not see; grep -O runs a pager; --textconv and cat-file's
	// --filters run configured programs; cat-file --batch* print any object.
	{"shortlog", &Spec{complete: true, acts: "help",
		flags: "help D E F P R W a b c e g i m n p r s t u v z all all-match alternate-refs " +
			"ancestry-path basic-regexp bisect boundary cherry cherry-mark cherry-pick children " +
			"committer dense email exclude-first-parent-only extended-regexp first-parent " +
			"fixed-strings full-history ignore-missing indexed-objects invert-grep left-only " +
			"left-right merge merges no-committer no-email no-group no-max-parents no-merges " +
			"no-min-parents no-numbered no-summary not numbered parents perl-regexp reflog " +
			"regexp-ignore-case remove-empty reverse right-only show-pulls simplify-by-decoration " +
			"simplify-merges sparse summary walk-reflogs",
		args: "G I O S l after author before date grep grep-reflog group max-count since " +
			"since-as-filter skip until",
		optional: "B C M U X h w branches exclude exclude-hidden format glob max-parents min-parents notes " +
			"pretty remotes tags"}},
	{"status", &Spec{complete: true, acts: "help",
		flags: "help b s v z ahead-behind branch long no-ahead-behind no-branch no-column " +
			"no-ignore-submodules no-ignored no-long no-null no-porcelain no-renames no-short " +
			"no-show-stash no-untracked-files no-verbose null renames short show-stash verbose",
		optional: "M u column find-renames ignore-submodules ignored porcelain untracked-files"}},
	{"ls-files", &Spec{complete: true, acts: "X exclude-from exclude-per-directory help",
		flags: "help c d f i k m o s t u v z cached debug deduplicate deleted directory empty-directory " +
			"eol error-unmatch exclude-standard full-name ignored killed modified no-abbrev " +
			"no-cached no-debug no-deduplicate no-deleted no-directory no-empty-directory no-eol " +
			"no-error-unmatch no-exclude-per-directory no-ignored no-killed no-modified no-others " +
			"no-recurse-submodules no-resolve-undo no-sparse no-stage no-unmerged no-with-tree " +
			"others recurse-submodules resolve-undo sparse stage unmerged",
		args:     "X x exclude exclude-from exclude-per-directory format with-tree",
		optional: "abbrev"}},
	{"ls-tree", &Spec{complete: true, acts: "help",
		flags: "help d l r t z full-name full-tree long name-only name-status no-abbrev no-full-name " +
			"no-full-tree object-only",
		args:     "format",
		optional: "abbrev"}},
	{"show-ref", &Spec{complete: true, acts: "help",
		flags: "help d h q dereference head heads no-abbrev no-dereference no-hash no-head no-heads " +
			"no-quiet no-tags no-verify quiet tags verify",
		optional: "s abbrev exclude-existing hash"}},
	{"merge-base", &Spec{complete: true, acts: "help",
		flags: "help a all fork-point independent is-ancestor no-all octopus"}},
	{"describe", &Spec{complete: true, acts: "help",
		flags: "help all always contains debug exact-match first-parent long no-abbrev no-all no-always " +
			"no-broken no-candidates no-contains no-debug no-dirty no-exact-match no-exclude " +
			"no-first-parent no-long no-match no-tags tags",
		args:     "candidates exclude match",
		optional: "abbrev broken dirty"}},
	{"blame", &Spec{complete: true, acts: "S ignore-revs-file help",
		flags: "help b c e f l n p s t w color-by-age color-lines incremental line-porcelain minimal " +
			"no-abbrev no-color-by-age no-color-lines no-contents no-ignore-rev no-ignore-revs-file " +
			"no-incremental no-line-porcelain no-minimal no-porcelain no-progress no-root " +
			"no-score-debug no-show-email no-show-name no-show-number no-show-stats porcelain " +
			"progress root score-debug show-email show-name show-number show-stats",
		args:     "L S contents ignore-rev ignore-revs-file",
		optional: "C M abbrev"}},
	{"version", &Spec{complete: true, acts: "help",
		flags: "help build-options no-build-options"}},
	{"grep", &Spec{complete: true, obsolete: gitNumber, acts: "O open-files-in-pager ext-grep textconv help",
		flags: "help E F G H I L P W a c h i l n o p q r v w z all-match and basic-regexp break cached " +
			"column count exclude-standard ext-grep extended-regexp files-with-matches " +
			"files-without-match fixed-strings full-name function-context heading ignore-case index " +
			"invert-match line-number name-only no-after-context no-all-match no-basic-regexp " +
			"no-before-context no-break no-cached no-color no-column no-context no-count " +
			"no-exclude-standard no-ext-grep no-extended-regexp no-files-with-matches " +
			"no-files-without-match no-fixed-strings no-full-name no-function-context no-heading " +
			"no-ignore-case no-index no-invert-match no-line-number no-max-count no-name-only " +
			"no-null no-only-matching no-open-files-in-pager no-or no-perl-regexp no-quiet " +
			"no-recurse-submodules no-recursive no-show-function no-text no-textconv no-threads " +
			"no-untracked no-word-regexp not null only-matching or perl-regexp quiet " +
			"recurse-submodules recursive show-function text textconv untracked word-regexp",
		args:     "A B C e f m after-context before-context context max-count max-depth threads",
		optional: "O color open-files-in-pager"}},
	{"cat-file", &Spec{complete: true, acts: "textconv filters batch batch-check batch-command batch-all-objects help",
		flags: "help e p s t z allow-unknown-type batch-all-objects buffer filters follow-symlinks " +
			"mailmap no-allow-unknown-type no-buffer no-follow-symlinks no-mailmap no-path " +
			"no-unordered no-use-mailmap textconv unordered use-mailmap",
		args:     "path",
		optional: "batch batch-check batch-command"}},
	{"branch", &Spec{complete: true, acts: "help",
		flags: "help C D M a c d f i l m q r v all copy create-reflog delete edit-description force " +
			"ignore-case list move no-abbrev no-all no-color no-column no-copy no-create-reflog " +
			"no-delete no-edit-description no-force no-format no-ignore-case no-list no-move " +
			"no-points-at no-quiet no-recurse-submodules no-remotes no-set-upstream " +
			"no-set-upstream-to no-show-current no-sort no-track no-unset-upstream no-verbose quiet " +
			"recurse-submodules remotes set-upstream show-current unset-upstream verbose",
		args:     "u format points-at set-upstream-to sort",
		optional: "t abbrev color column contains merged no-contains no-merged track with without"}},
	// git-tag(1): -F reads the message from a file.
	{"tag", &Spec{complete: true, flags: "help a|annotate d|delete e|edit f|force i|ignore-case l|list s|sign v|verify create-reflog no-annotate " +
		"no-cleanup no-color no-column no-create-reflog no-edit no-file no-force no-format " +
		"no-ignore-case no-local-user no-points-at no-sign no-sort", args: "m|message u|local-user cleanup format sort",
		reads: "F|file", optional: "n color column contains merged no-contains no-merged points-at with without", acts: "help"}},
	// The subcommands that change the repository or talk to a remote
	// that rules name (git 2.39.5 `git SUB
	// --git-completion-helper-all` and `git SUB -h`), names joined by "|"
	// one option spelled short and long: reads are files whose content
	// git puts in the commit or note (`-F ~/.ssh/id_rsa` commits the
	// key; Read rules must see it), acts options that run the command
	// they name (`--upload-pack`, `--receive-pack`, `--exec`).
	// git-reset(1).
	{"reset", &Spec{complete: true,
		flags: "q|quiet no-refresh refresh mixed soft hard merge keep p|patch N|intent-to-add pathspec-file-nul " +
			"no-quiet no-mixed no-soft no-hard no-merge no-keep no-recurse-submodules no-patch no-intent-to-add " +
			"no-pathspec-from-file no-pathspec-file-nul help",
		reads: "pathspec-from-file", optional: "recurse-submodules", acts: "help"}},
	// git-commit(1).
	{"commit", &Spec{complete: true,
		flags: "q|quiet v|verbose reset-author s|signoff e|edit status a|all i|include interactive p|patch o|only " +
			"n|no-verify dry-run short branch ahead-behind porcelain long z|null amend no-post-rewrite pathspec-file-nul " +
			"allow-empty allow-empty-message verify post-rewrite no-quiet no-verbose no-file no-author no-date " +
			"no-message no-reedit-message no-reuse-message no-fixup no-squash no-reset-author no-signoff no-template " +
			"no-edit no-cleanup no-status no-gpg-sign no-all no-include no-interactive no-patch no-only no-dry-run " +
			"no-short no-branch no-ahead-behind no-porcelain no-long no-null no-amend no-untracked-files " +
			"no-pathspec-from-file no-pathspec-file-nul no-allow-empty no-allow-empty-message help",
		args:     "author date m|message c|reedit-message C|reuse-message fixup squash trailer cleanup",
		reads:    "F|file t|template pathspec-from-file",
		optional: "S|gpg-sign u|untracked-files", acts: "help"}},
	// git-notes(1) add and append (the same options; append has no -f).
	{"notes add", &Spec{complete: true, flags: "allow-empty f|force no-allow-empty no-force help",
		args: "m|message c|reedit-message C|reuse-message", reads: "F|file", acts: "help"}},
	{"notes append", &Spec{complete: true, flags: "allow-empty no-allow-empty help",
		args: "m|message c|reedit-message C|reuse-message", reads: "F|file", acts: "help"}},
	// git-fetch(1): --upload-pack runs the command it names.
	{"fetch", &Spec{complete: true,
		flags: "v|verbose q|quiet all set-upstream a|append atomic f|force m|multiple t|tags n prefetch p|prune " +
			"P|prune-tags dry-run write-fetch-head k|keep u|update-head-ok progress unshallow refetch update-shallow " +
			"4|ipv4 6|ipv6 negotiate-only auto-maintenance auto-gc show-forced-updates write-commit-graph stdin " +
			"no-verbose no-quiet no-all no-set-upstream no-append no-atomic no-upload-pack no-force no-multiple " +
			"no-tags no-jobs no-prefetch no-prune no-prune-tags no-recurse-submodules no-dry-run no-write-fetch-head " +
			"no-keep no-update-head-ok no-progress no-depth no-shallow-since no-shallow-exclude no-deepen " +
			"no-submodule-prefix no-recurse-submodules-default no-update-shallow no-server-option no-ipv4 no-ipv6 " +
			"no-negotiation-tip no-negotiate-only no-filter no-auto-maintenance no-auto-gc no-show-forced-updates " +
			"no-write-commit-graph no-stdin help",
		args: "upload-pack j|jobs depth shallow-since shallow-exclude deepen submodule-prefix " +
			"recurse-submodules-default refmap o|server-option negotiation-tip filter",
		optional: "recurse-submodules", acts: "upload-pack help"}},
	// git-pull(1): fetch's options and merge's; --upload-pack as fetch.
	// (`-h` shows --jobs[=<n>], but git 2.39 requires the value.)
	{"pull", &Spec{complete: true,
		flags: "v|verbose q|quiet progress stat summary commit e|edit ff ff-only verify verify-signatures autostash " +
			"allow-unrelated-histories all a|append f|force t|tags p|prune dry-run k|keep unshallow update-shallow " +
			"4|ipv4 6|ipv6 show-forced-updates set-upstream n squash " +
			"no-verbose no-quiet no-progress no-recurse-submodules no-rebase no-stat no-summary no-log no-signoff " +
			"no-squash no-commit no-edit no-cleanup no-ff no-verify no-verify-signatures no-autostash no-strategy " +
			"no-strategy-option no-gpg-sign no-allow-unrelated-histories no-all no-append no-upload-pack no-force " +
			"no-tags no-prune no-jobs no-dry-run no-keep no-depth no-shallow-since no-shallow-exclude no-deepen " +
			"no-update-shallow no-server-option no-ipv4 no-ipv6 no-negotiation-tip no-show-forced-updates " +
			"no-set-upstream help",
		args: "cleanup s|strategy X|strategy-option upload-pack j|jobs depth shallow-since shallow-exclude deepen refmap " +
			"o|server-option negotiation-tip",
		optional: "recurse-submodules r|rebase log signoff S|gpg-sign", acts: "upload-pack help"}},
	// git-push(1): --receive-pack and its alias --exec run the command
	// they name.
	{"push", &gitPushSpec},
	// git-config(1) (git 2.39): -e runs an editor; which forms only read
	// (not --add, --replace-all, --unset*, --rename-section,
	// --remove-section, or NAME VALUE) is policy's gitConfig.
	{"config", &Spec{complete: true,
		flags: "help global system local worktree get get-all get-regexp get-urlmatch replace-all add unset " +
			"unset-all rename-section remove-section l|list fixed-value e|edit get-color get-colorbool bool int " +
			"bool-or-int bool-or-str path expiry-date z|null name-only includes show-origin show-scope " +
			"no-global no-system no-local no-worktree no-file no-blob no-get no-get-all no-get-regexp " +
			"no-get-urlmatch no-replace-all no-add no-unset no-unset-all no-rename-section no-remove-section " +
			"no-list no-fixed-value no-edit no-get-color no-get-colorbool no-type no-null no-name-only " +
			"no-includes no-show-origin no-show-scope no-default",
		args: "f|file blob t|type default",
		acts: "e|edit help"}},
	// git-for-each-ref(1): prints refs; a `signature` atom in --format or
	// --sort runs gpg (policy's gitListMode refuses it).
	{"for-each-ref", &Spec{complete: true, acts: "help",
		flags: "help s|shell p|perl python tcl ignore-case no-shell no-perl no-python no-tcl no-count no-format " +
			"no-color no-sort no-points-at no-ignore-case",
		args:     "count format sort points-at",
		optional: "color merged no-merged contains no-contains"}},
	// git-check-attr(1): prints the attributes of paths.
	{"check-attr", &Spec{complete: true, acts: "help",
		flags: "help a|all cached stdin z no-all no-cached no-stdin"}},
	{"remote", &Spec{complete: true, flags: "help v no-verbose verbose", acts: "help"}},
	{"remote get-url", &Spec{complete: true, flags: "help all no-all no-push push", acts: "help"}},
	{"worktree list", &Spec{complete: true, flags: "help v z no-expire no-porcelain no-verbose porcelain verbose", args: "expire", acts: "help"}},
	// The forms that throw work away (DestroysProjectWork): git-checkout(1),
	// git-switch(1), git-rm(1), git-gc(1), git-read-tree(1),
	// git-checkout-index(1), git 2.39.
	{"checkout", &Spec{complete: true, acts: "help",
		flags: "help l guess overlay q|quiet progress m|merge d|detach f|force overwrite-ignore ignore-other-worktrees " +
			"2|ours 3|theirs p|patch ignore-skip-worktree-bits pathspec-file-nul no-guess no-overlay no-quiet " +
			"no-recurse-submodules no-progress no-merge no-conflict no-detach no-track no-force no-orphan " +
			"no-overwrite-ignore no-ignore-other-worktrees no-patch no-ignore-skip-worktree-bits " +
			"no-pathspec-from-file no-pathspec-file-nul",
		args: "b B conflict orphan", reads: "pathspec-from-file", optional: "t|track recurse-submodules"}},
	{"switch", &Spec{complete: true, acts: "help",
		flags: "help guess discard-changes q|quiet progress m|merge d|detach f|force overwrite-ignore " +
			"ignore-other-worktrees no-create no-force-create no-guess no-discard-changes no-quiet " +
			"no-recurse-submodules no-progress no-merge no-conflict no-detach no-track no-force no-orphan " +
			"no-overwrite-ignore no-ignore-other-worktrees",
		args: "c|create C|force-create conflict orphan", optional: "t|track recurse-submodules"}},
	{"rm", &Spec{complete: true, acts: "help",
		flags: "help n|dry-run q|quiet cached f|force r ignore-unmatch sparse pathspec-file-nul no-dry-run no-quiet " +
			"no-cached no-force no-ignore-unmatch no-sparse no-pathspec-from-file no-pathspec-file-nul",
		reads: "pathspec-from-file"}},
	{"gc", &Spec{complete: true, acts: "help",
		flags: "help q|quiet cruft aggressive auto force keep-largest-pack no-quiet no-prune no-cruft " +
			"no-aggressive no-auto no-force no-keep-largest-pack",
		optional: "prune"}},
	{"read-tree", &Spec{complete: true, acts: "help",
		flags: "help empty v|verbose m trivial aggressive reset u i n|dry-run no-sparse-checkout sparse-checkout " +
			"debug-unpack q|quiet no-empty no-verbose no-trivial no-aggressive no-reset no-dry-run " +
			"no-debug-unpack no-recurse-submodules no-quiet",
		args: "index-output prefix exclude-per-directory", optional: "recurse-submodules"}},
	{"checkout-index", &Spec{complete: true, acts: "help",
		flags: "help a|all ignore-skip-worktree-bits f|force q|quiet n|no-create create u|index z stdin temp " +
			"no-all no-ignore-skip-worktree-bits no-force no-quiet no-index no-stdin no-temp no-prefix",
		args: "prefix stage"}},
}}

// gitLogSpec is log, show and rev-list (git-log(1), git-show(1),
// git-rev-list(1)).
var gitLogSpec = Spec{complete: true, exact: true, obsolete: gitNumber,
	flags: gitDiffCommonFlags + gitLogFlags + "help", args: gitDiffCommonArgs + gitLogArgs,
	optional: gitDiffCommonOptional + gitLogOptional, acts: gitDiffActs + " show-signature"}

// gitSubSpecs holds the entries of gitSubTable with their option maps
// built, each on its first use.
var gitSubSpecs struct {
	sync.Mutex
	ready map[string]*Spec
}

// gitSubSpec returns the ready entry of a subcommand (one or two words).
func gitSubSpec(name string) (*Spec, bool) {
	gitSubSpecs.Lock()
	defer gitSubSpecs.Unlock()
	if s, ok := gitSubSpecs.ready[name]; ok {
		return s, true
	}
	ts, ok := gitSubTable.get(name)
	if !ok {
		return nil, false
	}
	s := *ts
	s.init()
	if gitSubSpecs.ready == nil {
		gitSubSpecs.ready = map[string]*Spec{}
	}
	gitSubSpecs.ready[name] = &s
	return &s, true
}

var gitGlobalOnce sync.Once

// GitGlobal reads a git command's words (c.Args[0] is git) by git's
// global options: the subcommand and its words are operands.
func GitGlobal(c *Command) *Cmdline {
	s := &gitGlobalSpec
	gitGlobalOnce.Do(s.init)
	return s.Scan(c)
}

// GitLine is a git command line as the command model reads it.
type GitLine struct {
	// Global is the options before the subcommand.
	Global Line
	// Sub is the subcommand as modelled: one word, or two for a
	// subcommand of a subcommand (`stash list`, `remote get-url`); ""
	// when there is none or it is only known at run time.
	Sub string
	// Line is the subcommand's words read by its model; empty (not
	// Understood) when the model has no entry for Sub.
	Line Line
}

// gitSubSubs are the subcommands whose first operand may name a
// subcommand of theirs that the model knows.
var gitSubSubs = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"stash": {"list", "show"}, "worktree": {"list"}, "remote": {"get-url"}, "reflog": {"show", "exists"},
		"notes": {"add", "append"},
	}
})

// ReadGitLine reads a git command's words (c.Args[0] is git) by the
// command model: the global options, the subcommand, and its options.
// ok is false when the global options are not understood or there is no
// static subcommand.
func ReadGitLine(c *Command) (g GitLine, ok bool) {
	l := GitGlobal(c)
	g.Global = Line{l: l, s: &gitGlobalSpec}
	ops := l.Operands()
	if l.Err != "" || len(ops) == 0 || ops[0].Dynamic {
		return g, false
	}
	at := ops[0].At
	name := ops[0].Text
	words := c.Args[at:]
	if len(words) > 1 && !words[1].Dynamic && slices.Contains(gitSubSubs()[name], words[1].Text) {
		name += " " + words[1].Text
		words = words[1:]
	}
	g.Sub = name
	if sub, found := gitSubSpec(name); found {
		g.Line = Line{l: sub.Scan(&Command{Args: words, Assigns: c.Assigns}), s: sub}
	}
	return g, true
}

// Acting returns the options given that write a file or run something
// by the model (spec.acts, writes), in order.
func (x Line) Acting() []string {
	if x.l == nil {
		return nil
	}
	var out []string
	for _, it := range x.l.Items {
		if it.Opt != "" && (x.s.acted[it.Opt] || x.s.opts[it.Opt] == writeArg) {
			out = append(out, it.Opt)
		}
	}
	return out
}

// GitLeadingChdirs reads the `-C DIR` pairs that open a git command's
// options (args[0] is git): the directories, in order, and the index of
// the first word after them. ok is false when a -C has no directory or
// one only known at run time. Other spellings (`-CDIR`, another global
// option first) end the pairs.
func GitLeadingChdirs(args []Word) (dirs []Word, next int, ok bool) {
	i := 1
	for ; i < len(args) && args[i].Text == "-C" && !args[i].Dynamic; i += 2 {
		if i+1 >= len(args) || args[i+1].Dynamic {
			return nil, 0, false
		}
		dirs = append(dirs, args[i+1])
	}
	return dirs, i, true
}
