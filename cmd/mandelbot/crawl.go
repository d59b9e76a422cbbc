package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/crawlctx"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstxt"
)

// Defaults of `mandelbot crawl` that are policy, not library defaults.
const (
	// liveRefresh is how often the dashboard of `crawl --serve` reloads: it shows a running crawl.
	liveRefresh = 5 * time.Second
)

// setMemoryLimit applies the Go runtime's soft memory limit, the Go heap's share of --memory
// (issue 29; crawl.MemoryShares: 160 MiB of the default 256), unless the operator set GOMEMLIMIT
// (the runtime read it at start), which wins. The library leaves it to the command: it is the
// process's.
func setMemoryLimit(limit int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}

type crawlFlags struct {
	storeFlags
	agent, userAgent        string
	maxPages, maxDepth      int
	maxPagesPerOrigin       int
	calendarYears           int
	adaptiveDelay           bool
	scope                   string
	delay                   time.Duration
	perOrigin, concurrency  int
	robotsTTL, robots5xx404 time.Duration
	maxPause                time.Duration
	siteDelays, resolves    []string
	honorCrawlDelay         bool
	allowPrivate            bool
	warc                    string
	warcMaxSize             int64
	maxTime, maxWait        time.Duration
	giveUpAfter             time.Duration
	revisit, recrawlAfter   time.Duration
	recrawl, revisitChanged bool
	verbose                 bool
	serve                   string
	serveExit               bool
	documents               string
	seedsFile               string
	include, exclude        []string
	headers                 []string
	leaseTTL                time.Duration
	leaseBatch              int
	memory                  int64
	// changed reports whether the user gave a flag: a setting saved with the crawl is replaced
	// only by a flag given (issue 27).
	changed func(name string) bool
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

Exit status: 0 done; 1 nothing could be fetched (no origin answered within --give-up-after, or
the seeds' hosts do not resolve; the reason is printed once, as the last line);
3 stopped at --max-time or --max-pages with work left (re-run to resume); 130 interrupted
(Ctrl-C), once everything received is saved. The summary's last line says which.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.revisitChanged = cmd.Flags().Changed("revisit")
			f.changed = cmd.Flags().Changed
			return runCrawl(cmd, f, args)
		},
	}
	fl := cmd.Flags()
	f.storeFlags.register(cmd)
	fl.StringVar(&f.agent, "agent", crawl.DefaultAgent, "product token matched against robots.txt User-agent lines and robot tags")
	fl.StringVar(&f.userAgent, "user-agent", "", "User-Agent header (default: Mandelbot/VERSION (+contact URL))")
	f.maxPages, f.maxPagesPerOrigin, f.maxDepth = crawl.DefaultMaxPages, crawl.DefaultMaxPagesPerOrigin, crawl.DefaultMaxDepth
	fl.Var(limitValue{n: &f.maxPages}, "max-pages", "stop after requesting this many pages in this run (0 or none: no limit)")
	fl.Var(limitValue{n: &f.maxPagesPerOrigin}, "max-pages-per-origin", "request at most this many distinct pages of one origin, counting earlier runs of the crawl; the rest are recorded out of scope, reason \"trap page-budget\" (0 or none: no limit)")
	fl.IntVar(&f.calendarYears, "calendar-years", crawl.DefaultCalendarYears, "calendar trap: a discovered URL whose date (/2026/11, 2026-11-27, ?year=2026) is more than this many years from now is recorded out of scope, reason \"trap calendar\" (0: off)")
	fl.Var(limitValue{n: &f.maxDepth, seedsAtZero: true}, "max-depth", "follow links at most this deep from a seed (0: the seeds only; none or -1: no limit)")
	fl.StringVar(&f.scope, "scope", crawl.DefaultScope, "which links to follow: host (the seeds' hosts), domain (their registrable domains) or any")
	f.delay = crawl.DefaultDelay
	fl.Var(durationValue{d: &f.delay, none: crawl.NoDelay, zeroIsNone: true}, "delay", "gap between requests to one origin (0 or none: no gap, for servers you run)")
	f.giveUpAfter = crawl.DefaultGiveUpAfter
	fl.Var(durationValue{d: &f.giveUpAfter, none: crawl.NoLimit}, "give-up-after", "end the run, exit 1, when no origin has answered anything this long after its first request (every connection refused or timed out; a seed host that does not resolve ends it at once); none: wait as --max-wait lets it")
	fl.IntVar(&f.perOrigin, "per-origin", crawl.DefaultPerOrigin, "requests in flight to one origin at once")
	fl.IntVar(&f.concurrency, "concurrency", crawl.DefaultConcurrency, "requests in flight over all origins (at most what --memory holds: 512 at 256MiB)")
	f.memory = crawl.DefaultMemory
	fl.Var(sizeValue{n: &f.memory}, "memory", fmt.Sprintf("memory budget of the crawl process, e.g. 256MiB, 1GiB, 512M (at least %s), divided among response bodies, connections, SQLite page caches and the Go heap; GOMEMLIMIT, when set, overrides the Go heap's share", budget.FormatSize(crawl.MinMemory)))
	fl.DurationVar(&f.robotsTTL, "robots-ttl", crawl.DefaultRobotsTTL, "how long a robots.txt decision is reused (a shorter max-age wins)")
	fl.DurationVar(&f.robots5xx404, "robots-5xx-as-404-after", crawl.DefaultAs404After, "treat a robots.txt that keeps answering 5xx as 404 after this long")
	fl.DurationVar(&f.maxPause, "max-pause", crawl.DefaultMaxPause, "cap on a pause after 503/429, whatever Retry-After asks")
	fl.StringArrayVar(&f.siteDelays, "site-delay", nil, "HOST=DURATION: the gap for one host, instead of --delay (repeatable)")
	fl.BoolVar(&f.honorCrawlDelay, "honor-crawl-delay", false, "let robots.txt Crawl-delay raise the gap (capped at 1 minute)")
	fl.BoolVar(&f.adaptiveDelay, "adaptive-delay", true, fmt.Sprintf("make the gap the larger of --delay and %g times the origin's last answer time (at most %s; under %s: none), growing after timeouts and 5xx answers; =false keeps --delay fixed", float64(crawl.DelayFactor), crawl.MaxAdaptiveDelay, crawl.MinAdaptiveDelay))
	fl.StringArrayVar(&f.resolves, "resolve", nil, "HOST:PORT:ADDR: connect to ADDR for HOST:PORT, like curl; also allows loopback (repeatable)")
	fl.BoolVar(&f.allowPrivate, "allow-private", false, "allow loopback and private network addresses")
	fl.StringVar(&f.warc, "warc", "", "archive every answer (pages, sitemaps, robots.txt) as WARC 1.1 records in gzip files in DIR (created if missing); export names each URL's record")
	fl.Int64Var(&f.warcMaxSize, "warc-max-size", crawl.DefaultWARCMaxSize, "with --warc: start a new WARC file once one would grow past this many bytes")
	fl.DurationVar(&f.recrawlAfter, "recrawl-after", 0, "make pages fetched at least this long ago due again now, noindex pages included (0: off)")
	fl.BoolVar(&f.recrawl, "recrawl", false, "make every fetched page due again now (revisits send If-None-Match / If-Modified-Since; a 304 keeps the page)")
	fl.DurationVar(&f.maxTime, "max-time", 0, "a deadline: after this long, requests in flight are cancelled (their URLs stay queued), what was received is saved, and the crawl exits within 5 s (0: no limit)")
	fl.DurationVar(&f.maxWait, "max-wait", crawl.DefaultMaxWait, "end the run when the next due work (a pause, a retry) is further away than this")
	fl.DurationVar(&f.revisit, "revisit", crawl.DefaultRevisit, "a fetched page is due again after this long; when given, it also applies to pages fetched before")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "log every request")
	fl.StringVar(&f.serve, "serve", "", "serve the crawl's dashboard, search, robots.txt tester and /metrics on HOST:PORT (e.g. 127.0.0.1:8080) while it runs, then the finished crawl until Ctrl-C")
	fl.BoolVar(&f.serveExit, "serve-exit", false, "with --serve: stop serving when the crawl ends")
	fl.StringVar(&f.documents, "documents", "", "write every page answered in this run to FILE as JSON lines (url, status, headers, title, text, links with anchors, robot directives, fetched_at), as they arrive")
	fl.StringVar(&f.seedsFile, "seeds-file", "", "read more seed URLs from FILE, one a line (blank lines and lines starting with # are skipped; - is standard input)")
	fl.StringArrayVar(&f.include, "include", nil, "follow only discovered URLs matching this regular expression (Go syntax, unanchored; repeatable: any may match)")
	fl.StringArrayVar(&f.exclude, "exclude", nil, "never follow discovered URLs matching this regular expression (repeatable; wins over --include)")
	fl.StringArrayVar(&f.headers, "header", nil, "'Name: value' sent with every request (repeatable; User-Agent cannot be set this way: use --user-agent)")
	fl.DurationVar(&f.leaseTTL, "lease-ttl", crawl.DefaultLeaseTTL, "on a PostgreSQL store shared by several crawls: how long this process's lease of an origin lasts unless renewed (renewed every third; another process takes a dead one's origins over after it; at least 1s)")
	fl.IntVar(&f.leaseBatch, "lease-batch", 0, fmt.Sprintf("on a PostgreSQL store shared by several crawls: the most origins this process holds at once (0: as many as --concurrency keeps busy behind --delay at the answer times met, concurrency x (delay + answer) / answer, the answer 250ms until some are met, at most %d)", crawl.DefaultLeaseBatch))
	return cmd
}

func (f crawlFlags) validate() error {
	switch {
	case f.calendarYears < 0:
		return usageErrorf("--calendar-years must not be negative (0: off)")
	case f.perOrigin < 1:
		return usageErrorf("--per-origin must be at least 1")
	case f.concurrency < 1:
		return usageErrorf("--concurrency must be at least 1")
	case f.robotsTTL <= 0, f.robots5xx404 <= 0, f.maxPause <= 0, f.maxWait <= 0, f.revisit <= 0:
		return usageErrorf("--robots-ttl, --robots-5xx-as-404-after, --max-pause, --max-wait and --revisit must be positive")
	case f.maxTime < 0:
		return usageErrorf("--max-time must not be negative")
	case f.leaseTTL < crawl.MinLeaseTTL:
		return usageErrorf("--lease-ttl must be at least %s", crawl.MinLeaseTTL)
	case f.leaseBatch < 0:
		return usageErrorf("--lease-batch must not be negative")
	case !robotstxt.IsAgentToken(f.agent):
		return usageErrorf("%s", agentFlagHelp)
	case f.warcMaxSize <= 0:
		return usageErrorf("--warc-max-size must be positive")
	case f.recrawlAfter < 0:
		return usageErrorf("--recrawl-after must not be negative")
	case f.serveExit && f.serve == "":
		return usageErrorf("--serve-exit is for --serve HOST:PORT: give both, or neither")
	}
	return nil
}

func runCrawl(cmd *cobra.Command, f crawlFlags, args []string) error {
	if err := f.validate(); err != nil {
		return err
	}
	cfg, err := f.config(args, cmd.InOrStdin())
	if err != nil {
		return err
	}
	// Everything the flags say is checked before the store is opened or a request is sent.
	if err := cfg.Check(); err != nil {
		return configUsageError(err)
	}
	shares, err := cfg.MemoryShares()
	if err != nil {
		return configUsageError(err)
	}
	setMemoryLimit(shares.GoLimit)
	f.pageCacheBytes = shares.PageCaches

	if len(cfg.Seeds) == 0 && !f.exists() {
		// Nothing to resume and nothing to start from: say so without leaving an empty store.
		return usageErrorf("%v: give SEED URLs (there is no crawl at %s to resume)", crawl.ErrNoSeeds, f.location())
	}
	if f.serve != "" {
		if _, _, err := net.SplitHostPort(f.serve); err != nil {
			return usageErrorf("--serve %q: want HOST:PORT, e.g. 127.0.0.1:8080", f.serve)
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var ln net.Listener
	if f.serve != "" {
		// Bound before the store is opened: a busy address fails before any work.
		if ln, err = listen(ctx, f.serve, cmd.OutOrStdout()); err != nil {
			return err
		}
		defer ln.Close()
	}
	st, err := f.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx = crawlctx.WithStore(ctx, st)
	// The crawl's saved settings fill in what the flags leave out before anything uses them, so
	// that --serve's tester fetches as the crawl does; a resume that would strand queued URLs
	// is refused here, before any request or file is made (issue 27).
	cfg, resumed, err := cfg.WithSaved(ctx)
	if err != nil {
		var ce *crawl.ConfigError
		if errors.As(err, &ce) {
			return configUsageError(err)
		}
		return err
	}

	var docs *crawl.JSONLines
	if f.documents != "" {
		file, err := os.Create(f.documents)
		if err != nil {
			return fmt.Errorf("crawl: --documents: %w", err)
		}
		defer file.Close()
		docs = crawl.NewJSONLines(file)
		cfg.OnDocument = docs.Write
	}
	out := newProgress(cmd.ErrOrStderr(), f.verbose)
	cfg.Log, cfg.OnProgress, cfg.Owner = out.logger(), out.update, processOwner()
	served := startCrawlSite(ctx, ln, f, st, &cfg, cmd.OutOrStdout()) // crawlserve.go; nil without --serve
	stats, err := crawl.Run(ctx, cfg)
	out.close()
	if docs != nil {
		if derr := docs.Flush(); derr != nil && err == nil {
			err = derr
		}
	}
	err = served.failed(err)
	if errors.Is(err, crawl.ErrNoSeeds) {
		return usageErrorf("%v: give SEED URLs", err)
	}
	var ce *crawl.ConfigError
	if errors.As(err, &ce) {
		// Refused before any request: a resume that would strand queued URLs (issue 27).
		return configUsageError(err)
	}
	// A signal, not the caller, ended ctx: Ctrl-C or SIGTERM (exit 130 once the crawler saved
	// what it received). AtLimit and NothingFetched are for the crawler's stats to tell.
	interrupted := ctx.Err() != nil && cmd.Context().Err() == nil
	counts, cerr := st.Counts(context.WithoutCancel(ctx), time.Now())
	end := endOf(stats, counts, interrupted)
	if err != nil && !end.Interrupted {
		end.Failed = err
	}
	ended := stopLine(stats, runLimits{maxPages: cfg.MaxPages, maxTime: cfg.MaxTime, maxWait: cfg.MaxWait}, err)
	notes := append([]string{"Flags given: " + givenFlags(cmd)}, settingsNotes(resumed)...)
	writeSummary(cmd.OutOrStdout(), stats, ended, counts, redact(f.location()), f.storeArgs(), notes...)
	fmt.Fprintln(cmd.OutOrStdout(), end.exitLine())
	served.finish(ctx, end.Interrupted) // --serve: serve the finished crawl until Ctrl-C
	if end.Failed != nil {
		return end.err()
	}
	if cerr != nil {
		return fmt.Errorf("crawl: %w", cerr)
	}
	return end.err()
}

// config turns the flags and seed arguments into the crawl's Config (the store, log and
// progress are the caller's to add).
func (f crawlFlags) config(args []string, stdin io.Reader) (crawl.Config, error) {
	siteDelay, err := parseSiteDelays(f.siteDelays)
	if err != nil {
		return crawl.Config{}, err
	}
	seeds := args
	if f.seedsFile != "" {
		more, err := readSeedsFile(f.seedsFile, stdin)
		if err != nil {
			return crawl.Config{}, err
		}
		seeds = append(slices.Clone(args), more...)
	}
	include, err := compilePatterns("--include", f.include)
	if err != nil {
		return crawl.Config{}, err
	}
	exclude, err := compilePatterns("--exclude", f.exclude)
	if err != nil {
		return crawl.Config{}, err
	}
	header, err := parseHeaders(f.headers)
	if err != nil {
		return crawl.Config{}, err
	}
	// The settings saved with the crawl are replaced only by the flags given; the others stay
	// zero, so that a resume uses the saved value, or a new crawl the default (issue 27).
	given := func(name string) bool { return f.changed == nil || f.changed(name) }
	c := crawl.Config{
		Seeds: seeds, MaxTime: f.maxTime, MaxWait: f.maxWait, GiveUpAfter: f.giveUpAfter, Revisit: f.revisit,
		UserAgent: f.userAgent, Header: header,
		Delay: f.delay, SiteDelay: siteDelay, HonorCrawlDelay: f.honorCrawlDelay, FixedDelay: !f.adaptiveDelay,
		Memory:    f.memory,
		PerOrigin: f.perOrigin, CalendarYears: offIfZero(f.calendarYears), Concurrency: f.concurrency,
		RobotsTTL: f.robotsTTL, RobotsAs404After: f.robots5xx404, MaxPause: f.maxPause,
		AllowPrivate:  f.allowPrivate,
		ProgressEvery: progressEvery, LeaseTTL: f.leaseTTL, LeaseBatch: f.leaseBatch,
		WARCDir: f.warc, WARCMaxSize: f.warcMaxSize,
		ApplyRevisit: f.revisitChanged, RecrawlAfter: f.recrawlAfter, Recrawl: f.recrawl,
	}
	if given("scope") {
		c.Scope = f.scope
	}
	if given("include") {
		c.Include = include
	}
	if given("exclude") {
		c.Exclude = exclude
	}
	if given("resolve") {
		c.Resolve = f.resolves
	}
	if given("agent") {
		c.Agent = f.agent
	}
	if given("max-depth") {
		c.MaxDepth = f.maxDepth
	}
	if given("max-pages") {
		c.MaxPages = f.maxPages
	}
	if given("max-pages-per-origin") {
		c.MaxPagesPerOrigin = f.maxPagesPerOrigin
	}
	return c, nil
}

// endOf is how a crawl run ended (issue 9): interrupted by a signal; fetched nothing because
// the seeds' origins were unreachable; or stopped at --max-time or --max-pages with work left
// (URLs still queued, paused or waiting on robots.txt in the store).
func endOf(s crawl.Stats, counts map[store.State]int, interrupted bool) crawlEnd {
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

// flagOf names the flag that sets each crawl.Config field the checks can complain about.
var flagOf = map[string]string{
	"Seeds": "seed", "Scope": "--scope", "Resolve": "--resolve", "AllowPrivate": "--allow-private",
	"Header": "--header", "Agent": "--agent", "MaxDepth": "--max-depth", "MaxPages": "--max-pages",
	"MaxPagesPerOrigin": "--max-pages-per-origin", "Include": "--include", "Exclude": "--exclude",
	"Delay": "--delay", "Memory": "--memory",
}

// configUsageError words a crawl.ConfigError with the command's flags.
func configUsageError(err error) error {
	var ce *crawl.ConfigError
	if !errors.As(err, &ce) {
		return usageErrorf("%v", err)
	}
	msg := ce.Msg
	if f, ok := flagOf[ce.Field]; ok {
		msg = f + " " + msg
	}
	if len(ce.Fixes) > 0 {
		fixes := make([]string, len(ce.Fixes))
		for i, f := range ce.Fixes {
			fixes[i] = flagOf[f]
			if f == "Resolve" {
				fixes[i] += " HOST:PORT:ADDR"
			}
		}
		msg += ": pass " + strings.Join(fixes, ", or ")
	}
	return usageErrorf("%s", msg)
}

// givenFlags echoes the flags the user gave (issue 27), as they would type them again, by name;
// a --store URL's password is hidden. "(none)" when none was given.
func givenFlags(cmd *cobra.Command) string {
	var out []string
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		name := "--" + fl.Name
		switch v := fl.Value.(type) {
		case pflag.SliceValue:
			for _, x := range v.GetSlice() {
				out = append(out, name, shellQuote(x))
			}
			return
		}
		value := fl.Value.String()
		switch {
		case fl.Value.Type() == "bool" && value == "true":
			out = append(out, name)
		case fl.Name == "store":
			out = append(out, name, shellQuote(redact(value)))
		default:
			out = append(out, name, shellQuote(value))
		}
	})
	if len(out) == 0 {
		return "(none)"
	}
	return strings.Join(out, " ")
}

// settingsNotes words what the run took from the crawl's saved settings and what its flags
// changed (issue 27), in the flags' own spelling.
func settingsNotes(r crawl.Resume) []string {
	var notes []string
	if len(r.Kept) > 0 {
		kept := make([]string, len(r.Kept))
		for i, s := range r.Kept {
			kept[i] = settingText(s.Field, s.Value)
		}
		notes = append(notes, "Settings kept from the crawl: "+strings.Join(kept, ", "))
	}
	if len(r.Changed) > 0 {
		changed := make([]string, len(r.Changed))
		for i, s := range r.Changed {
			was := "the default"
			if s.Was != "" {
				was = strings.TrimPrefix(settingText(s.Field, s.Was), flagOf[s.Field]+" ")
			}
			changed[i] = settingText(s.Field, s.Value) + " (was " + was + ")"
		}
		notes = append(notes, "Settings changed for the crawl: "+strings.Join(changed, ", "))
	}
	return notes
}

// settingText spells one saved setting as the flag that sets it.
func settingText(field, value string) string {
	flag := flagOf[field]
	switch field {
	case "AllowPrivate":
		return flag
	case "MaxDepth", "MaxPages", "MaxPagesPerOrigin":
		n, _ := strconv.Atoi(value)
		return flag + " " + limitValue{n: &n}.String()
	}
	return flag + " " + value
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

// offIfZero maps a trap flag's 0 ("off", the command line's contract) to Config's negative
// value for "none" (Config's 0 is the default).
func offIfZero(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
