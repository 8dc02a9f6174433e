package cmdmodel

import (
	"slices"
	"strconv"
	"strings"
)

// RuleOpt is an option of a command line as a rule sees it: the option's
// first name in the command model (`force` for -f, --force, --forc or the
// f of -uf) and its argument.
type RuleOpt struct {
	Name string
	Has  bool // an argument was given
	Val  Word
}

// RuleLine is one reading of a command line by the command model, as Bash
// rules match it: which tool (Key: "rm", "git reset"), the
// options given in any position and spelling, and the operands in order.
// A rule's own words are read the same way, so a rule matches every
// spelling the tool accepts of what it names.
type RuleLine struct {
	Key      string
	Opts     []RuleOpt
	Operands []Word
	// AnyOpt: a word only known at run time stands where an option may
	// (or xargs appends words): it may be any option.
	AnyOpt bool
	// Understood: every word was read (no unknown option, ambiguous
	// abbreviation or missing argument).
	Understood bool
}

// Has reports whether the line gives the option called name (its first
// name in the model).
func (r *RuleLine) Has(name string) bool {
	for _, o := range r.Opts {
		if o.Name == name {
			return true
		}
	}
	return false
}

// ReadRuleLines reads words (a simple command: the name as its basename,
// git's global options removed) by the command model: the readings rules
// match, more than one where the tool's meaning allows several (a chmod
// mode with special bits is also read as its permission bits). trailing
// says more words are appended at run time (xargs). Nil when the model
// has no complete entry for the command: rules then match its text only.
//
// Besides spellings, a reading adds what an option or operand implies
// for the tool (git-push(1)): a `+REFSPEC` is a forced update (--force),
// `:REF` deletes (--delete), --mirror force-updates and deletes remote
// refs (--force, --delete), --prune deletes (--delete).
func ReadRuleLines(words []Word, trailing bool) []RuleLine {
	if len(words) == 0 || words[0].Dynamic {
		return nil
	}
	var l *Cmdline
	var s *Spec
	key := words[0].Text
	if key == "git" {
		g, ok := ReadGitLine(&Command{Args: words})
		if !ok || g.Line.l == nil {
			return nil
		}
		key += " " + g.Sub
		l, s = g.Line.l, g.Line.s
	} else {
		var found bool
		s, found = LookupSpec(key, false)
		if !found || !s.complete || s.raw {
			return nil
		}
		l = s.Scan(&Command{Args: words})
	}
	r := RuleLine{Key: key, Understood: l.Err == "", AnyOpt: trailing}
	for _, w := range words[1:] {
		r.AnyOpt = r.AnyOpt || mayBeOption(w)
	}
	modeAt := -1
	for _, it := range l.Items {
		if it.Opt == "" {
			r.Operands = append(r.Operands, l.Val(it).Word)
			continue
		}
		if key == "chmod" && slices.Contains(chmodModeLetters(), it.Opt) {
			// A mode that reads like options (`chmod -w f`): the word is
			// the mode.
			if modeAt < 0 {
				modeAt = int(it.At)
			}
			continue
		}
		name := it.Opt
		if c, ok := s.canon[name]; ok {
			name = c
		}
		r.Opts = append(r.Opts, RuleOpt{Name: name, Has: it.Has, Val: l.Val(it).Word})
	}
	switch key {
	case "git push":
		implied := func(name string) {
			name = s.canon[name]
			if !r.Has(name) {
				r.Opts = append(r.Opts, RuleOpt{Name: name})
			}
		}
		for _, op := range r.Operands {
			switch {
			case strings.HasPrefix(op.Text, "+"):
				implied("force")
			case strings.HasPrefix(op.Text, ":") && op.Text != ":":
				implied("delete")
			}
		}
		if r.Has(s.canon["mirror"]) {
			implied("force")
			implied("delete")
		}
		if r.Has(s.canon["prune"]) {
			implied("delete")
		}
	case "chmod":
		if modeAt >= 0 {
			r.Operands = append([]Word{words[modeAt]}, r.Operands...)
		}
		if r.Has(s.canon["reference"]) || len(r.Operands) == 0 || r.Operands[0].Dynamic {
			break
		}
		canon, perm := chmodCanon(r.Operands[0].Text)
		r.Operands[0].Text = canon
		if perm != "" {
			alt := r
			alt.Operands = append([]Word{{Text: perm}}, r.Operands[1:]...)
			return []RuleLine{r, alt}
		}
	}
	return []RuleLine{r}
}

// chmodCanon returns a chmod mode (chmod(1), GNU coreutils 9.1) in one
// spelling: an octal mode as its value (`0777`, `00777` → `777`), and a
// symbolic mode that yields the same bits from every starting mode (read
// with a umask of 0, toward denial) as that octal value (`a=rwx`,
// `ugo+rwx`, `a+rwx` → `777`); any other mode as written. perm is the
// permission bits alone when the mode also sets special bits (`4777` →
// `777`), else "".
func chmodCanon(mode string) (canon, perm string) {
	v, ok := uint32(0), false
	if mode != "" && strings.Trim(mode, "01234567") == "" {
		if n, err := strconv.ParseUint(mode, 8, 32); err == nil && n <= 07777 {
			v, ok = uint32(n), true
		}
	} else {
		v, ok = chmodConstant(mode)
	}
	if !ok {
		return mode, ""
	}
	canon = strconv.FormatUint(uint64(v), 8)
	if v&^0777 != 0 {
		perm = strconv.FormatUint(uint64(v&0777), 8)
	}
	return canon, perm
}

// chmodConstant applies a symbolic mode to every starting permission
// (0 to 0777, a regular file, umask 0) and reports the result when it is
// the same for all of them.
func chmodConstant(mode string) (uint32, bool) {
	first, ok := chmodApply(mode, 0)
	if !ok {
		return 0, false
	}
	for start := uint32(1); start <= 0777; start++ {
		if v, _ := chmodApply(mode, start); v != first {
			return 0, false
		}
	}
	return first, true
}

// chmodApply applies a symbolic mode (chmod(1): [ugoa...][[-+=][perms...|ugo]...],
// comma-separated) to the mode start of a regular file, with a umask of
// 0. ok is false when mode is not symbolic.
func chmodApply(mode string, start uint32) (uint32, bool) {
	cur := start
	for _, clause := range strings.Split(mode, ",") {
		i := 0
		var who uint32
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			switch clause[i] {
			case 'u':
				who |= 04700
			case 'g':
				who |= 02070
			case 'o':
				who |= 01007
			case 'a':
				who |= 07777
			}
			i++
		}
		if who == 0 {
			who = 07777
		}
		if i >= len(clause) {
			return 0, false
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return 0, false
			}
			i++
			var bits uint32
			if i < len(clause) && strings.IndexByte("ugo", clause[i]) >= 0 {
				var src uint32
				switch clause[i] {
				case 'u':
					src = cur >> 6 & 7
				case 'g':
					src = cur >> 3 & 7
				case 'o':
					src = cur & 7
				}
				bits = src<<6 | src<<3 | src
				i++
			} else {
				for i < len(clause) && strings.IndexByte("rwxXst", clause[i]) >= 0 {
					switch clause[i] {
					case 'r':
						bits |= 0444
					case 'w':
						bits |= 0222
					case 'x':
						bits |= 0111
					case 'X':
						if cur&0111 != 0 {
							bits |= 0111
						}
					case 's':
						bits |= 06000
					case 't':
						bits |= 01000
					}
					i++
				}
			}
			bits &= who
			switch op {
			case '+':
				cur |= bits
			case '-':
				cur &^= bits
			case '=':
				cur = cur&^who | bits
			}
		}
	}
	return cur, true
}
