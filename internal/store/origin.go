package store

import "time"

// Origin is what the crawl remembers of one origin (scheme + host + port): its robots.txt decision
// and its pause. Times are UTC; a zero time means never.
type Origin struct {
	Key string // scheme://host[:port], default port folded

	Robots RobotsRecord

	PausedUntil  time.Time // no request before this (rule 23); zero: not paused
	PauseStrikes int       // consecutive 503/429 answers, for backoff
	PauseReason  string
	Probing      bool // after a pause, one request must succeed before normal crawling resumes

	Sitemaps []string // sitemap URLs named by its robots.txt, in order

	// Gap is the origin's gap between requests as of the record's last write (kept to the
	// millisecond), and GapReason says which delay set it and why (issue 29: the adaptive
	// delay, frontier.OriginView); zero and empty until the crawl has a gap for it.
	Gap       time.Duration
	GapReason string
}

// RobotsRecord persists an origin's robots.txt decision (docs/robots-rules.md section C) so that a
// resumed or later crawl reuses it for its lifetime, and revalidates it after.
type RobotsRecord struct {
	Kind      uint8  // robots.Kind; 0: never fetched
	Status    int    // HTTP status that counted, 0 for a network error
	Body      []byte // the raw robots.txt (up to the parse limit) of the last good copy
	Reason    string // robots.Decision.Reason(), for people
	FetchedAt time.Time
	ExpiresAt time.Time // reuse until then (48 h, or a shorter max-age)
	ETag      string
	LastMod   string

	// Unreachable bookkeeping (rule 21): when 5xx started, how many failures in a row, and when to
	// try again. AsNotFound records the switch to "treat as 404" after the 5xx window.
	FailingSince time.Time
	Failures     int
	RetryAt      time.Time
	AsNotFound   bool
	GoodBody     bool // Body holds a good copy that may be used while retrying
	// WARC names the WARC record of the answer the decision rests on (a response, or a revisit
	// after a 304); zero when none was archived (issue 13).
	WARC WARCRef
}
