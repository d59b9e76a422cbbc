package web

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/trap"
)

// MaxDashboardURLs bounds the URLs the dashboard walks for per-origin counts and the fetch
// chart; past it both are left out (the state totals still show) and the page says so.
const MaxDashboardURLs = 2_000_000

// originCounts are one origin's URLs by what happened to them, as Effective shows them at now,
// and how many each trap defence rejected (issue 9).
type originCounts struct {
	Queued, Fetched, Disallowed, Errors, Paused, OutOfScope int
	Defences                                                map[trap.Heuristic]int
}

// DefenceList is Defences for people: "repeated-segment 3, page-budget 40", by name; empty when
// no defence rejected a URL of the origin.
func (c originCounts) DefenceList() string {
	names := slices.Sorted(maps.Keys(c.Defences))
	parts := make([]string, 0, len(names))
	for _, h := range names {
		parts = append(parts, fmt.Sprintf("%s %d", h, c.Defences[h]))
	}
	return strings.Join(parts, ", ")
}

// crawlWalk is what one walk of every URL yields: counts per origin and when pages were last
// fetched (for the chart).
type crawlWalk struct {
	byOrigin map[string]*originCounts
	fetched  []time.Time
	complete bool // false when MaxDashboardURLs stopped the walk
}

var errWalkLimit = fmt.Errorf("more than %d URLs", MaxDashboardURLs)

// walkURLs reads every URL once. statusOf gives each origin's pause and robots.txt status, so
// that a queued URL of a paused origin counts as paused.
func walkURLs(ctx context.Context, st store.Reader, statusOf map[string]store.OriginStatus, now time.Time) (crawlWalk, error) {
	w := crawlWalk{byOrigin: map[string]*originCounts{}, complete: true}
	n := 0
	err := st.EachURL(ctx, func(u store.URL) error {
		if n++; n > MaxDashboardURLs {
			return errWalkLimit
		}
		c := w.byOrigin[u.Origin]
		if c == nil {
			c = &originCounts{}
			w.byOrigin[u.Origin] = c
		}
		state, _ := store.Effective(u.State, "", statusOf[u.Origin], now)
		switch state {
		case store.StateQueued:
			c.Queued++
		case store.StateFetched:
			c.Fetched++
		case store.StateRobotsDisallowed:
			c.Disallowed++
		case store.StateError:
			c.Errors++
		case store.StatePaused, store.StateRobotsUnreachable:
			c.Paused++
		case store.StateOutOfScope:
			c.OutOfScope++
			if h, ok := trap.HeuristicOf(u.Reason); ok {
				if c.Defences == nil {
					c.Defences = map[trap.Heuristic]int{}
				}
				c.Defences[h]++
			}
		}
		if u.Kind == store.KindPage && !u.FetchedAt.IsZero() {
			w.fetched = append(w.fetched, u.FetchedAt)
		}
		return nil
	})
	if err == errWalkLimit {
		return crawlWalk{complete: false}, nil
	}
	return w, err
}
