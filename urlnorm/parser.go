package urlnorm

import (
	"errors"
	"strconv"
	"strings"

	werrors "github.com/nlnwa/whatwg-url/errors"
	wurl "github.com/nlnwa/whatwg-url/url"
)

// MaxURLLength is the default limit, in bytes, on both the input to Parse or
// Resolve and the canonical form it produces. 8 KiB is the request-line limit
// of common servers (Apache, nginx); a longer URL could not be fetched anyway,
// and refusing it early bounds the memory every queued URL may take.
const MaxURLLength = 8192

// MaxPathSegments is the default limit on the number of segments ("/"s) of
// a canonical path. Real paths have a few dozen at most (the corpus's
// deepest has 15); thousands are a crawler trap or an attack, and the WHATWG
// library builds a path in time quadratic in its segment count. An input
// with more than twice this many "/" or "\" before its query or fragment is
// refused unparsed, so that no input costs more than a few milliseconds.
const MaxPathSegments = 512

// whatwg is the one WHATWG parser this package uses, with the standard's
// default options (browser behaviour). It holds no mutable state and is safe
// for concurrent use.
var whatwg = wurl.NewParser()

// Parser parses and resolves URLs into their canonical form.
//
// The zero value is ready to use and applies the defaults. A Parser is never
// modified by its methods and is safe for concurrent use.
type Parser struct {
	// MaxLength is the longest input, and the longest canonical form, in
	// bytes, that is accepted; longer ones fail with ErrTooLong. Zero or a
	// negative value means MaxURLLength.
	MaxLength int

	// MaxPathSegments is the most segments a canonical path may have; more
	// fail with ErrTooLong. Zero or a negative value means MaxPathSegments.
	MaxPathSegments int
}

// Parse is (&Parser{}).Parse: parse with the default limits.
func Parse(raw string) (*URL, error) {
	var p Parser
	return p.Parse(raw)
}

// Resolve is (&Parser{}).Resolve: resolve with the default limits.
func Resolve(base *URL, ref string) (*URL, error) {
	var p Parser
	return p.Resolve(base, ref)
}

func (p *Parser) maxSegments() int {
	if p.MaxPathSegments <= 0 {
		return MaxPathSegments
	}
	return p.MaxPathSegments
}

func (p *Parser) maxLength() int {
	if p.MaxLength <= 0 {
		return MaxURLLength
	}
	return p.MaxLength
}

// Parse parses an absolute http or https URL as a browser does (the WHATWG
// URL standard) and returns its canonical form.
//
// Like a browser it forgives a lot: leading and trailing spaces and control
// characters are dropped, tabs and newlines anywhere are ignored, backslashes
// count as slashes, "http:example.com" means "http://example.com/". It refuses
// (with an *Error wrapping the reason) inputs longer than MaxLength, inputs
// with any other scheme or none (ErrScheme), an empty host (ErrNoHost), a bad
// port (ErrPort), and anything else the standard or the host rules of this
// package reject (ErrInvalid).
//
// The returned URL is complete: String, Origin, PathAndQuery (the request
// target), Host and Port are substrings fixed during this one parse, and
// nothing is parsed again when they are read. A caller that has a *URL
// should pass it on rather than its String. When a canonical form has to
// cross an API as a string, parsing it again gives an equal URL on the fast
// path, with two allocations (the string, which is always a copy and never
// shares memory with raw, and the URL).
func (p *Parser) Parse(raw string) (*URL, error) {
	return p.parse("parse", raw, nil)
}

// Resolve resolves ref against base as a browser resolves a link in a page
// whose URL is base: ref may be absolute, protocol-relative ("//host/x"),
// root-relative, relative ("../x"), a query ("?q") or fragment ("#f") only,
// or empty (which gives base itself); it may contain tabs, newlines and
// backslashes and be surrounded by spaces. The result must be http or https:
// a "javascript:", "mailto:" or "data:" link fails with ErrScheme, which an
// extractor can count and skip. A nil base makes Resolve behave as Parse.
//
// Because base is canonical, its fragment and user info are already gone.
// Neither could survive into the canonical result anyway, so the result is
// the same as resolving against the page's original URL, then
// canonicalising.
//
// As with Parse, the result is complete and needs no further parsing: keep
// it, not its String, to parse a link once. For an empty or fragment-only
// ref the result may be base itself (URLs are immutable, so sharing is
// safe). On the fast path base is read, never re-parsed, so resolving many
// links against one base costs nothing per link for the base.
func (p *Parser) Resolve(base *URL, ref string) (*URL, error) {
	return p.parse("resolve", ref, base)
}

// parse is Parse and Resolve: the fast path (fast.go) when it accepts the
// input, the full WHATWG path otherwise.
func (p *Parser) parse(op, raw string, base *URL) (*URL, error) {
	return p.parseWith(op, raw, base, true)
}

// parseFull is parse without the fast path: what the fast path must equal,
// kept callable on its own so that tests and benchmarks compare the two.
func (p *Parser) parseFull(op, raw string, base *URL) (*URL, error) {
	return p.parseWith(op, raw, base, false)
}

func (p *Parser) parseWith(op, raw string, base *URL, tryFast bool) (*URL, error) {
	maxLen := p.maxLength()
	if len(raw) > maxLen {
		return nil, newError(op, raw, ErrTooLong,
			"input is "+strconv.Itoa(len(raw))+" bytes, limit "+strconv.Itoa(maxLen), nil)
	}

	// Decide cheaply, before parsing, whether the input can be http(s) at
	// all, and whether the base takes part in parsing it.
	sc := scanScheme(raw)
	needBase := false
	switch {
	case sc.kind == schemeOther:
		return nil, newError(op, raw, ErrScheme, strconv.Quote(sc.name), nil)
	case sc.kind == schemeNone && base == nil:
		return nil, newError(op, raw, ErrScheme, "no scheme (a relative reference needs a base URL)", nil)
	case sc.kind == schemeNone:
		needBase = true
	case base != nil && base.isHTTPS() == (sc.kind == schemeHTTPS):
		// "http:x" against an http base is relative to it (WHATWG
		// "special relative or authority state"), unless "//" follows.
		needBase = !sc.slashSlash
	}

	maxSeg := p.maxSegments()
	if n := slashesBeforeQuery(raw); n > 2*maxSeg {
		return nil, newError(op, raw, ErrTooLong,
			strconv.Itoa(n)+` "/" before the query, limit `+strconv.Itoa(2*maxSeg), nil)
	}
	in, ok := cutUserInfo(raw, sc, needBase)
	if !ok {
		return nil, newError(op, raw, ErrNoHost, "user info but no host", nil)
	}

	u, ok := (*URL)(nil), false
	if tryFast {
		u, ok = fast(in, sc, base, needBase)
	}
	if !ok {
		var err error
		if u, err = parseWHATWG(op, raw, in, base, needBase); err != nil {
			return nil, err
		}
	}
	if len(u.s) > maxLen {
		return nil, newError(op, raw, ErrTooLong,
			"canonical form is "+strconv.Itoa(len(u.s))+" bytes, limit "+strconv.Itoa(maxLen), nil)
	}
	if n := strings.Count(u.Path(), "/"); n > maxSeg {
		return nil, newError(op, raw, ErrTooLong,
			"path has "+strconv.Itoa(n)+" segments, limit "+strconv.Itoa(maxSeg), nil)
	}
	return u, nil
}

// parseWHATWG parses in (raw with its user info cut) with the WHATWG parser,
// against base when needBase, and canonicalises the result.
func parseWHATWG(op, raw, in string, base *URL, needBase bool) (*URL, error) {
	var w *wurl.Url
	var err error
	if needBase {
		var wb *wurl.Url
		wb, err = whatwg.Parse(base.s)
		if err != nil {
			// A canonical URL always parses again; reaching this is a bug.
			return nil, newError(op, base.s, ErrInvalid, "base URL does not parse", err)
		}
		w, err = wb.Parse(in)
	} else {
		w, err = whatwg.Parse(in)
	}
	if err != nil {
		return nil, fromWHATWG(op, raw, err)
	}

	u, detail, kind := canonicalize(w)
	if kind != nil {
		return nil, newError(op, raw, kind, detail, nil)
	}
	return u, nil
}

// slashesBeforeQuery counts "/" and "\" before the first "?" or "#".
func slashesBeforeQuery(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '/', '\\':
			n++
		case '?', '#':
			return n
		}
	}
	return n
}

// fromWHATWG maps a failure of the WHATWG parser to one of our reasons.
func fromWHATWG(op, raw string, err error) *Error {
	kind := ErrInvalid
	switch werrors.Type(err) {
	case werrors.HostMissing:
		kind = ErrNoHost
	case werrors.PortOutOfRange, werrors.PortInvalid, werrors.PortMissing:
		kind = ErrPort
	case werrors.MissingSchemeNonRelativeURL:
		kind = ErrScheme
	}
	detail := string(werrors.Type(err))
	if d := werrors.Description(err); d != "" {
		detail += ": " + strconv.Quote(d)
	}
	if c := errors.Unwrap(err); c != nil {
		detail += ": " + c.Error()
	}
	return newError(op, raw, kind, detail, err)
}
