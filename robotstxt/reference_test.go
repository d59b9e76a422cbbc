package robotstxt

import (
	"fmt"
	"strings"
)

// A slow reference matcher written straight from docs/robots-rules.md
// rules 12-18 (and, below it, a slow reference parser for rules 1-7), sharing no code with the fast one: it normalises with
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
	applies bool         // some group applies (rule 7); false: everything is allowed
	rules   []Rule       // the group's rules, any order
	tokens  [][]refToken // per rule; nil for a rule that can never match
}

// newRefGroup reads the rules of a group Parse returned.
func newRefGroup(g *Group) *refGroup {
	return refGroupOf(g.Selection() != SelectedNone, g.Rules())
}

func refGroupOf(applies bool, rules []Rule) *refGroup {
	rg := &refGroup{applies: applies, rules: rules, tokens: make([][]refToken, len(rules))}
	for i, r := range rules {
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
	if !rg.applies {
		return Verdict{Allowed: true, Reason: ReasonNoGroup} // rule 7
	}
	u := refTarget(target)
	if u == "/robots.txt" {
		return Verdict{Allowed: true, Reason: ReasonRobotsTxt} // rule 18
	}
	rules := rg.rules
	best := -1
	for i, r := range rules {
		if rg.tokens[i] == nil || !refMatch(rg.tokens[i], u) {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		b := rules[best]
		switch {
		case len(r.Pattern) != len(b.Pattern):
			if len(r.Pattern) > len(b.Pattern) {
				best = i
			}
		case r.Allow != b.Allow:
			if r.Allow {
				best = i
			}
		case r.Line < b.Line:
			best = i
		}
	}
	if best < 0 {
		return Verdict{Allowed: true, Reason: ReasonNoMatch}
	}
	return Verdict{Allowed: rules[best].Allow, Rule: rules[best], Reason: ReasonRule}
}

// A slow reference parser written straight from docs/robots-rules.md
// rules 1-7 and 10, sharing no code with Parse: it splits lines by hand,
// keeps every written group as a list, and chooses the rules of an agent
// by scanning all of them. It yields the rules an agent follows, which the
// reference matcher above then decides with.

// refWritten is one group as written: its agents and rules.
type refWritten struct {
	agents []string // lower-cased agent tokens, or "*"
	rules  []Rule
}

// refParse reads body as rules 1-5 and 10 say.
func refParse(body []byte) []refWritten {
	s := string(body)
	cut := false
	if len(s) > DefaultMaxBytes { // rule 10: a line cut by the limit is dropped
		cut = s[DefaultMaxBytes] != '\n' && s[DefaultMaxBytes] != '\r'
		s = s[:DefaultMaxBytes]
	}
	// Rule 1: a BOM, or the leading octets of one, is skipped.
	switch {
	case strings.HasPrefix(s, "\xEF\xBB\xBF"):
		s = s[3:]
	case strings.HasPrefix(s, "\xEF\xBB"):
		s = s[2:]
	case strings.HasPrefix(s, "\xEF"):
		s = s[1:]
	}
	// Rule 1: lines end at CR, LF or CRLF.
	var lines []string
	terminated := true
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			lines, terminated, s = append(lines, s), false, ""
			break
		}
		lines = append(lines, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	if cut && !terminated {
		lines = lines[:len(lines)-1]
	}
	var groups []refWritten
	lastWasRule := true // so that the first User-agent line starts a group
	for n, line := range lines {
		if i := strings.IndexByte(line, '#'); i >= 0 { // rule 2
			line = line[:i]
		}
		field, value, ok := strings.Cut(line, ":")
		if !ok {
			continue // rule 3
		}
		field = strings.ToLower(strings.Trim(field, " \t"))
		value = strings.Trim(value, " \t")
		switch field {
		case "user-agent": // rule 4: only after a rule line does one start a group
			if lastWasRule {
				groups = append(groups, refWritten{})
				lastWasRule = false
			}
			g := &groups[len(groups)-1]
			if refNamesStar(value) {
				g.agents = append(g.agents, "*")
			} else if tok := refAgentToken(value); tok != "" {
				g.agents = append(g.agents, tok)
			}
		case "allow", "disallow":
			if len(groups) == 0 {
				continue // rule 4: a rule before the first User-agent line
			}
			lastWasRule = true
			if value != "" { // rule 17
				g := &groups[len(groups)-1]
				g.rules = append(g.rules, Rule{Allow: field == "allow", Pattern: refNormalize(value), Line: n + 1})
			}
		}
		// Sitemap, Crawl-delay and unknown fields neither start nor end a
		// group (rule 4).
	}
	return groups
}

// refNamesStar is rule 6 (revised) on a trimmed User-agent value: "*" on
// its own, or "*" then whitespace (space, tab, vertical tab, form feed)
// and anything after it, names the * group; "**", "*foo" and "*/1.0" do
// not.
func refNamesStar(value string) bool {
	rest, ok := strings.CutPrefix(value, "*")
	return ok && (rest == "" || strings.ContainsRune(" \t\v\f", rune(rest[0])))
}

// refAgentToken is rule 6 on a User-agent value or a crawler's name: the
// leading run of ASCII letters, digits, "_" and "-", lower-cased.
func refAgentToken(v string) string {
	v = strings.TrimLeft(v, " \t")
	end := strings.IndexFunc(v, func(r rune) bool {
		return !(r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'))
	})
	if end < 0 {
		end = len(v)
	}
	return strings.ToLower(v[:end])
}

// refFor chooses agent's rules (rules 5-7): the rules of every written
// group naming its token, else those of every group naming *, else none
// and nothing applies. A group without rules still names its agents
// (rule 4).
func refFor(groups []refWritten, agent string) *refGroup {
	collect := func(name string) (bool, []Rule) {
		found := false
		var rules []Rule
		for _, g := range groups {
			for _, a := range g.agents {
				if a == name {
					found = true
					rules = append(rules, g.rules...)
					break
				}
			}
		}
		return found, rules
	}
	if tok := refAgentToken(agent); tok != "" {
		if found, rules := collect(tok); found {
			return refGroupOf(true, rules)
		}
	}
	found, rules := collect("*")
	return refGroupOf(found, rules)
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
