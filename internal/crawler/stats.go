package crawler

import (
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/robots"
)

// Stats describe a crawl run so far. It is a value: the scheduler hands out copies.
type Stats struct {
	Started, Now time.Time
	// CrawlEnded is when the last request's outcome was saved; the run then waits for the index
	// to catch up (Now - CrawlEnded at the end of a run).
	CrawlEnded time.Time

	Pages      int // page and sitemap requests answered in this run
	Robots     int // robots.txt requests made
	Disallowed int // URLs robots.txt kept us from requesting
	Errors     int // URLs given up: MaxAttempts tries without an answer, or MaxRefusals 503/429s
	Retries    int // requests that got no answer and were queued again
	Paused     int // 503/429 answers that paused an origin
	Discovered int // new URLs recorded (links, redirects, sitemaps)
	OutOfScope int // of those, outside --scope or --max-depth
	Rejected   int // URLs recorded out of scope at their turn by a trap defence (the page budget)
	BadURLs    int // links and sitemap entries skipped: not http(s) (mailto:, javascript:) or unparsable
	// LeasesLost counts origins dropped because their lease was lost (shared store, issue 12):
	// another process took them over, or renewal failed.
	LeasesLost int
	// Refused counts origins this process would not connect to (a name that resolves to a
	// non-public address without permission, issue 27): not fetch errors; their URLs stay queued.
	Refused int

	// RobotsOutcomes counts the robots.txt fetches of Robots by their decision, indexed by
	// robots.Kind (rules, allow_all, unreachable, not_modified; index 0 is unused).
	RobotsOutcomes [robots.KindNotModified + 1]int

	InFlight int
	Queued   int // URLs waiting in memory
	// Frontier is what the frontier charges to its share of the memory budget
	// (frontier.Options.MaxBytes, issue 29), as of the last snapshot and at the end of the run.
	Frontier       frontier.MemoryUse
	Origins        int
	OriginsPaused  int // origins paused now
	OriginsBlocked int // origins whose robots.txt is unreachable with no good copy
	// IndexLag is how many saved documents are not searchable yet (the indexer folds them in
	// off the crawl path).
	IndexLag int
	// PendingNew is how many newly discovered URLs wait in writes not yet committed;
	// PendingNewPeak the most at once in this run (bounded through Options.MaxPendingNew, see
	// DefaultMaxPendingNew).
	PendingNew, PendingNewPeak int
	// PausedUntil is the soonest time a paused origin may be asked again (zero: none paused).
	PausedUntil time.Time
	// StopReason is why the run stopped (StopNone while it runs).
	StopReason StopReason
	// Failure is the last reason something could not be fetched, for a one-line verdict: an
	// origin's robots.txt unreachable, or a URL given up ("URL: reason").
	Failure string
	// GaveUp: no origin answered anything, and the run ended for it (Options.GiveUpAfter, or
	// every seed's host does not resolve); Failure says why.
	GaveUp bool
	// AtLimit: the run stopped at MaxTime or MaxPages (whether work is left is the store's to say).
	AtLimit bool
	NextDue time.Time // when the run ended waiting: when work is due next (zero: none known)
	// Gaps holds, for every origin the run holds, its current gap between requests and why
	// (issue 29: the adaptive delay), in no order; a new slice at each snapshot.
	Gaps []OriginGap
}

// OriginGap is one origin's gap between requests: the larger of its configured delay and its
// adaptive gap, and which it is and why (frontier.OriginView).
type OriginGap struct {
	Origin string
	Gap    time.Duration
	Reason string
}

// FetchedNothing reports whether the run answered no page and found the seeds' origins
// unreachable (robots.txt unreachable, URLs given up without an answer, or origins refused by
// the address policy): issue 9's exit
// status 1, with Failure as its reason. A resumed run with nothing due fetched nothing either,
// but found nothing failing: it did what was asked.
func (s Stats) FetchedNothing() bool {
	return NothingFetched(s.Pages, s.OriginsBlocked, s.Errors, s.Refused, s.GaveUp)
}

// NothingFetched is the one decision behind Stats.FetchedNothing and the public crawl.Stats':
// no page answered, and something failing (origins blocked, URLs given up or refused, or the
// run gave up).
func NothingFetched(pages, originsBlocked, errors, refused int, gaveUp bool) bool {
	return pages == 0 && (originsBlocked > 0 || errors > 0 || refused > 0 || gaveUp)
}

// StopReason is why a run stopped; each has its own figures in Stats (NextDue, AtLimit) and
// Options (MaxPages, MaxTime, MaxWait) for a caller to word it.
type StopReason uint8

const (
	StopNone        StopReason = iota // the run goes on
	StopFinished                      // nothing left to crawl
	StopWaiting                       // nothing due within Options.MaxWait: Stats.NextDue says when
	StopMaxPages                      // Options.MaxPages requests started
	StopMaxTime                       // Options.MaxTime passed
	StopInterrupted                   // the context was cancelled
	StopFailed                        // a store or archive error: Run returns it
	StopGaveUp                        // nothing answered (Options.GiveUpAfter, or no seed's host resolves): Stats.Failure says why
)

// String returns a lower-case word for logs: "finished", "waiting", "max_pages", "max_time",
// "interrupted", "failed" ("" for StopNone).
func (r StopReason) String() string {
	switch r {
	case StopNone:
		return ""
	case StopFinished:
		return "finished"
	case StopWaiting:
		return "waiting"
	case StopMaxPages:
		return "max_pages"
	case StopMaxTime:
		return "max_time"
	case StopInterrupted:
		return "interrupted"
	case StopFailed:
		return "failed"
	case StopGaveUp:
		return "gave_up"
	}
	return fmt.Sprintf("StopReason(%d)", uint8(r))
}
