package cmdmodel

import (
	"strings"
	"sync"
)

// This file holds the allow-lists of the common agent tools whose options
// an allow rule's `*` covers: any option not listed, in any
// spelling, may write outside the project, read a secret or run code, and
// counts as a code word (CodeWords); a rule covers it only by naming it.

// harmless lists a tool's options that only select what runs from the
// project, or how it reports: name (a long name without dashes, or a
// short letter) to whether it takes a value.
type harmless map[string]bool

// cargoHarmless are cargo's build and test options (cargo 1.95, `cargo
// test --help`, `cargo build --help`) that choose packages, targets,
// features and output: not --config (sets any config: target.X.runner,
// build.rustc-wrapper run programs), -Z, --manifest-path (another
// package's build script), --target-dir or --artifact-dir (write
// elsewhere), --lockfile-path. Options taking a value may be given as
// `--opt=value` or the next word.
// Built on first use (start-up: most calls never look it up).
var cargoHarmless = sync.OnceValue(func() harmless {
	return harmless{"q": false, "quiet": false, "v": false, "verbose": false, "color": true,
		"message-format": true, "no-run": false, "no-fail-fast": false, "future-incompat-report": false,
		"p": true, "package": true, "workspace": false, "exclude": true, "all": false, "lib": false, "bins": false,
		"bin": true, "examples": false, "example": true, "tests": false, "test": true, "benches": false,
		"bench": true, "all-targets": false, "doc": false, "F": true, "features": true, "all-features": false,
		"no-default-features": false, "j": true, "jobs": true, "r": false, "release": false, "profile": true,
		"target": true, "timings": false, "ignore-rust-version": false, "locked": false, "offline": false,
		"frozen": false, "keep-going": false, "h": false, "help": false}
})

// npmHarmless are npm's options (npm 11, `npm help config`) that change
// only what npm prints or which workspaces and scripts run: any other
// `--key[=value]` sets that npm config key (node-options, script-shell,
// userconfig, globalconfig, prefix, call ... run code or read config).
// Built on first use (start-up: most calls never look it up).
var npmHarmless = sync.OnceValue(func() harmless {
	return harmless{"s": false, "silent": false, "q": false, "quiet": false, "loglevel": true,
		"d": false, "dd": false, "ddd": false, "verbose": false, "json": false, "parseable": false, "p": false,
		"color": true, "no-color": false, "w": true, "workspace": true, "workspaces": false, "ws": false,
		"include-workspace-root": false, "if-present": false, "ignore-scripts": false, "foreground-scripts": false,
		"no-audit": false, "audit": false, "no-fund": false, "fund": false, "prefer-offline": false,
		"offline": false, "progress": false, "no-progress": false, "no-update-notifier": false,
		"omit": true, "include": true, "production": false, "legacy-peer-deps": false, "h": false, "help": false}
})

// pytestHarmless are pytest's options (pytest 8, `pytest --help`, the
// "Command-line Flags" reference) that select tests or shape the report:
// not --basetemp (empties that directory), --junitxml, --junit-xml,
// --resultlog, --report-log, --debug, --log-file (write files), -p
// (loads a plugin: only `-p no:NAME`, which disables one, is listed),
// -c/--config-file, --rootdir, --confcutdir, -o/--override-ini (an ini
// option such as addopts or cache_dir), -W (imports a warning class),
// --pdb/--trace (a debugger), --pastebin (network).
// Built on first use (start-up: most calls never look it up).
var pytestHarmless = sync.OnceValue(func() harmless {
	return harmless{"q": false, "quiet": false, "v": false, "verbose": false, "x": false,
		"exitfirst": false, "s": false, "capture": true, "k": true, "m": true, "maxfail": true, "lf": false,
		"last-failed": false, "ff": false, "failed-first": false, "nf": false, "new-first": false, "sw": false,
		"stepwise": false, "sw-skip": false, "stepwise-skip": false, "r": true, "tb": true, "durations": true,
		"durations-min": true, "co": false, "collect-only": false, "no-header": false, "no-summary": false,
		"disable-warnings": false, "disable-pytest-warnings": false, "color": true, "l": false, "showlocals": false,
		"n": true, "numprocesses": true, "strict-markers": false, "runxfail": false, "deselect": true,
		"ignore": true, "ignore-glob": true, "cache-clear": false, "doctest-modules": false, "full-trace": false,
		"import-mode": true, "h": false, "help": false, "version": false, "V": false, "fixtures": false,
		"markers": false, "setup-show": false, "setup-plan": false}
})

// allowListed returns the indices in args, from index from, of the
// options the list does not have (in any spelling: `--opt=value`, a
// cluster of short letters, the value attached or the next word) and of
// the words only known at run time that may be options. Options end at
// "--" (the words after it go to the script or test binary). operand
// judges an operand (nil: every operand is harmless).
func allowListed(args []Word, from int, list harmless, operand func(Word) bool) []int {
	var out []int
	for i := from; i < len(args); i++ {
		w := args[i]
		if mayBeOption(w) {
			out = append(out, i)
			continue
		}
		t := w.Text
		switch {
		case t == "--":
			return out
		case strings.HasPrefix(t, "--"):
			name, _, has := strings.Cut(t[2:], "=")
			takes, ok := list[name]
			if !ok {
				out = append(out, i)
				continue
			}
			if takes && !has && i+1 < len(args) && !strings.HasPrefix(args[i+1].Text, "-") {
				i++
			}
		case len(t) > 1 && t[0] == '-':
			for j := 1; j < len(t); j++ {
				takes, ok := list[t[j:j+1]]
				if !ok {
					out = append(out, i)
					break
				}
				if takes {
					if j+1 == len(t) && i+1 < len(args) && !strings.HasPrefix(args[i+1].Text, "-") {
						i++
					}
					break
				}
			}
		default:
			if operand != nil && !operand(w) {
				out = append(out, i)
			}
		}
	}
	return out
}

// cargoCodeWords: `cargo [+TOOLCHAIN] SUB [options] [-- args]`. A
// toolchain name (`+nightly`, no path) picks an installed toolchain. After
// `--` the test binary of cargo test and bench reads libtest's options:
// --logfile writes a file, -Z enables unstable ones.
func cargoCodeWords(args []Word) []int {
	i := 1
	if i < len(args) && strings.HasPrefix(args[i].Text, "+") && !args[i].Dynamic &&
		!strings.ContainsAny(args[i].Text, "/\\") {
		i++
	}
	if i >= len(args) {
		return nil
	}
	out := allowListed(args, i+1, cargoHarmless(), nil)
	dd := -1
	for j := i + 1; j < len(args); j++ {
		if args[j].Text == "--" && !args[j].Dynamic {
			dd = j
			break
		}
	}
	if dd >= 0 && (args[i].Text == "test" || args[i].Text == "t" || args[i].Text == "bench") {
		for j := dd + 1; j < len(args); j++ {
			t := args[j].Text
			if mayBeOption(args[j]) || t == "--logfile" || strings.HasPrefix(t, "--logfile=") || strings.HasPrefix(t, "-Z") {
				out = append(out, j)
			}
		}
	}
	return out
}

// npmCodeWords: `npm SUB [options] [-- args]` for the subcommands that
// run the project's scripts (npmScripts()). For npm run the script name is
// the first operand; the words after `--` go to it. Other subcommands
// keep their textual rules.
func npmCodeWords(args []Word) []int {
	if len(args) < 2 || args[1].Dynamic || !npmScripts()[args[1].Text] {
		return nil
	}
	return allowListed(args, 2, npmHarmless(), nil)
}

// npmScripts are the npm subcommands (and their aliases, npm 11) that run
// the project's scripts, whose options are read by npmHarmless: test, run,
// start, stop, restart, ci, install-test, install-ci-test.
var npmScripts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"test": true, "t": true, "tst": true, "run": true, "run-script": true, "rum": true,
		"urn": true, "start": true, "stop": true, "restart": true, "ci": true, "clean-install": true, "ic": true,
		"install-clean": true, "isntall-clean": true, "install-test": true, "it": true, "install-ci-test": true, "cit": true}
})

// pytestCodeWords: pytest's options from index from. A test path outside
// the project (absolute, `~`, or with a `..` component) runs code from
// elsewhere.
func pytestCodeWords(args []Word, from int) []int {
	out := allowListed(args, from, pytestHarmless(), func(w Word) bool {
		path, _, _ := strings.Cut(w.Text, "::")
		if strings.HasPrefix(path, "/") || strings.HasPrefix(path, "~") {
			return false
		}
		for _, c := range strings.Split(path, "/") {
			if c == ".." {
				return false
			}
		}
		return true
	})
	// `-p no:NAME` disables a plugin.
	kept := out[:0]
	for _, i := range out {
		t := args[i].Text
		if strings.HasPrefix(t, "-pno:") || t == "-p" && i+1 < len(args) && !args[i+1].Dynamic && strings.HasPrefix(args[i+1].Text, "no:") {
			continue
		}
		kept = append(kept, i)
	}
	return kept
}
