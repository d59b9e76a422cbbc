package crawl

import (
	"time"

	"github.com/fractle/mandelbot/internal/crawler"
)

// Failure is one request of a page or sitemap URL that got no usable answer, for
// Config.OnError: no answer at all (a refused or reset connection, a timeout, a body that broke
// off, a private address the crawl may not reach), or a 503 or 429 that paused the URL's origin.
// Other answers, 4xx and 5xx included, are pages (Config.OnDocument and OnPage); URLs that
// robots.txt disallows are never requested (Stats.Disallowed). It is a value the callee may
// keep.
type Failure struct {
	// URL is the canonical URL requested.
	URL string
	// Sitemap reports a sitemap's URL (from robots.txt or a sitemap index), not a page's.
	Sitemap bool
	// Depth counts the links followed from a seed to reach URL.
	Depth int
	// Status is the refusal's status, 503 or 429; 0 when there was no answer.
	Status int
	// Reason says what went wrong, for people; the store keeps it as the URL's reason. Its
	// wording is not part of the API.
	Reason string
	// Attempts counts the URL's tries in a row without a usable answer, this one included.
	Attempts int
	// Retry reports that the URL will be asked again in this crawl: after the origin's pause for
	// a refusal, or soon (with the origin's delay) after no answer. False: the URL is given up
	// (no answer after 3 tries, or 5 refusals in a row) until it is due again (Revisit).
	Retry bool
	// At is when the request ended, by the crawl's clock.
	At time.Time
}

func failureOf(f crawler.Failure) Failure {
	return Failure{URL: f.URL, Sitemap: f.Sitemap, Depth: f.Depth, Status: f.Status, Reason: f.Reason,
		Attempts: f.Attempts, Retry: f.Retry, At: f.At}
}
