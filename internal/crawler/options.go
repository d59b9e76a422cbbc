package crawler

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/urlnorm"
)

// Defaults and limits of a crawl; each is overridable through Options.
const (
	// DefaultConcurrency bounds requests in flight over all origins (issue 31). A polite crawl
	// is bound by how many origins it keeps busy, each at its own gap: 5,000 origins at a 2 s
	// delay answering in 200 ms keep about 5,000 / 2.2 s × 0.2 s ≈ 455 requests in flight at the
	// politeness limit. One origin still gets one request at a time (frontier.DefaultPerOrigin),
	// so a crawl of a few sites sends no more than before; memory is bounded by the fetch body
	// budget, not by this count. crawl.Run also keeps it within the open-file limit.
	DefaultConcurrency = 512
	DefaultRevisit     = 24 * time.Hour // a fetched URL is due again after this
	DefaultMaxWait     = 2 * time.Minute
	DefaultMaxAttempts = 3 // tries of a URL whose request gets no answer
	// DefaultGiveUpAfter: a run in which no origin has answered at all ends this long after its
	// first request (issue 27: an unreachable seed fails fast).
	DefaultGiveUpAfter = 30 * time.Second
	// MaxRefusals is how many 503 or 429 answers in a row a URL gets before it is given up
	// (state error): the pause still applies to its origin (rule 23), and the next probe is
	// another URL of the origin, so that one broken section cannot hold a site forever (issue 9).
	MaxRefusals = 5
	// MaxRedirectHops bounds a chain of page redirects; each hop is a frontier URL of its own.
	MaxRedirectHops = 5
	// MaxSitemapsPerOrigin bounds how many sitemaps one origin's robots.txt may make the crawl
	// fetch; MaxChildSitemaps bounds the children followed from one sitemap index.
	MaxSitemapsPerOrigin = 50
	MaxChildSitemaps     = 50
	// MaxSitemapBytes is the decoded size limit of a sitemap request (sitemaps.org: 50 MiB).
	MaxSitemapBytes = 50 << 20
	// DefaultLeaseTTL is how long a lease on an origin lasts without renewal (Options.LeaseTTL,
	// --lease-ttl): the lease keeper renews every third of it, and a dead process's origins are
	// taken over this long after its last renewal.
	DefaultLeaseTTL = 30 * time.Second
	// DefaultMaxPendingNew bounds the burst of new URLs between discovery and the store (issue 8 item 6,
	// the sitemap burst): while more than this many newly discovered URLs wait in writes not yet
	// committed, no request is sent, so the outcomes that bring new URLs (a sitemap brings up to
	// sitemap.MaxEntries) stop arriving until the writer catches up. Nothing is dropped: the
	// outcomes already in flight are still saved, so at most MaxPendingNew plus Concurrency
	// outcomes' URLs wait at once (Stats.PendingNewPeak). Options.MaxPendingNew overrides it.
	DefaultMaxPendingNew = 20_000
	// DefaultMaxSitemapsInFlight bounds the sitemaps fetched at once (issue 29): each may bring
	// sitemap.MaxEntries (50,000) new URLs in one outcome, past MaxPendingNew, which checks only
	// before a request. With a sitemap per origin, a 1,000-origin web of 1,000 pages each
	// (bench/memorybench -web calendar) peaked at 385 MiB against a 256 MiB budget, its heap
	// holding 51 MB of parsed entries and 171 MB of commit groups of them.
	DefaultMaxSitemapsInFlight = 2
	// DefaultProgressEvery is how often Options.OnProgress is called at most.
	DefaultProgressEvery = 200 * time.Millisecond
)

// Fetcher performs one GET without following redirects; *fetch.Client implements it. Get
// buffers the body (the caller releases the Response); Stream hands it to consume as it arrives
// (fetch.Client.Stream), for sitemaps.
type Fetcher interface {
	Get(ctx context.Context, req fetch.Request) (*fetch.Response, error)
	Stream(ctx context.Context, req fetch.Request, consume func(resp *fetch.Response, body io.Reader) error) (*fetch.Response, error)
}

// Options configure a crawl. Fetcher and Store are required; everything else has a default.
type Options struct {
	Seeds    []string
	Scope    urlnorm.Scope // relative to the seeds' hosts or registrable domains
	MaxDepth int           // links followed from a seed; negative: unlimited
	MaxPages int           // pages requested in this run; 0: unlimited
	// Concurrency bounds requests in flight over all origins, together with the answers being
	// processed: a worker holds its task until the page's result is handed back, though the
	// origin's next request may leave as soon as the answer is read (issue 8).
	Concurrency int
	// MaxPendingNew bounds the new URLs waiting for commit before requests stop being sent
	// (0: DefaultMaxPendingNew; see there for the exact bound).
	MaxPendingNew int
	// MaxSitemapsInFlight bounds the sitemaps fetched at once (0: DefaultMaxSitemapsInFlight);
	// a page task waits for none.
	MaxSitemapsInFlight int
	// MaxWait is the longest the crawl idles for work that is not due yet (a pause, a robots.txt
	// retry); when the next due time is further away, the run ends and a later run resumes.
	MaxWait time.Duration
	// GiveUpAfter ends a run in which no origin has answered anything yet (every request
	// refused, timed out or unresolved) this long after its first request, with Stats.GaveUp (0:
	// DefaultGiveUpAfter; negative: never). A run whose seeds' hosts all do not resolve ends at
	// once.
	GiveUpAfter time.Duration
	// MaxTime ends the run after this long (0: no limit). It is a deadline: requests in flight
	// then are cancelled (their URLs stay queued), what was received is saved, and Run returns
	// once the index has caught up.
	MaxTime     time.Duration
	Revisit     time.Duration
	MaxAttempts int
	// Recrawling (issue 13), applied to the store once when Run starts: ApplyRevisit makes
	// Revisit apply to URLs fetched before (due Revisit after their last fetch); RecrawlAfter,
	// when positive, makes URLs last fetched at least that long ago due now; Recrawl makes every
	// fetched URL due now. Noindex pages are fetched URLs like the others. A revisit sends the
	// page's validators (If-None-Match, If-Modified-Since); a 304 keeps the document.
	ApplyRevisit bool
	RecrawlAfter time.Duration
	Recrawl      bool

	Frontier frontier.Options // agent, delays, per-origin concurrency, robots and pause policies
	Fetcher  Fetcher
	Store    store.Store
	Clock    clock.Clock // nil: the wall clock
	Log      *slog.Logger
	// Owner names this process for store leases, and must differ between the processes that
	// share a store (a store.Shared); empty: "mandelbot-" and random hex, new for each Run.
	Owner string
	// LeaseTTL is how long an origin's lease lasts unless renewed (0: DefaultLeaseTTL; at
	// least MinLeaseTTL). LeaseBatch bounds the origins a process holds at once on a shared
	// store (0: what Concurrency requests keep busy behind Frontier.Delay at the answer times
	// the crawl meets, at most DefaultLeaseBatch, taken Concurrency at a time: see
	// leasebatch.go).
	LeaseTTL   time.Duration
	LeaseBatch int
	// OnProgress, if set, is called on the scheduler goroutine after events, at most every
	// ProgressEvery (0: DefaultProgressEvery) of the crawl clock; it must return quickly.
	OnProgress    func(Stats)
	ProgressEvery time.Duration
	// OnDocument, if set, is called once for every page answer other than 503 and 429 (which
	// pause the origin and are asked again): 2xx, 3xx, 4xx and other 5xx, not robots.txt or
	// sitemaps, not requests that got no answer, and not the 304 of a conditional revisit (the
	// page did not change since it was last handed over). It is called on the worker goroutine that
	// fetched the page, before the outcome is saved, concurrently with other calls: it must be
	// safe for concurrent use, and the worker waits for it. The origin's next request does not:
	// it may leave once the answer is read.
	OnDocument func(Document)
	// OnPage, if set, is called for the same answers as OnDocument, after it, on the same
	// goroutine and with the same concurrency, with the page's body and redirect chain; the URLs
	// it adds (Page.Add) join the page's links on their way to the frontier and the store.
	OnPage func(*Page)
	// OnFailure, if set, is called for every page or sitemap request that got no usable answer
	// (see Failure), on the worker goroutine that made it, concurrently with other calls: it
	// must be safe for concurrent use, and the worker waits for it.
	OnFailure func(Failure)
	// AddedOnly makes the crawl request only the seeds, the URLs OnPage adds (Page.Add) and
	// the redirects they lead to: the links of pages are recorded out of scope (reason
	// NotAddedReason), and robots.txt's sitemaps are not fetched.
	AddedOnly bool
	// Filter, if set, is asked about every page URL discovered by a link, a redirect or a
	// sitemap that is otherwise in scope; a non-empty answer keeps the URL out of the crawl
	// (state out-of-scope) with that answer as the reason. It is called on worker goroutines,
	// concurrently.
	Filter func(canonicalURL string) (reason string)
	// Archive, if set, is the WARC stage: every answer is archived and its record named in the
	// store (see Archive). The Fetcher must capture wire bytes (fetch.Options.Capture).
	Archive Archive

	// CalendarYears is the calendar trap window (issue 29, trap.CheckCalendar): a discovered URL
	// holding a date more than this many years from the crawl clock's now is out of scope. 0:
	// trap.DefaultCalendarYears; negative: no window. (Frontier.MaxPagesPerOrigin likewise
	// defaults to trap.DefaultPageBudget; negative there means no budget: see trapDefaults.)
	CalendarYears int
	// RetryBackoff is the wait before the first retry of a request that got no answer; each
	// further retry doubles it, up to MaxRetryBackoff (0: DefaultRetryBackoff; see retry.go).
	RetryBackoff time.Duration
}

func (o Options) withDefaults() Options {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.MaxPendingNew <= 0 {
		o.MaxPendingNew = DefaultMaxPendingNew
	}
	if o.MaxSitemapsInFlight <= 0 {
		o.MaxSitemapsInFlight = DefaultMaxSitemapsInFlight
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultMaxWait
	}
	if o.GiveUpAfter == 0 {
		o.GiveUpAfter = DefaultGiveUpAfter
	}
	if o.Revisit <= 0 {
		o.Revisit = DefaultRevisit
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Owner == "" {
		var b [8]byte
		rand.Read(b[:]) // never fails (crypto/rand)
		o.Owner = "mandelbot-" + hex.EncodeToString(b[:])
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = DefaultLeaseTTL
	}
	o.LeaseTTL = max(o.LeaseTTL, MinLeaseTTL)
	if o.LeaseBatch <= 0 {
		o.LeaseBatch = defaultLeaseBatch(o.Concurrency, o.Frontier.Delay, leaseAnswerTime)
	}
	if o.Frontier.Agent == "" {
		o.Frontier.Agent = frontier.DefaultAgent
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = DefaultProgressEvery
	}
	o.trapDefaults()
	return o
}

// reschedule is what the recrawl options ask of the store at now (the zero Reschedule: nothing).
func (o Options) reschedule(now time.Time) store.Reschedule {
	var r store.Reschedule
	if o.ApplyRevisit {
		r.Revisit = o.Revisit
	}
	switch {
	case o.Recrawl:
		r.FetchedBefore = now
	case o.RecrawlAfter > 0:
		r.FetchedBefore = now.Add(-o.RecrawlAfter)
	}
	if r != (store.Reschedule{}) {
		r.Now = now
	}
	return r
}
