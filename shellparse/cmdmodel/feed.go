package cmdmodel

import (
	"strconv"
)

// FindName is one -name or -iname test of a find command: the pattern, as
// fnmatch(3) takes it without FNM_PERIOD (a `*` matches a leading dot).
type FindName struct {
	Pattern string
	Fold    bool // -iname
}

// FindOutput is what a find command prints: every path below (and
// including) each start point, not following links (-P), down to
// MaxDepth (-1: no limit), whose base name matches every Names test; at
// a NUL byte each with -print0, else a newline.
type FindOutput struct {
	Starts   []string
	Names    []FindName
	MaxDepth int
	Null     bool
}

// FindPrints reports what c prints when it is a find whose expression
// only ANDs tests that narrow the paths (-name, -iname, -type, -maxdepth,
// -mindepth, -path, -ipath) and ends in at most one -print or
// -print0. Tests other than -name/-iname/-maxdepth are ignored, which
// only lists more paths than find prints. Any other word (an action, an
// operator, a dynamic word, a global option) makes ok false.
func FindPrints(c *Command) (FindOutput, bool) {
	return findOutput(c, len(c.Args), true, false)
}

// FindPasses reports what a find passes to the `-exec` at index at of its
// words (c.Args[at] is "-exec"): the paths the tests before it select,
// when those are only tests FindPrints takes and no action. The paths are
// whole words of the command it runs, as after -print0 into xargs -0
// (Null is set).
func FindPasses(c *Command, at int) (FindOutput, bool) {
	if at <= 0 || at >= len(c.Args) || c.Args[at].Text != "-exec" {
		return FindOutput{}, false
	}
	out, ok := findOutput(c, at, false, false)
	out.Null = true
	return out, ok
}

// FindSelects reports, as FindPrints does, the paths c selects when its
// expression ANDs the same narrowing tests and then runs commands on
// them: any number of -exec, -execdir, -ok and -okdir actions (each up
// to its `;` or `+`), or -print. The paths are what `{}` stands for in
// those commands.
func FindSelects(c *Command) (FindOutput, bool) {
	return findOutput(c, len(c.Args), true, true)
}

// findOutput reads find's words up to end (excluded): print allows a
// -print or -print0, execs the actions that run commands (FindSelects).
func findOutput(c *Command, end int, print, execs bool) (FindOutput, bool) {
	out := FindOutput{MaxDepth: -1}
	if len(c.Args) == 0 || c.Args[0].Dynamic || c.Name() != "find" || c.HasDynamic(1) && print {
		return out, false
	}
	args := c.Args[1:end]
	for _, w := range args {
		if w.Dynamic {
			return out, false
		}
	}
	f := readFind(args, wordText)
	if f.start > 0 {
		return out, false // a leading option: -L follows links
	}
	for _, w := range args[:f.expr] {
		out.Starts = append(out.Starts, w.Text)
	}
	if len(out.Starts) == 0 {
		out.Starts = []string{"."}
	}
	printed, acted := false, false
	for _, p := range f.prims {
		t := p.name
		if printed && !execs {
			return out, false
		}
		if isFindExec(t) {
			if !execs || !p.terminated {
				return out, false
			}
			acted = true
			continue
		}
		if acted && t != "-print" && t != "-print0" {
			// A test after an action narrows only what comes after it.
			return out, false
		}
		switch t {
		case "-print", "-print0":
			if !print {
				return out, false
			}
			printed, acted = true, execs
			out.Null = out.Null || t == "-print0"
		case "-a", "-and":
		case "-name", "-iname", "-type", "-path", "-ipath", "-wholename", "-iwholename", "-maxdepth", "-mindepth":
			if p.end == p.at+1 {
				return out, false
			}
			v := args[p.at+1].Text
			switch t {
			case "-name", "-iname":
				out.Names = append(out.Names, FindName{Pattern: v, Fold: t == "-iname"})
			case "-maxdepth":
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 {
					return out, false
				}
				out.MaxDepth = n
			case "-mindepth":
				if n, err := strconv.Atoi(v); err != nil || n < 0 {
					return out, false
				}
			}
		default:
			return out, false
		}
	}
	return out, true
}

// CopiesStdin reports whether c only copies its standard input to its
// output: cat(1) with no operand or `-` alone.
func CopiesStdin(c *Command) bool {
	return len(c.Args) > 0 && c.Args[0].Text == "cat" && (len(c.Args) == 1 || len(c.Args) == 2 && c.Args[1].Text == "-")
}
