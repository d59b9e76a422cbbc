package web

import (
	"fmt"
	"net/http"
	"time"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
)

// states lists every store.State in the order the dashboard shows them, with what each means.
var states = []struct {
	State store.State
	Means string
}{
	{store.StateFetched, "requested and answered"},
	{store.StateQueued, "known, waiting for their turn"},
	{store.StateRobotsDisallowed, "robots.txt forbids them: never requested"},
	{store.StateRobotsUnreachable, "their site's robots.txt could not be read: not requested"},
	{store.StatePaused, "their site asked us to pause (503 or 429)"},
	{store.StateError, "the request failed after retries"},
	{store.StateOutOfScope, "known from links, outside the crawl's scope or depth"},
}

// dashboardData is what dashboard.html shows.
type dashboardData struct {
	Now       string
	States    []stateRow
	TotalURLs int
	Origins   []originRow
	// More is how many origins the table leaves out (Options.MaxOrigins).
	More                                            int
	TotalOrigins, PausedOrigins, UnreachableOrigins int
	RefreshSeconds                                  int
}

type stateRow struct {
	State string
	Means string
	Count int
}

// originRow is one origin's robots.txt decision and pause, as text.
type originRow struct {
	Key                string
	Decision           string // rules, allow_all, unreachable, or "not fetched"
	Status             int
	Reason             string
	Fetched, Expires   string
	Expired            bool
	AsNotFound         bool // a long 5xx streak made robots.txt count as 404 (rule 21)
	Failures           int
	RetryAt            string
	Paused             bool
	PausedUntil, Pause string
	Probing            bool
	Sitemaps           int
}

// dashboardPage is GET /dashboard: URL counts by state and a table of origins.
func (s *server) dashboardPage(r *http.Request) (view, error) {
	ctx, now := r.Context(), s.now().UTC()
	counts, err := s.store.Counts(ctx, now)
	if err != nil {
		return view{}, fmt.Errorf("dashboard: %w", err)
	}
	data := &dashboardData{Now: now.Format(timeLayout), RefreshSeconds: int(DashboardRefresh.Seconds())}
	for _, st := range states {
		data.States = append(data.States, stateRow{State: string(st.State), Means: st.Means, Count: counts[st.State]})
		data.TotalURLs += counts[st.State]
	}
	err = s.store.EachOrigin(ctx, func(o store.Origin) error {
		data.TotalOrigins++
		row := originRowOf(o, now)
		if row.Paused {
			data.PausedOrigins++
		}
		if robotsUnreachable(o) {
			data.UnreachableOrigins++
		}
		if len(data.Origins) < s.maxOrigins {
			data.Origins = append(data.Origins, row)
		} else {
			data.More++
		}
		return nil
	})
	if err != nil {
		return view{}, fmt.Errorf("dashboard: %w", err)
	}
	return view{name: "dashboard", title: "Crawl dashboard", nav: "dashboard", data: data}, nil
}

// timeLayout is how the site writes times: UTC, to the second.
const timeLayout = "2006-01-02 15:04:05 UTC"

func originRowOf(o store.Origin, now time.Time) originRow {
	rb := o.Robots
	row := originRow{Key: o.Key, Status: rb.Status, Reason: rb.Reason, AsNotFound: rb.AsNotFound,
		Failures: rb.Failures, Sitemaps: len(o.Sitemaps), Probing: o.Probing}
	if rb.Kind == 0 {
		row.Decision = "not fetched"
	} else {
		row.Decision = robots.Kind(rb.Kind).String()
	}
	row.Fetched = when(rb.FetchedAt, now)
	row.Expires = when(rb.ExpiresAt, now)
	row.Expired = !rb.ExpiresAt.IsZero() && !rb.ExpiresAt.After(now)
	if !rb.RetryAt.IsZero() && rb.RetryAt.After(now) {
		row.RetryAt = when(rb.RetryAt, now)
	}
	if paused(o, now) {
		row.Paused, row.PausedUntil, row.Pause = true, when(o.PausedUntil, now), o.PauseReason
	}
	return row
}

// when writes t with its distance from now: "2026-11-22 12:00:00 UTC (in 47h59m)". A zero t is
// "never".
func when(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(timeLayout) + " (" + relative(t, now) + ")"
}

// relative says how far t is from now, to the second: "in 2h5m", "3m0s ago", "now".
func relative(t, now time.Time) string {
	d := t.Sub(now).Round(time.Second)
	switch {
	case d == 0:
		return "now"
	case d > 0:
		return "in " + d.String()
	}
	return (-d).String() + " ago"
}

// paused reports whether o is paused at now by a 503 or 429 answer (rule 23).
func paused(o store.Origin, now time.Time) bool { return o.PausedUntil.After(now) }

// robotsUnreachable reports whether o's robots.txt decision is "unreachable" (rule 21).
func robotsUnreachable(o store.Origin) bool {
	return robots.Kind(o.Robots.Kind) == robots.KindUnreachable
}
