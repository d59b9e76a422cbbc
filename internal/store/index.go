package store

import (
	"net/http"
	"time"
)

// Index limits applied by every store.
const (
	MaxIndexedTextBytes     = 256 << 10 // text of one document kept in the index
	MaxAnchorBytes          = 200       // anchor text of one link
	MaxAnchorsPerURL        = 32        // distinct anchor texts indexed for one URL
	MaxIndexedHeadingsBytes = 8 << 10   // headings of one document kept in the index
)

// Document is what one fetch of a URL contributes to the search index. Committing a Document
// replaces the URL's previous one and its outgoing links (the Links of the same batch whose
// FromID is the URL) once an Indexer has folded it in; until then search shows the previous one.
type Document struct {
	URLID int64
	// Index is false when the URL must not be searchable as a document: robot tags said noindex
	// or none, unavailable_after has passed, or the answer was not a 2xx. It is then removed from
	// the index entirely, even as a link-only entry (rule 27), until a later fetch says otherwise.
	Index            bool
	Title            string
	Text             string // visible text, cut at MaxIndexedTextBytes
	Headings         string // the text of the page's headings, cut at MaxIndexedHeadingsBytes (issue 11)
	NoSnippet        bool
	UnavailableAfter time.Time
	// Header is the response header, kept (as EncodeHeader cuts it) for Reader.EachPage
	// whatever Index says; a Document without one replaces the URL's kept header with none.
	Header http.Header
}

// Link is one link of a fetched page, for anchor text and link-only entries (seed 001).
type Link struct {
	FromID int64
	To     string // canonical URL; it is known to the store or among the batch's New URLs (its ID is IDOf(To))
	Anchor string
	// Fragment says the link named a section of To (To#section): its anchor text describes the
	// section, so it is searchable but never the title of To (index/ranking.go).
	Fragment bool
}
