package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/testweb"
)

// robotsWeb starts sites on loopback and returns them with the site's fetch protections that
// reach them (pinned like the CLI's --resolve, which allows loopback for those names only).
func robotsWeb(t *testing.T, sites []testweb.Site) (*testweb.Web, map[string]string) {
	t.Helper()
	web, err := testweb.Start(sites, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	resolve := map[string]string{}
	for _, r := range web.Resolve() {
		hp, addr, err := fetch.ParseResolve(r)
		if err != nil {
			t.Fatal(err)
		}
		resolve[hp] = addr
	}
	return web, resolve
}

func robotsSite(key string, pages ...testweb.Page) testweb.Site {
	return testweb.Site{Key: key, Pages: append([]testweb.Page{{Path: "/", Title: "Home", Text: "home"}}, pages...)}
}

// Issue 27, part 5: the tester fetches a robots.txt by its URL with the crawler's own status rules
// (docs/robots-rules.md rule 21): 2xx parsed, redirects followed, 4xx allows everything, 5xx makes
// the origin unreachable (nothing allowed). Each check is one request to robots.txt, sent with
// the configured User-Agent; the URLs checked are never requested.
func TestTesterFetchesByURL(t *testing.T) {
	web, resolve := robotsWeb(t, []testweb.Site{
		robotsSite("ok", testweb.RobotsTxt("User-agent: *\nDisallow: /private\n")),
		robotsSite("gone", testweb.RobotsStatus(404)),
		robotsSite("down", testweb.RobotsStatus(503)),
		robotsSite("moved", testweb.Redirect("/robots.txt", 301, "{ok}/robots.txt")),
	})
	srv := newSite(t, newStore(t), func(o *Options) {
		o.TesterFetch.Resolve = resolve
		o.TesterFetch.UserAgent = "Mandelbot-test/1"
	})
	for _, tt := range []struct {
		key      string
		robots   string // the robots_url parameter; "" means the site's /robots.txt
		want     [][]string
		decision string
	}{
		{"ok", "", [][]string{{"/private/x", "DISALLOWED", "2", "Disallow: /private"}, {"/public", "ALLOWED", "—", "—"}},
			"robots.txt answered 200: its rules apply"},
		// A site's bare address means its /robots.txt (rule 20).
		{"ok", "/", [][]string{{"/private/x", "DISALLOWED", "2", "Disallow: /private"}, {"/public", "ALLOWED", "—", "—"}},
			"robots.txt answered 200: its rules apply"},
		{"gone", "", [][]string{{"/private/x", "ALLOWED", "—", "—"}, {"/public", "ALLOWED", "—", "—"}},
			"robots.txt answered 404: treated as absent, everything allowed"},
		{"down", "", [][]string{{"/private/x", "DISALLOWED", "—", "—"}, {"/public", "DISALLOWED", "—", "—"}},
			"robots.txt answered 503: origin unreachable, nothing on it is crawled until robots.txt can be read"},
		{"moved", "", [][]string{{"/private/x", "DISALLOWED", "2", "Disallow: /private"}, {"/public", "ALLOWED", "—", "—"}},
			"robots.txt answered 200 after 1 redirect(s): its rules apply"},
	} {
		robotsURL := web.URL(tt.key, "/robots.txt")
		if tt.robots != "" {
			robotsURL = web.URL(tt.key, tt.robots)
		}
		before := web.Count(tt.key, "/robots.txt")
		resp, body := get(t, srv, testerLink(url.Values{"robots_url": {robotsURL}, "urls": {"/private/x\n/public"}}))
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d\n%s", tt.key, resp.StatusCode, body)
			continue
		}
		if diff := cmp.Diff(tt.want, verdicts(t, body)); diff != "" {
			t.Errorf("%s: verdicts (-want +got):\n%s", tt.key, diff)
		}
		doc := parseHTML(t, body)
		if got := text(byID(doc, "decision")); !strings.Contains(got, tt.decision) || !strings.Contains(got, web.URL(tt.key, "/robots.txt")) {
			t.Errorf("%s: decision %q, want the robots.txt URL and %q", tt.key, got, tt.decision)
		}
		// What was fetched is echoed after the report, when there is a body to show.
		echo := text(firstClass(doc, "echo"))
		if wantEcho := tt.key == "ok" || tt.key == "moved"; wantEcho != strings.Contains(echo, "Disallow: /private") {
			t.Errorf("%s: the fetched robots.txt echo is %q", tt.key, echo)
		}
		if n := web.Count(tt.key, "/robots.txt") - before; n != 1 {
			t.Errorf("%s: %d requests to robots.txt, want 1", tt.key, n)
		}
	}
	for _, r := range web.Requests() {
		if r.Path != "/robots.txt" {
			t.Errorf("the tester requested %s %s: only robots.txt may be fetched", r.Key, r.Path)
		}
		if ua := r.Header.Get("User-Agent"); ua != "Mandelbot-test/1" {
			t.Errorf("User-Agent %q", ua)
		}
	}
}

// Issue 27, part 5: the tester's fetches have the crawler's address protections: a loopback or
// private address is refused unless the server was started with permission (--allow-private, or
// --resolve for the names it pins), and nothing is requested.
func TestTesterRefusesPrivateAddresses(t *testing.T) {
	web, _ := robotsWeb(t, []testweb.Site{robotsSite("a", testweb.RobotsTxt("User-agent: *\nDisallow: /\n"))})
	direct := "http://" + web.Addr("a") + "/robots.txt" // 127.0.0.1:PORT
	q := url.Values{"robots_url": {direct}, "urls": {"/x"}}

	srv := newSite(t, newStore(t), nil)
	resp, body := get(t, srv, testerLink(q))
	doc := parseHTML(t, body)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(text(firstClass(doc, "problem")), "loopback or private") {
		t.Errorf("loopback robots.txt without permission: status %d, problem %q", resp.StatusCode, text(firstClass(doc, "problem")))
	}
	if firstClass(doc, "report") != nil {
		t.Error("a report was shown for a robots.txt that was not fetched")
	}
	if n := len(web.Requests()); n != 0 {
		t.Errorf("%d request(s) reached a loopback server the tester may not fetch from", n)
	}

	allowed := newSite(t, newStore(t), func(o *Options) { o.TesterFetch.AllowPrivate = true })
	resp, body = get(t, allowed, testerLink(q))
	if got := verdicts(t, body); resp.StatusCode != http.StatusOK || len(got) != 1 || got[0][1] != "DISALLOWED" {
		t.Errorf("with AllowPrivate: status %d, verdicts %v", resp.StatusCode, got)
	}
}

// Issue 27, part 5: what cannot be fetched or checked says so, the form kept.
func TestTesterFetchProblems(t *testing.T) {
	srv := newSite(t, newStore(t), func(o *Options) { o.TesterFetch.AllowPrivate = true })
	for _, tt := range []struct {
		q      url.Values
		status int
		want   string
	}{
		{url.Values{"robots_url": {"example.com"}, "urls": {"/x"}}, http.StatusBadRequest, `The robots.txt URL "example.com": not an absolute http(s) URL; did you mean https://example.com/robots.txt?`},
		{url.Values{"robots_url": {"ftp://example.com/robots.txt"}, "urls": {"/x"}}, http.StatusBadRequest, "not an absolute http(s) URL"},
		{url.Values{"robots_url": {"https://example.com/robots.txt"}, "robots": {"User-agent: *\n"}, "urls": {"/x"}},
			http.StatusBadRequest, "either"},
		// Port 1 on loopback: nothing listens, the connection is refused.
		{url.Values{"robots_url": {"http://127.0.0.1:1/robots.txt"}, "urls": {"/x"}}, http.StatusBadGateway, "could not be read"},
	} {
		resp, body := get(t, srv, testerLink(tt.q))
		doc := parseHTML(t, body)
		if got := text(firstClass(doc, "problem")); resp.StatusCode != tt.status || !strings.Contains(got, tt.want) {
			t.Errorf("%v: status %d, problem %q; want %d and %q", tt.q, resp.StatusCode, got, tt.status, tt.want)
		}
		if got := text(firstClass(doc, "problem")); strings.Contains(got, "?.") || strings.Contains(got, "..") {
			t.Errorf("%v: problem %q is not punctuated as a sentence", tt.q, got)
		}
		if v, _ := attr(byID(doc, "robots_url"), "value"); v != tt.q.Get("robots_url") {
			t.Errorf("%v: the form lost the robots.txt URL: %q", tt.q, v)
		}
	}
}

// The tester's fetches are bounded (Options.MaxTesterFetches): while one robots.txt hangs in the
// only slot, another check waits for the slot TesterSlotWait at most, then says the tester is
// busy (503) without fetching anything.
func TestTesterFetchSlots(t *testing.T) {
	hang := testweb.Page{Path: "/robots.txt", Script: []testweb.Step{{Do: testweb.Hang}}}
	web, resolve := robotsWeb(t, []testweb.Site{robotsSite("slow", hang), robotsSite("ok", testweb.RobotsTxt("User-agent: *\nDisallow: /\n"))})
	srv := newSite(t, newStore(t), func(o *Options) {
		o.TesterFetch.Resolve = resolve
		o.MaxTesterFetches = 1
		o.Timeout = 4 * TesterSlotWait // the hanging fetch outlasts the second check's wait
	})
	first := make(chan int, 1)
	go func() {
		resp, _ := get(t, srv, testerLink(url.Values{"robots_url": {web.URL("slow", "/robots.txt")}, "urls": {"/x"}}))
		first <- resp.StatusCode
	}()
	for web.Count("slow", "/robots.txt") == 0 { // the first check holds the slot
		select {
		case code := <-first:
			t.Fatalf("the hanging fetch ended first: %d", code)
		case <-time.After(5 * time.Millisecond): // polling the request log, not waiting out a pause
		}
	}
	resp, body := get(t, srv, testerLink(url.Values{"robots_url": {web.URL("ok", "/robots.txt")}, "urls": {"/x"}}))
	if got := text(firstClass(parseHTML(t, body), "problem")); resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(got, "busy") {
		t.Errorf("second check while the slot is taken: status %d, problem %q", resp.StatusCode, got)
	}
	if n := web.Count("ok", "/robots.txt"); n != 0 {
		t.Errorf("%d fetch(es) beyond the limit", n)
	}
	web.Close() // ends the hang: the first check's fetch fails and frees the slot
	if code := <-first; code != http.StatusBadGateway {
		t.Errorf("the hanging robots.txt, its server gone: status %d, want 502", code)
	}
}
