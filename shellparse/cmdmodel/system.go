package cmdmodel

import (
	"slices"
	"strings"
)

// This file holds the readers the danger layer asks of commands that can
// break a system: what they delete, move, overwrite or change the mode or
// owner of, each read by the command's model. A line the model does not
// understand is read for the worst it may do.

// The programs the danger layer reads by the readers below (the removers
// and the device tools are in destroyers.go and device_table.go).
var (
	Finders       = []string{"find"}           // FindDeletes, FindExecs
	BlockCopiers  = []string{"dd"}             // DdOutputs
	ModeChangers  = []string{"chmod"}          // PermChanged
	OwnerChangers = []string{"chown", "chgrp"} // PermChanged
	Movers        = []string{"mv"}             // MovedAway
	Syncers       = []string{"rsync"}          // SyncDeleteDests
)

// IsFind reports whether name (a basename) is find(1).
func IsFind(name string) bool { return slices.Contains(Finders, name) }

// RmLine reads a command of TreeRemovers as rm(1) reads its words: its
// operands, and whether it removes recursively. A line the model does not
// understand (an unknown option, an ambiguous abbreviation, a word only
// known at run time) may be recursive.
func RmLine(c *Command) (ops []Word, recursive bool) {
	line, _ := ReadLine(c, "rm")
	return line.Operands(), line.Has("r", "R", "recursive") || !line.Understood()
}

// DdOutputs returns the files dd(1) writes: the value of each `of=`
// operand.
func DdOutputs(c *Command) []Word {
	var out []Word
	for _, w := range c.Args[1:] {
		if of, ok := strings.CutPrefix(w.Text, "of="); ok {
			out = append(out, Word{Text: of, Dynamic: w.Dynamic})
		}
	}
	return out
}

// CopyDestinations returns the words a command called name writes as
// its destination: every operand of tee(1) (every word when the line is
// not understood), and the -t/--target-directory values and the last of
// two or more operands of cp(1), mv(1) and install(1). Other commands
// have none.
func CopyDestinations(c *Command, name string) []Word {
	switch name {
	case "tee":
		line, _ := ReadLine(c, "tee")
		if !line.Understood() {
			return c.Args[1:]
		}
		return line.Operands()
	case "cp", "mv", "install":
		line, _ := ReadLine(c, name)
		dest := line.Values("t", "target-directory")
		if ops := line.Operands(); len(ops) > 1 {
			dest = append(dest, ops[len(ops)-1])
		}
		return dest
	}
	return nil
}

// PermChanged reads a command of ModeChangers or OwnerChangers called
// name: the files whose mode or owner it changes (the first operand is
// the mode or owner unless --reference, or for chmod a mode given as
// options, says otherwise), and whether it does so recursively. A line
// the model does not understand may be recursive, and any operand may be
// a file.
func PermChanged(c *Command, name string) (files []Word, recursive bool) {
	line, _ := ReadLine(c, name)
	files = line.Written()
	recursive = line.Has("R", "recursive") || !line.Understood()
	if !line.Understood() {
		files = append(files, line.Operands()...)
	}
	return files, recursive
}

// MovedAway returns the operands mv(1) moves away: with -t every operand,
// otherwise all but the last, which is the destination.
func MovedAway(c *Command) []Word {
	line, _ := ReadLine(c, "mv")
	sources := line.Operands()
	if !line.Has("t", "target-directory") && len(sources) > 0 {
		sources = sources[:len(sources)-1]
	}
	return sources
}

// SyncDeleteDests returns the destinations rsync(1) deletes in: with any
// --delete* option (or --del, in any abbreviation rsync takes), the last
// operand. (--remove-source-files deletes on the source side: DeletesTree
// reports it.) A line the model does not understand may delete, and its
// destination may be the last word.
func SyncDeleteDests(c *Command) []Word {
	line, _ := ReadLine(c, "rsync")
	deletes := !line.Understood()
	for _, o := range line.Options() {
		deletes = deletes || o == "del" || strings.HasPrefix(o, "delete")
	}
	ops := line.Operands()
	if !deletes || len(ops) < 2 && line.Understood() {
		return nil
	}
	var dests []Word
	if len(ops) > 0 {
		dests = append(dests, ops[len(ops)-1])
	}
	if !line.Understood() && len(c.Args) > 2 {
		dests = append(dests, c.Args[len(c.Args)-1])
	}
	return dests
}

// FindStarts returns the starting points of a find command (its words
// after the name), as FindSplit reads them. No path means ".".
func FindStarts(args []Word) []Word {
	first, j := FindSplit(args, func(w Word) string { return w.Text })
	if starts := args[first:j:j]; len(starts) > 0 {
		return starts
	}
	return []Word{{Text: "."}}
}
