package robotstxt

// Agent is one User-agent line of a group.
type Agent struct {
	Name string // the value as written, without comment and surrounding blanks
	Line int    // 1-based line in the file
}

// AgentToken returns the agent token of a User-agent value, of a
// crawler's User-Agent string or of any other place that names a crawler
// (docs/robots-rules.md rule 6): after leading spaces and tabs, the leading
// run of ASCII letters, digits, "_" and "-"; whatever follows is dropped.
// "Mandelbot/2.1", "Mandelbot (+https://x)" and "mandelbot*" all give
// "Mandelbot" (or "mandelbot"); "Mandelbot-Image" stays whole and
// "MJ12bot" keeps its digits. A value that does not start with such a
// character, "*" included, has no token: the result is "" (whether a
// value starting with "*" names the * group is IsStarAgent's to say). Tokens are
// compared with ASCII case folding, never Unicode folding. The result
// shares memory with v.
//
// This is the one definition of an agent name in Mandelbot. It lives here
// because rule 6 is a robots.txt rule and this package depends on nothing
// but the standard library; robotstag imports it for meta names and
// X-Robots-Tag scopes, and the command line validates --agent with it, so
// that the three can never disagree about which crawler a name means.
func AgentToken(v string) string {
	i := 0
	for i < len(v) && isBlank(v[i]) {
		i++
	}
	j := i
	for j < len(v) && isAgentTokenChar(v[j]) {
		j++
	}
	return v[i:j]
}

// IsStarAgent reports whether a User-agent value names the * group, the
// fallback for crawlers no group names (docs/robots-rules.md rule 6,
// revised): after leading spaces and tabs, a "*" that ends the value or is
// followed by whitespace, whatever comes after it. "*",
// "* (+http://example.com/bot)" and "* Disallow: /x" name the * group, as
// in Google's parser; "**", "*foo" and "*/1.0" do not, and name no crawler
// at all, since AgentToken gives them no token. Whitespace here is a space,
// a tab, a vertical tab or a form feed: the ASCII whitespace that can stand
// inside a line (Google's parser tests the octet after "*" with isspace).
//
// This is the one definition of the * group in Mandelbot: Parse uses it
// to build groups and to note such lines, and so the tester's explanations
// follow it. A value it accepts never has an agent token, so a User-agent
// line is either the * group, or names the crawler of its AgentToken, or
// names nobody. Robot tags have no * scope (rules 24 and 25: the meta name
// "robots" and an unscoped X-Robots-Tag value address every crawler), so
// robotstag does not use it.
func IsStarAgent(v string) bool {
	i := 0
	for i < len(v) && isBlank(v[i]) {
		i++
	}
	if i == len(v) || v[i] != '*' {
		return false
	}
	return i+1 == len(v) || isStarSeparator(v[i+1])
}

// isStarSeparator reports whether c, just after a User-agent value's
// leading "*", ends the "*" so that the value names the * group (rule 6):
// ASCII whitespace other than the CR and LF that end lines.
func isStarSeparator(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f'
}

// isAgentTokenChar reports whether c may appear in an agent token: an
// ASCII letter or digit, "_" or "-" (rule 6).
func isAgentTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// IsAgentToken reports whether s is a whole agent token: not empty, and
// made only of the characters AgentToken keeps. A crawler's configured
// product token must be one, so that what it names in robots.txt is
// exactly what it was given.
func IsAgentToken(s string) bool {
	return s != "" && AgentToken(s) == s
}

// Selection says how Robots.For chose a group.
type Selection uint8

const (
	// SelectedNone: no group names the agent and there is no * group, so
	// everything is allowed (rule 7). This is the zero value.
	SelectedNone Selection = iota
	// SelectedByName: a (merged) group names the agent (rules 5 and 6).
	SelectedByName
	// SelectedByStar: no group names the agent; the * group applies
	// (rule 7).
	SelectedByStar
)

var selectionText = [...]string{
	SelectedNone:   "no group applies",
	SelectedByName: "group names the agent",
	SelectedByStar: "the * group applies",
}

// String returns a short human explanation, e.g. "the * group applies".
func (s Selection) String() string {
	if int(s) < len(selectionText) {
		return selectionText[s]
	}
	return "Selection(?)"
}
