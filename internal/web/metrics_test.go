package web

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// /metrics exposes the crawl's gauges, read from the store at scrape time.
func TestMetrics(t *testing.T) {
	srv := newSite(t, seedDashboard(t), nil)
	resp, body := get(t, srv, "/metrics")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(body, "\n") {
		lines[l] = true
	}
	for _, want := range []string{
		"# TYPE mandelbot_urls gauge",
		`mandelbot_urls{state="fetched"} 4`,
		`mandelbot_urls{state="queued"} 2`,
		`mandelbot_urls{state="robots_disallowed"} 1`,
		`mandelbot_urls{state="robots_unreachable"} 0`,
		`mandelbot_urls{state="paused"} 0`,
		`mandelbot_urls{state="error"} 0`,
		`mandelbot_urls{state="out_of_scope"} 2`, // e.test's link and a.test's trap URL
		"# TYPE mandelbot_origins gauge",
		"mandelbot_origins 5",
		"# TYPE mandelbot_origins_paused gauge",
		"mandelbot_origins_paused 1", // rule 23: b.test; c.test's pause has ended
		"# TYPE mandelbot_origins_robots_unreachable gauge",
		"mandelbot_origins_robots_unreachable 1", // rule 21: b.test
	} {
		if !lines[want] {
			t.Errorf("exposition lacks %q\n%s", want, body)
		}
	}
	// Issue 10, item 6: what people read names no internal spec rule number.
	if m := regexp.MustCompile(`.*\brule \d+.*`).FindString(body); m != "" {
		t.Errorf("the exposition names an internal rule number: %q", m)
	}
	// A private registry: none of the process-wide default collectors leak in.
	if strings.Contains(body, "go_goroutines") || strings.Contains(body, "promhttp_") {
		t.Error("the exposition carries default-registry metrics")
	}
}

// Time is an input: the same store scraped later shows the pause over.
func TestMetricsPauseEndsWithTheClock(t *testing.T) {
	st := seedDashboard(t)
	srv := newSite(t, st, func(o *Options) {
		o.Now = func() time.Time { return t0.Add(31 * time.Minute) }
	})
	_, body := get(t, srv, "/metrics")
	if !strings.Contains(body, "\nmandelbot_origins_paused 0\n") {
		t.Errorf("31 minutes later b.test's 30-minute pause is over:\n%s", body)
	}
}

// A store that cannot be read fails the scrape instead of reporting zeros.
func TestMetricsStoreFailure(t *testing.T) {
	srv := newSite(t, failing{newStore(t)}, nil)
	if resp, body := get(t, srv, "/metrics"); resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("status %d\n%s", resp.StatusCode, body)
	}
}
