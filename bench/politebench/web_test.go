package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The web holds every answer back at least Latency×(1-Jitter), serves robots.txt and links
// the home page to every page.
func TestLatencyWebAnswersLate(t *testing.T) {
	web, err := startWeb(webOptions{Origins: 3, Pages: 4, Latency: 40 * time.Millisecond, Jitter: 0.5, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()
	seeds := web.Seeds()
	if len(seeds) != 3 || seeds[0] == seeds[1] {
		t.Fatalf("seeds = %v, want 3 distinct origins", seeds)
	}
	for _, path := range []string{"robots.txt", "", "p/3"} {
		start := time.Now()
		resp, err := http.Get(seeds[2] + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if took := time.Since(start); took < 20*time.Millisecond {
			t.Errorf("GET /%s answered in %v, want at least 20ms", path, took)
		}
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET /%s: %d", path, resp.StatusCode)
		}
		if path == "" && !strings.Contains(string(body), `href="/p/3"`) {
			t.Errorf("home page links no /p/3: %s", body)
		}
	}
	g := web.gate(0)
	if g.Robots != 1 || g.Pages != 2 || g.Missing != 3*4-2 {
		t.Errorf("gate = %+v, want 1 robots.txt, 2 pages, 10 missing", g)
	}
}

// The gate check catches each impoliteness it names (issue 31: everything the cluster
// promises is checked from the servers' request logs).
func TestGateCatchesImpoliteness(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	web := &latencyWeb{opts: webOptions{Origins: 1, Pages: 2}}
	delay := 100 * time.Millisecond
	cases := []struct {
		name string
		hits []hit
		want string
	}{
		{"polite", []hit{{"/robots.txt", at(0), at(10)}, {"/", at(110), at(120)}, {"/p/1", at(220), at(230)}}, ""},
		{"overlap", []hit{{"/robots.txt", at(0), at(10)}, {"/", at(110), at(150)}, {"/p/1", at(120), at(130)}}, "in flight"},
		{"short gap", []hit{{"/robots.txt", at(0), at(10)}, {"/", at(110), at(120)}, {"/p/1", at(150), at(160)}}, "sooner than the delay"},
		{"robots.txt late", []hit{{"/", at(0), at(10)}, {"/robots.txt", at(110), at(120)}, {"/p/1", at(220), at(230)}}, "before the origin's robots.txt"},
		{"disallowed", []hit{{"/robots.txt", at(0), at(10)}, {"/", at(110), at(120)}, {"/p/1", at(220), at(230)}, {"/private/x", at(330), at(340)}}, "disallows"},
		{"repeated", []hit{{"/robots.txt", at(0), at(10)}, {"/", at(110), at(120)}, {"/p/1", at(220), at(230)}, {"/p/1", at(330), at(340)}}, "repeated"},
		{"missing", []hit{{"/robots.txt", at(0), at(10)}, {"/", at(110), at(120)}}, "never requested"},
	}
	for _, c := range cases {
		web.log = map[int][]hit{0: c.hits}
		got := strings.Join(web.gate(delay).problems(), "; ")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: problems %q, want %q", c.name, got, c.want)
		}
	}
}
