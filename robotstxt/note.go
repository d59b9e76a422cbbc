package robotstxt

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxNoteText is the most octets of a line that a Note quotes in Text.
const MaxNoteText = 200

// Note reports something about one line of a robots.txt body: a line that
// was ignored and why, or a valid line whose effect a site owner may not
// expect (docs/robots-rules.md rule 11). Notes are for testers and UIs; they
// never change a verdict beyond what the rules already say.
type Note struct {
	Line int      // 1-based line number
	Kind NoteKind // what was noticed
	// Text is the line as written, comment included, at most MaxNoteText
	// octets. It is valid UTF-8: invalid octets are written as \xNN, and a
	// line that had to be cut ends in "...".
	Text string
	// Ref is the line number of an earlier line the note refers to (for
	// NoteAgentMerged, NoteAgentRepeated, NoteCrawlDelayRepeated and
	// NoteSitemapRepeated), or 0.
	Ref int
}

// String returns "line N: " followed by Message.
func (n Note) String() string {
	return fmt.Sprintf("line %d: %s", n.Line, n.Message())
}

// Message is a one-line human explanation of the note, with the details
// Kind.String leaves out (the field name, the referenced line).
func (n Note) Message() string {
	switch n.Kind {
	case NoteUnknownField:
		field, _, _ := strings.Cut(n.Text, ":")
		if i := strings.IndexByte(field, '#'); i >= 0 {
			field = field[:i]
		}
		return fmt.Sprintf("unknown field %q: line ignored", trimBlank(field))
	case NoteAgentMerged:
		return fmt.Sprintf("agent also named at line %d: groups merged", n.Ref)
	case NoteAgentRepeated:
		return fmt.Sprintf("agent already named at line %d of this group: repeated", n.Ref)
	case NoteCrawlDelayRepeated:
		return fmt.Sprintf("Crawl-delay already set at line %d: ignored", n.Ref)
	case NoteSitemapRepeated:
		return fmt.Sprintf("Sitemap already listed at line %d: repeated", n.Ref)
	}
	return n.Kind.String()
}

// NoteKind says what a Note is about. The zero value is not a valid kind.
type NoteKind uint8

// The kinds of Note. Each String gives the short reason shown to a user.
const (
	_ NoteKind = iota
	// NoteNoColon: a non-blank line without ":" is ignored (rule 3).
	NoteNoColon
	// NoteUnknownField: a line whose field is not user-agent, allow,
	// disallow, sitemap or crawl-delay (typos included) is ignored and does
	// not change grouping (rule 3).
	NoteUnknownField
	// NoteRuleBeforeAgent: an Allow or Disallow line before the first
	// User-agent line belongs to no group and is ignored (rule 4).
	NoteRuleBeforeAgent
	// NoteEmptyDisallow: "Disallow:" with no value is no rule (rule 17). It
	// still ends the group's User-agent lines.
	NoteEmptyDisallow
	// NoteEmptyAllow: "Allow:" with no value is no rule (rule 17).
	NoteEmptyAllow
	// NotePatternNoSlash: a pattern that starts with neither "/" nor "*" is
	// kept but can never match (rule 14).
	NotePatternNoSlash
	// NoteEmptyAgent: a User-agent value that neither names the * group
	// nor starts with "*" and has no agent token (it is empty, or starts
	// with a character other than an ASCII letter, digit, "_" or "-")
	// names no crawler (rule 6). Values starting with "*" get
	// NoteAgentStarJoined instead.
	NoteEmptyAgent
	// NoteAgentWildcard: a User-agent value with an agent token and a "*"
	// after it ("Mandel*") is not the default group: it names the agent of
	// its token, the text before the "*" (rule 6).
	NoteAgentWildcard
	// NoteAgentMerged: the agent was already named in an earlier group; the
	// groups are merged for it (rule 5). Ref is the earlier line.
	NoteAgentMerged
	// NoteAgentRepeated: the agent was already named in the same group.
	NoteAgentRepeated
	// NoteAgentNoRules: User-agent lines at the end of the file are not
	// followed by any Allow or Disallow line. They still form a group,
	// which allows everything to the agents it names; they do not fall
	// back to * (rule 4).
	NoteAgentNoRules
	// NoteCrawlDelayInvalid: the Crawl-delay value is not a non-negative
	// decimal number of seconds (rule 9).
	NoteCrawlDelayInvalid
	// NoteCrawlDelayNoGroup: a Crawl-delay line before the first
	// User-agent line belongs to no group and is ignored.
	NoteCrawlDelayNoGroup
	// NoteCrawlDelayRepeated: the group already has a Crawl-delay; the first
	// one counts. Ref is its line.
	NoteCrawlDelayRepeated
	// NoteSitemapNotAbsolute: a Sitemap value that is not an absolute URL
	// with a host is ignored (rule 8).
	NoteSitemapNotAbsolute
	// NoteSitemapRepeated: the Sitemap URL was already listed (rule 8:
	// de-duplicated). Ref is the earlier line.
	NoteSitemapRepeated
	// NoteCutByLimit: the last line was cut by the size limit and is
	// dropped (rule 10).
	NoteCutByLimit
	// NoteHTML: the body starts like an HTML document, not robots.txt.
	NoteHTML
	// NoteInvalidUTF8: the first line holding octets that are not UTF-8
	// (patterns are percent-encoded octet by octet, so rules still work).
	NoteInvalidUTF8
	// NoteTooManyNotes: the note limit (MaxNotes) was reached at this
	// line; later notes are not reported.
	NoteTooManyNotes
	// NoteAgentStarText: a User-agent value that is "*" followed by
	// whitespace and more text ("* (+http://example.com/bot)",
	// "* Disallow: /x") names the * group; the text after the "*" is not
	// read, so a rule written on the line is no rule (rule 6).
	NoteAgentStarText
	// NoteAgentStarJoined: a User-agent value that starts with "*" joined
	// to other text ("**", "*foo", "*/1.0") is not the * group and has no
	// agent token: it names no crawler (rule 6).
	NoteAgentStarJoined
)

var noteKindText = [...]string{
	NoteNoColon:            "no colon: line ignored",
	NoteUnknownField:       "unknown field: line ignored",
	NoteRuleBeforeAgent:    "rule before any User-agent line: ignored",
	NoteEmptyDisallow:      "empty Disallow: not a rule",
	NoteEmptyAllow:         "empty Allow: not a rule",
	NotePatternNoSlash:     "pattern does not start with / or *: matches nothing",
	NoteEmptyAgent:         "User-agent value has no agent name: names no agent",
	NoteAgentWildcard:      "* inside a User-agent value is not a wildcard: the name before it counts",
	NoteAgentMerged:        "agent also named in an earlier group: groups merged",
	NoteAgentRepeated:      "agent already named in this group: repeated",
	NoteAgentNoRules:       "User-agent not followed by any Allow or Disallow line: the group allows everything to the agents it names",
	NoteCrawlDelayInvalid:  "invalid Crawl-delay value: ignored",
	NoteCrawlDelayNoGroup:  "Crawl-delay before any User-agent line: ignored",
	NoteCrawlDelayRepeated: "Crawl-delay already set for this group: ignored",
	NoteSitemapNotAbsolute: "Sitemap value is not an absolute URL: ignored",
	NoteSitemapRepeated:    "Sitemap already listed: repeated",
	NoteCutByLimit:         "line cut by the size limit: dropped",
	NoteHTML:               "looks like HTML, not robots.txt",
	NoteInvalidUTF8:        "invalid UTF-8",
	NoteTooManyNotes:       "too many notes: later ones not reported",
	NoteAgentStarText:      "text after the * is not read: the line names the * group, and a rule written on it is no rule",
	NoteAgentStarJoined:    "* joined to other text is not the * group: names no agent (write * alone, or a crawler's name)",
}

// String returns the short human reason for the kind, e.g.
// "no colon: line ignored".
func (k NoteKind) String() string {
	if int(k) < len(noteKindText) && noteKindText[k] != "" {
		return noteKindText[k]
	}
	return fmt.Sprintf("NoteKind(%d)", uint8(k))
}

// noteText returns line as a Note.Text: the line itself when it is valid
// UTF-8 and short enough, otherwise a copy with invalid octets written as
// \xNN, cut at a character boundary to fit MaxNoteText with "..." appended.
// The result never shares memory with line, so a note does not keep a large
// body alive.
func noteText(line string) string {
	if len(line) <= MaxNoteText && utf8.ValidString(line) {
		return strings.Clone(line)
	}
	const ellipsis = "..."
	budget := MaxNoteText
	if escapedLen(line) > MaxNoteText {
		budget -= len(ellipsis)
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		piece := line[i : i+size]
		if r == utf8.RuneError && size == 1 {
			piece = escapeOctet(line[i])
		}
		if b.Len()+len(piece) > budget {
			b.WriteString(ellipsis)
			break
		}
		b.WriteString(piece)
		i += size
	}
	return b.String()
}

// escapedLen is the length of line with every invalid UTF-8 octet written
// as \xNN.
func escapedLen(line string) int {
	n := 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == utf8.RuneError && size == 1 {
			n += 4
		} else {
			n += size
		}
		i += size
	}
	return n
}

// escapeOctet writes b as \xNN.
func escapeOctet(b byte) string {
	return string([]byte{'\\', 'x', upperHex[b>>4], upperHex[b&15]})
}
