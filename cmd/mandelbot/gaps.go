package main

import (
	"sync"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/web"
)

// liveGaps hands the dashboard of `crawl --serve` each origin's current gap between requests
// (issue 29), from the crawl's progress snapshots. It is safe for concurrent use: the crawl
// sets, the site's handlers get.
type liveGaps struct {
	mu   sync.Mutex
	gaps map[string]web.Gap
}

// wrap returns an OnProgress that records the snapshot's gaps and then calls next (if any).
func (l *liveGaps) wrap(next func(crawl.Stats)) func(crawl.Stats) {
	return func(s crawl.Stats) {
		m := make(map[string]web.Gap, len(s.Gaps))
		for _, g := range s.Gaps {
			m[g.Origin] = web.Gap{D: g.Gap, Reason: g.Reason}
		}
		l.mu.Lock()
		l.gaps = m
		l.mu.Unlock()
		if next != nil {
			next(s)
		}
	}
}

// clear forgets the gaps: the crawl has ended.
func (l *liveGaps) clear() {
	l.mu.Lock()
	l.gaps = nil
	l.mu.Unlock()
}

// get returns the last snapshot's gaps (nil: none, or the crawl has ended); the map is never
// modified after it is set.
func (l *liveGaps) get() map[string]web.Gap {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gaps
}
