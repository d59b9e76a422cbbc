package robotstag

import "github.com/fractle/mandelbot/robotstxt"

// Limits. Robot tags are small: a real content attribute or header value
// is a few dozen bytes and a page carries one or two of them. The limits
// bound the work a hostile response can cause, but never drop a
// restriction (docs/robots-rules.md rule 24): past the tag, directive or
// value-length limit the rest is only searched for noindex, none and
// nofollow, and a note says so. Each can be changed through the Parser
// field of the same name.
const (
	// DefaultMaxHTMLBytes is how many bytes of a document FromHTML reads
	// (1 MiB). Meta tags after that are not seen.
	DefaultMaxHTMLBytes int64 = 1 << 20
	// DefaultMaxTags is how many applicable meta tags, and separately how
	// many X-Robots-Tag header values, are read in full per response.
	DefaultMaxTags = 64
	// DefaultMaxDirectives is how many comma-separated elements of one
	// content attribute or header value are read in full.
	DefaultMaxDirectives = 64
	// DefaultMaxValueBytes is how many bytes of one content attribute or
	// header value are read in full. The element the limit cuts is not read
	// in full either.
	DefaultMaxValueBytes = 2048
	// DefaultMaxNotes is how many notes one FromMeta, FromHTML or
	// FromHeader call records about ignored directives and other agents'
	// scopes; one more note counts the rest. Notes that a limit was reached
	// are always recorded.
	DefaultMaxNotes = 16
)

// Parser turns robot meta tags and X-Robots-Tag headers into Directives
// for one agent.
//
// The zero value is usable: it applies only the tags meant for every
// crawler (meta name="robots", header values without an agent scope) and
// uses the default limits. A Parser is a plain value with no internal state;
// it is safe for concurrent use.
type Parser struct {
	// Agent names the crawler, such as "Mandelbot" or a whole User-Agent
	// string. Its agent token (robotstxt.AgentToken, docs/robots-rules.md
	// rule 6) selects the meta tags and "agent:"-scoped header values whose
	// name has the same token, compared with ASCII case folding. Empty, or
	// a value with no token, means only the tags for every crawler apply.
	Agent string

	// MaxHTMLBytes caps how much of a document FromHTML and For read.
	// Zero or negative means DefaultMaxHTMLBytes.
	MaxHTMLBytes int64
	// MaxTags caps the applicable meta tags, and separately the
	// X-Robots-Tag header values, considered. Zero or negative means
	// DefaultMaxTags.
	MaxTags int
	// MaxDirectives caps the elements of one value considered. Zero or
	// negative means DefaultMaxDirectives.
	MaxDirectives int
	// MaxValueBytes caps the bytes of one value considered. Zero or
	// negative means DefaultMaxValueBytes.
	MaxValueBytes int
	// MaxNotes caps the notes of one call. Zero or negative means
	// DefaultMaxNotes.
	MaxNotes int
}

func (p Parser) maxHTMLBytes() int64 {
	if p.MaxHTMLBytes > 0 {
		return p.MaxHTMLBytes
	}
	return DefaultMaxHTMLBytes
}

func (p Parser) maxTags() int {
	if p.MaxTags > 0 {
		return p.MaxTags
	}
	return DefaultMaxTags
}

func (p Parser) maxDirectives() int {
	if p.MaxDirectives > 0 {
		return p.MaxDirectives
	}
	return DefaultMaxDirectives
}

func (p Parser) maxNotes() int {
	if p.MaxNotes > 0 {
		return p.MaxNotes
	}
	return DefaultMaxNotes
}

func (p Parser) maxValueBytes() int {
	if p.MaxValueBytes > 0 {
		return p.MaxValueBytes
	}
	return DefaultMaxValueBytes
}

// isAgent reports whether name names p's agent: both have the same
// non-empty agent token (robotstxt.AgentToken, the one definition of
// docs/robots-rules.md rule 6), compared with ASCII case folding.
func (p Parser) isAgent(name string) bool {
	tok := robotstxt.AgentToken(p.Agent)
	return tok != "" && equalFold(robotstxt.AgentToken(name), tok)
}
