package crawl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html/charset"

	"github.com/fractle/mandelbot/internal/crawler"
)

// MaxVisitsPerPage bounds the URLs one Config.OnPage call may add with Page.Visit.
const MaxVisitsPerPage = crawler.MaxAddedPerPage

// MaxRedirectChains bounds the redirect chains a run remembers for Page.Redirects at once (one
// per redirect target not requested yet); past it a target's Redirects is nil (its Hops is set).
const MaxRedirectChains = crawler.MaxRedirectChains

// Errors of Page.Visit and Page.DOM.
var (
	// ErrNotFollowed: the URL is outside Scope, MaxDepth, Include/Exclude or a crawler-trap rule.
	// It is recorded as a link that is not followed would be (out of scope, with the reason the
	// error carries).
	ErrNotFollowed = crawler.ErrNotFollowed
	// ErrPageNoFollow: the page's robot tags (meta robots or X-Robots-Tag) say nofollow, so no
	// URL reached from it enters the crawl (docs/robots-rules.md rule 26).
	ErrPageNoFollow = crawler.ErrPageNoFollow
	// ErrTooManyVisits: more than MaxVisitsPerPage URLs added from one page.
	ErrTooManyVisits = crawler.ErrTooManyAdded
	// ErrPageDone: Visit was called after the OnPage call returned.
	ErrPageDone = crawler.ErrAddClosed
	// ErrNotHTML: DOM was asked of an answer whose Content-Type is not HTML.
	ErrNotHTML = errors.New("not an HTML page")
)

// Page is one page answer with everything on it, for Config.OnPage: the Document (status,
// header, title, text, links, robot directives), the body as fetched, the redirects that led to
// it, a DOM parsed on demand, and Visit to add URLs to the crawl.
//
// Ownership: the Page is valid during the OnPage call only. Body is the crawl's buffer (charged
// to its memory budget until the call returns): read it, never modify it, and copy
// (bytes.Clone) what you keep; after the call Body is nil and Visit fails. The Document fields
// and the *goquery.Document that DOM returns are yours to keep (the DOM shares no memory with
// Body). A Page is not safe for concurrent use, except Visit.
type Page struct {
	Document
	// Body is the body after content decoding (gzip, br, ...), as the server sent it otherwise,
	// cut at the fetch size limits (Document.Truncated says so). Valid during the call only.
	Body []byte
	// Redirects are the URLs that redirected to URL, the first one first, when this run followed
	// them; nil when URL was not reached by a redirect, when a link or seed had named URL before
	// the redirect did (it is requested once, as the URL that link named), when the redirect
	// happened in an earlier run (a resumed crawl), or past MaxRedirectChains. Each redirect was
	// a request of its own, with its own Page (Status 3xx, Location set).
	Redirects []string
	// Hops is how many redirects led to URL, when a redirect was the first to name it (0: a seed,
	// link or sitemap named it first). The store keeps it, so a resumed crawl knows it too.
	Hops int

	p      *crawler.Page
	dom    *goquery.Document
	domErr error
	parsed bool
}

// DOM parses Body as HTML (converted to UTF-8 from the charset the header or the page names)
// the first time it is called, and returns the same Document on later calls: a crawl whose
// callback never calls DOM never parses. It fails with ErrNotHTML for an answer whose
// Content-Type is not text/html or application/xhtml+xml (an answer without one is parsed).
// The Document's Url is the page's URL; it is the caller's to keep.
func (p *Page) DOM() (*goquery.Document, error) {
	if p.parsed {
		return p.dom, p.domErr
	}
	p.parsed = true
	switch p.ContentType {
	case "text/html", "application/xhtml+xml", "":
	default:
		p.domErr = fmt.Errorf("%s: %w (%s)", p.URL, ErrNotHTML, p.ContentType)
		return nil, p.domErr
	}
	// The encoding as a browser decides it (BOM, Content-Type, a meta tag in the first 1024
	// bytes, else windows-1252); UTF-8, the common case, is parsed as it is.
	var r io.Reader = bytes.NewReader(p.Body)
	if enc, name, _ := charset.DetermineEncoding(p.Body, p.Header.Get("Content-Type")); name != "utf-8" {
		r = enc.NewDecoder().Reader(r)
	}
	doc, err := goquery.NewDocumentFromReader(r)
	if err != nil {
		p.domErr = fmt.Errorf("%s: parse: %w", p.URL, err)
		return nil, p.domErr
	}
	doc.Url, _ = url.Parse(p.URL)
	p.dom = doc
	return doc, nil
}

// Visit adds ref (absolute, or relative to the page's URL: an href as written) to the crawl as
// a link of this page would go, with the same rules: its depth is the page's plus one; Scope,
// MaxDepth, Include/Exclude and the crawler-trap rules decide whether it is followed; then
// robots.txt, pauses, the Delay and the per-origin limits decide when it is requested. It is
// saved with the page's outcome, so a resumed crawl still has it. A URL the crawl knows
// already is not added again (no error: Visit does not say whether the URL is new).
//
// Visit fails, and adds nothing, for a ref that is not an http(s) URL, on a page whose robot
// tags say nofollow (ErrPageNoFollow), past MaxVisitsPerPage (ErrTooManyVisits) and after the
// call (ErrPageDone). A URL the rules keep out fails with ErrNotFollowed and the reason; it is
// recorded as not followed. Visit may be called from several goroutines during the call. On a
// Page that no crawl made (a test's), it fails with ErrPageDone.
func (p *Page) Visit(ref string) error {
	if p.p == nil { // a Page made outside a crawl (a test's): nothing to add it to
		return fmt.Errorf("crawl: visit %q: %w", ref, ErrPageDone)
	}
	if err := p.p.Add(strings.TrimSpace(ref)); err != nil {
		return fmt.Errorf("crawl: visit %q: %w", ref, err)
	}
	return nil
}

// pageOf is the public form of the crawler's Page, for the OnPage call it is made for.
func pageOf(p *crawler.Page) *Page {
	return &Page{Document: documentOf(p.Document), Body: p.Body, Redirects: p.Redirects, Hops: p.Hops, p: p}
}
