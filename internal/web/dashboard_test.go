package web

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/trap"
)

// dashboardOrigins are four origins in the states rules 21 and 23 describe, as of t0.
var dashboardOrigins = []store.Origin{
	{Key: "http://a.test", Sitemaps: []string{"http://a.test/s1.xml", "http://a.test/s2.xml"},
		Robots: store.RobotsRecord{Kind: uint8(robots.KindRules), Status: 200, Reason: "robots.txt answered 200: its rules apply",
			FetchedAt: t0.Add(-time.Hour), ExpiresAt: t0.Add(47 * time.Hour)}},
	{Key: "http://b.test", // answered 503 to robots.txt: unreachable, and paused (rules 21 and 23)
		Robots: store.RobotsRecord{Kind: uint8(robots.KindUnreachable), Status: 503, Reason: "robots.txt answered 503: origin unreachable",
			FetchedAt: t0.Add(-time.Minute), Failures: 2, FailingSince: t0.Add(-time.Hour), RetryAt: t0.Add(4 * time.Minute)},
		PausedUntil: t0.Add(30 * time.Minute), PauseStrikes: 1, PauseReason: "503 with Retry-After: 1800"},
	{Key: "http://c.test", // a pause that has ended: not paused any more
		Robots:      store.RobotsRecord{Kind: uint8(robots.KindAllowAll), Status: 404, Reason: "robots.txt answered 404: treated as absent", FetchedAt: t0.Add(-50 * time.Hour), ExpiresAt: t0.Add(-2 * time.Hour)},
		PausedUntil: t0.Add(-time.Minute), PauseReason: "429", Probing: true},
	{Key: "http://d.test"}, // known from a link, robots.txt not fetched yet
}

func seedDashboard(t *testing.T) store.Store {
	t.Helper()
	st := newStore(t)
	var pages []page
	for i := range 4 {
		pages = append(pages, page{URL: "http://a.test/" + string(rune('p'+i)), Title: "page", Text: "text"})
	}
	addPages(t, st, pages, []blocked{{URL: "http://a.test/vault", Reason: "Disallow: /vault (robots.txt line 2)", Line: 2}})
	more := []store.NewURL{
		{URL: "http://d.test/1", Origin: "http://d.test", State: store.StateQueued, DiscoveredAt: t0},
		{URL: "http://d.test/2", Origin: "http://d.test", State: store.StateQueued, DiscoveredAt: t0},
		{URL: "http://e.test/", Origin: "http://e.test", State: store.StateOutOfScope, Reason: "outside --scope host", DiscoveredAt: t0},
		{URL: "http://a.test/x/x/x/x/x", Origin: "http://a.test", State: store.StateOutOfScope,
			Reason: trap.Check("/x/x/x/x/x", "").Reason, DiscoveredAt: t0},
	}
	if _, err := st.Commit(t.Context(), store.Batch{New: more, Origins: dashboardOrigins}); err != nil {
		t.Fatal(err)
	}
	return st
}

// The dashboard counts URLs by state (store.Counts) and shows every origin's robots.txt
// decision and pause.
func TestDashboard(t *testing.T) {
	srv := newSite(t, seedDashboard(t), nil)
	resp, body := get(t, srv, "/dashboard")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d\n%s", resp.StatusCode, body)
	}
	doc := parseHTML(t, body)
	var states [][]string
	for _, r := range rows(doc, "states") {
		states = append(states, r[:2])
	}
	wantStates := [][]string{{"fetched", "4"}, {"queued", "2"}, {"robots_disallowed", "1"}, {"robots_unreachable", "0"},
		{"paused", "0"}, {"error", "0"}, {"out_of_scope", "2"}}
	if diff := cmp.Diff(wantStates, states); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	if got := text(byID(doc, "paused-origins")); got != "1" {
		t.Errorf("paused origins %q, want 1 (c.test's pause has ended)", got)
	}
	if got := text(byID(doc, "unreachable-origins")); got != "1" {
		t.Errorf("unreachable origins %q, want 1", got)
	}
	// Issue 10: by default only origins the crawl contacted are listed (d.test and e.test are
	// only known from links), each with its URL counts; a pause that ended shows no pause, and
	// c.test, with nothing queued, no probe either. Issue 9: the last column says which trap
	// defences rejected URLs of the origin, and how many.
	got := rows(doc, "origins")
	want := [][]string{
		{"http://a.test", "0", "4", "1", "0", "—", "rules (200) robots.txt answered 200: its rules apply",
			"2026-11-22 11:00:00 UTC (1h0m0s ago) expires 2026-11-24 11:00:00 UTC (in 47h0m0s)", "2", "repeated-segment 1", "—"},
		{"http://b.test", "0", "0", "0", "0", "paused until 2026-11-22 12:30:00 UTC (in 30m0s) 503 with Retry-After: 1800",
			"unreachable (503) robots.txt answered 503: origin unreachable 2 failure(s); next try 2026-11-22 12:04:00 UTC (in 4m0s)",
			"2026-11-22 11:59:00 UTC (1m0s ago) expires never", "0", "—", "—"},
		{"http://c.test", "0", "0", "0", "0", "—", "allow_all (404) robots.txt answered 404: treated as absent",
			"2026-11-20 10:00:00 UTC (50h0m0s ago) expires 2026-11-22 10:00:00 UTC (2h0m0s ago)", "0", "—", "—"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("origins (-want +got):\n%s", diff)
	}
	if got := text(byID(doc, "origin-summary")); !strings.HasPrefix(got, "3 of 5 origins shown; 3 contacted") {
		t.Errorf("summary %q", got)
	}
}

// Issue 10: ?origins=all lists the origins never contacted too (d.test with its two queued
// URLs), ?sort= orders by a column (largest first), ?q= filters on the origin.
func TestDashboardFiltersAndSorts(t *testing.T) {
	srv := newSite(t, seedDashboard(t), nil)
	keys := func(path string) []string {
		_, body := get(t, srv, path)
		var out []string
		for _, r := range rows(parseHTML(t, body), "origins") {
			out = append(out, r[0])
		}
		return out
	}
	for path, want := range map[string][]string{
		"/dashboard?origins=all":               []string{"http://a.test", "http://b.test", "http://c.test", "http://d.test", "http://e.test"},
		"/dashboard?origins=all&sort=queued":   []string{"http://d.test", "http://a.test", "http://b.test", "http://c.test", "http://e.test"},
		"/dashboard?sort=fetched":              []string{"http://a.test", "http://b.test", "http://c.test"},
		"/dashboard?sort=paused":               []string{"http://b.test", "http://a.test", "http://c.test"},
		"/dashboard?q=B.TEST":                  []string{"http://b.test"},
		"/dashboard?q=d.test":                  nil,
		"/dashboard?q=d.test&origins=all":      []string{"http://d.test"},
		"/dashboard?sort=nonsense&origins=all": []string{"http://a.test", "http://b.test", "http://c.test", "http://d.test", "http://e.test"},
	} {
		if diff := cmp.Diff(want, keys(path)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
}

// The origin table is capped, and says how many origins it leaves out.
func TestDashboardCapsOrigins(t *testing.T) {
	srv := newSite(t, seedDashboard(t), func(o *Options) { o.MaxOrigins = 2 })
	_, body := get(t, srv, "/dashboard?origins=all")
	doc := parseHTML(t, body)
	if n := len(rows(doc, "origins")); n != 2 {
		t.Errorf("%d origin rows, want 2", n)
	}
	if got := text(firstClass(doc, "more")); got != "and 3 more origin(s) not listed." {
		t.Errorf("more: %q", got)
	}
	if got := text(byID(doc, "paused-origins")); got != "1" {
		t.Errorf("the summary must count every origin, listed or not: paused %q", got)
	}
}

func TestDashboardStoreFailure(t *testing.T) {
	srv := newSite(t, failing{newStore(t)}, nil)
	resp, body := get(t, srv, "/dashboard")
	if resp.StatusCode != http.StatusInternalServerError || strings.Contains(body, errDisk.Error()) {
		t.Errorf("status %d; the page must not show the store's error", resp.StatusCode)
	}
}

func TestRelative(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "now"}, {400 * time.Millisecond, "now"}, {90 * time.Second, "in 1m30s"}, {-48 * time.Hour, "48h0m0s ago"},
	} {
		if got := relative(t0.Add(tt.d), t0); got != tt.want {
			t.Errorf("relative(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
	if got := when(time.Time{}, t0); got != "never" {
		t.Errorf("when(zero) = %q", got)
	}
	if got := thousands(1234567); got != "1,234,567" {
		t.Errorf("thousands = %q", got)
	}
}
