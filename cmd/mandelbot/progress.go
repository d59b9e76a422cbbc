package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/fractle/mandelbot/internal/crawler"
)

const (
	// progressEvery is how often the crawl reports progress (crawl clock).
	progressEvery = 200 * time.Millisecond
	// logProgressEvery is how often a progress line is logged when not on a terminal.
	logProgressEvery = 5 * time.Second
)

// progress shows a crawl as it runs: a live status line on a terminal, plain log lines
// otherwise. update is called on the crawl's scheduler goroutine; the status line is rendered
// by mpb's goroutine, hence the mutex.
type progress struct {
	w       io.Writer
	verbose bool
	p       *mpb.Progress
	bar     *mpb.Bar
	log     *slog.Logger

	mu      sync.Mutex
	last    crawler.Stats
	lastLog time.Time
}

func newProgress(w io.Writer, verbose bool) *progress {
	pr := &progress{w: w, verbose: verbose}
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		pr.p = mpb.New(mpb.WithOutput(w), mpb.WithRefreshRate(250*time.Millisecond))
		pr.bar = pr.p.New(0, mpb.NopStyle(), mpb.PrependDecorators(decor.Any(pr.line)))
		if !verbose {
			level = slog.LevelWarn // the status line says the rest
		}
		pr.log = slog.New(slog.NewTextHandler(pr.p, &slog.HandlerOptions{Level: level}))
		return pr
	}
	pr.log = slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
	return pr
}

func (pr *progress) logger() *slog.Logger { return pr.log }

func (pr *progress) update(s crawler.Stats) {
	pr.mu.Lock()
	pr.last = s
	pr.mu.Unlock()
	if pr.p == nil && s.Now.Sub(pr.lastLog) >= logProgressEvery {
		pr.lastLog = s.Now
		pr.log.Info("progress", "pages", s.Pages, "per_second", fmt.Sprintf("%.1f", s.Rate()), "queued", s.Queued,
			"in_flight", s.InFlight, "disallowed", s.Disallowed, "origins", s.Origins,
			"paused", s.OriginsPaused, "unreachable", s.OriginsBlocked)
	}
}

func (pr *progress) line(decor.Statistics) string {
	pr.mu.Lock()
	s := pr.last
	pr.mu.Unlock()
	return fmt.Sprintf("pages %d  %.1f/s  queued %d  in flight %d  disallowed %d  errors %d  origins %d (paused %d, unreachable %d)",
		s.Pages, s.Rate(), s.Queued, s.InFlight, s.Disallowed, s.Errors, s.Origins, s.OriginsPaused, s.OriginsBlocked)
}

func (pr *progress) close() {
	if pr.p == nil {
		return
	}
	pr.bar.Abort(false)
	pr.p.Wait()
}
