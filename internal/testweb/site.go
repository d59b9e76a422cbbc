package testweb

import (
	"net/http"
	"slices"
	"strconv"
	"time"
)

// RobotsPath is the only place a site serves its robots.txt (docs/robots-rules.md rule 20).
const RobotsPath = "/robots.txt"

// NoContentType as a Page's ContentType sends no Content-Type header at all (net/http
// would otherwise sniff one).
const NoContentType = "-"

// Site is one origin of the fake web: a scheme, a host name and a port of its own.
// The zero value is not usable; Key is required.
type Site struct {
	// Key names the site in references ("{key}/path"), in [Web.URL] and in the request
	// log. It must be unique within a web and made of ASCII letters, digits, '-', '_'
	// and '.'.
	Key string

	// Host is the host name the site serves, e.g. "a.test"; empty means Key+".test".
	// Several sites may share a host: each still listens on a port of its own, so they
	// are different origins (the same host on two ports, or under http and https). It is
	// written into URLs as given and should be lower-case ASCII.
	Host string

	// TLS serves https with the web's self-signed certificate (see [Web.RootCAs]),
	// offering HTTP/2 and HTTP/1.1 through ALPN. False serves plain HTTP/1.1.
	TLS bool

	// Robots is served at /robots.txt; its Path is ignored. Nil: /robots.txt answers 404.
	Robots *Page

	// Pages are the site's documents, looked up by exact path and query.
	Pages []Page

	// Fallback, when non-nil, is asked for a path and query that no page of Pages (or
	// of [Web.Set]) matches; it reports false for "no such page" (404). It lets a huge
	// site render pages on demand instead of holding them. It is called concurrently
	// and must be deterministic: the same path must always give the same page.
	Fallback func(pathAndQuery string) (Page, bool)

	// Raw, when non-nil, answers every request that no page of Pages (or of
	// [Web.Set]) matches, instead of Fallback and 404, after the request is
	// logged (with Status 0: the web does not know what Raw answers). It is
	// for answers a Page cannot describe: bodies streamed without end,
	// decompression bombs, bogus status lines (see package hostile). It is
	// called concurrently.
	Raw http.Handler

	// Refused makes the origin refuse connections: Start reserves a port for the site
	// and releases it at once, so nothing listens there (rule 21, "network errors").
	// Another process could in principle take the port later; on Linux ephemeral ports
	// are not reused that quickly.
	Refused bool
}

// Page is one resource of a site. Only Path is required: a page with no content answers
// a one-line text/plain body naming its status.
type Page struct {
	// Path is the path and query exactly as requested ("/a/b?x=1"), compared byte for
	// byte with the request target: "/%7Ea" and "/~a" are different pages. It must
	// start with "/".
	Path string

	// Status is the status answered when no Step says otherwise; 0 means 200.
	Status int

	// Title and Text are rendered into an HTML document when Body is empty. Text is
	// split into paragraphs at blank lines. Both are HTML-escaped.
	Title string
	Text  string

	// Links are rendered as <a href> elements, each with its expanded URL as anchor
	// text: "/same-origin/path", "{b}/path" for the site with key "b", or any raw URL.
	Links []string

	// Anchors are links with chosen anchor text and rel attribute, rendered after Links.
	Anchors []Link

	// Meta, when set, is rendered as <meta name="robots" content="Meta">.
	Meta string

	// Head is raw HTML written inside <head> (other meta tags, scripts, canonical links).
	Head string

	// Body, when set, is served as is instead of a rendered document (after reference
	// expansion, unless NoExpand).
	Body string

	// ContentType of the page; empty means "text/html; charset=utf-8" for rendered and
	// raw bodies. [NoContentType] sends none.
	ContentType string

	// Header is added to the response whenever the page's content is served, after
	// reference expansion of the values. Repeated values are sent as repeated fields
	// (several X-Robots-Tag headers, docs/robots-rules.md rule 25).
	Header http.Header

	// ETag (sent as given, so include the quotes) and LastModified are validators. When
	// either is set the page answers 304 Not Modified to a matching If-None-Match or a
	// not-older If-Modified-Since (rule 22, revalidation).
	ETag         string
	LastModified time.Time

	// Compress sends the content with Content-Encoding: gzip when the request's
	// Accept-Encoding allows gzip; the response always carries Vary: Accept-Encoding.
	Compress bool

	// GzipFile serves the content gzip-compressed as the file itself, without
	// Content-Encoding, as a "sitemap.xml.gz" is served.
	GzipFile bool

	// NoExpand serves Body, Head, links and header values without reference expansion.
	NoExpand bool

	// Script, when set, decides each request to the page in turn: the i-th request gets
	// Script[i] and the last step repeats. Replacing the page with [Web.Set] restarts it.
	Script []Step
}

// clone returns a copy of p that shares no map or slice with it, so the web's copy
// cannot change under a caller who reuses a Page.
func (p Page) clone() Page {
	p.Header = p.Header.Clone()
	p.Links = slices.Clone(p.Links)
	p.Anchors = slices.Clone(p.Anchors)
	if p.Script != nil {
		steps := make([]Step, len(p.Script))
		for i, st := range p.Script {
			st.Header = st.Header.Clone()
			steps[i] = st
		}
		p.Script = steps
	}
	return p
}

// Link is an anchor with chosen text and rel, e.g. {Href: "/members", Text: "Members'
// roster", Rel: "nofollow"}. Href takes the same forms as Page.Links.
type Link struct {
	Href string
	Text string
	Rel  string
}

// Step is the answer to one request of a page's Script. The zero Step serves the page as
// if it had no script.
type Step struct {
	// Status answered. 0 means the page's own status, or 302 when RedirectTo is set.
	Status int

	// Header is added to the response in every case (after reference expansion).
	Header http.Header

	// Body, when set, is served instead of the page's content, as text/plain unless
	// Header sets a Content-Type. When Body is empty, a step with status 0 or 2xx serves
	// the page's content (its headers, validators and encoding included) and any other
	// step answers a one-line text/plain body naming its status.
	Body string

	// RedirectTo sets the Location header: a path ("/moved") or a reference
	// ("{b}/robots.txt"), sent after expansion and otherwise as given (so a relative
	// Location stays relative).
	RedirectTo string

	// RetryDateIn, when positive, adds "Retry-After: <HTTP-date>" computed when the
	// request arrives as Options.Now()+RetryDateIn, formatted with http.TimeFormat. Use
	// [RetryAfterDate] in Header for a fixed date, [RetryAfterSeconds] for the seconds form.
	RetryDateIn time.Duration

	// Do is what happens on the connection; the default Serve answers normally.
	Do Action
}

// Action is what a Step does with the connection.
type Action int

const (
	// Serve answers the request normally.
	Serve Action = iota

	// Reset closes the TCP connection with RST (SO_LINGER 0) without answering, so the
	// client sees "connection reset by peer". On an HTTP/2 connection every stream on it
	// is reset as well, as a real TCP reset would. Note that net/http's Transport
	// retries an idempotent request once when a reused keep-alive connection fails this
	// way, so such a client asks again and meets the next Step.
	Reset

	// Hang answers nothing and blocks until the client gives up (its request context
	// ends) or the web closes; nothing sleeps. Clients see a timeout.
	Hang

	// Stall sends the status, the headers (with the full Content-Length) and the first
	// half of the body, then hangs like Hang: a body-read timeout.
	Stall

	// Drop closes the connection cleanly without answering: the client sees an
	// unexpected EOF.
	Drop
)

// String names the action as the request log shows it.
func (a Action) String() string {
	switch a {
	case Serve:
		return "serve"
	case Reset:
		return "reset"
	case Hang:
		return "hang"
	case Stall:
		return "stall"
	case Drop:
		return "drop"
	}
	return "action(" + strconv.Itoa(int(a)) + ")"
}

func (a Action) valid() bool { return a >= Serve && a <= Drop }
