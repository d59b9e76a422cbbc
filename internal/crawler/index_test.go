package crawler

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/testweb"
)

func (e *env) search(q string) index.Page {
	e.t.Helper()
	p, err := e.store.Search(context.Background(), index.Query{Text: q, Limit: 50, Now: e.clock.Now()})
	if err != nil {
		e.t.Fatalf("search %q: %v", q, err)
	}
	return p
}

// found returns the result for the page at path of site a, if the query finds it.
func (e *env) found(q, path string) (index.Result, bool) {
	for _, r := range e.search(q).Results {
		if r.URL == e.web.URL("a", path) {
			return r, true
		}
	}
	return index.Result{}, false
}

// robotTagSite has one page per seed 002 example and rule 24-26 case, each with a unique word,
// all linked from the home page.
func robotTagSite() []testweb.Site {
	page := func(path, word string) testweb.Page {
		return testweb.Page{Path: path, Title: "Page " + word, Text: "This page talks about " + word + " at length."}
	}
	withMeta := func(p testweb.Page, content string) testweb.Page { p.Meta = content; return p }
	withMetaName := func(p testweb.Page, name, content string) testweb.Page {
		p.Head = `<meta name="` + name + `" content="` + content + `">`
		return p
	}
	withHeader := func(p testweb.Page, values ...string) testweb.Page {
		p.Header = testweb.XRobotsTag(values...)
		return p
	}
	pages := []testweb.Page{
		page("/plain", "zebra"),
		withMeta(page("/meta-robots-noindex", "aardvark"), "noindex"),                               // seed 002 example 1
		withMetaName(page("/meta-mandelbot-noindex", "buffalo"), "mandelbot", "noindex"),            // seed 002 example 2
		withMetaName(page("/meta-otherbot-noindex", "cheetah"), "otherbot", "noindex"),              // rule 24: another agent's tag
		withHeader(page("/header-noindex", "dolphin"), "noindex"),                                   // seed 002 header example 1
		withHeader(page("/header-mandelbot-noindex", "elephant"), "mandelbot: noindex"),             // seed 002 header example 2
		withHeader(page("/header-otherbot-noindex", "flamingo"), "otherbot: noindex"),               // rule 25: scoped to another agent
		withMeta(page("/meta-nofollow-noindex-noarchive", "gazelle"), "nofollow,noindex,noarchive"), // seed 002 compatibility example
		withMeta(page("/meta-none", "hyena"), "none"),                                               // seed 002: none = noindex + nofollow
		withHeader(page("/header-nofollow-noindex-noarchive", "iguana"), "nofollow,noindex,noarchive"),
		withHeader(page("/header-none", "jaguar"), "none"),
		withMeta(page("/meta-unknown", "koala"), "noodles, index"), // rule 26: unknown directives ignored
		withMeta(page("/meta-nofollow", "lemur"), "nofollow"),      // nofollow alone stays indexable
		withHeader(page("/several-headers", "meerkat"), "nosnippet", "noindex"),
		{Path: "/doc.pdf", ContentType: "application/pdf", Body: "%PDF-1.4 narwhal <meta name=robots content=noindex>"},
		withHeader(testweb.Page{Path: "/secret.pdf", ContentType: "application/pdf", Body: "%PDF-1.4 ocelot"}, "noindex"),
		{Path: "/notes.txt", ContentType: "text/plain; charset=utf-8", Body: "plain text about pelicans"},
	}
	home := testweb.Page{Path: "/", Title: "Home", Text: "Index of the animals."}
	for _, p := range pages {
		home.Anchors = append(home.Anchors, testweb.Link{Href: p.Path, Text: "link to " + strings.Trim(p.Path, "/")})
	}
	return []testweb.Site{{Key: "a", Robots: ptr(testweb.RobotsTxt("User-agent: *\nDisallow:\n")), Pages: append([]testweb.Page{home}, pages...)}}
}

func ptr[T any](v T) *T { return &v }

// Seed 002 and docs/robots-rules.md rules 24-26, end to end: every example is fetched (robot tags
// control indexing, not crawling) and indexed or not as the spec says.
func TestSeed002_RobotTagsDecideIndexing(t *testing.T) {
	e := newEnv(t, robotTagSite())
	e.crawl([]string{"{a}/"}, nil)
	for _, tt := range []struct {
		word, path string
		indexed    bool
	}{
		{"zebra", "/plain", true},
		{"aardvark", "/meta-robots-noindex", false},
		{"buffalo", "/meta-mandelbot-noindex", false},
		{"cheetah", "/meta-otherbot-noindex", true},
		{"dolphin", "/header-noindex", false},
		{"elephant", "/header-mandelbot-noindex", false},
		{"flamingo", "/header-otherbot-noindex", true},
		{"gazelle", "/meta-nofollow-noindex-noarchive", false},
		{"hyena", "/meta-none", false},
		{"iguana", "/header-nofollow-noindex-noarchive", false},
		{"jaguar", "/header-none", false},
		{"koala", "/meta-unknown", true},
		{"lemur", "/meta-nofollow", true},
		{"meerkat", "/several-headers", false},
		{"pelicans", "/notes.txt", true}, // issue 4: plain text is indexed by its body
	} {
		if e.web.Count("a", tt.path) == 0 {
			t.Errorf("%s was not fetched: robot tags must not stop crawling (seed 001)", tt.path)
		}
		_, ok := e.found(tt.word, tt.path)
		if ok != tt.indexed {
			t.Errorf("search %q: %s found=%v, want %v", tt.word, tt.path, ok, tt.indexed)
		}
		if tt.indexed {
			continue
		}
		// Not even as a link-only entry: the anchor text "link to ..." must not bring it back.
		if _, ok := e.found(strings.Trim(tt.path, "/"), tt.path); ok {
			t.Errorf("%s is noindex but still searchable by its anchor text or URL", tt.path)
		}
	}
	// Rule 24: meta tags count only for text/html: a PDF is indexed by URL and anchor text.
	if r, ok := e.found("doc pdf", "/doc.pdf"); !ok || r.LinkOnly {
		t.Errorf("/doc.pdf (meta-like bytes in a PDF) must be indexed as a document: %+v %v", r, ok)
	}
	// Rule 25: X-Robots-Tag counts for every content type.
	if _, ok := e.found("secret pdf", "/secret.pdf"); ok {
		t.Error("/secret.pdf has X-Robots-Tag: noindex but is searchable")
	}
	// Rule 26: nosnippet is understood (meerkat is noindex too; check a page with nosnippet only).
	e.checkGate()
}

// Rule 26 extra: nosnippet keeps the page searchable without a snippet.
func TestRule26_NoSnippet(t *testing.T) {
	site := testweb.Site{Key: "a", Pages: []testweb.Page{
		{Path: "/", Title: "Quokka facts", Text: "The quokka smiles.", Header: testweb.XRobotsTag("nosnippet")},
	}}
	e := newEnv(t, []testweb.Site{site})
	e.crawl([]string{"{a}/"}, nil)
	r, ok := e.found("quokka", "/")
	if !ok || len(r.Snippet) != 0 || r.Title != "Quokka facts" {
		t.Fatalf("nosnippet page: %+v, found %v", r, ok)
	}
}

// Rule 27 and seed 001: a noindex page is still fetched on later crawls; it leaves the index when
// the tag appears and comes back when it goes away.
func TestRule27_NoindexAddedThenRemovedAcrossCrawls(t *testing.T) {
	e := newEnv(t, []testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/", Title: "Wombat burrows", Text: "Wombats dig burrows."},
	}}})
	e.crawl([]string{"{a}/"}, nil)
	if _, ok := e.found("wombat", "/"); !ok {
		t.Fatal("crawl 1: page not indexed")
	}
	e.web.Set("a", testweb.Page{Path: "/", Title: "Wombat burrows", Text: "Wombats dig burrows.", Meta: "noindex"})
	e.clock.Advance(25 * time.Hour)
	e.crawl(nil, nil)
	if _, ok := e.found("wombat", "/"); ok {
		t.Fatal("crawl 2: the page turned noindex but is still in the index")
	}
	if u := e.urls()[e.web.URL("a", "/")]; u.State != "fetched" || u.Indexed || !u.NoIndex || !u.NextAt.After(e.clock.Now()) {
		t.Fatalf("crawl 2: a noindex page stays fetched and scheduled for re-crawl (seed 001): %+v", u)
	}
	e.web.Set("a", testweb.Page{Path: "/", Title: "Wombat burrows", Text: "Wombats dig burrows."})
	e.clock.Advance(25 * time.Hour)
	e.crawl(nil, nil)
	if _, ok := e.found("wombat", "/"); !ok {
		t.Fatal("crawl 3: the tag went away but the page did not come back")
	}
	if n := e.web.Count("a", "/"); n != 3 {
		t.Fatalf("the page was fetched %d times over three crawls, want 3", n)
	}
}

// Seed 001 and rule 28: a URL blocked by robots.txt is never requested, yet it is findable as a
// link-only entry by the anchor text other pages use, marked with the rule that blocked it.
func TestRule28_BlockedURLIsLinkOnly(t *testing.T) {
	e := newEnv(t, []testweb.Site{{Key: "a",
		Robots: ptr(testweb.RobotsTxt("User-agent: *\nDisallow: /members\n")),
		Pages: []testweb.Page{
			{Path: "/", Title: "Club", Text: "Welcome.", Anchors: []testweb.Link{{Href: "/members/roster", Text: "secret walrus roster"}}},
			{Path: "/members/roster", Title: "Roster", Text: "walrus names"},
		}}})
	e.crawl([]string{"{a}/"}, nil)
	if e.web.Count("a", "/members/roster") != 0 {
		t.Fatal("a robots.txt-blocked URL was requested")
	}
	r, ok := e.found("walrus roster", "/members/roster")
	if !ok || !r.LinkOnly || r.State != "robots_disallowed" || r.Title != "secret walrus roster" ||
		!strings.Contains(r.Why, "blocked by robots.txt") || !strings.Contains(r.Why, "line 2") {
		t.Fatalf("link-only result: %+v (found %v)", r, ok)
	}
	if _, ok := e.found("names", "/members/roster"); ok {
		t.Fatal("the blocked page's own text is searchable: it was never fetched")
	}
}

// Rule 26: a nofollow page's links never reach the frontier (and none is requested).
func TestRule26_NofollowLinksNeverQueued(t *testing.T) {
	e := newEnv(t, []testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/", Title: "Home", Links: []string{"/nf-meta", "/nf-header"}},
		{Path: "/nf-meta", Title: "Meta nofollow", Meta: "nofollow", Links: []string{"/hidden-1"}},
		{Path: "/nf-header", Title: "Header nofollow", Header: testweb.XRobotsTag("mandelbot: nofollow"), Links: []string{"/hidden-2"}},
		{Path: "/rel", Title: "rel", Anchors: []testweb.Link{{Href: "/hidden-3", Text: "x", Rel: "nofollow"}}},
		{Path: "/hidden-1"}, {Path: "/hidden-2"}, {Path: "/hidden-3"},
	}}})
	e.crawl([]string{"{a}/", "{a}/rel"}, nil)
	known := e.urls()
	for _, p := range []string{"/hidden-1", "/hidden-2", "/hidden-3"} {
		if e.web.Count("a", p) != 0 {
			t.Errorf("%s was requested", p)
		}
		if _, ok := known[e.web.URL("a", p)]; ok {
			t.Errorf("%s reached the frontier", p)
		}
	}
	if r, ok := e.found("meta nofollow", "/nf-meta"); !ok || r.LinkOnly {
		t.Errorf("nofollow alone keeps the page indexable: %+v %v", r, ok)
	}
}

var _ = http.StatusOK

// Issue 4: the canonical link a page names is recorded with the URL.
func TestCanonicalRecorded(t *testing.T) {
	e := newEnv(t, []testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/?utm=x", Title: "Tracked", Head: `<link rel="canonical" href="/clean">`},
	}}})
	e.crawl([]string{"{a}/?utm=x"}, nil)
	if u := e.urls()[e.web.URL("a", "/?utm=x")]; u.Canonical != e.web.URL("a", "/clean") {
		t.Fatalf("canonical %q, want %q", u.Canonical, e.web.URL("a", "/clean"))
	}
}
