package crawl_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/pause"
	"github.com/fractle/mandelbot/internal/testweb"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// The library keeps the crawler's manners (docs/robots-rules.md rule 23 and the robots.txt
// rules): no request before robots.txt, none during a 503 pause, the paused page asked again
// afterwards; the 503 itself is not a Document, its retry is.
func TestRunKeepsRobotsAndPausesRule23(t *testing.T) {
	vc := clock.NewVirtual(t0)
	web, err := testweb.Start(testweb.PagePaused(503, testweb.RetrySeconds), testweb.Options{Now: vc.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	var mu sync.Mutex
	statuses := map[string][]int{}
	_, err = crawl.Run(context.Background(), crawl.Config{
		Seeds: web.Seeds(), Resolve: web.Resolve(), RootCAs: web.RootCAs(), Clock: vc, Delay: crawl.NoDelay,
		MaxWait: 10 * time.Minute, StorePath: t.TempDir() + "/crawl.db",
		Header: http.Header{"X-Crawl-Run": {"test"}, "From": {"ops@example.com"}},
		OnDocument: func(d crawl.Document) {
			mu.Lock()
			defer mu.Unlock()
			statuses[strings.TrimPrefix(d.URL, web.Origin("a"))] = append(statuses[strings.TrimPrefix(d.URL, web.Origin("a"))], d.Status)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if bad := web.BeforeRobots(); len(bad) > 0 {
		t.Errorf("requests before robots.txt: %v", bad)
	}
	if bad := web.DuringPause(pause.DefaultFirstBackoff, pause.DefaultMax); len(bad) > 0 {
		t.Errorf("requests during the pause: %v", bad)
	}
	if got := statuses["/busy"]; len(got) != 1 || got[0] != 200 {
		t.Errorf("/busy documents: statuses %v, want one 200 (the 503 pauses, the retry answers)", got)
	}
	if _, ok := statuses["/private"]; ok {
		t.Error("/private is disallowed, yet it was fetched")
	}
	for _, r := range web.Requests() {
		if r.Header.Get("X-Crawl-Run") != "test" || r.Header.Get("From") != "ops@example.com" {
			t.Errorf("%v: extra header fields missing: %v", r, r.Header)
		}
		if !strings.HasPrefix(r.Header.Get("User-Agent"), "Mandelbot/") {
			t.Errorf("%v: User-Agent %q", r, r.Header.Get("User-Agent"))
		}
	}
}

// Config.Check refuses, before any request, what would make the crawl misbehave or surprise.
func TestCheckRefusesBeforeAnyWork(t *testing.T) {
	for name, c := range map[string]crawl.Config{
		"loopback seed without permission": {Seeds: []string{"http://127.0.0.1:8080/"}},
		"carrier-NAT seed (fetch's rule)":  {Seeds: []string{"http://100.64.0.1/"}},
		"not a URL":                        {Seeds: []string{"ftp://example.com/"}},
		"unknown scope":                    {Seeds: []string{"https://example.com/"}, Scope: "planet"},
		"User-Agent header":                {Seeds: []string{"https://example.com/"}, Header: http.Header{"User-Agent": {"x"}}},
		"agent not a token":                {Seeds: []string{"https://example.com/"}, Agent: "my bot"},
		"a depth below SeedsOnly":          {Seeds: []string{"https://example.com/"}, MaxDepth: crawl.SeedsOnly - 1},
		"a negative delay not NoDelay":     {Seeds: []string{"https://example.com/"}, Delay: -time.Second},
		"a page budget below NoLimit":      {Seeds: []string{"https://example.com/"}, MaxPages: crawl.NoLimit - 1},
	} {
		if err := c.Check(); err == nil {
			t.Errorf("%s: Check accepted %+v", name, c)
		}
	}
	ok := crawl.Config{Seeds: []string{"http://127.0.0.1:8080/"}, AllowPrivate: true}
	if err := ok.Check(); err != nil {
		t.Errorf("AllowPrivate: %v", err)
	}
}

// Include and Exclude limit the pages followed; the seed is always crawled (issue 10, "Data
// out").
func TestIncludeExcludePatterns(t *testing.T) {
	web, err := testweb.Start([]testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/", Links: []string{"/docs/one", "/docs/two.pdf", "/blog/x"}},
		{Path: "/docs/one"}, {Path: "/docs/two.pdf"}, {Path: "/blog/x"},
	}}}, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	var mu sync.Mutex
	var got []string
	_, err = crawl.Run(context.Background(), crawl.Config{
		Seeds: web.Seeds(), Resolve: web.Resolve(), Delay: crawl.NoDelay,
		Include: []*regexp.Regexp{regexp.MustCompile(`/docs/`)},
		Exclude: []*regexp.Regexp{regexp.MustCompile(`\.pdf$`)},
		OnDocument: func(d crawl.Document) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, strings.TrimPrefix(d.URL, web.Origin("a")))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []string{"/", "/docs/one"}; !slices.Equal(got, want) {
		t.Errorf("fetched %v, want %v", got, want)
	}
}

// Issue 10, "data out": JSONLines writes each page as one JSON object with its URL, status,
// header, title, text, links with anchor text and robot directives.
func TestJSONLines(t *testing.T) {
	web, err := testweb.Start([]testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/", Title: "Home", Text: "Welcome home.", Anchors: []testweb.Link{{Href: "/quiet", Text: "Quiet page"}}},
		{Path: "/quiet", Title: "Quiet", Meta: "noindex, nofollow", Header: testweb.XRobotsTag("nosnippet")},
	}}}, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	var buf bytes.Buffer
	out := crawl.NewJSONLines(&buf)
	if _, err := crawl.Run(context.Background(), crawl.Config{Seeds: web.Seeds(), Resolve: web.Resolve(), Delay: crawl.NoDelay, OnDocument: out.Write}); err != nil {
		t.Fatal(err)
	}
	if err := out.Flush(); err != nil {
		t.Fatal(err)
	}
	type line struct {
		URL, FinalURL, Title, Text string
		Status                     int
		Headers                    map[string][]string
		Links                      []struct{ URL, Anchor string }
		Robots                     struct{ NoIndex, NoFollow, NoSnippet bool }
		Indexable                  bool
		FetchedAt                  time.Time `json:"fetched_at"`
	}
	byPath := map[string]line{}
	for _, raw := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var l line
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("line %q: %v", raw, err)
		}
		byPath[strings.TrimPrefix(l.URL, web.Origin("a"))] = l
	}
	home, quiet := byPath["/"], byPath["/quiet"]
	if home.Status != 200 || home.Title != "Home" || !strings.Contains(home.Text, "Welcome home.") || !home.Indexable ||
		len(home.Links) != 1 || home.Links[0].Anchor != "Quiet page" || home.Links[0].URL != web.URL("a", "/quiet") ||
		home.Headers["Content-Type"] == nil || home.FetchedAt.IsZero() {
		t.Errorf("home line: %+v", home)
	}
	if !quiet.Robots.NoIndex || !quiet.Robots.NoFollow || !quiet.Robots.NoSnippet || quiet.Indexable {
		t.Errorf("quiet line: %+v", quiet)
	}
}
