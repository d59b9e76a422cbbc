package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/fractle/mandelbot/internal/testweb"
)

// startServedCrawl runs `crawl --serve 127.0.0.1:0` over sites in the background and returns
// the site's base URL once it listens, and the web; the crawl is stopped at the test's end.
func startServedCrawl(t *testing.T, sites []testweb.Site, extra ...string) (string, *testweb.Web) {
	t.Helper()
	web := startWeb(t, sites)
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	root := newRootCommand()
	args := append([]string{"crawl", "--data", t.TempDir(), "--delay", "0", "--serve", "127.0.0.1:0"}, resolveArgs(web)...)
	root.SetArgs(append(append(args, extra...), web.Seeds()...))
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	ran := make(chan error, 1)
	go func() { ran <- root.ExecuteContext(ctx) }()
	t.Cleanup(func() { cancel(); <-ran })
	serving := regexp.MustCompile(`Serving on (http://\S+)`)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if m := serving.FindStringSubmatch(stdout.String()); m != nil {
			return m[1], web
		}
		select {
		case err := <-ran:
			t.Fatalf("crawl ended before serving: %v\n%s\n%s", err, stdout.String(), stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("crawl --serve never served:\n%s\n%s", stdout.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond) // polling for the line, not waiting out a pause
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d\n%s", url, resp.StatusCode, b)
	}
	return string(b)
}

// Issue 10: `crawl --serve ADDR` serves the running crawl's dashboard, search and /metrics;
// /metrics has the crawler's own request and pause figures beside the store's, and parses with
// the Prometheus text parser. The crawl is held by a 503 pause (rule 23) while we look.
func TestCrawlServeShowsRunningCrawl(t *testing.T) {
	base, _ := startServedCrawl(t, testweb.PagePaused(503, testweb.RetrySeconds))
	deadline := time.Now().Add(20 * time.Second)
	var metrics string
	for {
		metrics = get(t, base+"/metrics")
		if strings.Contains(metrics, "mandelbot_pauses_started_total 1") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pause in /metrics within 20 s:\n%s", metrics)
		}
		time.Sleep(20 * time.Millisecond)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(metrics))
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	for _, name := range []string{"mandelbot_requests_total", "mandelbot_request_duration_seconds", "mandelbot_urls",
		"mandelbot_origins_paused", "mandelbot_frontier_urls", "go_goroutines", "process_resident_memory_bytes"} {
		if fams[name] == nil {
			t.Errorf("/metrics of a running crawl lacks %s", name)
		}
	}
	d := get(t, base+"/dashboard")
	if !strings.Contains(d, "paused") {
		t.Errorf("dashboard of a paused crawl does not say paused:\n%s", d)
	}
	// Issue 29: the running crawl's gap between requests, and why, for the origin it holds.
	if !strings.Contains(d, "adaptive: grew after answer 503") && !strings.Contains(d, "--delay ") {
		t.Errorf("dashboard of a running crawl shows no gap:\n%s", d)
	}
	get(t, base+"/?q=public")
}
