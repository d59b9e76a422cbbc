package store

import "time"

// State is where a URL stands in the crawl. The names are part of the export contract.
type State string

const (
	StateQueued            State = "queued"             // known and due (or due again later), not yet fetched in its current round
	StateFetched           State = "fetched"            // requested and answered (any HTTP status but 503/429)
	StateRobotsDisallowed  State = "robots_disallowed"  // robots.txt forbids it: never requested
	StateRobotsUnreachable State = "robots_unreachable" // its origin's robots.txt could not be read: not requested
	StatePaused            State = "paused"             // its origin is paused by a 503 or 429: not requested yet
	StateError             State = "error"              // the request failed (network, limits, decoding) after retries
	StateOutOfScope        State = "out_of_scope"       // known from a link or sitemap but outside --scope or --max-depth
)

// Kind says what a URL is fetched for.
type Kind uint8

const (
	KindPage    Kind = iota // a page: extracted, its links followed
	KindSitemap             // a sitemap or sitemap index named by robots.txt or another sitemap index
)

// URL is one known URL and everything decided about it. Times are UTC; a zero time means never.
type URL struct {
	ID     int64
	URL    string // canonical form (urlnorm), unique in a crawl
	Origin string // urlnorm origin key: scheme://host[:port]
	Kind   Kind
	Depth  int // links followed from a seed (seeds are 0; sitemap entries count as one link)
	Hops   int // redirects followed to reach this URL from the URL that linked to it

	State    State
	Status   int    // HTTP status of the last answer, 0 if none
	Reason   string // why it is in its state, for people: "Disallow: /private (robots.txt line 4)"
	RuleLine int    // robots.txt line that decided a robots_disallowed state, else 0

	DiscoveredAt time.Time
	FetchedAt    time.Time // last answer
	NextAt       time.Time // when it is due (again); zero: never (out of scope)
	Attempts     int       // consecutive failed attempts (network errors), reset by an answer

	ContentType string // media type of the last answer
	Location    string // resolved Location of a 3xx answer
	Indexed     bool   // its content is in the search index
	NoIndex     bool   // robot tags said noindex (or none): fetched, kept out of the index
	NoFollow    bool   // robot tags said nofollow (or none): its links were not followed
	Canonical   string // the canonical URL the page names (<link rel=canonical>), recorded as is

	// ETag and LastModified are the validators of the last 2xx answer (its ETag and
	// Last-Modified header values), sent back on a revisit as If-None-Match and
	// If-Modified-Since; empty when it gave none (issue 13).
	ETag, LastModified string
	// WARC names the WARC record of the last answer (a response or revisit record); zero when
	// the crawl writes no WARC or the answer was not archived (issue 13).
	WARC WARCRef
}

// WARCRef locates one WARC record: File is the base name of a WARC file in the crawl's WARC
// directory, Offset the start of the record's gzip member in it, RecordID its WARC-Record-ID.
// The zero WARCRef means no record. A WARCRef is committed only once its record is durable.
type WARCRef struct {
	File     string
	Offset   int64
	RecordID string
}

// IsZero reports whether r names no record.
func (r WARCRef) IsZero() bool { return r.File == "" }

// NewURL is a URL discovered by a seed, a link, a redirect or a sitemap. Adding a URL that is
// already known changes nothing (de-duplication on the canonical form).
type NewURL struct {
	URL, Origin  string
	Kind         Kind
	Depth, Hops  int
	State        State // StateQueued, or StateOutOfScope with Reason
	Reason       string
	DiscoveredAt time.Time // also its first due time when queued
}
