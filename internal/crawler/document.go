package crawler

import (
	"net/http"
	"time"

	"github.com/fractle/mandelbot/robotstag"
)

// Document is one page answer as the crawl read it, for Options.OnDocument. It is built on the
// worker goroutine that fetched the page; the callee owns it (nothing else keeps or changes it).
type Document struct {
	URL    string // the canonical URL requested (redirects are not followed: each hop is its own Document)
	Depth  int    // links followed from a seed to reach URL
	Status int
	// Header is the response header as received.
	Header      http.Header
	ContentType string // media type, lower case, without parameters
	Location    string // 3xx: the redirect target, resolved; "" otherwise
	FetchedAt   time.Time
	// Truncated reports that the body was cut at a size limit; Title, Text and Links are then
	// those of the part read.
	Truncated bool

	// Title and Text are a 2xx HTML or plain-text page's title and visible text; Links its links
	// in document order, including those the crawl does not follow (see Link.NoFollow).
	Title, Text string
	Links       []Link
	// Robots are the robot directives (X-Robots-Tag headers, and robots meta tags of an HTML
	// page) that apply to the crawl's agent; Indexable reports whether the page may be indexed.
	Robots    robotstag.Directives
	Indexable bool
}

// Link is one link of a Document.
type Link struct {
	URL    string // resolved, canonical; "" when it could not be parsed
	Anchor string // visible text (or image alt text), whitespace collapsed
	// NoFollow reports that the crawl does not follow the link: rel=nofollow, or the page's robot
	// directives say nofollow.
	NoFollow bool
}
