package frontier

import (
	"time"

	"github.com/fractle/mandelbot/internal/pace"
	"github.com/fractle/mandelbot/internal/pause"
	"github.com/fractle/mandelbot/internal/robots"
)

const (
	// DefaultAgent is the product token matched against robots.txt User-agent lines and robot
	// tags when Options.Agent is empty.
	DefaultAgent = "Mandelbot"
	// DefaultPerOrigin is how many requests may be in flight to one origin at once.
	DefaultPerOrigin = 1
	// DefaultWindow is how many due URLs of one origin are held in memory; the rest wait in the
	// store and are read back by StepRefill. At 1,000 it kept nearly every URL of a 1,000-origin
	// crawl in memory (400 MiB at 200,000 pages); 256 bounds the queues at about 80 MiB for 1,000
	// origins, and a one-site crawl refills every 256 pages. Options.MaxBytes lowers it to an
	// even part of the frontier's share per origin (issue 29).
	DefaultWindow = 256
	// MaxHonoredCrawlDelay caps a robots.txt Crawl-delay when Options.HonorCrawlDelay is set: a
	// site asking for an hour between requests gets this instead.
	MaxHonoredCrawlDelay = time.Minute
)

// Options configure a Frontier. The zero value means: agent "Mandelbot", no politeness delay, one
// request per origin at a time, default robots and pause policies.
type Options struct {
	Agent     string                   // product token for robots.txt groups
	Delay     time.Duration            // --delay: gap between requests to one origin
	SiteDelay map[string]time.Duration // --site-delay: per host name, overrides Delay
	// HonorCrawlDelay makes a robots.txt Crawl-delay raise the gap (capped by
	// MaxHonoredCrawlDelay); off by default (docs/robots-rules.md rule 9).
	HonorCrawlDelay bool
	PerOrigin       int // --per-origin
	// MaxPagesPerOrigin bounds the distinct pages of one origin requested over every run
	// (--max-pages-per-origin; <= 0: no limit): the count starts from store.OriginLoad.Requested
	// (issue 29), and the revisit of a page requested before takes nothing. Its URLs past the
	// budget are rejected (StepReject). Sitemaps and robots.txt do not count.
	MaxPagesPerOrigin int
	// Window is how many due URLs of one origin are held in memory at most (0: DefaultWindow).
	Window int
	// MaxBytes is the Frontier's share of the crawl's memory budget (issue 29; budget.Frontier;
	// 0: no bound): the queues and the known sets of every origin together are charged to it
	// (memory.go) and kept under it. A queue's window shrinks to an even part of it per origin;
	// a URL that does not fit waits in the store and comes back by a refill; a refill with no
	// room waits until queues drain; known sets that do not fit become caches in front of the
	// store's de-duplication. Memory reports the use.
	MaxBytes int64
	Robots   robots.Policy
	Pause    pause.Policy
	// AdaptiveDelay turns the adaptive delay on (issue 29; off in the zero Options, on in the
	// crawl's defaults): the gap before an origin's next request is then the larger of the
	// configured delay and Pace's gap after its last answer (Outcome.Took, Outcome.Status).
	AdaptiveDelay bool
	Pace          pace.Policy

	// ReleaseIdle makes an origin with nothing left to do in this run (nothing queued in memory
	// or due in the store, nothing in flight, every write durable) a StepRelease once its delay
	// since the last request has passed; the Frontier then forgets it. For crawl processes that
	// share a store (issue 12): another one may lease the origin and keep the delay.
	ReleaseIdle bool
}

func (o Options) withDefaults() Options {
	if o.Agent == "" {
		o.Agent = DefaultAgent
	}
	if o.PerOrigin <= 0 {
		o.PerOrigin = DefaultPerOrigin
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	return o
}
