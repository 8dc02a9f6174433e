package policy

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
)

// Rules at scale (a config of thousands of rules): a rule read from the config cache is not
// compiled when the configuration is loaded but the first time a
// decision needs its matcher, so that a call pays only for the rules that
// can match it. What the rule index and the quick reject below need is
// computed when the rule is first compiled (setKeys) and kept in the
// cache beside the rule's text (AppendKeys, Compiler.LazyRule).

// bashKeys are what a Bash pattern's compiled form says about the
// commands it can match, without compiling it: a decision skips a rule
// whose keys rule it out (maybe), and compiles and matches the rest.
type bashKeys struct {
	// lit is the pattern's token string (bashMatcher.toks) up to its
	// first `*`, as bytes (litString): every form the rule matches as
	// text starts with it, up to the form's own first dynamic word.
	lit string
	// model is the command model's key of the pattern (modelRule.key;
	// "git push"), set when hasModel: the model matches only readings of
	// the command with that key.
	model    string
	hasModel bool
}

// setKeys computes r's index key and quick reject from its compiled
// matcher.
func (r *Rule) setKeys() {
	if fm, ok := r.m.(*fileMatcher); ok && !fm.all && toolKind(r.Tool) == fm.kind {
		r.piece, r.piecePairs, r.pieceKind = fm.piece, pairsOf(fm.piece), fm.kind
		return
	}
	bm, ok := r.m.(*bashMatcher)
	if !ok || toolKind(r.Tool) != kindBash || bm.all {
		return
	}
	r.first = bm.first
	toks := bm.toks
	if i := slices.Index(toks, tokStar); i >= 0 {
		toks = toks[:i]
	}
	r.bash = bashKeys{lit: litString(toks)}
	if bm.model != nil {
		r.bash.model, r.bash.hasModel = bm.model.key, true
	}
	r.hasBash = true
}

// litString spells literal tokens (bytes, '*' for an escaped star, and
// tokSep) as bytes: a token below litEsc as itself, tokSep as litEsc 0,
// litEsc itself as litEsc litEsc.
func litString(toks []int32) string {
	var b strings.Builder
	b.Grow(len(toks) + 8)
	for _, t := range toks {
		switch {
		case t == tokSep:
			b.WriteByte(litEsc)
			b.WriteByte(0)
		case t == litEsc:
			b.WriteByte(litEsc)
			b.WriteByte(litEsc)
		default:
			b.WriteByte(byte(t))
		}
	}
	return b.String()
}

const litEsc = 0xff

// matcher returns r's compiled pattern, compiling a lazy rule on first
// use.
func (r *Rule) matcher() matcher {
	if r.lazy != nil {
		r.once.Do(r.compileLazy)
	}
	return r.m
}

// match reports whether r matches s, judged as a rule of effect eff
// (matcher.match), rejecting quickly by its keys when it can.
func (r *Rule) match(s *subject, eff Effect) bool {
	if quickReject && (r.hasBash && !r.bash.maybe(s, eff, r.first) || r.piece != "" && !r.fileMaybe(s, eff)) {
		return false
	}
	return r.matcher().match(s, eff)
}

// fileMaybe is false only when fileMatcher.match is false for s: every
// path a glob matches holds the rule's piece, and lower-cased, every path
// its fold matches (globPiece). A tree walk's hits and a glob's
// expansion are left to the matcher. A path without every byte pair of
// the piece cannot hold it (pairSet), which spares most searches.
func (r *Rule) fileMaybe(s *subject, eff Effect) bool {
	if s.kind != r.pieceKind {
		return false
	}
	if len(s.treeHits) > 0 || len(s.expanded) > 0 {
		return true
	}
	s.fillLower()
	return s.absPairs.has(&r.piecePairs) && strings.Contains(s.absLower, r.piece) ||
		eff != Allow && s.realPairs.has(&r.piecePairs) && strings.Contains(s.realLower, r.piece)
}

// pairSet is a 256-bit summary of the adjacent byte pairs of a string,
// each pair hashed to one bit. A string holds another only if its set
// holds every bit of the other's, so a missing bit proves a substring
// absent and a present one proves nothing (strings.Contains decides).
type pairSet [4]uint64

// pairsOf returns the pair set of s.
func pairsOf(s string) pairSet {
	var p pairSet
	for i := 1; i < len(s); i++ {
		h := (uint32(s[i-1])<<8 | uint32(s[i])) * 2654435761 >> 24 // Knuth's multiplicative hash
		p[h>>6] |= 1 << (h & 63)
	}
	return p
}

// has reports whether every bit of q is in p.
func (p *pairSet) has(q *pairSet) bool {
	return q[0]&^p[0]|q[1]&^p[1]|q[2]&^p[2]|q[3]&^p[3] == 0
}

// quickReject is turned off by the tests that compare with a plain
// scan.
var quickReject = true

// maybe is false only when bashMatcher.match is false for s: a form
// matches the pattern as text only if it agrees with lit (glob and
// overlap match literal tokens exactly), and the model only if some
// reading of the command has the pattern's key (modelRule.match).
func (k *bashKeys) maybe(s *subject, eff Effect, first string) bool {
	if s.kind != kindBash {
		return false
	}
	if eff == Allow {
		return s.allowOK && litAgrees(k.lit, &s.allow)
	}
	for i := range s.forms {
		if litAgrees(k.lit, &s.forms[i]) {
			return true
		}
	}
	if !k.hasModel || first != "" && (s.cmd == nil || s.cmd.Name() != first) {
		return false
	}
	for _, l := range s.modelLines() {
		if l.Key == k.model {
			return true
		}
	}
	return false
}

// litAgrees reports whether a text the form stands for can start with
// the tokens lit holds (litString): the form starts with them, or agrees
// with them up to the form's first wildcard.
func litAgrees(lit string, f *form) bool {
	j := 0
	for i := 0; i < len(lit); i++ {
		t := int32(lit[i])
		if t == litEsc {
			i++
			if i < len(lit) && lit[i] == 0 {
				t = tokSep
			}
		}
		switch {
		case j == len(f.toks):
			return false
		case f.toks[j] == tokStar:
			return true
		case f.toks[j] != t:
			return false
		}
		j++
	}
	return true
}

// compileLazy compiles a lazy rule's text again. A text that no longer
// compiles, or compiles to other keys than the cache said, fails closed
// (failClosed).
func (r *Rule) compileLazy() {
	fresh, err := r.lazy.Rule(r.Ref.Rule, r.Ref)
	if err != nil || fresh.Tool != r.Tool || fresh.Pattern != r.Pattern || fresh.first != r.first ||
		fresh.hasBash != r.hasBash || fresh.bash != r.bash || fresh.piece != r.piece {
		r.m = failClosed(r)
		return
	}
	r.m = fresh.m
}

// failClosed is the matcher of a rule that cannot be compiled as it was
// cached: a deny or ask rule matches every call of its tool that the
// index and its keys hand it, so its effect is never lost; an allow rule
// matches nothing.
func failClosed(r *Rule) matcher {
	all := r.Ref.Effect != Allow
	switch k := toolKind(r.Tool); k {
	case kindBash:
		if all {
			return &bashMatcher{all: true}
		}
		return noMatcher{}
	case kindRead, kindWrite:
		return &fileMatcher{kind: k, all: all}
	}
	if all {
		return &toolMatcher{tool: r.Tool, all: true}
	}
	return noMatcher{}
}

// noMatcher matches nothing.
type noMatcher struct{}

func (noMatcher) match(*subject, Effect) bool { return false }

// Key flags.
const (
	keyBash     = 1 << iota // bashKeys follow
	keyHasModel             // bashKeys.hasModel
	keyPiece                // a file rule's piece follows
)

// AppendKeys appends to b what Compiler.LazyRule needs besides the rule's
// RuleRef to stand for r without compiling it: the tool, the pattern, the
// index key and the quick reject. The form is this build's own (the
// config cache keys entries by build).
func (r *Rule) AppendKeys(b []byte) []byte {
	var flags byte
	if r.piece != "" {
		flags |= keyPiece
	}
	if r.hasBash {
		flags |= keyBash
		if r.bash.hasModel {
			flags |= keyHasModel
		}
	}
	b = append(b, flags)
	b = appendString(b, r.Tool)
	b = appendString(b, r.Pattern)
	b = appendString(b, r.first)
	if r.hasBash {
		b = appendString(b, r.bash.lit)
		b = appendString(b, r.bash.model)
	}
	if r.piece != "" {
		b = appendString(b, r.piece)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errKeys = errors.New("malformed rule keys")

// LazyRule returns the rule ref names (ref.Rule its text), standing on
// keys written by AppendKeys for the same text by a Compiler of the same
// root and home: its pattern is compiled the first time a decision or a
// reader of the rule needs it, and a text that does not compile then to
// the same keys fails closed. Trusted and Active are left for the caller
// to set. The error says the keys do not decode.
func (c *Compiler) LazyRule(ref RuleRef, keys string) (*Rule, error) {
	r := &Rule{}
	if err := c.SetLazy(r, ref, keys); err != nil {
		return nil, err
	}
	return r, nil
}

// SetLazy is LazyRule into r, a zero Rule (of a slice that holds a whole
// file's rules, allocated at once).
func (c *Compiler) SetLazy(r *Rule, ref RuleRef, keys string) error {
	d := keyReader{s: keys}
	flags := d.byte()
	r.Ref, r.lazy = ref, c
	r.Tool, r.Pattern, r.first = d.string(), d.string(), d.string()
	if flags&keyBash != 0 {
		r.hasBash = true
		r.bash = bashKeys{lit: d.string(), model: d.string(), hasModel: flags&keyHasModel != 0}
	}
	if flags&keyPiece != 0 {
		r.piece = d.string()
		r.piecePairs, r.pieceKind = pairsOf(r.piece), toolKind(r.Tool)
	}
	if d.bad || len(d.s) != 0 || r.Tool == "" || flags&^(keyBash|keyHasModel|keyPiece) != 0 ||
		r.hasBash && r.piece != "" || flags&keyPiece != 0 && r.piece == "" {
		return errKeys
	}
	return nil
}

// keyReader reads what AppendKeys wrote; bad is set on the first value
// that does not decode, and every later read returns zero.
type keyReader struct {
	s   string
	bad bool
}

func (d *keyReader) byte() byte {
	if d.bad || len(d.s) == 0 {
		d.bad = true
		return 0
	}
	b := d.s[0]
	d.s = d.s[1:]
	return b
}

func (d *keyReader) uvarint() uint64 {
	if d.bad {
		return 0
	}
	v, rest, ok := ReadUvarint(d.s)
	d.s, d.bad = rest, !ok
	return v
}

// ReadUvarint decodes an unsigned varint (encoding/binary's
// AppendUvarint) at the start of s, without copying it: its value and
// what follows. ok is false when s holds no complete varint or one that
// overflows 64 bits (binary.Uvarint's n <= 0).
func ReadUvarint(s string) (v uint64, rest string, ok bool) {
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, s, false // overflows 64 bits
			}
			return v | uint64(c)<<(7*i), s[i+1:], true
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	return 0, s, false
}

func (d *keyReader) string() string {
	n := d.uvarint()
	if d.bad || n > uint64(len(d.s)) {
		d.bad = true
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}
