package main

import (
	"net/http"
	"slices"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		path string
		want pathKind
	}{
		{"/", kindPage},
		{"/p/1", kindPage},
		{"/p/199", kindPage},
		{"/robots.txt", kindRobots},
		{"/sitemap.xml", kindSitemap},
		{"/private/3", kindPrivate}, // testweb.Generate: robots.txt disallows /private/
		{"/private/", kindPrivate},
		{"/robots.txt?x=1", kindOther},
		{"/p", kindOther},
		{"/favicon.ico", kindOther},
	} {
		if got := classify(c.path); got != c.want {
			t.Errorf("classify(%q) = %d, want %d", c.path, got, c.want)
		}
	}
}

func req(key, path string, status int) testweb.Request {
	return testweb.Request{Key: key, Host: key + ".test:1234", Method: "GET", Path: path, Status: status}
}

// A web of two origins with three pages each ("/", "/p/1", "/p/2").
func TestTallyCleanCrawl(t *testing.T) {
	var log []testweb.Request
	for _, k := range []string{"g0", "g1"} {
		log = append(log, req(k, "/robots.txt", 200), req(k, "/", 200), req(k, "/sitemap.xml", 200),
			req(k, "/p/1", 200), req(k, "/p/2", 200))
	}
	got := tallyRequests(log, []string{"g0", "g1"}, 3)
	want := tally{Pages: 6, Robots: 2, Sitemaps: 2}
	if !got.OK() || got.Pages != want.Pages || got.Robots != want.Robots || got.Sitemaps != want.Sitemaps || got.Total() != 10 {
		t.Errorf("tally = %+v, want %+v and OK", got, want)
	}
}

func TestTallyFindsEveryProblem(t *testing.T) {
	log := []testweb.Request{
		req("g0", "/robots.txt", 200),
		req("g0", "/", 200),
		req("g0", "/p/1", 200),
		req("g0", "/p/1", 200),       // repeated
		req("g0", "/private/2", 200), // disallowed by the generated robots.txt
		req("g0", "/p/9", 404),       // no such page: a page path, but not 200
		req("g0", "/elsewhere", 404),
		req("g1", "/robots.txt", 200),
		// g1 "/", "/p/1" and "/p/2", and g0 "/p/2" are never requested
	}
	got := tallyRequests(log, []string{"g0", "g1"}, 3)
	if got.OK() {
		t.Fatal("OK() = true for a crawl with every kind of problem")
	}
	checks := []struct {
		name      string
		n, want   int
		seen      []string
		wantFirst string
	}{
		{"Pages", got.Pages, 4, nil, ""},
		{"Private", got.Private, 1, got.PrivateSeen, "g0 /private/2"},
		{"Other", got.Other, 1, got.OtherSeen, "g0 /elsewhere"},
		{"Duplicates", got.Duplicates, 1, got.DuplicateSeen, "g0 /p/1"},
		{"NonOK", got.NonOK, 2, got.NonOKSeen, "g0 /p/9"},
		{"Missing", got.Missing, 4, got.MissingSeen, "g0 /p/2"},
	}
	for _, c := range checks {
		if c.n != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.n, c.want)
		}
		if c.wantFirst != "" && (len(c.seen) == 0 || c.seen[0] != c.wantFirst) {
			t.Errorf("%s examples = %q, want %q first", c.name, c.seen, c.wantFirst)
		}
	}
}

func TestTallyKeepsFewExamples(t *testing.T) {
	var log []testweb.Request
	for range 3 * maxExamples {
		log = append(log, req("g0", "/private/1", 200))
	}
	got := tallyRequests(log, []string{"g0"}, 1)
	if got.Private != 3*maxExamples || len(got.PrivateSeen) != maxExamples {
		t.Errorf("Private = %d with %d examples, want %d with %d", got.Private, len(got.PrivateSeen), 3*maxExamples, maxExamples)
	}
}

// The recorder keeps the URLs in arrival order when asked, as a plain client asks for them
// again ("http://" + Host header + path: generated sites serve plain HTTP), and none otherwise.
func TestRecorderURLs(t *testing.T) {
	keep, drop := newRecorder(true), newRecorder(false)
	for _, r := range []testweb.Request{req("g0", "/p/1?a=b", 200), req("g1", "/robots.txt", 200)} {
		keep.add(r)
		drop.add(r)
	}
	_, got := keep.finish(nil, 0)
	want := []string{"http://g0.test:1234/p/1?a=b", "http://g1.test:1234/robots.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("URLs = %q, want %q", got, want)
	}
	if _, got := drop.finish(nil, 0); got != nil {
		t.Errorf("URLs kept without keepURLs: %q", got)
	}
}

// Rule 20 (docs/robots-rules.md): no URL of an origin before its robots.txt decision is known.
// A robots.txt answered 200 or 404 settles its origin; 503 (rule 21: retry) does not.
func TestTallyRule20(t *testing.T) {
	log := []testweb.Request{
		req("g0", "/", 200),            // before g0's robots.txt
		req("g0", "/robots.txt", 200),  // settles g0
		req("g0", "/p/1", 200),         // fine
		req("g1", "/robots.txt", 503),  // does not settle g1
		req("g1", "/", 200),            // before g1's decision
		req("g1", "/robots.txt", 404),  // settles g1: no rules
		req("g1", "/p/1", 200),         // fine
		req("g2", "/sitemap.xml", 200), // anything counts, not only pages
	}
	got := tallyRequests(log, nil, 0)
	if got.BeforeRobots != 3 || !slices.Equal(got.BeforeRobotsSeen, []string{"g0 /", "g1 /", "g2 /sitemap.xml"}) {
		t.Errorf("BeforeRobots = %d %q, want 3: g0 /, g1 /, g2 /sitemap.xml", got.BeforeRobots, got.BeforeRobotsSeen)
	}
	if got.OK() {
		t.Error("OK() = true for a crawl that broke rule 20")
	}
}

// The streaming rule-20 check agrees with testweb's Web.BeforeRobots, which replays the whole
// log, on a real generated web (no robots.txt redirects), and the switchboard gives each
// program's requests to its own recorder.
func TestRecorderMatchesTheLog(t *testing.T) {
	var sb switchboard
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: 2, PagesPerOrigin: 3}), testweb.Options{OnRequest: sb.onRequest})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	first, second := newRecorder(true), newRecorder(false)
	client := &http.Client{Transport: &http.Transport{DialContext: web.DialContext}}
	get := func(key, path string) {
		resp, err := client.Get(web.URL(key, path))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	sb.start(first)
	get("g0", "/robots.txt")
	get("g0", "/")
	get("g1", "/p/1") // before g1's robots.txt
	get("g1", "/robots.txt")
	get("g1", "/p/1") // repeated
	sb.start(second)
	get("g0", "/p/2")
	sb.start(nil)
	get("g0", "/p/1") // nobody counts it

	got, urls := first.finish(web.Keys(), 3)
	if want := len(web.BeforeRobots()); got.BeforeRobots != want || want != 1 {
		t.Errorf("recorder: %d requests before robots.txt, the log: %d, want 1", got.BeforeRobots, want)
	}
	if got.Pages != 3 || got.DistinctPages() != 2 || !slices.Equal(got.RepeatedPageSeen, []string{"g1 /p/1"}) || got.Robots != 2 || got.Duplicates != 1 || got.RepeatedPages != 1 || got.Missing != 4 || len(urls) != 5 {
		t.Errorf("first recorder: %+v and %d URLs", got, len(urls))
	}
	if n := second.requests(); n != 1 {
		t.Errorf("second recorder counted %d requests, want 1", n)
	}
}
