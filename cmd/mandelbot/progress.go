package main

import (
	"context"
	"fmt"
	"github.com/fractle/mandelbot/crawl"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/creack/pty"
	"github.com/mattn/go-isatty"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

const (
	// progressEvery is how often the crawl reports progress (crawl clock).
	progressEvery = 200 * time.Millisecond
	// statusRefresh is how often the terminal status line is redrawn.
	statusRefresh = 250 * time.Millisecond
	// logProgressEvery is the least time between two progress lines logged when not on a
	// terminal, and logCheckEvery how often the figures are looked at: a line is logged when
	// they changed since the last one (issue 27: not 180 identical lines), the first at once.
	// A pause still shows: its start changes the figures (issue 10).
	logProgressEvery = 10 * time.Second
	logCheckEvery    = time.Second
	// rateWindow is the span pages/s is measured over: recent enough that a pause shows as a
	// drop, long enough to be steady.
	rateWindow = 10 * time.Second
)

// rateSample is the pages count of one snapshot, at its crawl-clock time.
type rateSample struct {
	at    time.Time
	pages int
}

// progress shows a crawl as it runs: a live status line on a terminal, plain log lines
// otherwise, both from the crawl's latest snapshot and redrawn on their own timer, so counts and
// the pause countdown stay current while the crawl waits. update is called on the crawl's
// scheduler goroutine; the line is rendered on mpb's or the logging goroutine, hence the mutex.
type progress struct {
	now func() time.Time // the wall clock, for "resumes in"
	p   *mpb.Progress
	bar *mpb.Bar
	log *slog.Logger

	// lastLogged and loggedAt are the figures of the last progress line logged and when
	// (logDue; the log goroutine's own).
	lastLogged string
	loggedAt   time.Time

	mu      sync.Mutex
	last    crawl.Stats
	samples []rateSample // the snapshots of the last rateWindow, oldest first

	stop context.CancelFunc
	done chan struct{}
}

func newProgress(w io.Writer, verbose bool) *progress {
	pr := &progress{now: time.Now, done: make(chan struct{})}
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) && hasSize(f) {
		close(pr.done)
		pr.p = mpb.New(mpb.WithOutput(w), mpb.WithRefreshRate(statusRefresh))
		pr.bar = pr.p.New(0, mpb.NopStyle(), mpb.PrependDecorators(decor.Any(func(decor.Statistics) string { return pr.line() })))
		// The status line says the counts; pauses, give-ups and robots.txt trouble are still
		// announced above it, as they happen.
		h := slog.NewTextHandler(pr.p, &slog.HandlerOptions{Level: level})
		if !verbose {
			pr.log = slog.New(announceHandler{Handler: h})
		} else {
			pr.log = slog.New(h)
		}
		return pr
	}
	pr.log = slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
	ctx, cancel := context.WithCancel(context.Background())
	pr.stop = cancel
	go pr.logLoop(ctx)
	return pr
}

func (pr *progress) logger() *slog.Logger { return pr.log }

// hasSize reports whether terminal f says how wide it is. One that does not (a serial console, a
// pseudo-terminal nobody sized) would get a status line cut to nothing, so it gets the plain
// progress lines instead (issue 27: a 9-minute crawl printed nothing).
func hasSize(f *os.File) bool {
	_, cols, err := pty.Getsize(f)
	return err == nil && cols > 0
}

// update takes the crawl's latest snapshot.
func (pr *progress) update(s crawl.Stats) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.last = s
	pr.samples = append(pr.samples, rateSample{at: s.Now, pages: s.Pages})
	// Keep one sample at or before the window's start, as the base of the rate.
	for len(pr.samples) > 2 && !pr.samples[1].at.After(s.Now.Add(-rateWindow)) {
		pr.samples = pr.samples[1:]
	}
}

// snapshot returns the latest Stats and the pages/s of the last rateWindow up to now: pages
// fetched since the window's base sample over the time since it (so a quiet pause brings it
// down even when no new snapshot arrives).
func (pr *progress) snapshot() (crawl.Stats, float64) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	s := pr.last
	if len(pr.samples) < 2 {
		return s, s.Rate()
	}
	now := pr.now()
	if now.Before(s.Now) {
		now = s.Now
	}
	base := pr.samples[0]
	for _, x := range pr.samples {
		if x.at.After(now.Add(-rateWindow)) {
			break
		}
		base = x
	}
	d := now.Sub(base.at).Seconds()
	if d <= 0 {
		return s, s.Rate()
	}
	return s, float64(s.Pages-base.pages) / d
}

// logLoop logs progress lines (logDue) until ctx ends.
func (pr *progress) logLoop(ctx context.Context) {
	defer close(pr.done)
	t := time.NewTicker(logCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if attrs, ok := pr.logDue(pr.now()); ok {
			pr.log.Info("progress", attrs...)
		}
	}
}

// logDue returns the progress line's fields and whether to log it at now: when the crawl has
// reported, the figures (all but the rate and the countdown, which move with the clock alone)
// differ from the last line logged, and logProgressEvery has passed since it.
func (pr *progress) logDue(now time.Time) ([]any, bool) {
	s, rate := pr.snapshot()
	if s.Started.IsZero() {
		return nil, false // the crawl has not reported yet
	}
	figures := []any{"fetched", s.Pages, "queued", s.Queued,
		"in_flight", s.InFlight, "disallowed", s.Disallowed, "errors", s.Errors,
		"origins_active", activeOrigins(s), "origins_paused", s.OriginsPaused, "origins_unreachable", s.OriginsBlocked,
		"index_lag", s.IndexLag}
	key := fmt.Sprint(figures...)
	if key == pr.lastLogged || !pr.loggedAt.IsZero() && now.Sub(pr.loggedAt) < logProgressEvery {
		return nil, false
	}
	pr.lastLogged, pr.loggedAt = key, now
	attrs := append([]any{"fetched", s.Pages, "per_second", fmt.Sprintf("%.1f", rate)}, figures[2:]...)
	if r := resume(s, now); r != "" {
		attrs = append(attrs, "next_resume", r)
	}
	return attrs, true
}

// line is the terminal status line.
func (pr *progress) line() string {
	s, rate := pr.snapshot()
	paused := fmt.Sprintf("%d paused", s.OriginsPaused)
	if r := resume(s, pr.now()); r != "" {
		paused += " (next resumes " + r + ")"
	}
	return fmt.Sprintf("fetched %d  %.1f/s  queue %d  in flight %d  origins %d active, %s, %d unreachable  disallowed %d  errors %d  index lag %d",
		s.Pages, rate, s.Queued, s.InFlight, activeOrigins(s), paused, s.OriginsBlocked, s.Disallowed, s.Errors, s.IndexLag)
}

// activeOrigins are the origins being worked on that are neither paused nor unreachable.
func activeOrigins(s crawl.Stats) int {
	return max(0, s.Origins-s.OriginsPaused-s.OriginsBlocked)
}

// resume says when the soonest paused origin may be asked again, by the wall clock: "in 1m10s
// at 12:03:04"; "" when no pause is known.
func resume(s crawl.Stats, now time.Time) string {
	if s.OriginsPaused == 0 || s.PausedUntil.IsZero() {
		return ""
	}
	left := s.PausedUntil.Sub(now) // a crawl of the command line runs on the wall clock
	if left < 0 {
		left = 0
	}
	return fmt.Sprintf("in %s at %s", left.Round(time.Second), s.PausedUntil.Local().Format(time.TimeOnly))
}

func (pr *progress) close() {
	if pr.p == nil {
		pr.stop()
		<-pr.done
		return
	}
	pr.bar.Abort(false)
	pr.p.Wait()
}

// announceHandler passes warnings and errors, and the events a person watching the status line
// must see as they happen: an origin paused, a URL given up, the crawl stopping.
type announceHandler struct{ slog.Handler }

var announced = map[string]bool{"origin paused": true, "origin resumed": true, "giving up": true, "crawl stopping": true}

func (h announceHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn || announced[r.Message] {
		return h.Handler.Handle(ctx, r)
	}
	return nil
}

func (h announceHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return announceHandler{h.Handler.WithAttrs(as)}
}

func (h announceHandler) WithGroup(name string) slog.Handler {
	return announceHandler{h.Handler.WithGroup(name)}
}
