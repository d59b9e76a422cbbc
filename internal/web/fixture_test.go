package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
)

// t0 is the tests' clock: every fixture time is relative to it.
var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// page is a fetched, indexable page of a fixture, with the links it carries.
type page struct {
	URL, Title, Text string
	Links            []store.Link // FromID is filled in; To may be any URL, known or not
}

// blocked is a URL the crawl knows from links but robots.txt forbids (rule 28).
type blocked struct {
	URL, Reason string
	Line        int
}

// newStore opens a fresh SQLite store in a temporary directory.
func newStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func originOf(u string) string {
	rest := u[strings.Index(u, "://")+3:]
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return u[:len(u)-len(rest)+i]
	}
	return u
}

// addPages commits pages as fetched 2xx documents and blocks as robots.txt-disallowed URLs,
// then refreshes the index so that link-only entries exist: the same batches a crawl commits.
func addPages(t *testing.T, st store.Store, pages []page, blocks []blocked) {
	t.Helper()
	ctx := t.Context()
	var fresh []store.NewURL
	seen := map[string]bool{}
	add := func(u string) {
		if !seen[u] {
			seen[u] = true
			fresh = append(fresh, store.NewURL{URL: u, Origin: originOf(u), State: store.StateQueued, DiscoveredAt: t0.Add(-time.Hour)})
		}
	}
	for _, p := range pages {
		add(p.URL)
		for _, l := range p.Links {
			add(l.To)
		}
	}
	for _, b := range blocks {
		add(b.URL)
	}
	_, err := st.Commit(ctx, store.Batch{New: fresh})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]store.URL{}
	if err := st.EachURL(ctx, func(u store.URL) error { known[u.URL] = u; return nil }); err != nil {
		t.Fatal(err)
	}
	var b store.Batch
	for _, p := range pages {
		u := known[p.URL]
		u.State, u.Status, u.FetchedAt, u.ContentType, u.Indexed, u.NextAt = store.StateFetched, 200, t0.Add(-30*time.Minute), "text/html", true, t0.Add(24*time.Hour)
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: p.Title, Text: p.Text})
		for _, l := range p.Links {
			b.Links = append(b.Links, store.Link{FromID: u.ID, To: l.To, Anchor: l.Anchor})
		}
	}
	for _, bl := range blocks {
		u := known[bl.URL]
		u.State, u.Reason, u.RuleLine, u.NextAt = store.StateRobotsDisallowed, bl.Reason, bl.Line, time.Time{}
		b.Updates = append(b.Updates, u)
	}
	if _, err := st.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
}

// newSite is the handler over st with the tests' clock, served on loopback.
func newSite(t *testing.T, st store.Store, tune func(*Options)) *httptest.Server {
	t.Helper()
	opts := Options{Store: st, Now: func() time.Time { return t0 }}
	if tune != nil {
		tune(&opts)
	}
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// get fetches path from srv and returns the response and its body.
func get(t *testing.T, srv *httptest.Server, path string) (*http.Response, string) {
	t.Helper()
	return do(t, srv, http.MethodGet, path, "", nil)
}

func do(t *testing.T, srv *httptest.Server, method, path, contentType string, body io.Reader) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// parseHTML parses a page as a browser would.
func parseHTML(t *testing.T, body string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// each calls fn for every element of the tree under n, in document order.
func each(n *html.Node, fn func(*html.Node)) {
	if n.Type == html.ElementNode {
		fn(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		each(c, fn)
	}
}

// attr returns n's attribute key; a missing node has none (so a test fails instead of panicking).
func attr(n *html.Node, key string) (string, bool) {
	if n == nil {
		return "", false
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	for _, c := range strings.Fields(v) {
		if c == class {
			return true
		}
	}
	return false
}

// text is the text content of n, with <br> as a space and runs of white space folded to one
// space.
func text(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		if n.Type == html.ElementNode && n.Data == "br" {
			b.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// byClass returns the elements of the tree that have class.
func byClass(doc *html.Node, class string) []*html.Node {
	var out []*html.Node
	if doc == nil {
		return nil
	}
	each(doc, func(n *html.Node) {
		if hasClass(n, class) {
			out = append(out, n)
		}
	})
	return out
}

// byID returns the element with id, or nil.
func byID(doc *html.Node, id string) *html.Node {
	var out *html.Node
	each(doc, func(n *html.Node) {
		if v, ok := attr(n, "id"); ok && v == id && out == nil {
			out = n
		}
	})
	return out
}

// rows returns the text of each cell of each body row of the first table with class.
func rows(doc *html.Node, class string) [][]string {
	var out [][]string
	tables := byClass(doc, class)
	if len(tables) == 0 {
		return nil
	}
	each(tables[0], func(n *html.Node) {
		if n.Data != "tr" || n.Parent == nil || n.Parent.Data != "tbody" {
			return
		}
		var cells []string
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
				cells = append(cells, text(c))
			}
		}
		out = append(out, cells)
	})
	return out
}
