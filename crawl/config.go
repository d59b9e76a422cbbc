package crawl

import (
	"crypto/x509"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/pace"
	"github.com/fractle/mandelbot/internal/pause"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/trap"
	"github.com/fractle/mandelbot/internal/warc"
)

// Defaults of a crawl, used where a Config field is zero (and, for the settings a crawl saves,
// the store holds none: see Config). They are the one place the defaults live: the mandelbot
// command reads them from here.
const (
	// DefaultAgent is the product token matched against robots.txt User-agent lines and robot
	// tags.
	DefaultAgent = frontier.DefaultAgent
	// DefaultDelay is the gap between two requests to one origin: polite by default.
	DefaultDelay = time.Second
	// DefaultScope: the seeds' hosts.
	DefaultScope = "host"
	// DefaultMaxDepth and DefaultMaxPages: no limit.
	DefaultMaxDepth    = NoLimit
	DefaultMaxPages    = NoLimit
	DefaultPerOrigin   = frontier.DefaultPerOrigin
	DefaultConcurrency = crawler.DefaultConcurrency
	DefaultRobotsTTL   = robots.DefaultTTL
	DefaultAs404After  = robots.DefaultAs404After
	DefaultMaxPause    = pause.DefaultMax
	DefaultMaxWait     = crawler.DefaultMaxWait
	// DefaultRetryBackoff, MaxRetryBackoff and DefaultMaxAttempts: see Config.RetryBackoff.
	DefaultRetryBackoff = crawler.DefaultRetryBackoff
	MaxRetryBackoff     = crawler.MaxRetryBackoff
	DefaultMaxAttempts  = crawler.DefaultMaxAttempts
	DefaultRevisit      = crawler.DefaultRevisit
	// DefaultGiveUpAfter: see Config.GiveUpAfter.
	DefaultGiveUpAfter = crawler.DefaultGiveUpAfter
	// DefaultLeaseTTL, MinLeaseTTL and DefaultLeaseBatch: see Config.LeaseTTL.
	DefaultLeaseTTL   = crawler.DefaultLeaseTTL
	MinLeaseTTL       = crawler.MinLeaseTTL
	DefaultLeaseBatch = crawler.DefaultLeaseBatch
	// DefaultProgressEvery is how often OnProgress is called at most.
	DefaultProgressEvery = crawler.DefaultProgressEvery
	// DelayFactor and MaxAdaptiveDelay are the adaptive delay's factor and ceiling, and an
	// adaptive gap under MinAdaptiveDelay counts as none: see Config.FixedDelay.
	DelayFactor      = pace.DefaultFactor
	MaxAdaptiveDelay = pace.DefaultMax
	MinAdaptiveDelay = pace.MinGap
	// DefaultMaxPagesPerOrigin and DefaultCalendarYears are the trap defences on by default:
	// see Config.MaxPagesPerOrigin.
	DefaultMaxPagesPerOrigin = trap.DefaultPageBudget
	DefaultCalendarYears     = trap.DefaultCalendarYears
	// DefaultWARCMaxSize is the size a WARC file is rotated at (1 GiB).
	DefaultWARCMaxSize = warc.DefaultMaxFileSize
	// DefaultMemory and MinMemory: see Config.Memory.
	DefaultMemory = budget.DefaultMemory
	MinMemory     = budget.MinMemory
	// MaxHeaderFields bounds Config.Header.
	MaxHeaderFields = 32
)

// Values that are not numbers of a setting: a zero field means the default, so "none" has a name
// of its own. The mandelbot command spells them "none" (and accepts -1 for NoLimit).
const (
	// NoLimit as MaxDepth, MaxPages or MaxPagesPerOrigin: no limit.
	NoLimit = -1
	// SeedsOnly as MaxDepth follows no link: only the seeds are requested (the command's
	// --max-depth 0).
	SeedsOnly = -2
	// NoDelay as Delay (or a SiteDelay value of 0): no gap between requests to one origin, for
	// servers you run yourself.
	NoDelay time.Duration = -1
)

// Config describes a crawl. Seeds (or a store holding an earlier crawl) is required; the zero
// value of every other field means its default. Run does not modify the Config; the callbacks
// are called as documented on each.
//
// A crawl remembers what it was told (issue 27): the settings that decide what may be fetched
// (Scope, Include, Exclude, AllowPrivate, Resolve, Agent, MaxDepth, MaxPages, MaxPagesPerOrigin)
// are saved with the crawl in its store. A later Run on the same store uses the saved value of
// each of them that its Config leaves zero, and saves a value it sets instead (OnResume reports
// both). A Run whose settings would leave queued URLs of the crawl unfetchable for good (a
// narrower Scope, a loopback URL without AllowPrivate) is refused before any request, with a
// *ConfigError naming the setting. AllowPrivate, once saved, stays on for the crawl.
type Config struct {
	// Seeds are the URLs the crawl starts from. With a store that holds an earlier crawl, Seeds
	// may be empty: the crawl resumes.
	Seeds []string
	// Scope names which links are followed: "host" (the seeds' hosts; "" means DefaultScope,
	// "host"), "domain" (their registrable domains) or "any".
	Scope string
	// Include and Exclude are regular expressions (Go syntax, matched anywhere in the canonical
	// URL unless anchored) that further limit which discovered URLs are followed: a URL must
	// match one Include pattern, when there are any, and no Exclude pattern (nil: no pattern).
	// Seeds are not checked.
	Include, Exclude []*regexp.Regexp
	// MaxDepth bounds how many links are followed from a seed: n > 0 at most n, SeedsOnly none,
	// NoLimit (or 0, DefaultMaxDepth) any number.
	MaxDepth int
	// MaxPages stops the run after this many page requests: n > 0, or NoLimit (or 0,
	// DefaultMaxPages) for none. A request refused by the address policy is not one.
	MaxPages int
	// MaxTime stops the crawl after this long; 0 means no limit. It is a deadline: requests in
	// flight are cancelled, their URLs stay queued.
	MaxTime time.Duration
	// MaxWait ends the crawl when the next due work (a paused origin, a retry) is further away
	// than this; a later Run on the same store resumes it. 0 means DefaultMaxWait (2 min).
	MaxWait time.Duration
	// RetryBackoff is the wait before the first retry of a request that got no answer (a
	// timeout, a refused or reset connection, a body that stalled); each later retry waits twice
	// as long, up to MaxRetryBackoff, and a URL gets DefaultMaxAttempts tries in all. 0 means
	// DefaultRetryBackoff.
	RetryBackoff time.Duration
	// GiveUpAfter ends a run in which no origin has answered anything (every request refused,
	// timed out or unresolved) this long after its first request: Stats.FetchedNothing then reports
	// it, with Stats.Failure saying why. 0 means DefaultGiveUpAfter (30 s); NoLimit waits as
	// long as MaxWait lets it. A run whose seeds' hosts all do not resolve ends at once.
	GiveUpAfter time.Duration
	// Revisit is when a fetched page is due again; 0 means DefaultRevisit (24 h).
	Revisit time.Duration
	// ApplyRevisit makes Revisit apply to pages fetched before this run too (a changed
	// interval); RecrawlAfter, when positive, makes pages last fetched at least that long ago
	// due now; Recrawl makes every fetched page due now. A revisit is a conditional request (the
	// page's ETag and Last-Modified); a 304 keeps the page as it is indexed.
	ApplyRevisit bool
	RecrawlAfter time.Duration
	Recrawl      bool

	// WARCDir, if set, archives every answer (pages, sitemaps, robots.txt) as WARC 1.1 records
	// in gzip files in this directory (created if missing), and the store names each URL's
	// record. Requests then use HTTP/1.1, so that the bytes recorded are those on the wire.
	// WARCMaxSize is the size a file is rotated at; 0 means DefaultWARCMaxSize (1 GiB).
	WARCDir     string
	WARCMaxSize int64

	// Agent is the product token robots.txt rules and robot tags are matched against; "" means
	// DefaultAgent ("Mandelbot"). UserAgent is the User-Agent header; "" means Agent/VERSION (+contact URL).
	Agent, UserAgent string
	// Header holds extra request header fields sent with every request (at most
	// MaxHeaderFields). User-Agent and Accept-Encoding are always the crawler's own.
	Header http.Header
	// Delay is the gap between two requests to one origin: 0 means DefaultDelay (1 s), NoDelay no gap
	// (for servers you run yourself); other negative values are refused. SiteDelay overrides it
	// per host name (0 there is no gap).
	Delay     time.Duration
	SiteDelay map[string]time.Duration
	// HonorCrawlDelay lets a robots.txt Crawl-delay raise the gap (capped at a minute).
	HonorCrawlDelay bool
	// FixedDelay turns the adaptive delay off (issue 29). By default the gap before an origin's
	// next request is the larger of Delay (the floor) and DelayFactor times how long its last
	// answer took, capped at MaxAdaptiveDelay; it grows after timeouts and 5xx answers and
	// relaxes as answers come back fast. With FixedDelay, the gap is Delay alone.
	FixedDelay bool
	// Memory is the crawl process's memory budget in bytes (issue 29; 0: DefaultMemory, 256 MiB;
	// at least MinMemory), divided among named consumers (see MemoryShares): the response
	// bodies in flight (their limits are lowered until the largest fits in their share), the
	// requests in flight and idle connections (Concurrency above what their share holds is
	// lowered to it, and the idle pool sized from it), the SQLite page caches of a store Run
	// opens, and the Go runtime's soft memory limit, which holds them all with the rest of the
	// heap. Run applies every share but the last: the soft limit is the process's, and a
	// library must not set it, so a program that wants the whole budget kept sets
	// runtime/debug.SetMemoryLimit to MemoryShares().GoLimit itself (the mandelbot command does),
	// and opens a store it passes in with the page caches' share.
	Memory int64
	// PerOrigin bounds requests in flight to one origin (0: DefaultPerOrigin, 1), Concurrency
	// over all origins (0: DefaultConcurrency, 512; either way at most a third of the process's
	// open-file limit, see MaxConcurrency).
	PerOrigin, Concurrency int
	// MaxPagesPerOrigin bounds the distinct pages requested from one origin over every run of
	// the crawl, a defence against crawler traps (issue 29); 0 means DefaultMaxPagesPerOrigin
	// (250,000), NoLimit no limit. CalendarYears cuts a discovered URL holding a date (a
	// calendar's "/cal/3994/12") more than this many years from the crawl clock's now; 0 means
	// DefaultCalendarYears, a negative value no window.
	MaxPagesPerOrigin, CalendarYears int
	// RobotsTTL is how long a robots.txt decision is reused (0: DefaultRobotsTTL, 48 h);
	// RobotsAs404After is how long a robots.txt that keeps answering 5xx blocks its origin
	// before it counts as absent (0: DefaultAs404After, 30 days); MaxPause caps a pause after 503
	// or 429, whatever Retry-After asks (0: DefaultMaxPause, 24 h).
	RobotsTTL, RobotsAs404After, MaxPause time.Duration

	// Resolve pins host names to addresses, as curl's --resolve: "HOST:PORT:ADDR" (nil: no pin).
	// A pinned address may be a loopback or private one.
	Resolve []string
	// AllowPrivate lets the crawl connect to loopback and private addresses; by default (false:
	// not allowed) the dialer refuses them, whatever a name resolves to.
	AllowPrivate bool
	// RootCAs, if set, replaces the system's certificate authorities.
	RootCAs *x509.CertPool

	// StorePath is the SQLite file the crawl is saved in (created when missing); a Run on the
	// same file resumes the crawl. "" means a temporary file removed when Run returns.
	StorePath string
	// Clock, if set, replaces the wall clock (tests, simulations): see Clock.
	Clock Clock
	// Owner names this process for the store's origin leases, so that several processes can
	// share one store (PostgreSQL); "" lets the crawler pick a random name.
	Owner string
	// LeaseTTL is how long this process's lease of an origin lasts unless renewed, on a store
	// several processes share (0: DefaultLeaseTTL, 30 s; at least MinLeaseTTL): it is renewed every
	// third of it, requests to an origin stop a third of it before its lease would lapse, and a
	// dead process's origins are taken over after it. LeaseBatch bounds the origins the process
	// holds at once there (0: as many as Concurrency requests keep busy behind Delay at the
	// answer times met, Concurrency × (Delay + answer) / answer, 250 ms until answers come, at
	// most DefaultLeaseBatch).
	LeaseTTL   time.Duration
	LeaseBatch int

	// Log receives the crawl's events (robots.txt decisions, pauses, give-ups; each request at
	// Debug level). Nil discards them.
	Log *slog.Logger
	// OnDocument, if set, receives every page answer except 503 and 429 (which pause the
	// origin; the page is asked again later): 2xx pages with their title, text and links, and
	// 3xx, 4xx and other 5xx answers with their status and header; not the 304 of a
	// conditional revisit (the page did not change). Calls are serialized (never two at once);
	// the crawl's workers wait for it, so it should return quickly.
	OnDocument func(Document)
	// OnPage, if set, receives the same answers as OnDocument (after it), each as a Page: the
	// Document with the body, the redirect chain, a DOM parsed only if asked (Page.DOM), and
	// Page.Visit to add URLs to the crawl. The Page is valid during the call only. Calls are
	// serialized with those of OnDocument and OnError (never two at once), and the crawl's
	// workers wait for them: a slow callback slows the crawl, never its manners.
	OnPage func(*Page)
	// OnError, if set, receives each request of a page or sitemap that got no usable answer,
	// with the reason and whether the URL will be asked again (see Failure). Calls are
	// serialized with the other callbacks.
	OnError func(Failure)
	// VisitOnly makes the crawl request only the seeds, the URLs OnPage adds with Page.Visit,
	// and the redirects they lead to, as a scraper that picks its next pages wants (and as
	// Colly does): the links on pages are recorded as not followed (out of scope), and the
	// sitemaps robots.txt names are not fetched. The rules of Visit still apply.
	VisitOnly bool
	// OnProgress, if set, receives a snapshot of the crawl at most every ProgressEvery (0:
	// DefaultProgressEvery), on the crawl's scheduler goroutine: it must return quickly.
	OnProgress    func(Stats)
	ProgressEvery time.Duration
	// OnResume, if set, is called once per Run, before any request, with how the run's
	// settings relate to those saved with the crawl (see Config).
	OnResume func(Resume)
	// Metrics, if set, receives the crawl's Prometheus metrics (requests by status class and
	// error kind, latency and size histograms, robots.txt outcomes, pauses, frontier size and
	// index lag). Register it once per registry: a second Run on the same registry fails.
	Metrics prometheus.Registerer
}

// ErrNoSeeds reports a crawl with no seed and no queued work in its store.
var ErrNoSeeds = crawler.ErrNoSeeds
