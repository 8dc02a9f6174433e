package shellparse

import "github.com/gatekeep/gatekeep/shellparse/cmdmodel"

// xargs appends words to the command it runs (`find . -name '*.go' |
// xargs wc -l`), so those words decide what that command touches. When
// the stage before xargs is a single find that only prints paths, the
// words xargs appends are those paths, which the policy can list on the
// disk: Command.Feed names that find, FindPrints says what it prints.

// xargsFeed sets Feed on a command xargs runs with its input appended,
// when xargs's options keep each input word whole and the stage before
// it is one simple command (p.prevStage).
func (p *parser) xargsFeed(inner *Command, l *cmdmodel.Cmdline) {
	null := false
	for _, it := range l.Items {
		switch it.Opt {
		case "0", "null":
			null = true
		case "r", "no-run-if-empty", "t", "verbose", "n", "max-args", "P", "max-procs":
		default:
			return // -a, -d, -E, -I, -L, -s ...: not a plain list of words
		}
	}
	if l.Err != "" || len(p.prevStage) != 1 {
		return
	}
	inner.Feed = []int{p.prevStage[0]}
	inner.FeedNull = null
}
