package policy

// ruleIndex lists each layer's rules by what they can match, so that a
// decision scans only the rules that may match its subject: a Bash rule
// whose first pattern word is literal (`Bash(git push *)`) can only match
// a command form that starts with that word (bashMatcher.matchForm), and
// a rule of one kind of tool only a subject of that kind. Bash rules
// whose first word holds a `*`, or that match every command, are in a
// catch-all list.
type ruleIndex struct {
	layers []layerIndex // as RuleSet.layers
}

// layerIndex holds indices into one layer, each list ascending.
type layerIndex struct {
	byFirst map[string][]int // Bash rules by their literal first word
	bashAny []int            // Bash rules with no literal first word
	byKind  [kindOther + 1][]int
}

// index returns the index of rs, building it on first use. Built twice
// by racing callers, either copy is the same.
func (rs *RuleSet) index() *ruleIndex {
	if ix := rs.idx.Load(); ix != nil {
		return ix
	}
	ix := &ruleIndex{layers: make([]layerIndex, len(rs.layers))}
	for li, layer := range rs.layers {
		l := &ix.layers[li]
		for i, r := range layer {
			k := toolKind(r.Tool)
			if k == kindBash && r.first != "" {
				if l.byFirst == nil {
					l.byFirst = map[string][]int{}
				}
				l.byFirst[r.first] = append(l.byFirst[r.first], i)
				continue
			}
			if k == kindBash {
				l.bashAny = append(l.bashAny, i)
				continue
			}
			l.byKind[k] = append(l.byKind[k], i)
		}
	}
	rs.idx.Store(ix)
	return ix
}

// maxCandidateLists bounds the lists one subject merges; a command with
// more first words than that scans its whole layer.
const maxCandidateLists = 8

// candidates walks the indices of the rules of one layer that may match
// a subject, from the last to the first (the last matching rule wins).
type candidates struct {
	lists  [maxCandidateLists][]int
	n      int
	firsts [maxCandidateLists]string // the first words added
	nf     int
	all    int // > 0: every index below it, the index not used
}

// candidates sets c to the rules of l, a layer of n rules, that may
// match s.
func (l *layerIndex) candidates(c *candidates, s *subject, n int) {
	*c = candidates{}
	if s.kind != kindBash {
		if s.kind <= kindOther {
			c.add(l.byKind[s.kind])
		}
		return
	}
	c.add(l.bashAny)
	for i := 0; i <= len(s.forms); i++ {
		f := &s.allow
		if i < len(s.forms) {
			f = &s.forms[i]
		} else if !s.allowOK {
			break
		}
		if !c.addFirst(l, f) {
			*c = candidates{all: n + 1} // any rule may match
			return
		}
	}
}

// addFirst adds the rules whose first word is f's, once per word; false
// when f's first word is dynamic (any rule may match) or there are too
// many words.
func (c *candidates) addFirst(l *layerIndex, f *form) bool {
	if f.firstDyn {
		return false
	}
	for _, x := range c.firsts[:c.nf] {
		if x == f.first {
			return true
		}
	}
	if c.nf == len(c.firsts) || c.n == len(c.lists) {
		return false
	}
	c.firsts[c.nf] = f.first
	c.nf++
	c.add(l.byFirst[f.first])
	return true
}

func (c *candidates) add(list []int) {
	if len(list) > 0 {
		c.lists[c.n] = list
		c.n++
	}
}

// next returns the highest index not yet returned, or -1.
func (c *candidates) next() int {
	if c.all > 0 {
		c.all--
		return c.all - 1
	}
	best := -1
	for i := 0; i < c.n; i++ {
		if l := c.lists[i]; len(l) > 0 && (best < 0 || l[len(l)-1] > c.lists[best][len(c.lists[best])-1]) {
			best = i
		}
	}
	if best < 0 {
		return -1
	}
	l := c.lists[best]
	c.lists[best] = l[:len(l)-1]
	return l[len(l)-1]
}
