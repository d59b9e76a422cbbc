package web

import (
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/tester"
	"github.com/fractle/mandelbot/robotstxt"
	"github.com/fractle/mandelbot/urlnorm"
)

// Defaults and limits of the site. Each limit that a deployment may want to change has a field
// in Options; the others are fixed by the contracts they come from.
const (
	// DefaultAgent is the product token the robots.txt tester checks for when the form names
	// none.
	DefaultAgent = "Mandelbot"
	// DefaultTimeout bounds the work of one request, store queries included.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxOrigins is how many origins the dashboard lists; it counts the rest.
	DefaultMaxOrigins = 500
	// DefaultMaxTesterURLs is how many URLs one robots.txt tester form may check.
	DefaultMaxTesterURLs = 1000
	// DefaultMaxTesterFetches is how many robots.txt fetches the tester makes at once; a check
	// beyond them waits for one to end, up to TesterSlotWait.
	DefaultMaxTesterFetches = 4
	// TesterSlotWait is how long a check waits for one of the tester's fetches to end before the
	// page says the tester is busy (503): a short wait rides out a burst, and the rest of the
	// request's deadline is left for its own fetch.
	TesterSlotWait = 2 * time.Second

	// ResultsPerPage is the page size of the search page (the API takes a limit).
	ResultsPerPage = index.DefaultLimit
	// MaxRawQueryBytes bounds the query string of any request (an explain URL, percent-encoded,
	// fits with room to spare); a longer one is answered 414.
	MaxRawQueryBytes = 4 * urlnorm.MaxURLLength
	// MaxExplainURLBytes bounds the URL asked about on /explain: the longest URL a crawl keeps.
	MaxExplainURLBytes = urlnorm.MaxURLLength
	// MaxAgentBytes bounds the agent named in the robots.txt tester form.
	MaxAgentBytes = 200
	// MaxTesterURLBytes bounds the URL list of the robots.txt tester form.
	MaxTesterURLBytes = 64 << 10
	// MaxShareLinkBytes bounds the link the tester offers for a check (path and query): 8,000
	// bytes fit the request line of common servers and proxies (nginx and Apache accept about
	// 8 KiB) and every browser, and stay under MaxRawQueryBytes. A longer check is answered where
	// it was posted, and the page says why it has no link.
	MaxShareLinkBytes = 8000
	// formOverhead is room for multipart boundaries, part headers and the agent field.
	formOverhead = 16 << 10
	// MaxFormBytes bounds a POST to /robots: a robots.txt up to the parse limit (plus the one
	// byte that shows it was cut, rule 10), the URL list and the form's own framing. The form is
	// sent as multipart/form-data, so the robots.txt counts at its own size.
	MaxFormBytes = robotstxt.DefaultMaxBytes + 1 + MaxTesterURLBytes + formOverhead
	// DashboardRefresh is how often the dashboard reloads itself while a crawl runs beside it.
	DashboardRefresh = 30 * time.Second
)

// Options configure New. Store is required; the zero value of every other field means its
// default.
type Options struct {
	// Store is the crawl to show. The site only reads it, so a store opened read-only beside a
	// running crawl is fine. It must be safe for concurrent use (every store.Store is).
	Store store.Store
	// Agent is the product token the robots.txt tester suggests; "" means DefaultAgent.
	Agent string
	// Now is the clock: what "paused" and "expires in" mean, and the time of searches
	// (unavailable_after). Nil means time.Now.
	Now func() time.Time
	// Gatherer, if set, adds its metrics to /metrics: the running crawl's request, pause and
	// runtime metrics when the site is served by `crawl --serve`. Its names must not clash with
	// the store's (mandelbot_urls, mandelbot_origins...). The site adds the Go runtime and
	// process collectors itself, leaving out any family the Gatherer already has.
	Gatherer prometheus.Gatherer
	// Log receives server-side failures (store errors, timeouts). Nil discards them.
	Log *slog.Logger
	// Gaps, if set, tells the dashboard each origin's current gap between requests and why, as
	// the running crawl decides it (`crawl --serve`; issue 29). It must be safe for concurrent
	// use; the dashboard reads the map and never modifies it. Nil shows no gaps.
	Gaps func() map[string]Gap

	// Timeout bounds one request; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxOrigins bounds the dashboard's origin table; 0 means DefaultMaxOrigins.
	MaxOrigins int
	// MaxTesterURLs bounds the URLs of one tester form; 0 means DefaultMaxTesterURLs.
	MaxTesterURLs int
	// TesterFetch are the address protections and User-Agent of the robots.txt fetches the tester
	// makes for a robots.txt URL (tester.Fetch, the CLI's code path). The zero value refuses
	// loopback and private addresses: anyone who can reach the site can make it fetch.
	TesterFetch tester.FetchOptions
	// MaxTesterFetches bounds the tester's fetches in flight; 0 means DefaultMaxTesterFetches.
	MaxTesterFetches int
	// Refresh is how often the dashboard reloads itself (whole seconds); 0 means
	// DashboardRefresh. `crawl --serve` shows a running crawl, so it refreshes more often.
	Refresh time.Duration
}

func (o Options) withDefaults() Options {
	if o.Agent == "" {
		o.Agent = DefaultAgent
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxOrigins <= 0 {
		o.MaxOrigins = DefaultMaxOrigins
	}
	if o.Refresh < time.Second {
		o.Refresh = DashboardRefresh
	}
	if o.MaxTesterURLs <= 0 {
		o.MaxTesterURLs = DefaultMaxTesterURLs
	}
	if o.MaxTesterFetches <= 0 {
		o.MaxTesterFetches = DefaultMaxTesterFetches
	}
	return o
}
