package cmdmodel

import (
	"fmt"
	"path"
)

// TrackedReader names the program of a Tracked read (FileEffect.Tracked)
// in what is said about it: git prints the files it tracks.
const TrackedReader = "git"

// LeaveOutAdvice completes what, the sentence that says a recursive read
// by the program via reaches the file found (dotFile: a component of it
// starts with "."; hidden: the read brings in hidden files the program
// skips by default), with how to leave that file out in the program's
// own options.
func LeaveOutAdvice(via, what, found string, dotFile, hidden bool) string {
	base := path.Base(found)
	switch via {
	case "grep", "egrep", "fgrep":
		msg := fmt.Sprintf("%s; leave it out with %s -r --exclude=%s", what, via, base)
		if dotFile {
			msg += ", or use rg, which skips hidden files"
		}
		return msg
	case "rg":
		if dotFile && !hidden {
			return fmt.Sprintf("%s (--hidden, -uu, --glob or --type bring in hidden files); drop them, or leave it out with -g '!%s'", what, base)
		}
		return fmt.Sprintf("%s; leave it out with -g '!%s'", what, base)
	case "diff":
		return what + "; compare the files by name instead"
	case TrackedReader:
		return fmt.Sprintf("git prints the files it tracks, including %s; name the paths to show after -- (git show HEAD -- src/)", found)
	}
	return what + "; name the files to read instead"
}
