package store

import (
	"cmp"
	"net/http"
	"slices"
)

// PageBatch is how many pages Reader.EachPage reads at a time: a walk of any size holds at most
// this many pages (each up to MaxIndexedTextBytes of text and MaxHeaderBytes of header) in memory.
const PageBatch = 32

// Page is everything a store keeps of one fetched page, for `export --documents`.
type Page struct {
	URL URL // the URL's record: status, state, fetched_at, location, robot tags (NoIndex, NoFollow)
	// Header is the response header of the last fetch, as EncodeHeader keeps it (cut at
	// MaxHeaderFields and MaxHeaderBytes); empty, not nil, when none was recorded.
	Header http.Header
	// Title and Text are those of the last fetch, as the index keeps them (Text cut at
	// MaxIndexedTextBytes). A page that may not be indexed (Document.Index false) has none:
	// the store does not keep the text of a page it must not show.
	Title, Text string
	// Links are the page's outgoing links with their anchor text (cut at MaxAnchorBytes), each
	// target and anchor once, ordered by target URL then anchor.
	Links []PageLink
}

// PageLink is one outgoing link of a Page.
type PageLink struct {
	To     string // canonical URL
	Anchor string
}

// FinishPage puts a page a store has read in the form Page documents: links sorted by target,
// then anchor, each pair once; an empty header when none was kept. Every store calls it on each
// page EachPage returns.
func FinishPage(p *Page) {
	if p.Header == nil {
		p.Header = http.Header{}
	}
	slices.SortFunc(p.Links, func(a, b PageLink) int {
		return cmp.Or(cmp.Compare(a.To, b.To), cmp.Compare(a.Anchor, b.Anchor))
	})
	p.Links = slices.Compact(p.Links)
}
