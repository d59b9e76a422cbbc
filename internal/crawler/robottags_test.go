package crawler

import (
	"context"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
)

// exportReason is the reason `mandelbot export` prints for the page at path of site a: the
// stored reason, as store.Effective presents it with its origin's status.
func (e *env) exportReason(path string) string {
	e.t.Helper()
	origins := map[string]store.OriginStatus{}
	if err := e.store.EachOrigin(context.Background(), func(o store.Origin) error {
		origins[o.Key] = store.StatusOf(o)
		return nil
	}); err != nil {
		e.t.Fatal(err)
	}
	u, ok := e.urls()[e.web.URL("a", path)]
	if !ok {
		e.t.Fatalf("%s is not known to the crawl", path)
	}
	_, reason := store.Effective(u.State, u.Reason, origins[u.Origin], e.clock.Now())
	return reason
}

// explainReason is the reason the explain page shows for the page at path of site a.
func (e *env) explainReason(path string) string {
	e.t.Helper()
	x, err := e.store.Explain(context.Background(), e.web.URL("a", path))
	if err != nil {
		e.t.Fatal(err)
	}
	return x.Reason
}

// docs/robots-rules.md rules 24-26 (revised, issue 7), end to end through a crawl of a loopback
// site on a virtual clock: limits never drop a restriction and the cut reaches the export reason
// and the explain page; a meta tag in <body> counts; an "agent:" prefix inside one header value
// starts a new scope; unavailable_after in the past removes the page from search and in the
// future changes nothing; robotstag's notes reach the URL's reason.
func TestRule24to26_RevisedRobotTagsEndToEnd(t *testing.T) {
	page := func(path, word string) testweb.Page {
		return testweb.Page{Path: path, Title: "Page " + word, Text: "This page talks about " + word + " at length."}
	}
	cut := page("/cut", "capybara") // the example: 70 index tags, then noindex
	cut.Head = strings.Repeat(`<meta name="robots" content="index">`, 70) + `<meta name="robots" content="noindex">`
	manyMetas := page("/many-metas", "dugong") // more named metas than the extractor keeps
	manyMetas.Head = strings.Repeat(`<meta name="description" content="x">`, 1200) + `<meta name="robots" content="noindex">`
	body := testweb.Page{Path: "/body-meta", Body: `<!doctype html><html><head><title>Page echidna</title></head>` +
		`<body><p>This page talks about echidna.</p><meta name="robots" content="noindex"></body></html>`}
	scoped := page("/scoped", "fossa")
	scoped.Header = testweb.XRobotsTag("otherbot: nofollow, mandelbot: noindex")
	scoped.Links = []string{"/after-scoped"}
	expired := page("/expired", "gharial") // t0 is 2026-11-22
	expired.Meta = "unavailable_after: 2020-01-01T00:00:00Z"
	later := page("/later", "hoatzin")
	later.Meta = "unavailable_after: 2036-01-01T00:00:00Z"
	noted := page("/noted", "ibex")
	noted.Meta = "index, noodles"

	pages := []testweb.Page{cut, manyMetas, body, scoped, expired, later, noted, page("/after-scoped", "jerboa")}
	home := testweb.Page{Path: "/", Title: "Home", Text: "Index of the animals."}
	for _, p := range pages[:len(pages)-1] {
		home.Links = append(home.Links, p.Path)
	}
	e := newEnv(t, []testweb.Site{{Key: "a", Robots: ptr(testweb.RobotsTxt("User-agent: *\nDisallow:\n")),
		Pages: append([]testweb.Page{home}, pages...)}})
	e.crawl([]string{"{a}/"}, nil)

	for _, tt := range []struct {
		word, path string
		indexed    bool
		reason     []string // fragments of the export reason
	}{
		{"capybara", "/cut", false, []string{"noindex", "more than 64 robots meta tags", "only noindex, none and nofollow read"}},
		{"dugong", "/many-metas", false, []string{"noindex"}},
		{"echidna", "/body-meta", false, []string{"noindex"}},
		{"fossa", "/scoped", false, []string{"noindex", `agent "otherbot" ignored`}},
		{"gharial", "/expired", false, []string{"unavailable_after: 2020-01-01"}},
		{"hoatzin", "/later", true, []string{"unavailable_after: 2036-01-01"}},
		{"ibex", "/noted", true, []string{`directive "noodles" not understood`}},
		{"jerboa", "/after-scoped", true, nil}, // otherbot's nofollow is not ours
	} {
		if e.web.Count("a", tt.path) == 0 {
			t.Errorf("%s was not fetched", tt.path)
			continue
		}
		if _, ok := e.found(tt.word, tt.path); ok != tt.indexed {
			t.Errorf("search %q: %s found=%v, want %v", tt.word, tt.path, ok, tt.indexed)
		}
		u := e.urls()[e.web.URL("a", tt.path)]
		if u.Indexed != tt.indexed || u.NoIndex == tt.indexed {
			t.Errorf("%s: stored Indexed=%v NoIndex=%v, want indexed=%v", tt.path, u.Indexed, u.NoIndex, tt.indexed)
		}
		reason, shown := e.exportReason(tt.path), e.explainReason(tt.path)
		for _, want := range tt.reason {
			if !strings.Contains(reason, want) {
				t.Errorf("%s: export reason %q lacks %q", tt.path, reason, want)
			}
			if !strings.Contains(shown, want) {
				t.Errorf("%s: explain reason %q lacks %q", tt.path, shown, want)
			}
		}
	}
	e.checkGate()
}
