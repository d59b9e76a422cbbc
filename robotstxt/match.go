package robotstxt

import (
	"slices"
	"strings"
	"unsafe"
)

// This file is the compiled form of a group's rules and the matcher
// (robots-semantics.md rules 12-19). A pattern is literal segments split by
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

// crule is one compiled rule. Segments are in the match form (see
// normalize.go).
type crule struct {
	prefix string   // the literal before the first wildcard; the target must start with it
	segs   []string // the non-empty literals after it, in order (kindWild, kindWildEnd)
	kind   ruleKind
	rule   Rule
}

// matcher is the immutable compiled form of a group's rules. lists[0]
// holds the rules every target must be tried against, in precedence order;
// when the group is large, bucket maps the octet after the leading "/" of a
// target to the list that holds the rules whose prefix has that octet there
// plus lists[0], again in precedence order.
type matcher struct {
	bucket [256]uint8
	lists  [][]crule
}

// compile builds the matcher of rules. Rules whose pattern starts with
// neither "/" nor "*" are left out: they never match (rule 14).
func compile(rules []Rule) *matcher {
	cs := make([]crule, 0, len(rules))
	for _, r := range rules {
		if r.Pattern != "" && (r.Pattern[0] == '/' || r.Pattern[0] == '*') {
			cs = append(cs, compileRule(r))
		}
	}
	// Rule 16: longest pattern first, Allow before Disallow on a tie; the
	// stable sort keeps file order among equals, so the earliest line decides.
	slices.SortStableFunc(cs, func(a, b crule) int {
		if la, lb := len(a.rule.Pattern), len(b.rule.Pattern); la != lb {
			return lb - la
		}
		switch {
		case a.rule.Allow == b.rule.Allow:
			return 0
		case a.rule.Allow:
			return -1
		}
		return 1
	})
	m := &matcher{}
	if len(cs) < bucketMinRules {
		m.lists = [][]crule{cs}
		return m
	}
	m.lists = [][]crule{nil}
	for _, c := range cs {
		if len(c.prefix) >= 2 && m.bucket[c.prefix[1]] == 0 && len(m.lists) < 256 {
			m.bucket[c.prefix[1]] = uint8(len(m.lists))
			m.lists = append(m.lists, nil)
		}
	}
	for _, c := range cs {
		if len(c.prefix) >= 2 && m.bucket[c.prefix[1]] != 0 {
			i := m.bucket[c.prefix[1]]
			m.lists[i] = append(m.lists[i], c)
			continue
		}
		for i := range m.lists { // a general rule belongs in every list
			m.lists[i] = append(m.lists[i], c)
		}
	}
	return m
}

// compileRule splits a matchable rule's pattern into its literal segments.
func compileRule(r Rule) crule {
	p := r.Pattern
	anchored := p[len(p)-1] == '$' // rule 15: "$" is special only as the last octet
	if anchored {
		p = p[:len(p)-1]
	}
	parts := strings.Split(p, "*")
	c := crule{prefix: literalToMatch(parts[0]), rule: r}
	for _, part := range parts[1:] {
		if part != "" { // "**" is "*"
			c.segs = append(c.segs, literalToMatch(part))
		}
	}
	if anchored && len(parts) > 1 && parts[len(parts)-1] == "" {
		anchored = false // "/a*$" matches what "/a*" matches
	}
	switch {
	case len(parts) == 1 && anchored:
		c.kind = kindExact
	case len(c.segs) == 0:
		c.kind = kindPrefix
	case anchored:
		c.kind = kindWildEnd
	default:
		c.kind = kindWild
	}
	return c
}

// matches reports whether the rule matches u, a match target in the match
// form that is already known to start with c.prefix.
func (c *crule) matchesAfterPrefix(u string) bool {
	switch c.kind {
	case kindPrefix:
		return true
	case kindExact:
		return len(u) == len(c.prefix)
	}
	pos := len(c.prefix)
	segs := c.segs
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
		tail := c.segs[len(c.segs)-1]
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
	if n <= smallTarget {
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
	if n <= largeTarget {
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
	list := m.lists[0]
	if len(u) >= 2 {
		list = m.lists[m.bucket[u[1]]]
	}
	for i := range list {
		c := &list[i]
		if len(u) < len(c.prefix) || u[:len(c.prefix)] != c.prefix || !c.matchesAfterPrefix(u) {
			continue
		}
		return Verdict{Allowed: c.rule.Allow, Rule: c.rule, Reason: ReasonRule}
	}
	return Verdict{Allowed: true, Reason: ReasonNoMatch}
}

// isMatchForm reports whether s is a match target already in the match
// form: it starts with "/" or any octet but "?", every octet is printable
// ASCII, and every "%" starts an upper-case escape that normalisation
// keeps. Most real paths are, and skip the rewrite.
func isMatchForm(s string) bool {
	if s == "" || s[0] == '?' {
		return false
	}
	for i := 0; i < len(s); i++ {
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
