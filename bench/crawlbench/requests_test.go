package main

import (
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

func TestRequestURLs(t *testing.T) {
	got := requestURLs([]testweb.Request{req("g0", "/p/1?a=b", 200), req("g1", "/robots.txt", 200)})
	want := []string{"http://g0.test:1234/p/1?a=b", "http://g1.test:1234/robots.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("requestURLs = %q, want %q", got, want)
	}
}

// The summary `mandelbot crawl` prints (cmd/mandelbot/summary.go).
func TestSummaryLines(t *testing.T) {
	out := "Crawl ended: nothing left to crawl\n\n" +
		"This run     pages answered            20100  (422.9/s over 47.5s)\n" +
		"             robots.txt requests       100\n"
	stop, pages := summaryLines(out)
	if stop != finishedReason || pages != "20100 (422.9/s over 47.5s)" {
		t.Errorf("summaryLines = %q, %q", stop, pages)
	}
	if stop, pages := summaryLines("panic: boom\n"); stop != "" || pages != "" {
		t.Errorf("summaryLines of no summary = %q, %q, want empty", stop, pages)
	}
}
