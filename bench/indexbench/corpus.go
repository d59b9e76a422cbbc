package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/urlnorm"
)

// crawlRevisit is when the crawler makes a fetched page due again (crawler.DefaultRevisit).
const crawlRevisit = 24 * time.Hour

// web is a generated web (testweb.Generate) read without a server: a page is what its site's
// Fallback renders, turned into what the crawler would commit after fetching it. Site i is
// "http://gI.test". A web is immutable and safe for concurrent use.
type web struct {
	sites  []testweb.Site
	pages  int // per origin
	parser *urlnorm.Parser
}

func newWeb(origins, pages int, seed uint64) *web {
	return &web{
		sites:  testweb.Generate(testweb.GenOptions{Origins: origins, PagesPerOrigin: pages, Seed: seed}),
		pages:  pages,
		parser: &urlnorm.Parser{},
	}
}

// origin returns the origin of site i.
func origin(i int) string { return "http://" + testweb.GenKey(i) + ".test" }

// seeds returns every site's home page as the crawler records a seed.
func (w *web) seeds(now time.Time) []store.NewURL {
	out := make([]store.NewURL, len(w.sites))
	for i := range w.sites {
		out[i] = store.NewURL{URL: origin(i) + "/", Origin: origin(i), Kind: store.KindPage,
			State: store.StateQueued, DiscoveredAt: now}
	}
	return out
}

// fetched is what the crawler commits for one URL it dealt with: the URL's new record, and
// for a page its document, its links and the URLs they lead to.
type fetched struct {
	update store.URL
	doc    *store.Document
	links  []store.Link
	found  []store.NewURL
}

// visit returns what the crawler would commit for u at now: a page under /private/ is skipped
// as robots.txt disallows it (never requested); any other page is fetched, answered 200, and
// indexed unless its meta robots tag says noindex.
func (w *web) visit(u store.URL, now time.Time) (fetched, error) {
	pu, err := w.parser.Parse(u.URL)
	if err != nil {
		return fetched{}, fmt.Errorf("visit %s: %w", u.URL, err)
	}
	i, ok := siteIndex(pu.Host(), len(w.sites))
	if !ok {
		return fetched{}, fmt.Errorf("visit %s: not a site of this web", u.URL)
	}
	path := pu.PathAndQuery()
	if strings.HasPrefix(path, "/private/") {
		u.State, u.Reason, u.RuleLine = store.StateRobotsDisallowed, "Disallow: /private/ (robots.txt line 2)", 2
		u.NextAt = now.Add(crawlRevisit)
		return fetched{update: u}, nil
	}
	page, ok := w.sites[i].Fallback(path)
	if !ok {
		return fetched{}, fmt.Errorf("visit %s: the generated web has no such page", u.URL)
	}
	doc := store.Document{URLID: u.ID, Index: page.Meta != "noindex", Title: page.Title, Text: docText(page)}
	u.State, u.Status, u.FetchedAt, u.NextAt, u.Reason = store.StateFetched, 200, now, now.Add(crawlRevisit), ""
	u.ContentType, u.Indexed, u.NoIndex = "text/html", doc.Index, !doc.Index
	if !doc.Index {
		u.Reason = "robot tags: noindex (meta: noindex)"
	}
	f := fetched{update: u, doc: &doc}
	for _, a := range page.Anchors {
		href := expand(a.Href)
		target, err := w.parser.Resolve(pu, href)
		if err != nil {
			return fetched{}, fmt.Errorf("visit %s: link %q: %w", u.URL, href, err)
		}
		f.found = append(f.found, store.NewURL{URL: target.String(), Origin: target.Origin(), Kind: store.KindPage,
			Depth: u.Depth + 1, State: store.StateQueued, DiscoveredAt: now})
		f.links = append(f.links, store.Link{FromID: u.ID, To: target.String(), Anchor: a.Text})
	}
	return f, nil
}

// siteIndex returns I for a host "gI.test" of a web of n sites.
func siteIndex(host string, n int) (int, bool) {
	s, ok := strings.CutSuffix(host, ".test")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutPrefix(s, "g")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 || i >= n || testweb.GenKey(i) != "g"+s {
		return 0, false
	}
	return i, true
}

// expand turns a generated href ("{gK}/p/N" or "/p/N") into a URL reference: a "{key}"
// prefix becomes that site's origin.
func expand(href string) string {
	if rest, ok := strings.CutPrefix(href, "{"); ok {
		if key, path, ok := strings.Cut(rest, "}"); ok {
			return "http://" + key + ".test" + path
		}
	}
	return href
}

// docText is the visible text the extractor finds in the page testweb renders: the title
// (as the <h1>), the paragraphs, then the anchor texts, whitespace collapsed to single
// spaces. TestDocTextIsWhatTheCrawlerExtracts holds it to extract.HTML.
func docText(p testweb.Page) string {
	var b strings.Builder
	b.Grow(len(p.Title) + len(p.Text) + 32*len(p.Anchors))
	add := func(s string) {
		for _, f := range strings.Fields(s) { // generated text is ASCII
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f)
		}
	}
	add(p.Title)
	add(p.Text)
	for _, a := range p.Anchors {
		add(a.Text)
	}
	return b.String()
}
