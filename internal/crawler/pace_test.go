package crawler

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/pace"
	"github.com/fractle/mandelbot/internal/testweb"
)

// slowingSite is a chain of n pages (each links to the next) whose answers take
// took(i) of the crawl's virtual clock: the web advances the clock by it on each request, as
// if the server had worked that long.
func slowingEnv(t *testing.T, n int, took func(i int) time.Duration) *env {
	e := &env{t: t, clock: clock.NewVirtual(t0), path: filepath.Join(t.TempDir(), "crawl.db")}
	s := testweb.Site{Key: "slow", Robots: &testweb.Page{Body: "User-agent: *\nAllow: /\n"}}
	for i := range n {
		p := testweb.Page{Path: fmt.Sprintf("/p/%d", i), Title: fmt.Sprintf("page %d", i)}
		if i+1 < n {
			p.Links = []string{fmt.Sprintf("/p/%d", i+1)}
		}
		s.Pages = append(s.Pages, p)
	}
	web, err := testweb.Start([]testweb.Site{s}, testweb.Options{Now: e.clock.Now, OnRequest: func(r testweb.Request) {
		if i, err := strconv.Atoi(strings.TrimPrefix(r.Path, "/p/")); err == nil {
			e.clock.Advance(took(i))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	e.web = web
	e.open()
	return e
}

// issue 29 ("a slowing origin gets longer gaps, and a fast one gets --delay again"): an origin
// whose answers take 50 ms, then 5 s, then 50 ms again is asked, with --delay 1s and the
// adaptive delay, at gaps of 1 s, then at least 2 × 5 s, then (relaxing by halves) 1 s again;
// with the adaptive delay off, at 1 s throughout. The gaps are read from the web's request log:
// from the end of one answer (its arrival plus the time it took) to the next request.
func TestAdaptiveDelaySlowsAndRelaxes(t *testing.T) {
	const delay = time.Second
	took := func(i int) time.Duration {
		if i >= 10 && i < 20 {
			return 5 * time.Second
		}
		return 50 * time.Millisecond
	}
	for _, adaptive := range []bool{true, false} {
		e := slowingEnv(t, 30, took)
		var widest OriginGap // the widest gap the progress snapshots showed (Stats.Gaps)
		e.crawl([]string{"{slow}/p/0"}, func(o *Options) {
			o.Frontier.Delay, o.Frontier.AdaptiveDelay, o.Concurrency = delay, adaptive, 1
			// The pages are counted exactly: a loaded machine's answer must not outlast the
			// harness's 300 ms header timeout and be asked again (31 requests, once).
			o.Fetcher = e.clientTimed(false, 30*time.Second)
			o.OnProgress = func(s Stats) {
				for _, g := range s.Gaps {
					if g.Gap > widest.Gap {
						widest = g
					}
				}
			}
		})
		if adaptive && (widest.Gap < 10*time.Second || !strings.HasPrefix(widest.Reason, "adaptive: the last answer took 5s × 2")) {
			t.Errorf("widest gap in the progress snapshots: %+v, want 10s and why", widest)
		}
		if !adaptive && (widest.Gap != delay || !strings.HasPrefix(widest.Reason, "--delay 1s")) {
			t.Errorf("fixed delay: widest gap in the progress snapshots: %+v, want --delay", widest)
		}
		var at []time.Time
		for _, r := range e.web.RequestsTo("slow") {
			if strings.HasPrefix(r.Path, "/p/") {
				at = append(at, r.At)
			}
		}
		if len(at) != 30 {
			t.Fatalf("adaptive %v: %d pages requested, want 30", adaptive, len(at))
		}
		for i := 0; i+1 < len(at); i++ {
			gap := at[i+1].Sub(at[i].Add(took(i)))
			switch {
			case !adaptive || i < 9 || i >= 23:
				// Fast answers: --delay (the adaptive gap, 100 ms, is below it). After the
				// slow ones, 10 s relaxes to 5, 2.5, 1.25 and then --delay from page 23 on.
				if gap != delay {
					t.Errorf("adaptive %v: gap after page %d (took %v): %v, want --delay %v", adaptive, i, took(i), gap, delay)
				}
			case i >= 10 && i < 20:
				if want := time.Duration(pace.DefaultFactor) * took(i); gap < want {
					t.Errorf("gap after slow page %d: %v, want at least %v", i, gap, want)
				}
			case i >= 20 && i < 23:
				if gap <= delay || gap > 10*time.Second {
					t.Errorf("gap after page %d, the first fast ones: %v, want relaxing from 10 s, above --delay", i, gap)
				}
			}
		}
	}
}
