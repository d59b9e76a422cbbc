package crawl

import (
	"net/http"
	"time"

	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/robotstag"
)

// Document is one page answer as the crawl read it, for Config.OnDocument (and the first part
// of a Page). The callee may keep it and everything it holds, which the crawl never changes;
// only Header is shared with the crawl's write of the page, and must not be modified (Clone it
// to change it). The zero value is an empty answer.
type Document struct {
	// URL is the canonical URL requested (urlnorm's form). Redirects are not followed inside a
	// request: a 3xx is a Document of its own, and its Location is requested later as another
	// URL (with the robots.txt check and the delay of its origin).
	URL string
	// Depth counts the links followed from a seed to reach URL: 0 for a seed; a redirect keeps
	// the depth of the URL that redirected, a sitemap entry counts as one link.
	Depth int
	// Status is the HTTP status code of the answer.
	Status int
	// Header is the response header as received; read only (see above).
	Header http.Header
	// ContentType is the media type of Content-Type, lower case, without parameters
	// ("text/html"); "" when the answer had none.
	ContentType string
	// Location is, for a 3xx answer, its redirect target resolved against URL (as browsers
	// resolve it); "" otherwise or when it does not resolve.
	Location string
	// FetchedAt is when the answer was read, by the crawl's clock (Config.Clock).
	FetchedAt time.Time
	// Truncated reports that the body was cut at a fetch size limit; Title, Text and Links are
	// then those of the part read.
	Truncated bool

	// Title and Text are a 2xx HTML or plain-text page's title and visible text, whitespace
	// collapsed and cut at the extractor's limits ("" otherwise).
	Title, Text string
	// Links are a 2xx HTML page's links in document order, including those the crawl does not
	// follow (see Link.NoFollow); nil for other answers.
	Links []Link
	// Robots are the robot directives (X-Robots-Tag headers, and robots meta tags of an HTML
	// page) that apply to the crawl's Agent.
	Robots robotstag.Directives
	// Indexable reports whether the page may be indexed (a 2xx page without noindex).
	Indexable bool
}

// Link is one link of a Document.
type Link struct {
	// URL is the link's target resolved against the page (as browsers resolve it), in canonical
	// form; "" when it could not be parsed.
	URL string
	// Anchor is the link's visible text (or an image's alt text), whitespace collapsed.
	Anchor string
	// NoFollow reports that the crawl does not follow the link: rel=nofollow, or the page's
	// robot directives say nofollow.
	NoFollow bool
}

// documentOf is the public form of the crawler's Document; it shares nothing the crawler keeps.
func documentOf(d crawler.Document) Document {
	out := Document{URL: d.URL, Depth: d.Depth, Status: d.Status, Header: d.Header, ContentType: d.ContentType,
		Location: d.Location, FetchedAt: d.FetchedAt, Truncated: d.Truncated, Title: d.Title, Text: d.Text,
		Robots: d.Robots, Indexable: d.Indexable}
	if d.Links != nil {
		out.Links = make([]Link, len(d.Links))
		for i, l := range d.Links {
			out.Links[i] = Link{URL: l.URL, Anchor: l.Anchor, NoFollow: l.NoFollow}
		}
	}
	return out
}
