package index

import (
	"context"
	"time"
)

// Limits of a query.
const (
	DefaultLimit  = 10
	MaxLimit      = 100
	MaxOffset     = 1000 // deep paging is not a use case; it would only load the store
	MaxQueryBytes = 512
	MaxQueryTerms = 16
	// MaxCount is where a store may stop counting matches (Page.TotalIsLowerBound).
	MaxCount = 2000
)

// Query is one search. Zero Limit means DefaultLimit.
type Query struct {
	Text   string
	Limit  int
	Offset int
	Now    time.Time // for unavailable_after; zero means time.Now()
}

// Span is a piece of a snippet; Match marks the words that matched the query. Renderers escape
// Text themselves, so a snippet is safe in any output format.
type Span struct {
	Text  string
	Match bool
}

// Result is one search result.
type Result struct {
	URL      string
	Title    string // the page's title; for a link-only entry, its most common anchor text
	Snippet  []Span // empty under nosnippet and for link-only entries without anchor text
	LinkOnly bool
	// State and Reason are the crawl's decision about the URL (store.State and its reason);
	// Why says in one line why the result is here, for people.
	State, Reason, Why string
	Status             int
	FetchedAt          time.Time
	Inlinks            int // pages linking to it
	// AnchorVotes is how many links from other pages name it with the query's words (see
	// AnchorVotes in ranking.go); a store fills it in for Rerank.
	AnchorVotes int
	Score       float64
	// TitleURLFactor is what Rerank's title-and-URL rule multiplied Score by (ranking.go,
	// TitleURLBoost): 1 when the title and URL path do not both hold the query's words.
	TitleURLFactor float64
	// Headings is the entry's headings (store.Document.Headings), which a store fills in for
	// Rerank's definition rule; DefinesFactor is what that rule multiplied Score by (ranking.go,
	// DefinesBoost): 1 when the headings define no identifier the query names.
	Headings      string
	DefinesFactor float64
	// CitedFactor is what Rerank's rule of the cited definition multiplied Score by (ranking.go,
	// CitedDefinitionMargin): 1 unless the entry defines what the query names and other pages
	// name it so.
	CitedFactor float64
	// LinkShare is the entry's shape (index.LinkShare: its links' anchor text over its text),
	// which a store fills in for Rerank's link-list rule; LinkListFactor is what that rule
	// multiplied Score by (ranking.go, LinkListFactor): 1 when the entry is no list of links or
	// the query names it.
	LinkShare      float64
	SentenceRate   float64 // index.SentenceRate of its text, filled in with LinkShare
	LinkRate       float64 // index.LinkRate of its text, filled in with LinkShare
	LinkListFactor float64
	// Canonical is the URL the page names canonical (<link rel=canonical>), if any, and
	// ContentHash the ContentHash of its indexed title and text (0 for a link-only entry): what
	// Dedupe compares.
	Canonical   string
	ContentHash uint64
}

// Page is one page of results.
type Page struct {
	Query   string
	Terms   []string // the terms searched for, after parsing
	Results []Result
	Total   int // matching entries; with TotalIsLowerBound, at least this many
	// TotalIsLowerBound says the store stopped counting at MaxCount matches (issue 11: the
	// latency of a search must not grow with how common its words are).
	TotalIsLowerBound bool
	Offset            int
	Limit             int
	// Notes says, for people, what the search did not take as written: a malformed query read
	// as plain words, words beyond MaxQueryTerms dropped (Parsed.Notes), a word corrected
	// (spell.go) or dropped (relax.go).
	Notes []string
	// Missing are the words of the query that were left out because no page held them with
	// the others (relax.go); the results need not hold them.
	Missing []string
}

// Explanation says where a URL stands: in the index or not, and why.
type Explanation struct {
	URL      string
	Known    bool
	Indexed  bool
	LinkOnly bool
	State    string
	Status   int
	Reason   string
	Why      string
	Inlinks  int
	// LinkedFrom lists pages that link to URL, with their anchor text, in URL order, at most
	// MaxLinkedFrom of them (Inlinks counts them all).
	LinkedFrom []Inlink
}

// MaxLinkedFrom bounds Explanation.LinkedFrom.
const MaxLinkedFrom = 50

// Inlink is one page linking to a URL, and the anchor text of its link.
type Inlink struct {
	URL, Anchor string
}

// Searcher answers queries. Implementations are safe for concurrent use.
type Searcher interface {
	Search(ctx context.Context, q Query) (Page, error)
	Explain(ctx context.Context, url string) (Explanation, error)
}
