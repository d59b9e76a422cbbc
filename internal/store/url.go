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
}

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
