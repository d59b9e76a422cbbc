package robotstxt

// Agent is one User-agent line of a group.
type Agent struct {
	Name string // the value as written, without comment and surrounding blanks
	Line int    // 1-based line in the file
}

// productToken returns the product token of a User-agent value or of a
// crawler's User-Agent string (robots-semantics.md rule 6): the text before
// the first space or tab, without a "/version" suffix. "Mandelbot/2.1 (+https://x)"
// and "Mandelbot" both give "Mandelbot". Digits are kept: "MJ12bot" stays
// "MJ12bot". The result shares memory with v.
func productToken(v string) string {
	v = trimBlank(v)
	for i := 0; i < len(v); i++ {
		if isBlank(v[i]) || v[i] == '/' {
			return v[:i]
		}
	}
	return v
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
