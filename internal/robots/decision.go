package robots

import (
	"fmt"
	"github.com/fractle/mandelbot/internal/store"
	"time"

	"github.com/fractle/mandelbot/robotstxt"
)

// Kind is what a robots.txt response means for crawling its origin (docs/robots-rules.md rule 21).
type Kind uint8

const (
	// KindRules: a 2xx answer; the body's rules decide.
	KindRules Kind = iota + 1
	// KindAllowAll: a 4xx answer other than 429, or a redirect chain longer than MaxRedirects:
	// there is no robots.txt and every URL of the origin may be crawled.
	KindAllowAll
	// KindUnreachable: a 5xx or 429 answer, a network error, or a redirect that cannot be
	// followed: no URL of the origin may be crawled until robots.txt is fetched again.
	KindUnreachable
	// KindNotModified: a 304 answer to a conditional request; the caller's cached decision
	// stays valid and Robots is empty. It never comes from an unconditional request.
	KindNotModified
)

// String names the kind as the export and the tester print it.
func (k Kind) String() string {
	switch k {
	case KindRules:
		return "rules"
	case KindAllowAll:
		return "allow_all"
	case KindUnreachable:
		return "unreachable"
	case KindNotModified:
		return "not_modified"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Decision is the outcome of one robots.txt fetch for one origin. The zero value is not a
// decision; Fetch always sets Kind. A Decision is a value: it shares the immutable Robots with
// its copies and is safe to read concurrently.
type Decision struct {
	Kind Kind
	// Robots holds the parsed rules for KindRules, and an empty rule set otherwise; never nil
	// in a Decision returned by Fetch.
	Robots *robotstxt.Robots
	// URL is the robots.txt URL that was asked for; Final is the URL whose answer counted.
	URL, Final string
	// Redirects lists each Location followed, in order.
	Redirects []string
	// Status is the HTTP status of the answer that counted; 0 after a network error.
	Status int
	// Err is the network or protocol error behind KindUnreachable when there was no status.
	Err error
	// FetchedAt is the caller's clock when the fetch started.
	FetchedAt time.Time
	// DoneAt is the caller's clock when the fetch ended: the answer that
	// counted was read, or the attempt failed. A retry is timed from it, so
	// a server that stalled for a minute is not asked again at once.
	DoneAt time.Time
	// MaxAge is the Cache-Control max-age of the answer, or -1 when it gave none.
	MaxAge time.Duration
	// RetryAfter is the delay a 429 or 503 answer asked for in Retry-After, or 0.
	RetryAfter time.Duration
	// ETag and LastModified are the answer's validators, for revalidation.
	ETag, LastModified string
	// Body is the raw robots.txt of a KindRules decision (as received, at most the fetch
	// limit), kept so the decision can be persisted and parsed again; shared, do not modify.
	Body []byte
	// Truncated reports that the body was cut by a size limit before parsing.
	Truncated bool
	// WARC names the archived record of the answer that counted, set by a caller that archives
	// (issue 13); Fetch leaves it zero. Apply keeps it in the record it persists.
	WARC store.WARCRef
}

// Reason explains the decision in one line for people: the tester, the dashboard and the export.
func (d Decision) Reason() string {
	hops := ""
	if n := len(d.Redirects); n > 0 {
		hops = fmt.Sprintf(" after %d redirect(s)", n)
	}
	switch d.Kind {
	case KindRules:
		if d.Status == 0 {
			return "robots.txt read from a file: its rules apply" // no request was made
		}
		return fmt.Sprintf("robots.txt answered %d%s: its rules apply", d.Status, hops)
	case KindAllowAll:
		if d.Status >= 300 && d.Status < 400 {
			return fmt.Sprintf("robots.txt redirected more than %d times: treated as absent, everything allowed", MaxRedirects)
		}
		return fmt.Sprintf("robots.txt answered %d%s: treated as absent, everything allowed", d.Status, hops)
	case KindUnreachable:
		if d.Err != nil {
			return fmt.Sprintf("robots.txt unreachable%s (%v): nothing on this origin is crawled until it can be read", hops, d.Err)
		}
		return fmt.Sprintf("robots.txt answered %d%s: origin unreachable, nothing on it is crawled until robots.txt can be read", d.Status, hops)
	case KindNotModified:
		return "robots.txt not modified since the cached copy: it still applies"
	}
	return "no decision"
}
