package robotstxt

import (
	"fmt"
	"strings"
)

// A slow reference matcher written straight from robots-semantics.md
// rules 12-18, sharing no code with the fast one: it normalises with
// fmt and strings.Builder, reads a pattern as tokens, and matches by plain
// recursion in which "*" tries every split. The fast matcher must agree
// with it on the verdict and on the deciding line.

// refNormalize is rule 13 on s: non-ASCII, space and control octets
// encoded; escapes upper-cased; unreserved escapes decoded; a "%" that
// starts no escape is a literal percent, %25.
func refNormalize(s string) string {
	const hexDigits = "0123456789abcdefABCDEF"
	unreserved := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && strings.IndexByte(hexDigits, s[i+1]) >= 0 && strings.IndexByte(hexDigits, s[i+2]) >= 0:
			var v byte
			fmt.Sscanf(s[i+1:i+3], "%2x", &v)
			if unreserved(v) {
				b.WriteByte(v)
			} else {
				fmt.Fprintf(&b, "%%%02X", v)
			}
			i += 2
		case c == '%':
			b.WriteString("%25")
		case c <= ' ' || c >= 0x7F:
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// refTarget is the octets a target is matched as: normalised, and since a
// pattern's %2A and %24 are the literal "*" and "$", a target's "%2A" and
// "*" (and "%24" and "$") are the same character.
func refTarget(target string) string {
	if target == "" || target[0] == '?' {
		target = "/" + target // rule 12
	}
	n := refNormalize(target)
	n = strings.ReplaceAll(n, "%2A", "*")
	return strings.ReplaceAll(n, "%24", "$")
}

// refToken is one element of a pattern.
type refToken struct {
	wild  bool // "*": any octets, none included
	end   bool // a final "$": the end of the target
	octet byte // otherwise: this literal octet
}

// refTokens reads a normalised pattern (Rule.Pattern) as rule 15 says.
func refTokens(pattern string) []refToken {
	var ts []refToken
	for i := 0; i < len(pattern); i++ {
		switch {
		case pattern[i] == '*':
			ts = append(ts, refToken{wild: true})
		case pattern[i] == '$' && i == len(pattern)-1:
			ts = append(ts, refToken{end: true})
		case strings.HasPrefix(pattern[i:], "%2A"):
			ts = append(ts, refToken{octet: '*'})
			i += 2
		case strings.HasPrefix(pattern[i:], "%24"):
			ts = append(ts, refToken{octet: '$'})
			i += 2
		default:
			ts = append(ts, refToken{octet: pattern[i]})
		}
	}
	return ts
}

// refMatch reports whether the pattern tokens match a prefix of u
// (rule 14): plain recursion, "*" trying every split (by matching nothing,
// or one octet and then again). Patterns with several wildcards remember
// failed (token, position) pairs so that fuzzed inputs cannot make the
// reference itself exponential; the answer is the same.
func refMatch(ts []refToken, u string) bool {
	wilds := 0
	for _, t := range ts {
		if t.wild {
			wilds++
		}
	}
	var failed []bool // by ti*(len(u)+1)+ui
	if wilds > 1 {
		failed = make([]bool, (len(ts)+1)*(len(u)+1))
	}
	var rec func(ti, ui int) bool
	rec = func(ti, ui int) bool {
		if ti == len(ts) {
			return true // a prefix of the target matched
		}
		if failed != nil && failed[ti*(len(u)+1)+ui] {
			return false
		}
		ok := false
		switch t := ts[ti]; {
		case t.wild:
			// Match none here, or one octet and stay on the "*": the
			// same splits as trying every k, in O(1) per state.
			ok = rec(ti+1, ui) || ui < len(u) && rec(ti, ui+1)
		case t.end:
			ok = ui == len(u)
		default:
			ok = ui < len(u) && u[ui] == t.octet && rec(ti+1, ui+1)
		}
		if !ok && failed != nil {
			failed[ti*(len(u)+1)+ui] = true
		}
		return ok
	}
	return rec(0, 0)
}

// refGroup is a group's rules read as tokens once, for the reference.
type refGroup struct {
	g      *Group
	tokens [][]refToken // per rule; nil for a rule that can never match
}

func newRefGroup(g *Group) *refGroup {
	rg := &refGroup{g: g, tokens: make([][]refToken, len(g.Rules()))}
	for i, r := range g.Rules() {
		if r.Pattern != "" && (r.Pattern[0] == '/' || r.Pattern[0] == '*') { // rule 14
			rg.tokens[i] = refTokens(r.Pattern)
		}
	}
	return rg
}

// verdict decides target the slow way: every rule is tried and the best
// match is kept (rule 16: longest normalised pattern, Allow on a tie, then
// the earliest line).
func (rg *refGroup) verdict(target string) Verdict {
	if rg.g.Selection() == SelectedNone {
		return Verdict{Allowed: true, Reason: ReasonNoGroup} // rule 7
	}
	u := refTarget(target)
	if u == "/robots.txt" {
		return Verdict{Allowed: true, Reason: ReasonRobotsTxt} // rule 18
	}
	rules := rg.g.Rules()
	best := -1
	for i, r := range rules {
		if rg.tokens[i] == nil || !refMatch(rg.tokens[i], u) {
			continue
		}
		if best < 0 || len(r.Pattern) > len(rules[best].Pattern) ||
			len(r.Pattern) == len(rules[best].Pattern) && r.Allow && !rules[best].Allow {
			best = i
		}
	}
	if best < 0 {
		return Verdict{Allowed: true, Reason: ReasonNoMatch}
	}
	return Verdict{Allowed: rules[best].Allow, Rule: rules[best], Reason: ReasonRule}
}

// syntheticTargets builds paths from a group's own patterns, so that the
// differential checks reach every rule and its edges: the pattern with
// wildcards filled or dropped, cut short, extended, with a query, and with
// its literal characters in escaped and raw forms. Of a group with more
// than maxRules rules, an evenly spread maxRules are used.
func syntheticTargets(g *Group, maxRules int) []string {
	var out []string
	rules := g.Rules()
	step := 1
	if len(rules) > maxRules {
		step = (len(rules) + maxRules - 1) / maxRules
	}
	for i := 0; i < len(rules); i += step {
		r := rules[i]
		p := strings.TrimSuffix(r.Pattern, "$")
		for _, fill := range []string{"", "x", "/a/b", "%2A", "*"} {
			base := strings.ReplaceAll(p, "*", fill)
			base = strings.ReplaceAll(base, "%2A", "*")
			out = append(out, base, base+"/x", base+"?q=1", base+"$", base+".pdf")
			if len(base) > 1 {
				out = append(out, base[:len(base)-1])
			}
		}
		out = append(out, strings.ToLower(p), strings.ToUpper(p))
	}
	return out
}
