package robotstxt

// Agent is one User-agent line of a group.
type Agent struct {
	Name string // the value as written, without comment and surrounding blanks
	Line int    // 1-based line in the file
}

// AgentToken returns the agent token of a User-agent value, of a
// crawler's User-Agent string or of any other place that names a crawler
// (robots-semantics.md rule 6): after leading spaces and tabs, the leading
// run of ASCII letters, digits, "_" and "-"; whatever follows is dropped.
// "Mandelbot/2.1", "Mandelbot (+https://x)" and "mandelbot*" all give
// "Mandelbot" (or "mandelbot"); "Mandelbot-Image" stays whole and
// "MJ12bot" keeps its digits. A value that does not start with such a
// character, "*" included, has no token: the result is "". Tokens are
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
