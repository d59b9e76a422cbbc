package robotstxt

import (
	"slices"
	"strings"
	"unsafe"
)

// This file is the compiled form of a group's rules and the matcher
// (docs/robots-rules.md rules 12-19). A pattern is literal segments split by
// wildcards; each segment is found leftmost with strings.Index and an
// anchored pattern ends with a suffix check, so a test costs at most
// O(len(target) x len(pattern)) per rule: no regular expressions, no
// backtracking. Rules are sorted by precedence, so the first rule that
// matches decides and the scan stops there.

// Thresholds of the matcher. They change speed and memory, never results.
const (
	// bucketMinRules is the number of matchable rules from which a group
	// indexes its rules by the octet after the leading "/", so a target
	// is only tried against rules that can match it.
	bucketMinRules = 8
	// smallTarget and largeTarget are the sizes of the stack buffers a
	// match target that needs normalisation is rewritten into. A
	// normalised target longer than largeTarget octets is rewritten on the
	// heap, the only case in which Test allocates.
	smallTarget = 512
	largeTarget = 16 << 10
)

// ruleKind is the shape of a compiled pattern.
type ruleKind uint8

const (
	kindPrefix  ruleKind = iota // literal prefix: "/a/b", "/a*" and "/a****"
	kindExact                   // literal with end anchor: "/a$"
	kindWild                    // prefix, then segments in order: "/*/private/"
	kindWildEnd                 // as kindWild, the last segment a suffix: "/*.pdf$"
)

// crule is one compiled rule. Its literals are in the match form (see
// normalize.go).
type crule struct {
	prefix string // the literal before the first wildcard; the target must start with it
	// head is the first octets of prefix, up to 8, little-endian, as
	// headOf reads them from a target.
	head   uint64
	minLen uint32 // the shortest target that can match
	rule   uint32 // index in matcher.rules
	wild   uint32 // for kindWild and kindWildEnd: index in matcher.wilds
	kind   ruleKind
}

// wildRule is what a rule with wildcards has beyond a crule.
type wildRule struct {
	// need is the octetSet of the segments after the prefix: a target
	// whose set lacks one of its members cannot match.
	need         octetSet
	segLo, segHi uint32 // the non-empty literals after the prefix: matcher.segs[segLo:segHi]
}

// headMask covers the octets of a crule's head: the first min(n, 8) of a
// prefix of n octets.
func headMask(n int) uint64 {
	if n >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*n) - 1
}

// matcher is the immutable compiled form of a group's rules. compiled
// holds the matchable rules in precedence order. A target whose second
// octet is b can only match the rules in byOctet[start[b]:start[b+1]] (their
// prefix has b after the leading "/") and those in general (prefixes of
// fewer than two octets). Both lists hold ascending indices into compiled:
// the first match of each list is its best, and the lower index wins.
type matcher struct {
	rules    []Rule // the group's rules, file order
	compiled []crule
	wilds    []wildRule
	segs     []string
	general  []uint32
	start    *[257]uint32 // nil when the group is small: then general lists every rule
	byOctet  []uint32
}

// compile builds the matcher of rules. Rules whose pattern starts with
// neither "/" nor "*" are left out: they never match (rule 14).
func compile(rules []Rule) *matcher {
	// Rule 16: longest pattern first, Allow before Disallow on a tie, then
	// file order, so the earliest line decides among equals. The key sorts
	// in that order; its low bits are the rule's index.
	keys := make([]uint64, 0, len(rules))
	for i, r := range rules {
		if r.Pattern == "" || r.Pattern[0] != '/' && r.Pattern[0] != '*' {
			continue
		}
		k := uint64(1<<31-1-min(len(r.Pattern), 1<<31-1)) << 33
		if !r.Allow {
			k |= 1 << 32
		}
		keys = append(keys, k|uint64(i))
	}
	slices.Sort(keys)
	m := &matcher{rules: rules, compiled: make([]crule, len(keys))}
	for i, k := range keys {
		m.compileRule(&m.compiled[i], uint32(k))
	}
	if len(keys) < bucketMinRules {
		m.general = make([]uint32, len(keys))
		for i := range m.general {
			m.general[i] = uint32(i)
		}
		return m
	}
	// Counting sort of the bucketed rules by their octet; ascending
	// indices within each bucket.
	m.start = new([257]uint32)
	for i := range m.compiled {
		if p := m.compiled[i].prefix; len(p) >= 2 {
			m.start[int(p[1])+1]++
		} else {
			m.general = append(m.general, uint32(i))
		}
	}
	for b := 1; b < len(m.start); b++ {
		m.start[b] += m.start[b-1]
	}
	m.byOctet = make([]uint32, m.start[256])
	next := *m.start
	for i := range m.compiled {
		if p := m.compiled[i].prefix; len(p) >= 2 {
			m.byOctet[next[p[1]]] = uint32(i)
			next[p[1]]++
		}
	}
	return m
}

// compileRule compiles m.rules[ri] into c, a zero crule: it splits the
// pattern into its literal segments, appending them to m.segs.
func (m *matcher) compileRule(c *crule, ri uint32) {
	p := m.rules[ri].Pattern
	anchored := p[len(p)-1] == '$' // rule 15: "$" is special only as the last octet
	if anchored {
		p = p[:len(p)-1]
	}
	c.rule = ri
	star := strings.IndexByte(p, '*')
	if star < 0 {
		c.setPrefix(literalToMatch(p))
		if anchored {
			c.kind = kindExact
		}
		return
	}
	c.setPrefix(literalToMatch(p[:star]))
	w := wildRule{segLo: uint32(len(m.segs))}
	rest := p[star+1:]
	for rest != "" {
		part := rest
		if i := strings.IndexByte(rest, '*'); i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if part == "" { // "**" is "*"
			continue
		}
		seg := literalToMatch(part)
		m.segs = append(m.segs, seg)
		c.minLen += uint32(len(seg))
		w.need.add(seg)
	}
	w.segHi = uint32(len(m.segs))
	switch {
	case w.segHi == w.segLo:
		c.kind = kindPrefix // "/a*", "/a**" and "/a*$" match what "/a" matches
		return
	case anchored && p[len(p)-1] != '*':
		c.kind = kindWildEnd
	default:
		c.kind = kindWild // "/*x*$" matches what "/*x" matches
	}
	c.wild = uint32(len(m.wilds))
	m.wilds = append(m.wilds, w)
}

// setPrefix sets the literal before the first wildcard, its head and the
// least length of a target.
func (c *crule) setPrefix(prefix string) {
	c.prefix = prefix
	c.head = headOf(prefix)
	c.minLen = uint32(len(prefix))
}

// headOf returns the first 8 octets of s (fewer when s is shorter, the
// rest zero) as a little-endian word.
func headOf(s string) uint64 {
	if len(s) >= 8 {
		return load64(s, 0)
	}
	var h uint64
	for i := len(s) - 1; i >= 0; i-- {
		h = h<<8 | uint64(s[i])
	}
	return h
}

// matchesAfterPrefix reports whether the rule matches u, a match target
// already known to start with c.prefix and to be at least c.minLen long.
func (m *matcher) matchesAfterPrefix(c *crule, u string) bool {
	switch c.kind {
	case kindPrefix:
		return true
	case kindExact:
		return len(u) == len(c.prefix)
	}
	pos := len(c.prefix)
	w := &m.wilds[c.wild]
	segs := m.segs[w.segLo:w.segHi]
	if c.kind == kindWildEnd {
		segs = segs[:len(segs)-1]
	}
	for _, seg := range segs {
		i := strings.Index(u[pos:], seg)
		if i < 0 {
			return false
		}
		pos += i + len(seg)
	}
	if c.kind == kindWildEnd {
		tail := m.segs[w.segHi-1]
		return len(u)-pos >= len(tail) && u[len(u)-len(tail):] == tail
	}
	return true
}

// test decides the match target s, a path and query as written.
func (m *matcher) test(s string) Verdict {
	if isMatchForm(s) {
		return m.match(s)
	}
	n, _ := normalizedLen(s, true)
	if n < smallTarget {
		var buf [smallTarget]byte
		return m.matchNormalized(buf[:0], s)
	}
	return m.testLarge(s, n)
}

// testLarge is test for targets whose normalised form does not fit the
// small buffer. It is a function of its own so that test does not clear
// the large buffer on every call.
//
//go:noinline
func (m *matcher) testLarge(s string, n int) Verdict {
	if n < largeTarget {
		var buf [largeTarget]byte
		return m.matchNormalized(buf[:0], s)
	}
	return m.matchNormalized(make([]byte, 0, n+1), s)
}

// matchNormalized writes the match form of s into buf and matches it.
func (m *matcher) matchNormalized(buf []byte, s string) Verdict {
	if s == "" || s[0] == '?' { // rule 12: an empty path is "/"
		buf = append(buf, '/')
	}
	buf = appendNormalized(buf, s, true)
	// The string does not outlive this call and buf is not written while
	// it is in use.
	return m.match(unsafe.String(unsafe.SliceData(buf), len(buf)))
}

// match decides u, a match target already in the match form.
func (m *matcher) match(u string) Verdict {
	if u == "/robots.txt" { // rule 18
		return Verdict{Allowed: true, Reason: ReasonRobotsTxt}
	}
	q := query{u: u, head: headOf(u)}
	// The first match in precedence order decides: the first in the
	// target's bucket, unless a general rule of higher precedence (a lower
	// index) matches too.
	best := uint32(len(m.compiled))
	if m.start != nil && len(u) >= 2 {
		for _, i := range m.byOctet[m.start[u[1]]:m.start[int(u[1])+1]] {
			if m.matches(&m.compiled[i], &q) {
				best = i
				break
			}
		}
	}
	for _, i := range m.general {
		if i >= best {
			break
		}
		if m.matches(&m.compiled[i], &q) {
			best = i
			break
		}
	}
	if best == uint32(len(m.compiled)) {
		return Verdict{Allowed: true, Reason: ReasonNoMatch}
	}
	r := m.rules[m.compiled[best].rule]
	return Verdict{Allowed: r.Allow, Rule: r, Reason: ReasonRule}
}

// query is a match target and what is learnt about it while matching.
type query struct {
	u       string
	head    uint64   // headOf(u)
	have    octetSet // of u, once haveSet
	haveSet bool
}

// matches reports whether rule c matches the target.
func (m *matcher) matches(c *crule, q *query) bool {
	u := q.u
	if len(u) < int(c.minLen) || q.head&headMask(len(c.prefix)) != c.head ||
		len(c.prefix) > 8 && u[8:len(c.prefix)] != c.prefix[8:] {
		return false
	}
	if c.kind >= kindWild {
		if !q.haveSet {
			q.have.add(u)
			q.haveSet = true
		}
		if !m.wilds[c.wild].need.subsetOf(&q.have) {
			return false
		}
	}
	return m.matchesAfterPrefix(c, u)
}

// octetSet is a quick, conservative summary of the literals of match-form
// strings: the octets they hold and the pairs of adjacent octets, each
// hashed into 64 bits. If a segment occurs in a target, the segment's set
// is a subset of the target's; the converse may fail, so the set only
// rejects. Most rules like "/*sessionid=" are rejected this way without
// searching the target. Two words keep the sets in registers.
type octetSet struct {
	single, pair uint64
}

// add puts the octets and adjacent pairs of s into the set.
func (o *octetSet) add(s string) {
	if s == "" {
		return
	}
	prev := uint64(s[0])
	single, pair := o.single|1<<(prev&63), o.pair
	for i := 1; i < len(s); i++ {
		b := uint64(s[i])
		single |= 1 << (b & 63)
		pair |= 1 << ((prev*37 + b) & 63)
		prev = b
	}
	o.single, o.pair = single, pair
}

// subsetOf reports whether every member of o is in t.
func (o *octetSet) subsetOf(t *octetSet) bool {
	return o.single&^t.single|o.pair&^t.pair == 0
}

// isMatchForm reports whether s is a match target already in the match
// form: it starts with "/" or any octet but "?", every octet is printable
// ASCII, and every "%" starts an upper-case escape that normalisation
// keeps. Most real paths are, and skip the rewrite.
func isMatchForm(s string) bool {
	if s == "" || s[0] == '?' {
		return false
	}
	if isPlain(s) {
		return true
	}
	i := plainPrefix(s)
	for ; i < len(s); i++ {
		switch octetClass[s[i]] {
		case octetKeep:
		case octetPercent:
			if i+2 >= len(s) || !isUpperHex(s[i+1]) || !isUpperHex(s[i+2]) {
				return false
			}
			hi, _ := unhex(s[i+1])
			lo, _ := unhex(s[i+2])
			if decodes(hi<<4|lo, true) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

// isUpperHex reports whether c is 0-9 or A-F.
func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }
