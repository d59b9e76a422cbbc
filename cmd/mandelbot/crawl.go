package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/netip"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/pause"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstxt"
	"github.com/fractle/mandelbot/urlnorm"
)

// Defaults of `mandelbot crawl` that are policy, not library defaults.
const (
	defaultDelay = time.Second // gap between two requests to one origin: polite by default
	// defaultMemoryLimit is the Go runtime's soft memory limit during a crawl (issue 9: peak RSS
	// under 256 MiB whatever the web does): the bodies in flight are bounded by the fetch
	// client's budget, and this makes the collector return the rest in time. GOMEMLIMIT, when
	// set, wins.
	defaultMemoryLimit = 192 << 20
)

// setMemoryLimit applies defaultMemoryLimit unless the operator set GOMEMLIMIT (the runtime
// read it at start).
func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}

type crawlFlags struct {
	storeFlags
	agent, userAgent        string
	maxPages, maxDepth      int
	maxPagesPerOrigin       int
	scope                   string
	delay                   time.Duration
	perOrigin, concurrency  int
	robotsTTL, robots5xx404 time.Duration
	maxPause                time.Duration
	siteDelays, resolves    []string
	honorCrawlDelay         bool
	allowPrivate            bool
	warc                    string
	maxTime, maxWait        time.Duration
	revisit                 time.Duration
	verbose                 bool
}

func newCrawlCommand() *cobra.Command {
	var f crawlFlags
	cmd := &cobra.Command{
		Use:   "crawl [flags] SEED...",
		Short: "Crawl from the seeds, politely, until nothing is due; re-running resumes",
		Long: `Crawl from the seed URLs, obeying robots.txt (cached 48 h), pausing any origin that answers
503 or 429, one request at a time per origin with --delay between them. Runs until nothing is due
(within --max-wait) or a limit is reached. Everything is saved as it happens: re-running the same
command (seeds may be omitted) resumes the crawl from the store.

Exit status: 0 done; 1 nothing could be fetched (every seed's origin unreachable; the reason is
printed); 3 stopped at --max-time or --max-pages with work left (re-run to resume); 130
interrupted (Ctrl-C), once everything received is saved. The summary's last line says which.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runCrawl(cmd, f, args) },
	}
	fl := cmd.Flags()
	f.storeFlags.register(cmd)
	fl.StringVar(&f.agent, "agent", defaultAgent, "product token matched against robots.txt User-agent lines and robot tags")
	fl.StringVar(&f.userAgent, "user-agent", "", "User-Agent header (default: Mandelbot/VERSION (+contact URL))")
	fl.IntVar(&f.maxPages, "max-pages", 0, "stop after requesting this many pages in this run (0: no limit)")
	fl.IntVar(&f.maxPagesPerOrigin, "max-pages-per-origin", 0, "request at most this many pages of one origin in this run; the rest are recorded out of scope, reason \"trap page-budget\" (0: no limit)")
	fl.IntVar(&f.maxDepth, "max-depth", -1, "follow links at most this deep from a seed (-1: no limit)")
	fl.StringVar(&f.scope, "scope", "host", "which links to follow: host (the seeds' hosts), domain (their registrable domains) or any")
	fl.DurationVar(&f.delay, "delay", defaultDelay, "gap between requests to one origin")
	fl.IntVar(&f.perOrigin, "per-origin", frontier.DefaultPerOrigin, "requests in flight to one origin at once")
	fl.IntVar(&f.concurrency, "concurrency", crawler.DefaultConcurrency, "requests in flight over all origins")
	fl.DurationVar(&f.robotsTTL, "robots-ttl", robots.DefaultTTL, "how long a robots.txt decision is reused (a shorter max-age wins)")
	fl.DurationVar(&f.robots5xx404, "robots-5xx-as-404-after", robots.DefaultAs404After, "treat a robots.txt that keeps answering 5xx as 404 after this long")
	fl.DurationVar(&f.maxPause, "max-pause", pause.DefaultMax, "cap on a pause after 503/429, whatever Retry-After asks")
	fl.StringArrayVar(&f.siteDelays, "site-delay", nil, "HOST=DURATION: the gap for one host, instead of --delay (repeatable)")
	fl.BoolVar(&f.honorCrawlDelay, "honor-crawl-delay", false, "let robots.txt Crawl-delay raise the gap (capped at 1 minute)")
	fl.StringArrayVar(&f.resolves, "resolve", nil, "HOST:PORT:ADDR: connect to ADDR for HOST:PORT, like curl; also allows loopback (repeatable)")
	fl.BoolVar(&f.allowPrivate, "allow-private", false, "allow loopback and private network addresses")
	fl.StringVar(&f.warc, "warc", "", "write WARC files into DIR (not implemented yet)")
	fl.DurationVar(&f.maxTime, "max-time", 0, "a deadline: after this long, requests in flight are cancelled (their URLs stay queued), what was received is saved, and the crawl exits within 5 s (0: no limit)")
	fl.DurationVar(&f.maxWait, "max-wait", crawler.DefaultMaxWait, "end the run when the next due work (a pause, a retry) is further away than this")
	fl.DurationVar(&f.revisit, "revisit", crawler.DefaultRevisit, "a fetched page is due again after this long")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "log every request")
	return cmd
}

func (f crawlFlags) validate() error {
	switch {
	case f.maxDepth < -1:
		return usageErrorf("--max-depth must be -1 (no limit) or more")
	case f.maxPages < 0:
		return usageErrorf("--max-pages must not be negative")
	case f.maxPagesPerOrigin < 0:
		return usageErrorf("--max-pages-per-origin must not be negative")
	case f.delay < 0:
		return usageErrorf("--delay must not be negative")
	case f.perOrigin < 1:
		return usageErrorf("--per-origin must be at least 1")
	case f.concurrency < 1:
		return usageErrorf("--concurrency must be at least 1")
	case f.robotsTTL <= 0, f.robots5xx404 <= 0, f.maxPause <= 0, f.maxWait <= 0, f.revisit <= 0:
		return usageErrorf("--robots-ttl, --robots-5xx-as-404-after, --max-pause, --max-wait and --revisit must be positive")
	case f.maxTime < 0:
		return usageErrorf("--max-time must not be negative")
	case !robotstxt.IsAgentToken(f.agent):
		return usageErrorf("%s", agentFlagHelp)
	case f.warc != "":
		return usageErrorf("--warc: WARC output is not implemented yet")
	}
	return nil
}

func runCrawl(cmd *cobra.Command, f crawlFlags, args []string) error {
	if err := f.validate(); err != nil {
		return err
	}
	scope, err := urlnorm.ParseScope(f.scope)
	if err != nil {
		return usageErrorf("--scope: %v", err)
	}
	siteDelay, err := parseSiteDelays(f.siteDelays)
	if err != nil {
		return err
	}
	resolve, err := parseResolves(f.resolves)
	if err != nil {
		return usageErrorf("%v", err)
	}
	seeds, err := parseSeeds(args, resolve, f.allowPrivate)
	if err != nil {
		return err
	}
	setMemoryLimit()
	ua := f.userAgent
	if ua == "" {
		ua = fetch.FormatUserAgent(fetch.Product, version, fetch.ContactURL)
	}
	client, err := fetch.New(fetch.Options{UserAgent: ua, Resolve: resolve, AllowPrivate: f.allowPrivate})
	if err != nil {
		return usageErrorf("%v", err)
	}
	defer client.Close()

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := f.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()

	out := newProgress(cmd.ErrOrStderr(), f.verbose)
	opts := crawler.Options{
		Seeds: seeds, Scope: scope, MaxDepth: f.maxDepth, MaxPages: f.maxPages,
		Concurrency: f.concurrency, MaxWait: f.maxWait, MaxTime: f.maxTime, Revisit: f.revisit,
		Frontier: frontier.Options{
			Agent: f.agent, Delay: f.delay, SiteDelay: siteDelay, HonorCrawlDelay: f.honorCrawlDelay,
			PerOrigin: f.perOrigin, MaxPagesPerOrigin: f.maxPagesPerOrigin,
			Robots: robots.Policy{TTL: f.robotsTTL, As404After: f.robots5xx404},
			Pause:  pause.Policy{Max: f.maxPause},
		},
		Fetcher: client, Store: st, Log: out.logger(), OnProgress: out.update, ProgressEvery: progressEvery,
		Owner: processOwner(),
	}
	stats, err := crawler.Run(ctx, opts)
	out.close()
	if err == crawler.ErrNoSeeds {
		return usageErrorf("%v: give SEED URLs", err)
	}
	// A signal, not the caller, ended ctx: Ctrl-C or SIGTERM (exit 130 once the crawler saved
	// what it received). AtLimit and NothingFetched are for the crawler's stats to tell.
	interrupted := ctx.Err() != nil && cmd.Context().Err() == nil
	counts, cerr := st.Counts(context.WithoutCancel(ctx), time.Now())
	end := endOf(stats, counts, interrupted)
	writeSummary(cmd.OutOrStdout(), stats, counts, redact(f.location()))
	fmt.Fprintln(cmd.OutOrStdout(), end.exitLine())
	if err != nil && !end.Interrupted {
		return fmt.Errorf("crawl: %w", err)
	}
	if cerr != nil {
		return fmt.Errorf("crawl: %w", cerr)
	}
	return end.err()
}

// endOf is how a crawl run ended (issue 9): interrupted by a signal; fetched nothing because
// the seeds' origins were unreachable; or stopped at --max-time or --max-pages with work left
// (URLs still queued, paused or waiting on robots.txt in the store).
func endOf(s crawler.Stats, counts map[store.State]int, interrupted bool) crawlEnd {
	left := counts[store.StateQueued] + counts[store.StatePaused] + counts[store.StateRobotsUnreachable]
	return crawlEnd{
		Interrupted:    interrupted,
		NothingFetched: s.FetchedNothing(),
		AtLimit:        s.AtLimit && left > 0,
		Reason:         oneLine(s.Failure),
	}
}

// oneLine keeps the first line of s.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

func parseSiteDelays(values []string) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, v := range values {
		host, d, ok := strings.Cut(v, "=")
		dur, err := time.ParseDuration(d)
		if !ok || host == "" || err != nil || dur < 0 {
			return nil, usageErrorf("--site-delay %q: want HOST=DURATION, e.g. example.com=5s", v)
		}
		out[strings.ToLower(host)] = dur
	}
	return out, nil
}

// parseSeeds checks every seed before anything starts: a bad seed is a usage error, and a seed
// on a loopback or private address needs --allow-private or --resolve (so a typo cannot make the
// crawler scan a private network).
func parseSeeds(args []string, resolve map[string]string, allowPrivate bool) ([]string, error) {
	var seeds []string
	for _, a := range args {
		u, err := urlnorm.Parse(a)
		if err != nil {
			return nil, usageErrorf("seed %q: %v", a, err)
		}
		if !allowPrivate {
			if _, pinned := resolve[u.HostPort()]; !pinned && isPrivateHost(u.Host()) {
				return nil, usageErrorf("seed %s is on a loopback or private address: pass --allow-private, or --resolve HOST:PORT:ADDR", u)
			}
		}
		seeds = append(seeds, u.String())
	}
	return seeds, nil
}

func isPrivateHost(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	if err != nil {
		return false // a name: the dialer checks the address it resolves to
	}
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast()
}

// parseResolves turns curl-style HOST:PORT:ADDR values into the fetch client's Resolve map.
func parseResolves(values []string) (map[string]string, error) {
	resolve := make(map[string]string, len(values))
	for _, r := range values {
		hp, addr, err := fetch.ParseResolve(r)
		if err != nil {
			return nil, fmt.Errorf("--resolve %q: %w", r, err)
		}
		resolve[hp] = addr
	}
	return resolve, nil
}

// processOwner names this crawl process for the store's leases, uniquely among the processes
// sharing a store, and readably for a person looking at the leases: HOST-PID-RANDOM.
func processOwner() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "mandelbot"
	}
	var b [4]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}
