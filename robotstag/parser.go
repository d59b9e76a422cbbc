package robotstag

// Limits. Robot tags are small: a real content attribute or header value
// is a few dozen bytes and a page carries one or two of them. The limits
// bound the work a hostile response can cause; past a limit the rest is
// ignored and a note says so. Each can be changed through the Parser field
// of the same name.
const (
	// DefaultMaxHTMLBytes is how many bytes of a document FromHTML reads
	// (1 MiB). Meta tags after that are not seen.
	DefaultMaxHTMLBytes int64 = 1 << 20
	// DefaultMaxTags is how many applicable meta tags, and separately how
	// many X-Robots-Tag header values, are considered per response.
	DefaultMaxTags = 64
	// DefaultMaxDirectives is how many comma-separated elements of one
	// content attribute or header value are considered.
	DefaultMaxDirectives = 64
	// DefaultMaxValueBytes is how many bytes of one content attribute or
	// header value are considered. A value cut by the limit loses its last,
	// incomplete element.
	DefaultMaxValueBytes = 2048
)

// Parser turns robot meta tags and X-Robots-Tag headers into Directives
// for one agent.
//
// The zero value is usable: it applies only the tags meant for every
// crawler (meta name="robots", header values without an agent scope) and
// uses the default limits. A Parser is a plain value with no internal state;
// it is safe for concurrent use.
type Parser struct {
	// Agent is the crawler's product token, such as "Mandelbot". It selects
	// <meta name="Agent"> tags and "Agent:"-scoped header values, compared
	// with ASCII case folding and nothing else: no "/version" is dropped.
	// Empty means only the tags for every crawler apply.
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

func (p Parser) maxValueBytes() int {
	if p.MaxValueBytes > 0 {
		return p.MaxValueBytes
	}
	return DefaultMaxValueBytes
}

// isAgent reports whether name is p's agent token (ASCII case-insensitive).
// An empty Agent matches nothing.
func (p Parser) isAgent(name string) bool {
	return p.Agent != "" && equalFold(name, p.Agent)
}
