package testweb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStartRejectsBrokenScenarios(t *testing.T) {
	ok := Page{Path: "/"}
	tests := []struct {
		name  string
		sites []Site
		want  string
	}{
		{"no sites", nil, "no sites"},
		{"empty key", []Site{{Pages: []Page{ok}}}, "invalid key"},
		{"key with brace", []Site{{Key: "a}", Pages: []Page{ok}}}, "invalid key"},
		{"duplicate key", []Site{{Key: "a"}, {Key: "a"}}, "duplicate site key"},
		{"host with port", []Site{{Key: "a", Host: "a.test:80"}}, "invalid host"},
		{"relative path", []Site{{Key: "a", Pages: []Page{{Path: "index.html"}}}}, "must start with"},
		{"duplicate path", []Site{{Key: "a", Pages: []Page{ok, ok}}}, "defined twice"},
		{"robots twice", []Site{{Key: "a", Robots: &Page{}, Pages: []Page{{Path: RobotsPath}}}}, "defined twice"},
		{"unknown link key", []Site{{Key: "a", Pages: []Page{{Path: "/", Links: []string{"{b}/x"}}}}}, `names no site "b"`},
		{"unknown anchor key", []Site{{Key: "a", Pages: []Page{{Path: "/", Anchors: []Link{{Href: "{zz}/"}}}}}}, `names no site "zz"`},
		{"unknown redirect key", []Site{{Key: "a", Pages: []Page{Redirect("/r", 301, "{b}/x")}}}, `names no site "b"`},
		{"status out of range", []Site{{Key: "a", Pages: []Page{{Path: "/", Status: 99}}}}, "out of range"},
		{"step status out of range", []Site{{Key: "a", Pages: []Page{{Path: "/", Script: []Step{{Status: 600}}}}}}, "out of range"},
		{"unknown action", []Site{{Key: "a", Pages: []Page{{Path: "/", Script: []Step{{Do: Action(42)}}}}}}, "unknown action"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := Start(tt.sites, Options{})
			if err == nil {
				w.Close()
				t.Fatalf("Start succeeded, want error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "testweb: start") {
				t.Errorf("Start error = %q, want one naming the operation and containing %q", err, tt.want)
			}
		})
	}
}

// Pages are looked up by the exact request target: docs/robots-rules.md rule 12 matches on
// the path and query as requested, so tests of normalisation need byte-exact pages.
func TestPagesMatchExactPathAndQuery(t *testing.T) {
	w := start(t, []Site{{Key: "a", Pages: []Page{
		{Path: "/a?x=1", Title: "with query"},
		{Path: "/~b", Title: "tilde"},
		{Path: "/%7Eb", Title: "escaped tilde"},
	}}}, Options{})
	c := newClient(t, w, 0)
	tests := []struct {
		path   string
		status int
		title  string
	}{
		{"/a?x=1", 200, "with query"},
		{"/a", 404, ""},
		{"/a?x=2", 404, ""},
		{"/~b", 200, "tilde"},
		{"/%7Eb", 200, "escaped tilde"},
		{"/%7eb", 404, ""},
	}
	for _, tt := range tests {
		got := get(t, c, w.URL("a", tt.path))
		if got.status != tt.status {
			t.Errorf("GET %s: status %d, want %d", tt.path, got.status, tt.status)
		}
		if tt.title != "" && !strings.Contains(got.body, "<title>"+tt.title+"</title>") {
			t.Errorf("GET %s: body %q lacks title %q", tt.path, got.body, tt.title)
		}
	}
}

// docs/robots-rules.md rule 20: each origin has its own robots.txt at /robots.txt; a site
// without one answers 404, which a crawler reads as "no robots.txt" (rule 21, 4xx).
func TestMissingRobotsAnswers404(t *testing.T) {
	w := start(t, []Site{{Key: "a", Pages: []Page{{Path: "/"}}}}, Options{})
	got := get(t, newClient(t, w, 0), w.URL("a", RobotsPath))
	if got.status != http.StatusNotFound {
		t.Fatalf("robots.txt status %d, want 404", got.status)
	}
}

func TestAddressesOfSites(t *testing.T) {
	w := start(t, []Site{
		{Key: "a", Host: "shop.test"},
		{Key: "b"}, // host defaults to b.test
		{Key: "s", Host: "shop.test", TLS: true},
	}, Options{})
	port := func(key string) string { return strings.TrimPrefix(w.Addr(key), "127.0.0.1:") }

	if got, want := w.URL("a", "/x?y=1"), "http://shop.test:"+port("a")+"/x?y=1"; got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
	if got, want := w.URL("s", ""), "https://shop.test:"+port("s")+"/"; got != want {
		t.Errorf("URL(s, \"\") = %q, want %q", got, want)
	}
	if port("a") == port("s") {
		t.Errorf("two origins of shop.test share port %s", port("a"))
	}
	wantSeeds := []string{w.Origin("a") + "/", w.Origin("b") + "/", w.Origin("s") + "/"}
	if diff := cmp.Diff(wantSeeds, w.Seeds()); diff != "" {
		t.Errorf("Seeds() mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{w.Origin("b") + "/"}, w.Seeds("b")); diff != "" {
		t.Errorf("Seeds(b) mismatch (-want +got):\n%s", diff)
	}
	wantResolve := []string{
		"shop.test:" + port("a") + ":127.0.0.1",
		"b.test:" + port("b") + ":127.0.0.1",
		"shop.test:" + port("s") + ":127.0.0.1",
	}
	if diff := cmp.Diff(wantResolve, w.Resolve()); diff != "" {
		t.Errorf("Resolve() mismatch (-want +got):\n%s", diff)
	}
	if got, want := w.Expand("see {b}/x and {zz}/y"), "see http://b.test:"+port("b")+"/x and {zz}/y"; got != want {
		t.Errorf("Expand = %q, want %q (unknown keys left alone)", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("URL with an unknown key did not panic")
		}
	}()
	w.URL("nope", "/")
}

// DialContext is the loopback-only road: it never dials an address that is not a site.
func TestDialContextOnlyReachesSites(t *testing.T) {
	w := start(t, []Site{{Key: "a"}}, Options{})
	for _, addr := range []string{"example.com:80", "a.test:1", "127.0.0.1:" + strings.TrimPrefix(w.Addr("a"), "127.0.0.1:")} {
		if c, err := w.DialContext(context.Background(), "tcp", addr); err == nil {
			c.Close()
			t.Errorf("DialContext(%q) succeeded, want an error", addr)
		}
	}
	c, err := w.DialContext(context.Background(), "tcp", strings.Replace(w.Addr("a"), "127.0.0.1", "A.TEST", 1))
	if err != nil {
		t.Fatalf("DialContext with the site host in upper case: %v", err)
	}
	c.Close()
}

// docs/robots-rules.md rule 21: "connection refused" is a network error.
func TestRefusedSiteRefusesConnections(t *testing.T) {
	w := start(t, RobotsRefused(), Options{})
	_, err := tryGet(newClient(t, w, 0), w.URL("a", RobotsPath))
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("GET robots.txt of a refused site: err = %v, want ECONNREFUSED", err)
	}
	if n := len(w.Requests()); n != 0 {
		t.Errorf("log holds %d requests, want 0", n)
	}
}

// Set changes the web while it runs: robots.txt 500 -> 200 (rule 21, a 5xx that
// recovers) and a noindex page that loses its tag (rule 27, put back in the index).
func TestSetAndDeleteAtRunTime(t *testing.T) {
	w := start(t, []Site{{
		Key:    "a",
		Robots: &Page{Status: 500},
		Pages:  []Page{{Path: "/doc", Title: "Doc", Meta: "noindex", Script: []Step{{Status: 503}, {}}}},
	}}, Options{})
	c := newClient(t, w, 0)

	if got := get(t, c, w.URL("a", RobotsPath)); got.status != 500 {
		t.Fatalf("robots.txt before Set: %d, want 500", got.status)
	}
	w.Set("a", RobotsTxt(ScenarioRules))
	if got := get(t, c, w.URL("a", RobotsPath)); got.status != 200 || got.body != ScenarioRules {
		t.Fatalf("robots.txt after Set: %d %q, want 200 %q", got.status, got.body, ScenarioRules)
	}

	if got := get(t, c, w.URL("a", "/doc")); got.status != 503 {
		t.Fatalf("/doc first request: %d, want 503 (script step 0)", got.status)
	}
	if got := get(t, c, w.URL("a", "/doc")); !strings.Contains(got.body, `content="noindex"`) {
		t.Fatalf("/doc second request lacks the noindex meta: %q", got.body)
	}
	w.Set("a", Page{Path: "/doc", Title: "Doc", Script: []Step{{Status: 503}, {}}})
	if got := get(t, c, w.URL("a", "/doc")); got.status != 503 {
		t.Errorf("/doc after Set: %d, want 503 (the script restarts)", got.status)
	}
	if got := get(t, c, w.URL("a", "/doc")); got.status != 200 || strings.Contains(got.body, "noindex") {
		t.Errorf("/doc after Set: %d %q, want 200 without noindex", got.status, got.body)
	}

	w.Delete("a", "/doc")
	if got := get(t, c, w.URL("a", "/doc")); got.status != 404 {
		t.Errorf("/doc after Delete: %d, want 404", got.status)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("Set with an invalid page did not panic")
			}
		}()
		w.Set("a", Page{Path: "no-slash"})
	}()
}

// Set is safe for concurrent use with requests (run with -race).
func TestSetConcurrentWithRequests(t *testing.T) {
	w := start(t, []Site{{Key: "a", Pages: []Page{{Path: "/", Title: "v0"}}}}, Options{})
	c := newClient(t, w, 0)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 50 {
			w.Set("a", Page{Path: "/", Title: fmt.Sprintf("v%d", i)})
		}
	}()
	for range 20 {
		if got := get(t, c, w.URL("a", "/")); got.status != 200 || !strings.Contains(got.body, "<title>v") {
			t.Fatalf("GET / during Set: %d %q", got.status, got.body)
		}
	}
	<-done
}

// The web keeps its own copy of every page: a caller that reuses a Page after Start or
// Set cannot change what is served (nor race with the handlers).
func TestStartAndSetCopyPages(t *testing.T) {
	newPage := func() Page {
		return Page{Path: "/", Title: "T", Header: XRobotsTag("noindex"), Links: []string{"/a"}, Script: []Step{{Status: 503}, {}}}
	}
	sites := []Site{{Key: "a", Pages: []Page{newPage()}}}
	w := start(t, sites, Options{})
	sites[0].Pages[0].Header.Set("X-Robots-Tag", "changed")
	sites[0].Pages[0].Links[0] = "/changed"
	sites[0].Pages[0].Script[0].Status = 500
	c := newClient(t, w, 0)
	if got := get(t, c, w.URL("a", "/")); got.status != 503 {
		t.Errorf("first answer %d, want 503 from the original script", got.status)
	}
	got := get(t, c, w.URL("a", "/"))
	if got.header.Get("X-Robots-Tag") != "noindex" || !strings.Contains(got.body, `href="/a"`) {
		t.Errorf("served %v %q, want the page as given to Start", got.header, got.body)
	}

	page := newPage()
	w.Set("a", page)
	page.Header.Set("X-Robots-Tag", "changed again")
	get(t, c, w.URL("a", "/")) // the restarted script's 503
	if got := get(t, c, w.URL("a", "/")); got.header.Get("X-Robots-Tag") != "noindex" {
		t.Errorf("after Set: X-Robots-Tag %q, want noindex", got.header.Get("X-Robots-Tag"))
	}
}
