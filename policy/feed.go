package policy

import (
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/pattern"

	"github.com/gatekeep/gatekeep/shellparse"
)

// maxFeedEntries bounds the directory entries feedPaths reads.
const maxFeedEntries = 20000

// feedPaths lists the paths xargs appends to c (shellparse.Command.Feed),
// read through Config.Disk (none: not known),
// when the stage before xargs is a find that only prints paths
// (shellparse.FindPrints) in the directory c runs in: the paths find
// prints now, found on the disk as find walks it (links not followed;
// -name and -iname as fnmatch(3) matches without FNM_PERIOD). Without
// xargs -0 a path holding a blank, a quote or a backslash would be split
// or changed by xargs, and with -0 find must print with -print0: ok is
// false then, and when the walk or the list is too large.
func (e *evaluation) feedPaths(s *shellparse.Script, c *shellparse.Command) ([]string, bool) {
	disk := e.cfg.Disk
	if s == nil || disk == nil || len(c.Feed) != 1 || c.Feed[0] < 0 || c.Feed[0] >= len(s.Commands) {
		return nil, false
	}
	f := &s.Commands[c.Feed[0]]
	fo, ok := shellparse.FindPrints(f)
	if !ok || fo.Null != c.FeedNull || f.DirDynamic || f.AfterLink || len(f.OtherDirs) > 0 || f.Dir != c.Dir || len(c.OtherDirs) > 0 {
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
func findPaths(disk Disk, fo shellparse.FindOutput, dir string, null bool) ([]string, bool) {
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
			if !null && strings.ContainsAny(printed, " \t\n\v\f\r'\"\\") {
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
		if _, err := disk.Lstat(abs); err != nil {
			continue // find reports it and goes on
		}
		if !walk(abs, start, filepath.Base(start), 0) {
			return nil, false
		}
	}
	return out, true
}
