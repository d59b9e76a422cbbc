package robotstxt

import "strconv"

// Rule is one Allow or Disallow line of a group.
type Rule struct {
	Allow bool // an Allow line; otherwise a Disallow line
	// Pattern is the value normalised as docs/robots-rules.md rule 13 says
	// (percent-encoding upper-cased, unreserved escapes decoded, non-ASCII
	// and control octets encoded). A "*" is a wildcard and a final "$" the
	// end anchor; the literal characters are written %2A and %24. Its
	// length in octets is the rule's precedence (rule 16).
	Pattern string
	Line    int // 1-based line in the file; 0 in a Verdict no rule decided
}

// String formats the rule as a robots.txt line, e.g. "Disallow: /secret".
func (r Rule) String() string {
	if r.Allow {
		return "Allow: " + r.Pattern
	}
	return "Disallow: " + r.Pattern
}

// Verdict is the answer of Group.Test, with what decided it.
type Verdict struct {
	Allowed bool
	Rule    Rule   // the deciding rule when Reason is ReasonRule; zero otherwise
	Reason  Reason // why the URL is allowed or not
}

// Reason says what decided a Verdict.
type Reason uint8

const (
	// ReasonRule: the matching rule with the highest precedence decided
	// (rule 16). It is the only reason that can disallow.
	ReasonRule Reason = iota
	// ReasonNoMatch: the group has no rule matching the URL: allowed.
	ReasonNoMatch
	// ReasonNoGroup: no group applies to the agent: allowed (rule 7).
	ReasonNoGroup
	// ReasonRobotsTxt: /robots.txt itself is always allowed (rule 18).
	ReasonRobotsTxt
)

var reasonText = [...]string{
	ReasonRule:      "rule",
	ReasonNoMatch:   "no rule matches",
	ReasonNoGroup:   "no group applies",
	ReasonRobotsTxt: "/robots.txt is always allowed",
}

// String returns a short human explanation, e.g. "no rule matches".
func (r Reason) String() string {
	if int(r) < len(reasonText) {
		return reasonText[r]
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}
