package crawl

import (
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/robots"
)

// Stats describe a crawl run so far (Config.OnProgress) or at its end (Run). It is a value: each
// call hands over a copy. Counts are of this run only, unless a field says otherwise; times are
// by the crawl's clock (Config.Clock).
type Stats struct {
	// Started is when the run began; Now is when the snapshot was taken.
	Started, Now time.Time
	// CrawlEnded is when the last request's outcome was saved (zero while requests go on); the
	// run then waits for the search index to catch up, until Now.
	CrawlEnded time.Time

	Pages      int // page and sitemap requests answered (any status but 503 and 429)
	Robots     int // robots.txt requests made
	Disallowed int // URLs robots.txt kept the crawl from requesting
	Errors     int // URLs given up: no answer after the retries, or 503/429 too many times in a row
	Retries    int // requests that got no answer and were queued again
	Paused     int // 503/429 answers, each of which paused its origin
	Discovered int // new URLs recorded (links, redirects, sitemaps, Page.Visit)
	OutOfScope int // of those, recorded but not followed: outside Scope, MaxDepth, Include/Exclude or a trap rule
	Rejected   int // queued URLs refused at their turn by a trap defence (MaxPagesPerOrigin)
	BadURLs    int // links and sitemap entries skipped: not http(s) (mailto:, javascript:) or unparsable
	// LeasesLost counts origins dropped because another process took over their lease (a store
	// several processes share).
	LeasesLost int
	// Refused counts origins this process would not connect to (a name that resolves to a
	// loopback or private address without AllowPrivate or Resolve): not fetch errors; their
	// URLs stay queued for a run that may (issue 27).
	Refused int
	// GaveUp reports that nothing answered and the run ended for it (StopGaveUp).
	GaveUp bool

	// RobotsOutcomes counts the robots.txt requests of Robots by their outcome, indexed by
	// RobotsOutcome: stats.RobotsOutcomes[crawl.RobotsRules].
	RobotsOutcomes [NumRobotsOutcomes]int

	InFlight       int // requests under way, or answers being processed
	Queued         int // URLs waiting in memory (more may wait in the store)
	Origins        int // origins the crawl holds in memory
	OriginsPaused  int // of those, paused now by a 503 or 429
	OriginsBlocked int // of those, whose robots.txt is unreachable with no good copy
	// IndexLag is how many saved documents are not searchable yet.
	IndexLag int
	// PendingNew is how many new URLs wait in writes not committed yet, PendingNewPeak the most
	// at once in this run.
	PendingNew, PendingNewPeak int
	// PausedUntil is the soonest time a paused origin may be asked again (zero: none paused).
	PausedUntil time.Time
	// StopReason is why the run stopped; StopNone while it runs (progress snapshots).
	StopReason StopReason
	// Failure is the last reason something could not be fetched, for a one-line verdict: an
	// origin's robots.txt unreachable ("ORIGIN: reason"), or a URL given up ("URL: reason").
	Failure string
	// AtLimit reports that the run stopped at MaxTime or MaxPages (whether work is left is the
	// store's to say).
	AtLimit bool
	// NextDue is, when the run stopped with StopWaiting, when work is due next (zero: none
	// known).
	NextDue time.Time
	// Gaps holds, for every origin the run holds in memory, its current gap between requests
	// and why (the adaptive delay, issue 29), in no order; nil at the end of a run. Each
	// snapshot has a slice of its own.
	Gaps []OriginGap
	// Frontier is what the frontier holds of its share of the memory budget (issue 29).
	Frontier FrontierMemory
}

// FrontierMemory is what the crawl's frontier holds in memory against its share of the memory
// budget (MemoryShares.Frontier), in bytes.
type FrontierMemory struct {
	Max    int64 // the share
	Used   int64 // now: Queues and Known together
	Queues int64 // the origins' windows of due URLs
	Known  int64 // the sets of URLs each origin knows, for de-duplicating links in memory
	Peak   int64 // the most Used at once in this run
	// Partial counts the origins whose set of known URLs did not fit and became a cache: their
	// new links are de-duplicated by the store.
	Partial int
	// Starved counts the origins waiting for room in the share to read more due URLs.
	Starved int
}

// Rate is pages per second of the crawl's clock, from Started to Now.
func (s Stats) Rate() float64 {
	d := s.Now.Sub(s.Started).Seconds()
	if d <= 0 {
		return 0
	}
	return float64(s.Pages) / d
}

// FetchedNothing reports whether the run answered no page and found the seeds' origins
// unreachable (robots.txt unreachable, URLs given up without an answer, or origins refused by
// the address policy); Failure then says
// why. A resumed run with nothing due fetched nothing either, but found nothing failing.
func (s Stats) FetchedNothing() bool {
	return crawler.NothingFetched(s.Pages, s.OriginsBlocked, s.Errors, s.Refused, s.GaveUp)
}

// StopReason is why a run stopped. Each reason's figures are elsewhere: the Config's limits,
// Stats.NextDue, the error Run returns.
type StopReason uint8

const (
	// StopNone: the run has not stopped (a progress snapshot).
	StopNone StopReason = iota
	// StopFinished: nothing is left to crawl: every known URL in scope was requested, and none
	// is due again before Revisit.
	StopFinished
	// StopWaiting: work is left, but nothing is due within MaxWait (a paused origin, a retry, a
	// robots.txt to ask again); Stats.NextDue says when. A later Run on the same store resumes.
	StopWaiting
	// StopMaxPages: MaxPages requests were made.
	StopMaxPages
	// StopMaxTime: MaxTime passed; requests in flight were cancelled and stay queued.
	StopMaxTime
	// StopInterrupted: Run's context was cancelled; what was received is saved.
	StopInterrupted
	// StopError: the store or the archive failed; Run returns the error.
	StopError
	// StopGaveUp: no origin answered anything (every request refused, timed out or
	// unresolved) within GiveUpAfter, or no seed's host resolves; Failure says why (issue 27).
	StopGaveUp
)

// String returns the reason as a lower-case word: "none", "finished", "waiting", "max_pages",
// "max_time", "interrupted", "error" or "gave_up".
func (r StopReason) String() string {
	switch r {
	case StopNone:
		return "none"
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
	case StopError:
		return "error"
	case StopGaveUp:
		return "gave_up"
	}
	return fmt.Sprintf("StopReason(%d)", uint8(r))
}

// RobotsOutcome is what one robots.txt request decided for its origin
// (docs/robots-rules.md, section C).
type RobotsOutcome uint8

const (
	// RobotsRules: a robots.txt was read (2xx); its rules apply.
	RobotsRules RobotsOutcome = iota
	// RobotsAllowAll: none (4xx, or too many redirects): every URL is allowed.
	RobotsAllowAll
	// RobotsUnreachable: 5xx or no answer: the origin waits, under the last good copy if any.
	RobotsUnreachable
	// RobotsNotModified: 304 to a revalidation: the copy held is kept.
	RobotsNotModified
	// NumRobotsOutcomes is the number of outcomes, the length of Stats.RobotsOutcomes.
	NumRobotsOutcomes
)

// String returns the outcome as the metrics label it is counted under: "rules", "allow_all",
// "unreachable" or "not_modified".
func (o RobotsOutcome) String() string {
	switch o {
	case RobotsRules:
		return "rules"
	case RobotsAllowAll:
		return "allow_all"
	case RobotsUnreachable:
		return "unreachable"
	case RobotsNotModified:
		return "not_modified"
	}
	return fmt.Sprintf("RobotsOutcome(%d)", uint8(o))
}

// robotsOutcomeOf maps the crawler's decision kinds to RobotsOutcome.
func robotsOutcomeOf(k robots.Kind) (RobotsOutcome, bool) {
	switch k {
	case robots.KindRules:
		return RobotsRules, true
	case robots.KindAllowAll:
		return RobotsAllowAll, true
	case robots.KindUnreachable:
		return RobotsUnreachable, true
	case robots.KindNotModified:
		return RobotsNotModified, true
	}
	return 0, false
}

// stopReasonOf maps the crawler's stop reasons to StopReason.
func stopReasonOf(r crawler.StopReason) StopReason {
	switch r {
	case crawler.StopFinished:
		return StopFinished
	case crawler.StopWaiting:
		return StopWaiting
	case crawler.StopMaxPages:
		return StopMaxPages
	case crawler.StopMaxTime:
		return StopMaxTime
	case crawler.StopInterrupted:
		return StopInterrupted
	case crawler.StopFailed:
		return StopError
	case crawler.StopGaveUp:
		return StopGaveUp
	}
	return StopNone
}

// OriginGap is one origin's current gap between requests (Config.AdaptiveDelay): the larger
// of its configured delay and its adaptive gap, and why it is what it is.
type OriginGap struct {
	Origin string        // the origin's key, "scheme://host:port"
	Gap    time.Duration // the wait after an answer before the origin's next request
	Reason string        // in words: the delay, or the answers that lengthened the gap
}

// statsOf is the public form of the crawler's Stats.
func statsOf(s crawler.Stats) Stats {
	out := Stats{Started: s.Started, Now: s.Now, CrawlEnded: s.CrawlEnded,
		Pages: s.Pages, Robots: s.Robots, Disallowed: s.Disallowed, Errors: s.Errors, Retries: s.Retries,
		Paused: s.Paused, Discovered: s.Discovered, OutOfScope: s.OutOfScope, Rejected: s.Rejected,
		BadURLs: s.BadURLs, LeasesLost: s.LeasesLost, Refused: s.Refused, GaveUp: s.GaveUp,
		InFlight: s.InFlight, Queued: s.Queued, Origins: s.Origins, OriginsPaused: s.OriginsPaused,
		OriginsBlocked: s.OriginsBlocked, IndexLag: s.IndexLag, PendingNew: s.PendingNew,
		PendingNewPeak: s.PendingNewPeak, PausedUntil: s.PausedUntil, StopReason: stopReasonOf(s.StopReason),
		Failure: s.Failure, AtLimit: s.AtLimit, NextDue: s.NextDue, Frontier: FrontierMemory(s.Frontier)}
	if s.Gaps != nil {
		out.Gaps = make([]OriginGap, len(s.Gaps))
		for i, g := range s.Gaps {
			out.Gaps[i] = OriginGap(g)
		}
	}
	for k, n := range s.RobotsOutcomes {
		if o, ok := robotsOutcomeOf(robots.Kind(k)); ok {
			out.RobotsOutcomes[o] += n
		}
	}
	return out
}
