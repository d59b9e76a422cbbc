package crawl

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/net/http/httpguts"

	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/crawlctx"
	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/pause"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/warc"
	"github.com/fractle/mandelbot/robotstxt"
	"github.com/fractle/mandelbot/urlnorm"
)

// Run crawls as c describes until nothing is due within MaxWait, a limit is reached or ctx is
// done, and returns the run's Stats. A cancelled ctx is not an error: what was received is
// saved, and the error is nil with Stats.StopReason saying why the run ended. Run checks the
// whole Config (Check) before it sends any request or opens any store.
//
// Run keeps to c.Memory's shares (Config.Memory) except the Go runtime's soft memory limit, which
// it leaves to the program: see MemoryShares.
func Run(ctx context.Context, c Config) (_ Stats, runErr error) {
	checked, err := c.plan()
	if err != nil {
		return Stats{}, err
	}
	st := crawlctx.Store(ctx)
	if st == nil {
		path, cleanup, err := storePath(c.StorePath)
		if err != nil {
			return Stats{}, err
		}
		defer cleanup()
		s, err := sqlite.Open(ctx, path, sqlite.Options{PageCacheBytes: checked.memory.Of(budget.PageCaches)})
		if err != nil {
			return Stats{}, fmt.Errorf("crawl: open the store: %w", err)
		}
		defer s.Close()
		st = s
	}
	// The settings saved with the crawl fill in what c leaves zero (issue 27).
	c, resumed, err := c.withSavedIn(ctx, st)
	if err != nil {
		return Stats{}, err
	}
	if c.OnResume != nil {
		c.OnResume(resumed)
	}
	p, err := c.plan()
	if err != nil {
		return Stats{}, err
	}
	p.crawl.Store = st
	client, err := fetch.New(p.fetch)
	if err != nil {
		return Stats{}, fmt.Errorf("crawl: %w", err)
	}
	defer client.Close()
	var fetcher crawler.Fetcher = client
	if len(c.Header) > 0 {
		fetcher = withHeader{next: fetcher, header: c.Header}
	}
	var m *metrics
	if c.Metrics != nil {
		m, err = newMetrics(c.Metrics, c.Clock, p.memory, p.fetch.Budget)
		if err != nil {
			return Stats{}, fmt.Errorf("crawl: metrics: %w", err)
		}
		fetcher = m.wrap(fetcher)
	}
	if m != nil || c.OnProgress != nil {
		var observe func(Stats)
		if m != nil {
			observe = m.observe
		}
		p.crawl.OnProgress = progressOf(observe, c.OnProgress)
	}
	p.crawl.Fetcher = fetcher
	if c.WARCDir != "" {
		w, err := openArchive(c, p.fetch.UserAgent)
		if err != nil {
			return Stats{}, err
		}
		defer func() {
			if cerr := w.Close(); cerr != nil && runErr == nil {
				runErr = fmt.Errorf("crawl: archive: %w", cerr)
			}
		}()
		p.crawl.Archive = w
	}
	raw, err := crawler.Run(ctx, p.crawl)
	stats := statsOf(raw)
	if m != nil {
		m.observe(stats) // the final figures, which the last progress call may predate
	}
	return stats, err
}

// Check reports the first problem with c, in words for the person who wrote it, without
// sending a request or opening a store: a seed that is not an http(s) URL or is on a loopback
// or private address without AllowPrivate or Resolve, an unknown Scope, a bad Resolve entry, a
// negative limit, an Agent that is not a product token.
func (c Config) Check() error {
	_, err := c.plan()
	return err
}

// plan is a checked Config turned into the options of the parts that run it. Config.plan is the
// one place they are derived (issue 30). Its convention for zero values: a zero Config field
// means the default, and reaches the internal options as zero, whose withDefaults applies the
// same default (crawl's Default constants name those of the internal packages). Where an
// internal option's zero means something else (the frontier's Delay 0: no gap), plan resolves
// the default itself and translates Config's "none" (NoDelay, NoLimit, SeedsOnly) into the
// internal option's own; it also resolves what it checks or bounds (Agent, Scope, UserAgent,
// Concurrency: MaxConcurrency and the memory budget's MaxInFlight), and the memory budget's shares
// (Memory: the body budget and limits, the idle pool).
type plan struct {
	fetch  fetch.Options
	crawl  crawler.Options
	memory budget.Shares
}

func (c Config) plan() (plan, error) {
	var p plan
	switch {
	case c.MaxDepth < SeedsOnly:
		return p, configErr("MaxDepth", "must be a number of links, NoLimit (-1) or SeedsOnly (-2)")
	case c.MaxPages < NoLimit, c.MaxPagesPerOrigin < NoLimit:
		return p, configErr("limits", "MaxPages and MaxPagesPerOrigin must be a number of pages or NoLimit (-1)")
	case c.Delay < 0 && c.Delay != NoDelay:
		return p, configErr("Delay", "must be a duration, or NoDelay for no gap (0 means DefaultDelay)")
	case c.GiveUpAfter < 0 && c.GiveUpAfter != NoLimit:
		return p, configErr("GiveUpAfter", "must be a duration, or NoLimit to wait as long as MaxWait lets it")
	case c.MaxTime < 0, c.MaxWait < 0, c.RetryBackoff < 0, c.Revisit < 0, c.PerOrigin < 0, c.Concurrency < 0,
		c.RobotsTTL < 0, c.RobotsAs404After < 0, c.MaxPause < 0, c.ProgressEvery < 0, c.LeaseTTL < 0, c.LeaseBatch < 0,
		c.RecrawlAfter < 0, c.WARCMaxSize < 0:
		return p, configErr("limits", "limits, durations and counts must not be negative (0 means the default)")
	case c.LeaseTTL > 0 && c.LeaseTTL < MinLeaseTTL:
		return p, configErr("LeaseTTL", fmt.Sprintf("must be at least %s", MinLeaseTTL))
	case len(c.Header) > MaxHeaderFields:
		return p, configErr("Header", fmt.Sprintf("at most %d extra header fields", MaxHeaderFields))
	}
	agent := c.Agent
	if agent == "" {
		agent = DefaultAgent
	}
	if !robotstxt.IsAgentToken(agent) {
		return p, configErr("Agent", fmt.Sprintf("%q is not a product token (letters, digits, '-' and '_' only, as robots.txt User-agent lines match)", agent))
	}
	for name, values := range c.Header {
		if err := checkHeaderName(name); err != nil {
			return p, err
		}
		for _, v := range values {
			if !httpguts.ValidHeaderFieldValue(v) {
				return p, configErr("Header", fmt.Sprintf("%s: %q is not a valid header value", name, v))
			}
		}
	}
	scopeName := c.Scope
	if scopeName == "" {
		scopeName = DefaultScope
	}
	scope, err := urlnorm.ParseScope(scopeName)
	if err != nil {
		return p, configErr("Scope", fmt.Sprintf("%q: want host, domain or any", scopeName))
	}
	resolve := make(map[string]string, len(c.Resolve))
	for _, r := range c.Resolve {
		hp, addr, err := fetch.ParseResolve(r)
		if err != nil {
			return p, configErr("Resolve", fmt.Sprintf("%q: want HOST:PORT:ADDR, e.g. example.com:443:192.0.2.1", r))
		}
		resolve[hp] = addr
	}
	seeds, err := checkSeeds(c.Seeds, resolve, c.AllowPrivate)
	if err != nil {
		return p, err
	}
	if p.memory, err = c.shares(); err != nil {
		return p, err
	}
	ua := c.UserAgent
	if ua == "" {
		ua = fetch.FormatUserAgent(agent, fetch.Version, fetch.ContactURL)
	}
	p.fetch = fetch.Options{UserAgent: ua, Resolve: resolve, AllowPrivate: c.AllowPrivate, RootCAs: c.RootCAs,
		Capture: c.WARCDir != ""}
	// The body buffers' share (issue 29): the client's budget, and body limits whose largest
	// request fits in it, with its wire copy when the crawl archives (WARCDir: the copy is
	// charged to the same share); the connections' share sizes the idle pool.
	p.fetch.Budget = budget.New(p.memory.Of(budget.Bodies))
	if p.fetch.MaxRawBytes, p.fetch.MaxDecodedBytes = fetch.LimitsFor(p.memory.Of(budget.Bodies), p.fetch.Capture); p.fetch.MaxDecodedBytes == 0 {
		return p, configErr("Memory", fmt.Sprintf("%s leaves the response bodies too little to decode one", budget.FormatSize(p.memory.Total)))
	}
	p.fetch.MaxIdleConns = min(p.memory.MaxIdleConns(), fetch.DefaultMaxIdleConns)
	// In flight: what was asked (or the default), at most what the connections' share holds and
	// what the open-file limit allows (MaxConcurrency).
	concurrency := min(cmp.Or(c.Concurrency, DefaultConcurrency), p.memory.MaxInFlight(), MaxConcurrency())
	if c.Clock != nil {
		p.fetch.Now = c.Clock.Now
	}

	delay := c.Delay
	switch delay {
	case 0:
		delay = DefaultDelay
	case NoDelay:
		delay = 0
	}
	every := c.ProgressEvery
	if every == 0 {
		every = DefaultProgressEvery
	}
	p.crawl = crawler.Options{
		Seeds: seeds, Scope: scope, MaxDepth: c.depthLimit(), MaxPages: max(c.MaxPages, 0),
		Concurrency: concurrency, MaxWait: c.MaxWait, RetryBackoff: c.RetryBackoff, GiveUpAfter: c.GiveUpAfter, MaxTime: c.MaxTime, Revisit: c.Revisit,
		ApplyRevisit: c.ApplyRevisit, RecrawlAfter: c.RecrawlAfter, Recrawl: c.Recrawl,
		CalendarYears: c.CalendarYears, // as MaxPagesPerOrigin: 0 the default, negative none
		Frontier: frontier.Options{
			Agent: agent, Delay: delay, SiteDelay: c.SiteDelay, HonorCrawlDelay: c.HonorCrawlDelay, AdaptiveDelay: !c.FixedDelay,
			PerOrigin: c.PerOrigin, MaxPagesPerOrigin: c.MaxPagesPerOrigin,
			MaxBytes: p.memory.Of(budget.Frontier), // issue 29: the queues and known sets keep to it
			Robots:   robots.Policy{TTL: c.RobotsTTL, As404After: c.RobotsAs404After},
			Pause:    pause.Policy{Max: c.MaxPause},
		},
		Clock: c.Clock, Log: c.Log, Owner: c.Owner, LeaseTTL: c.LeaseTTL, LeaseBatch: c.LeaseBatch,
		ProgressEvery: every,
		Filter:        patternFilter(c.Include, c.Exclude),
		AddedOnly:     c.VisitOnly,
	}
	p.crawl.OnDocument, p.crawl.OnPage, p.crawl.OnFailure = c.callbacks()
	return p, nil
}

// depthLimit is MaxDepth as the crawler counts it: the most links followed, -1 for no limit.
func (c Config) depthLimit() int {
	switch c.MaxDepth {
	case 0, NoLimit:
		return -1
	case SeedsOnly:
		return 0
	}
	return c.MaxDepth
}

// checkSeeds parses every seed: a bad seed is an error before anything starts, and a seed on a
// loopback or private address needs AllowPrivate or a Resolve entry (so a typo cannot make the
// crawler scan a private network). The address rule is the dialer's own (fetch.HostClass).
func checkSeeds(args []string, resolve map[string]string, allowPrivate bool) ([]string, error) {
	seeds := make([]string, 0, len(args))
	for _, a := range args {
		u, err := urlnorm.Parse(a)
		if err != nil {
			return nil, configErr("Seeds", seedProblem(a, err))
		}
		if !allowPrivate {
			if _, pinned := resolve[u.HostPort()]; !pinned {
				if class := fetch.HostClass(u.Host()); class != "" {
					return nil, configErr("Seeds", fmt.Sprintf("%s is on a %s address", u, class), "AllowPrivate", "Resolve")
				}
			}
		}
		seeds = append(seeds, u.String())
	}
	return seeds, nil
}

// seedProblem words why seed a could not be parsed, for the person who typed it: what is wrong
// with it in their terms (not the parser's), and the likely fix for a host name typed without
// a scheme ("example.com": did you mean http://example.com/?).
func seedProblem(a string, err error) string {
	var ue *urlnorm.Error
	if !errors.As(err, &ue) {
		return fmt.Sprintf("%q is not a URL the crawler can fetch", a)
	}
	switch {
	case errors.Is(err, urlnorm.ErrScheme) && !strings.Contains(a, "://"):
		msg := fmt.Sprintf("%q is not a URL: it has no http:// or https://", a)
		if u, err := urlnorm.Parse("http://" + a); err == nil {
			msg += fmt.Sprintf("; did you mean %s?", u)
		}
		return msg
	case errors.Is(err, urlnorm.ErrScheme):
		return fmt.Sprintf("%q is not an http or https URL: the crawler fetches only those", a)
	}
	msg := fmt.Sprintf("%q is not a URL the crawler can fetch: %v", a, ue.Err)
	if ue.Detail != "" {
		msg += " (" + ue.Detail + ")"
	}
	return msg
}

// checkHeaderName refuses header fields the crawler owns.
func checkHeaderName(name string) error {
	if !httpguts.ValidHeaderFieldName(name) {
		return configErr("Header", fmt.Sprintf("%q is not a valid header name", name))
	}
	switch http.CanonicalHeaderKey(name) {
	case "User-Agent", "Accept-Encoding", "Host", "Content-Length", "Connection", "Transfer-Encoding":
		return configErr("Header", fmt.Sprintf("%s is the crawler's own and cannot be set", name))
	}
	return nil
}

// patternFilter is the crawler's Filter for Config.Include and Exclude (nil when both are
// empty); the reason names the pattern, as the export and the URL lookup show it.
func patternFilter(include, exclude []*regexp.Regexp) func(string) string {
	if len(include) == 0 && len(exclude) == 0 {
		return nil
	}
	return func(u string) string {
		for _, re := range exclude {
			if re.MatchString(u) {
				return fmt.Sprintf("matches --exclude %s", re)
			}
		}
		if len(include) == 0 {
			return ""
		}
		for _, re := range include {
			if re.MatchString(u) {
				return ""
			}
		}
		return "matches no --include pattern"
	}
}

// callbacks are the crawler's hooks for OnDocument, OnPage and OnError (nil for those not
// set): the crawler calls them from its workers at once, so they take turns on one mutex, and
// each converts the crawler's values into the public ones.
func (c Config) callbacks() (func(crawler.Document), func(*crawler.Page), func(crawler.Failure)) {
	mu := new(sync.Mutex)
	var onDoc func(crawler.Document)
	var onPage func(*crawler.Page)
	var onFail func(crawler.Failure)
	if fn := c.OnDocument; fn != nil {
		onDoc = func(d crawler.Document) {
			doc := documentOf(d)
			mu.Lock()
			defer mu.Unlock()
			fn(doc)
		}
	}
	if fn := c.OnPage; fn != nil {
		onPage = func(p *crawler.Page) {
			page := pageOf(p)
			defer func() { page.Body = nil }() // the buffer is the crawl's again
			mu.Lock()
			defer mu.Unlock()
			fn(page)
		}
	}
	if fn := c.OnError; fn != nil {
		onFail = func(f crawler.Failure) {
			mu.Lock()
			defer mu.Unlock()
			fn(failureOf(f))
		}
	}
	return onDoc, onPage, onFail
}

// progressOf is the crawler's OnProgress: the public Stats, to the metrics and the caller's
// OnProgress (either may be nil). Both run on the crawl's scheduler goroutine.
func progressOf(fns ...func(Stats)) func(crawler.Stats) {
	return func(raw crawler.Stats) {
		s := statsOf(raw)
		for _, fn := range fns {
			if fn != nil {
				fn(s)
			}
		}
	}
}

// storePath returns the SQLite file to use, and what to do when the run is over: a temporary
// directory is removed.
func storePath(path string) (string, func(), error) {
	if path != "" {
		return path, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "mandelbot-crawl-")
	if err != nil {
		return "", nil, fmt.Errorf("crawl: temporary store: %w", err)
	}
	return filepath.Join(dir, "crawl.db"), func() { os.RemoveAll(dir) }, nil
}

// withHeader adds the caller's header fields to every request; fields the request already has
// (a conditional request's validators) win, and the client replaces User-Agent whatever it says.
type withHeader struct {
	next   crawler.Fetcher
	header http.Header
}

func (h withHeader) Get(ctx context.Context, req fetch.Request) (*fetch.Response, error) {
	return h.next.Get(ctx, h.with(req))
}

func (h withHeader) Stream(ctx context.Context, req fetch.Request, consume func(*fetch.Response, io.Reader) error) (*fetch.Response, error) {
	return h.next.Stream(ctx, h.with(req), consume)
}

func (h withHeader) with(req fetch.Request) fetch.Request {
	hd := req.Header.Clone()
	if hd == nil {
		hd = make(http.Header, len(h.header))
	}
	for k, v := range h.header {
		if hd.Values(k) == nil {
			hd[http.CanonicalHeaderKey(k)] = v
		}
	}
	req.Header = hd
	return req
}

// openArchive creates the WARC writer of c.WARCDir (and the directory). Its warcinfo records
// name the User-Agent the crawl sends and that it obeys robots.txt.
func openArchive(c Config, userAgent string) (*warc.Writer, error) {
	if err := os.MkdirAll(c.WARCDir, 0o755); err != nil {
		return nil, fmt.Errorf("crawl: archive: %w", err)
	}
	opts := warc.Options{Dir: c.WARCDir, MaxFileSize: c.WARCMaxSize, Info: []warc.Field{
		{Name: "http-header-user-agent", Value: userAgent},
		{Name: "robots", Value: "obey"},
	}}
	if c.Clock != nil {
		opts.Now = c.Clock.Now
	}
	w, err := warc.New(opts)
	if err != nil {
		return nil, fmt.Errorf("crawl: archive: %w", err)
	}
	return w, nil
}
