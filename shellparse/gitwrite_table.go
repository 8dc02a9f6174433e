package shellparse

import "sync"

// gitWriteTable is the command model of the git subcommands that change
// the repository or talk to a remote and that rules name (issue 17): how
// they read their options (git 2.39.5, parse-options: short options
// cluster, a long option may be abbreviated to a unique prefix, an
// optional argument is attached only), taken from the version on this
// machine, `git SUB --git-completion-helper-all` (every long option and
// its negation) and `git SUB -h` (the short letters and argument kinds).
// Names joined by "|" are one option spelled short and long.
//
// Effects: reads are files whose content git reads into the commit, tag
// or note (`-F FILE` puts the file, a key say, in the history; Read rules
// must see it); acts are options that run a program the option names
// (`--upload-pack`, `--receive-pack`, `--exec`: a command line git runs,
// locally for a local or ssh remote).
var gitWriteTable = map[string]spec{
	// git-reset(1).
	"reset": {complete: true,
		flags: "q|quiet no-refresh refresh mixed soft hard merge keep p|patch N|intent-to-add pathspec-file-nul " +
			"no-quiet no-mixed no-soft no-hard no-merge no-keep no-recurse-submodules no-patch no-intent-to-add " +
			"no-pathspec-from-file no-pathspec-file-nul h",
		reads: "pathspec-from-file", optional: "recurse-submodules"},
	// git-commit(1).
	"commit": {complete: true,
		flags: "q|quiet v|verbose reset-author s|signoff e|edit status a|all i|include interactive p|patch o|only " +
			"n|no-verify dry-run short branch ahead-behind porcelain long z|null amend no-post-rewrite pathspec-file-nul " +
			"allow-empty allow-empty-message verify post-rewrite no-quiet no-verbose no-file no-author no-date " +
			"no-message no-reedit-message no-reuse-message no-fixup no-squash no-reset-author no-signoff no-template " +
			"no-edit no-cleanup no-status no-gpg-sign no-all no-include no-interactive no-patch no-only no-dry-run " +
			"no-short no-branch no-ahead-behind no-porcelain no-long no-null no-amend no-untracked-files " +
			"no-pathspec-from-file no-pathspec-file-nul no-allow-empty no-allow-empty-message h",
		args:     "author date m|message c|reedit-message C|reuse-message fixup squash trailer cleanup",
		reads:    "F|file t|template pathspec-from-file",
		optional: "S|gpg-sign u|untracked-files"},
	// git-tag(1): -F reads the message from a file.
	"tag": {complete: true,
		flags: "l|list d|delete v|verify a|annotate e|edit s|sign f|force create-reflog i|ignore-case " +
			"no-annotate no-file no-edit no-sign no-cleanup no-local-user no-force no-create-reflog no-column " +
			"no-sort no-points-at no-format no-color no-ignore-case h",
		args:     "m|message cleanup u|local-user sort format",
		reads:    "F|file",
		optional: "n column contains no-contains with without merged no-merged points-at color"},
	// git-notes(1) add and append (the same options; append has no -f).
	"notes add": {complete: true, flags: "allow-empty f|force no-allow-empty no-force h",
		args: "m|message c|reedit-message C|reuse-message", reads: "F|file"},
	"notes append": {complete: true, flags: "allow-empty no-allow-empty h",
		args: "m|message c|reedit-message C|reuse-message", reads: "F|file"},
	// git-fetch(1): --upload-pack runs the command it names.
	"fetch": {complete: true,
		flags: "v|verbose q|quiet all set-upstream a|append atomic f|force m|multiple t|tags n prefetch p|prune " +
			"P|prune-tags dry-run write-fetch-head k|keep u|update-head-ok progress unshallow refetch update-shallow " +
			"4|ipv4 6|ipv6 negotiate-only auto-maintenance auto-gc show-forced-updates write-commit-graph stdin " +
			"no-verbose no-quiet no-all no-set-upstream no-append no-atomic no-upload-pack no-force no-multiple " +
			"no-tags no-jobs no-prefetch no-prune no-prune-tags no-recurse-submodules no-dry-run no-write-fetch-head " +
			"no-keep no-update-head-ok no-progress no-depth no-shallow-since no-shallow-exclude no-deepen " +
			"no-submodule-prefix no-recurse-submodules-default no-update-shallow no-server-option no-ipv4 no-ipv6 " +
			"no-negotiation-tip no-negotiate-only no-filter no-auto-maintenance no-auto-gc no-show-forced-updates " +
			"no-write-commit-graph no-stdin h",
		args: "upload-pack j|jobs depth shallow-since shallow-exclude deepen submodule-prefix " +
			"recurse-submodules-default refmap o|server-option negotiation-tip filter",
		optional: "recurse-submodules", acts: "upload-pack"},
	// git-pull(1): fetch's options and merge's; --upload-pack as fetch.
	"pull": {complete: true,
		flags: "v|verbose q|quiet progress stat summary commit e|edit ff ff-only verify verify-signatures autostash " +
			"allow-unrelated-histories all a|append f|force t|tags p|prune dry-run k|keep unshallow update-shallow " +
			"4|ipv4 6|ipv6 show-forced-updates set-upstream n squash " +
			"no-verbose no-quiet no-progress no-recurse-submodules no-rebase no-stat no-summary no-log no-signoff " +
			"no-squash no-commit no-edit no-cleanup no-ff no-verify no-verify-signatures no-autostash no-strategy " +
			"no-strategy-option no-gpg-sign no-allow-unrelated-histories no-all no-append no-upload-pack no-force " +
			"no-tags no-prune no-jobs no-dry-run no-keep no-depth no-shallow-since no-shallow-exclude no-deepen " +
			"no-update-shallow no-server-option no-ipv4 no-ipv6 no-negotiation-tip no-show-forced-updates " +
			"no-set-upstream h",
		args: "cleanup s|strategy X|strategy-option upload-pack depth shallow-since shallow-exclude deepen refmap " +
			"o|server-option negotiation-tip",
		optional: "recurse-submodules r|rebase log signoff S|gpg-sign j|jobs", acts: "upload-pack"},
	// git-push(1): --receive-pack and its alias --exec run the command
	// they name.
	"push": gitPushSpec,
}

// gitWriteSpecs holds the entries of gitWriteTable with their option
// maps built, each on its first use.
var gitWriteSpecs struct {
	sync.Mutex
	ready map[string]*spec
}

// gitWriteSpec returns the ready entry of a subcommand (one word, or two
// for `notes add`).
func gitWriteSpec(name string) (*spec, bool) {
	gitWriteSpecs.Lock()
	defer gitWriteSpecs.Unlock()
	if s, ok := gitWriteSpecs.ready[name]; ok {
		return s, true
	}
	s, ok := gitWriteTable[name]
	if !ok {
		return nil, false
	}
	s.init()
	if gitWriteSpecs.ready == nil {
		gitWriteSpecs.ready = map[string]*spec{}
	}
	gitWriteSpecs.ready[name] = &s
	return &s, true
}

// gitWriteLine reads words (words[0] is the subcommand, git and its
// global options removed) by gitWriteTable. ok is false when the
// subcommand is not modelled there. For `notes add`/`notes append` the
// line starts at the second word (notes' own --ref before it is
// skipped).
func gitWriteLine(words []Word) (l *cmdline, s *spec, key string, ok bool) {
	if len(words) == 0 || words[0].Dynamic {
		return nil, nil, "", false
	}
	key = words[0].Text
	if key == "notes" {
		i := 1
		for i < len(words) && !words[i].Dynamic && (words[i].Text == "--ref" || len(words[i].Text) > 6 && words[i].Text[:6] == "--ref=") {
			if words[i].Text == "--ref" {
				i++
			}
			i++
		}
		if i >= len(words) || words[i].Dynamic {
			return nil, nil, "", false
		}
		key += " " + words[i].Text
		words = words[i:]
	}
	s, ok = gitWriteSpec(key)
	if !ok {
		return nil, nil, "", false
	}
	return s.scan(&Command{Args: words}), s, key, true
}
