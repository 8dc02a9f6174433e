package policy

import (
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/pattern"

	"github.com/gatekeep/gatekeep/shellparse"
	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// maxFeedEntries bounds the directory entries feedPaths reads.
const maxFeedEntries = 20000

// feedPaths lists the paths xargs appends to c (shellparse.Command.Feed),
// read through Config.Disk (none: not known),
// when the stage before xargs is a find that only prints paths
// (cmdmodel.FindPrints) in the directory c runs in (findPaths). With
// xargs -0 find must print with -print0.
func (e *evaluation) feedPaths(s *shellparse.Script, c *shellparse.Command) ([]string, bool) {
	if s == nil || len(c.Feed) != 1 || c.Feed[0] < 0 || c.Feed[0] >= len(s.Commands) {
		return nil, false
	}
	f := &s.Commands[c.Feed[0]]
	fo, ok := cmdmodel.FindPrints(&f.Command)
	if !ok || fo.Null != c.FeedNull {
		return nil, false
	}
	return e.findPaths(f, fo, c)
}

// findExecPaths lists the paths a find passes to c, a command its -exec
// runs (`find . -name '*.go' -exec grep -l TODO {} +`, or `\;`), when c
// writes nothing by its effects, `{}` is c's last word and no other word
// holds it, and the tests before the -exec only narrow the paths
// (cmdmodel.FindPasses): the paths find finds now (findPaths), each one
// whole word.
func (e *evaluation) findExecPaths(s *shellparse.Script, c *shellparse.Command) ([]string, bool) {
	if s == nil || c.Parent < 0 || c.Parent >= len(s.Commands) || len(c.Via) == 0 ||
		c.Via[len(c.Via)-1] != "find -exec" || len(c.Args) < 2 || c.Args[len(c.Args)-1].Text != "{}" {
		return nil, false
	}
	for _, w := range c.Args[:len(c.Args)-1] {
		if strings.Contains(w.Text, "{}") {
			return nil, false // GNU find puts the path there too
		}
	}
	if effects, _ := shellparse.Effects(c); slices.ContainsFunc(effects, func(fe cmdmodel.FileEffect) bool {
		return fe.Access == cmdmodel.Write
	}) {
		// A command that writes what find finds (`-exec chmod +x {} \;`)
		// stays judged by its run-time target: this is for reading.
		return nil, false
	}
	f := &s.Commands[c.Parent]
	at := -1
	for _, x := range cmdmodel.FindExecs(f.Args[1:]) {
		if x.Action == "-exec" && f.Args[x.From+1].Offset == c.Args[0].Offset {
			at = x.From // (the -exec word's index in f.Args)
			break
		}
	}
	fo, ok := cmdmodel.FindPasses(&f.Command, at)
	ok = ok && f.Unknown == "" // code not seen may be what find runs or prints
	if !ok || e.cfg.Disk == nil {
		return nil, false
	}
	// A start point missing now may be made before find runs (by another
	// call): what it would pass is not known (`find ~/.ssh -exec cat {} +`
	// with no ~/.ssh yet).
	dir, ok := commandDir(e.cwd, f.Dir)
	if !ok {
		return nil, false
	}
	for _, st := range fo.Starts {
		if _, err := e.cfg.Disk.Lstat(joinPath(dir, st)); err != nil {
			return nil, false
		}
	}
	return e.findPaths(f, fo, c)
}

// findPaths lists the paths the find f selects (fo) for c: found on the
// disk as find walks it (links not followed; -name and -iname as
// fnmatch(3) matches without FNM_PERIOD), in the directory c runs in.
// Unless fo.Null (-print0, or -exec's whole words), a path holding a
// blank, a quote or a backslash would be split or changed by xargs: ok is
// false then, and when the walk or the list is too large.
func (e *evaluation) findPaths(f *shellparse.Command, fo cmdmodel.FindOutput, c *shellparse.Command) ([]string, bool) {
	disk := e.cfg.Disk
	if disk == nil || f.DirDynamic || f.AfterLink || len(f.OtherDirs) > 0 || f.Dir != c.Dir || len(c.OtherDirs) > 0 {
		return nil, false
	}
	dir, ok := commandDir(e.cwd, f.Dir)
	if !ok || !filepath.IsAbs(dir) {
		return nil, false
	}
	return findPaths(disk, fo, dir, c.FeedNull)
}

// findPaths lists the paths find prints for fo in dir (absolute), as
// feedPaths says, walking disk; with null false a path xargs would split
// or change makes ok false.
func findPaths(disk Disk, fo cmdmodel.FindOutput, dir string, null bool) ([]string, bool) {
	var names []*regexp.Regexp
	for _, n := range fo.Names {
		mode := pattern.EntireString | pattern.GlobLeadingDot
		if n.Fold {
			mode |= pattern.NoGlobCase
		}
		rx, err := pattern.Regexp(n.Pattern, mode)
		if err != nil {
			return nil, false
		}
		re, err := regexp.Compile(rx)
		if err != nil {
			return nil, false
		}
		names = append(names, re)
	}
	var out []string
	budget := maxFeedEntries
	var walk func(abs, printed, base string, depth int) bool
	walk = func(abs, printed, base string, depth int) bool {
		if budget--; budget < 0 {
			return false
		}
		match := true
		for _, re := range names {
			match = match && re.MatchString(base)
		}
		if match {
			if !null && !fo.Null && strings.ContainsAny(printed, " \t\n\v\f\r'\"\\") {
				return false
			}
			if len(out) == maxGlobMatches {
				return false
			}
			out = append(out, printed)
		}
		if fo.MaxDepth >= 0 && depth >= fo.MaxDepth {
			return true
		}
		fi, err := disk.Lstat(abs)
		if err != nil || !fi.IsDir() {
			return err == nil || errors.Is(err, fs.ErrNotExist) && depth == 0
		}
		es, err := disk.ReadDir(abs)
		if err != nil {
			return false
		}
		for _, de := range es {
			p := printed + "/" + de.Name()
			if strings.HasSuffix(printed, "/") {
				p = printed + de.Name()
			}
			if !walk(filepath.Join(abs, de.Name()), p, de.Name(), depth+1) {
				return false
			}
		}
		return true
	}
	for _, start := range fo.Starts {
		abs := start
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, start)
		}
		fi, err := disk.Lstat(abs)
		if err != nil {
			continue // find reports it and goes on
		}
		if fi.Mode()&fs.ModeSymlink != 0 && (strings.HasSuffix(start, "/") || strings.HasSuffix(start, "/.")) {
			// A start point that is a link written with a trailing `/`
			// or `/.`: the kernel resolves it and find lists the tree it
			// leads to, which is not walked here.
			return nil, false
		}
		if !walk(abs, start, filepath.Base(start), 0) {
			return nil, false
		}
	}
	return out, true
}
