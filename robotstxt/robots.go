package robotstxt

// Robots is a parsed robots.txt body: its groups, sitemaps and per-line
// notes. It is immutable and safe for concurrent use. The zero Robots (an
// empty file) has no groups and allows everything.
//
// A Robots keeps one copy of the parsed part of the body, which the
// patterns, agent names and sitemap URLs it returns share.
type Robots struct {
	groups    []*Group    // merged groups in order of first appearance
	names     []agentName // every non-* agent the groups name
	star      *Group      // the * view of the group naming *, or nil
	none      Group       // the zero Group, returned when nothing applies
	sitemaps  []string
	notes     []Note
	lines     int
	truncated bool
}

// agentName maps an agent's token (compared with ASCII case
// folding) to its group.
type agentName struct {
	key   string
	group *Group
}

// For returns the group the crawler named agent follows (docs/robots-rules.md
// rules 6 and 7): the merged group naming its agent token, else the *
// group, else the zero Group, which allows everything. agent may be a
// product token ("Mandelbot") or a whole User-Agent string
// ("Mandelbot/1.0 (+https://fractle.example/bot)"); only its AgentToken
// counts, compared with ASCII case folding. The result is never nil; see
// Group.Selection for how it was chosen.
func (r *Robots) For(agent string) *Group {
	if r == nil {
		return new(Group)
	}
	if tok := AgentToken(agent); tok != "" {
		for _, n := range r.names {
			if equalFold(n.key, tok) {
				return n.group
			}
		}
	}
	if r.star != nil {
		return r.star
	}
	return &r.none
}

// Groups returns every merged group in order of first appearance (rule 5).
// The caller must not modify the slice.
func (r *Robots) Groups() []*Group {
	if r == nil {
		return nil
	}
	return r.groups
}

// Sitemaps returns the absolute URLs of the Sitemap lines, wherever they
// appear, in order and without repeats (rule 8). The caller must not modify
// the slice.
func (r *Robots) Sitemaps() []string {
	if r == nil {
		return nil
	}
	return r.sitemaps
}

// Notes returns what Parse noticed, in line order (rule 11). The caller
// must not modify the slice.
func (r *Robots) Notes() []Note {
	if r == nil {
		return nil
	}
	return r.notes
}

// Lines returns the number of lines parsed: those within the size limit,
// including a last line dropped because the limit cut it.
func (r *Robots) Lines() int {
	if r == nil {
		return 0
	}
	return r.lines
}

// Truncated reports whether the body was longer than the size limit, so
// that only its start was parsed (rule 10).
func (r *Robots) Truncated() bool {
	return r != nil && r.truncated
}
