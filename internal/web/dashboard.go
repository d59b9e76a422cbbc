package web

import (
	"cmp"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
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
	Contacted                                       int // origins the crawl sent a request to
	RefreshSeconds                                  int

	// The table's view: which origins (all, or only those contacted), a filter on the key, and
	// the column it is sorted by.
	All     bool
	Filter  string
	Sort    string
	Columns []sortLink
	Shown   int // origins matching the view, before MaxOrigins
	// CountsMissing: the crawl has more than MaxDashboardURLs URLs, so per-origin counts and the
	// chart are left out.
	CountsMissing bool
	Chart         template.HTML
	ChartCaption  string
	// Memory is the running crawl's memory budget by consumer (issue 29); nil without one.
	Memory []memoryRow
}

// sortLink is a column header: its label and the URL that sorts by it.
type sortLink struct {
	Label, Href string
	Num, Active bool
}

type stateRow struct {
	State string
	Means string
	Count int
}

// originRow is one origin's robots.txt decision, pause and URL counts, as text.
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
	Contacted          bool
	Counts             originCounts
	pausedUntil        time.Time
	Gap, GapReason     string // the running crawl's gap between requests (Options.Gaps)
}

// dashboardSorts are the columns the origin table sorts by: the origin key ascending, the
// others largest first.
var dashboardSorts = []struct{ key, label string }{
	{"origin", "Origin"}, {"queued", "Queued"}, {"fetched", "Fetched"}, {"disallowed", "Disallowed"},
	{"errors", "Errors"}, {"paused", "Pause"},
}

// dashboardPage is GET /dashboard: URL counts by state, a chart of pages fetched over time, and
// a table of origins with their URL counts (?origins=all lists origins never contacted too;
// ?q= filters on the origin; ?sort= picks the column).
func (s *server) dashboardPage(r *http.Request) (view, error) {
	ctx, now := r.Context(), s.now().UTC()
	q := r.URL.Query()
	counts, err := s.store.Counts(ctx, now)
	if err != nil {
		return view{}, fmt.Errorf("dashboard: %w", err)
	}
	data := &dashboardData{Now: now.Format(timeLayout), RefreshSeconds: int(s.refresh.Seconds()),
		All: q.Get("origins") == "all", Filter: trimASCII(q.Get("q")), Sort: q.Get("sort")}
	if !slices.ContainsFunc(dashboardSorts, func(c struct{ key, label string }) bool { return c.key == data.Sort }) {
		data.Sort = "origin"
	}
	for _, st := range states {
		data.States = append(data.States, stateRow{State: string(st.State), Means: st.Means, Count: counts[st.State]})
		data.TotalURLs += counts[st.State]
	}
	var rows []originRow
	status := map[string]store.OriginStatus{}
	gaps := s.liveGaps()
	err = s.store.EachOrigin(ctx, func(o store.Origin) error {
		data.TotalOrigins++
		row := originRowOf(o, now)
		if g, ok := gaps[o.Key]; ok {
			row.Gap, row.GapReason = g.D.String(), g.Reason
		}
		if row.Paused {
			data.PausedOrigins++
		}
		if robotsUnreachable(o) {
			data.UnreachableOrigins++
		}
		status[o.Key] = store.StatusOf(o)
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return view{}, fmt.Errorf("dashboard: %w", err)
	}
	walk, err := walkURLs(ctx, s.store, status, now)
	if err != nil {
		return view{}, fmt.Errorf("dashboard: %w", err)
	}
	data.Memory = liveMemory(s.crawl)
	data.CountsMissing = !walk.complete
	data.Chart, data.ChartCaption = fetchChart(walk.fetched)
	kept := rows[:0]
	for _, row := range rows {
		if c := walk.byOrigin[row.Key]; c != nil {
			row.Counts = *c
		}
		// Contacted: a robots.txt request was made (every other request follows one).
		row.Contacted = row.Decision != "not fetched" || row.Counts.Fetched+row.Counts.Errors > 0
		if row.Contacted {
			data.Contacted++
		}
		if (data.All || row.Contacted) && (data.Filter == "" || strings.Contains(row.Key, strings.ToLower(data.Filter))) {
			kept = append(kept, row)
		}
	}
	sortOrigins(kept, data.Sort)
	data.Shown = len(kept)
	if len(kept) > s.maxOrigins {
		data.More = len(kept) - s.maxOrigins
		kept = kept[:s.maxOrigins]
	}
	data.Origins = kept
	for _, c := range dashboardSorts {
		v := url.Values{"sort": {c.key}}
		if data.All {
			v.Set("origins", "all")
		}
		if data.Filter != "" {
			v.Set("q", data.Filter)
		}
		data.Columns = append(data.Columns, sortLink{Label: c.label, Href: "/dashboard?" + v.Encode(),
			Num: c.key != "origin" && c.key != "paused", Active: c.key == data.Sort})
	}
	return view{name: "dashboard", title: "Crawl dashboard", nav: "dashboard", data: data}, nil
}

// sortOrigins orders rows by the column key: the origin ascending, counts largest first, pauses
// soonest to resume first (unpaused last); ties by origin.
func sortOrigins(rows []originRow, key string) {
	value := func(r originRow) int {
		switch key {
		case "queued":
			return r.Counts.Queued + r.Counts.Paused
		case "fetched":
			return r.Counts.Fetched
		case "disallowed":
			return r.Counts.Disallowed
		case "errors":
			return r.Counts.Errors
		}
		return 0
	}
	slices.SortStableFunc(rows, func(a, b originRow) int {
		switch key {
		case "origin":
		case "paused":
			if c := cmp.Compare(boolRank(!a.Paused), boolRank(!b.Paused)); c != 0 {
				return c
			}
			if c := a.pausedUntil.Compare(b.pausedUntil); c != 0 {
				return c
			}
		default:
			if c := cmp.Compare(value(b), value(a)); c != 0 {
				return c
			}
		}
		return strings.Compare(a.Key, b.Key)
	})
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
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
		row.Paused, row.PausedUntil, row.Pause, row.pausedUntil = true, when(o.PausedUntil, now), o.PauseReason, o.PausedUntil
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
