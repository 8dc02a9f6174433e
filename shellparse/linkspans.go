package shellparse

import (
	"sort"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// Links created earlier in the same script.
//
// A file a command writes is judged before the script runs, when the path
// may not exist yet or be a plain file; a command earlier in the script can
// make it a link by then (`ln -s ~/.bashrc t; echo x >> t`), and the write
// lands where the link points. Command.AfterLink marks every command that
// can run after one that creates links or puts them in place: later in the
// script, later stages of a pipeline, the rest of a loop, a function body
// when the script creates a link anywhere, and a background job when a
// link may be created while it runs.

// spanKind says how the commands of a span can run after a linker.
type spanKind int

const (
	// spanTogether: a loop body or a pipeline. Its commands run again or
	// at the same time, so a linker anywhere in it comes before all of them.
	spanTogether spanKind = iota
	// spanConcurrent: a background job, which runs alongside everything
	// after it.
	spanConcurrent
	// spanAnytime: a function body, which runs whenever it is called, or
	// a trap's code, which runs whenever the trap fires.
	spanAnytime
)

type span struct {
	start, end int // command indices, end excluded
	kind       spanKind
}

// noteLinker marks the shell as past a link once the command at idx can
// create one.
func (p *parser) noteLinker(idx int) {
	if cmdmodel.CreatesLinks(&p.cmds[idx].Command) {
		p.afterLink = true
		p.linkers = append(p.linkers, idx)
	}
}

// settleLinks sets AfterLink on the spans that a linker can come before
// out of the script's order.
func (p *parser) settleLinks() {
	p.forSpansHit(p.linkers, func(i int) { p.cmds[i].AfterLink = true })
}

// forSpansHit calls mark for every command of each span that a command
// at one of the indexes marks can come before out of the script's order:
// a span holding one of them (the rest of a loop, a function body), a
// concurrent span (a background job) starting at or before the last, and
// every span that may run at any time. marks is sorted in place.
func (p *parser) forSpansHit(marks []int, mark func(i int)) {
	if len(marks) == 0 {
		return
	}
	sort.Ints(marks)
	last := marks[len(marks)-1]
	for _, sp := range p.spans {
		hit := false
		switch sp.kind {
		case spanTogether:
			i := sort.SearchInts(marks, sp.start)
			hit = i < len(marks) && marks[i] < sp.end
		case spanConcurrent:
			hit = last >= sp.start
		case spanAnytime:
			hit = true
		}
		if !hit {
			continue
		}
		for i := sp.start; i < sp.end && i < len(p.cmds); i++ {
			mark(i)
		}
	}
}
