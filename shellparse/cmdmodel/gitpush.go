package cmdmodel

import (
	"strings"
	"sync"
)

var gitPushOnce sync.Once

// gitPushSpec is the command model of `git push` (git-push(1), git 2.39,
// parse-options: short options cluster, long ones may be abbreviated to a
// unique prefix, `--no-` negates). Names joined by "|" are one option
// spelled short and long.
var gitPushSpec = Spec{complete: true,
	flags: "v|verbose q|quiet all mirror d|delete tags n|dry-run porcelain f|force force-if-includes thin " +
		"u|set-upstream progress prune verify no-verify follow-tags atomic 4|ipv4 6|ipv6 no-force no-tags " +
		"no-thin no-progress no-prune no-follow-tags no-atomic no-force-with-lease no-force-if-includes " +
		"no-signed no-recurse-submodules no-verbose no-quiet no-dry-run no-porcelain no-all no-mirror no-delete " +
		"no-repo no-receive-pack no-exec no-set-upstream no-push-option no-ipv4 no-ipv6 help",
	args:     "repo receive-pack exec recurse-submodules o|push-option",
	optional: "force-with-lease signed",
	acts:     "receive-pack exec help",
}

// IsGit reports whether name (a basename) is git(1).
func IsGit(name string) bool { return name == "git" }

// ForcingRefspec reports a git push refspec that forces the update of its
// ref (`+main`) or deletes it (`:main`) (git-push(1) <refspec>).
func ForcingRefspec(w string) bool { return strings.HasPrefix(w, "+") || strings.HasPrefix(w, ":") }

// ListsTrackedFiles reports a command line that is exactly `git ls-files`:
// it prints the paths of the files git tracks in the work tree.
func ListsTrackedFiles(args []Word) bool {
	return len(args) == 2 && args[0].Text == "git" && args[1].Text == "ls-files" && !args[1].Dynamic
}

// GitPushForms returns the spellings of a `git push` command line that deny
// and ask rules match besides the one written, so a rule written
// one way catches every spelling git reads alike: each option as
// a word of its own, before the operands, spelled once short (`-f`) and
// once long (`--force`), with a `+refspec` (a forced update of that ref)
// also as -f/--force; then the operands. words is the line from `git`,
// git's global options removed. Nil when it is not git push or the model
// does not understand it.
func GitPushForms(words []Word) [][]Word {
	if len(words) < 2 || words[0].Text != "git" || words[1].Text != "push" || words[1].Dynamic {
		return nil
	}
	s := &gitPushSpec
	gitPushOnce.Do(s.init)
	l := s.Scan(&Command{Args: words[1:]})
	if l.Err != "" {
		return nil
	}
	// Each option as its word group, spelled short and long.
	var shorts, longs [][]Word
	var operands []Word
	force := false
	for _, it := range l.Items {
		if it.Opt == "" {
			v := l.Val(it)
			operands = append(operands, v.Word)
			force = force || strings.HasPrefix(v.Text, "+")
			continue
		}
		names := s.aliases(it.Opt)
		longName := "--" + names[len(names)-1]
		shortName := longName
		if len(names[0]) == 1 {
			shortName = "-" + names[0]
		}
		v := l.Val(it)
		switch {
		case it.Has && s.opts[it.Opt] == optional:
			w := Word{Text: longName + "=" + v.Text, Dynamic: v.Dynamic}
			shorts, longs = append(shorts, []Word{w}), append(longs, []Word{w})
		case it.Has:
			shorts = append(shorts, []Word{{Text: shortName}, v.Word})
			longs = append(longs, []Word{{Text: longName}, v.Word})
		default:
			shorts = append(shorts, []Word{{Text: shortName}})
			longs = append(longs, []Word{{Text: longName}})
		}
	}
	if force {
		shorts = append(shorts, []Word{{Text: "-f"}})
		longs = append(longs, []Word{{Text: "--force"}})
	}
	// A rule names an option right after `git push`: each option takes
	// the first place in one form (a few forms for a long line).
	var forms [][]Word
	for first := 0; first < max(1, min(len(shorts), 8)); first++ {
		for _, groups := range [][][]Word{shorts, longs} {
			f := []Word{words[0], words[1]}
			if first < len(groups) {
				f = append(f, groups[first]...)
			}
			for k, g := range groups {
				if k != first {
					f = append(f, g...)
				}
			}
			forms = append(forms, append(f, operands...))
		}
	}
	return forms
}

// aliases returns every name of the option name is one spelling of, its
// first name first.
func (s *Spec) aliases(name string) []string {
	c := s.canon[name]
	for _, group := range strings.Fields(s.flags + " " + s.args + " " + s.optional) {
		names := strings.Split(group, "|")
		if names[0] == c {
			return names
		}
	}
	return []string{name}
}
