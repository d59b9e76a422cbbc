package fetch

import (
	"net/http"
	"runtime"
	"strings"
	"time"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// Limit names the body limit that truncated a response.
type Limit int

const (
	// LimitNone means the body was read to its end.
	LimitNone Limit = iota
	// LimitRaw means the body as received was longer than MaxRawBytes.
	LimitRaw
	// LimitDecoded means the body after content decoding was longer than
	// MaxDecodedBytes.
	LimitDecoded
)

// String returns "none", "raw" or "decoded".
func (l Limit) String() string {
	switch l {
	case LimitNone:
		return "none"
	case LimitRaw:
		return "raw"
	case LimitDecoded:
		return "decoded"
	}
	return "Limit(?)"
}

// Response is what the server answered to one GET. Whatever the status, it
// is a result: 3xx, 4xx and 5xx are not errors. The caller owns the
// Response and everything it holds.
//
// Memory: a Response from Get holds a charge on the client's memory budget
// for its Body until Release. The caller calls Release once, when it no
// longer reads Body (or anything sliced from it): typically
// `defer resp.Release()` right after Get. A Response that is dropped
// without Release gives its charge back when the garbage collector frees
// it, which may be much later: until then other requests may wait.
type Response struct {
	// URL is the URL requested, without its fragment.
	URL string
	// Status is the HTTP status code.
	Status int
	// Proto is the protocol of the response: "HTTP/1.1" or "HTTP/2.0".
	Proto string
	// Header is the response header.
	Header http.Header

	// Body is the body after content decoding, up to the decoded limit,
	// or the raw bytes when the coding is unknown (see UnknownEncoding).
	Body []byte
	// Truncated reports that the server sent more than a limit allowed;
	// Body then holds the bytes up to the limit, and TruncatedBy says
	// which limit. A truncated body is not an error: the caller decides
	// (robots.txt, for one, is parsed up to its limit).
	Truncated   bool
	TruncatedBy Limit
	// RawBytes is the size of the body as received, before content
	// decoding (after the chunked transfer coding is removed). It stops
	// where reading stopped, so it is at most the raw limit.
	RawBytes int64
	// UnknownEncoding is set, to the lower-cased Content-Encoding, when
	// the body is in a coding this package does not undo (or in several
	// codings at once). Body then holds the bytes as received.
	UnknownEncoding string

	// ContentType is the media type of Content-Type, lower-cased and
	// without parameters ("text/html"); empty when there is none.
	ContentType string
	// Location is the Location header resolved against URL to an absolute
	// URL as a browser would resolve it (WHATWG URL), whatever the status;
	// empty when there is no Location or it does not resolve (the raw
	// value stays in Header). Redirects are never followed.
	Location string
	// RemoteAddr is the "ip:port" the response came from, when known.
	RemoteAddr string

	// Started is when Get began, by Options.Now.
	Started time.Time
	// Duration is how long Get took, by Options.Now, body included.
	Duration time.Duration
	// Capture is the exchange as it went over the wire, with Options.Capture; nil otherwise.
	Capture *Capture

	charge *charge // nil: nothing held
}

// Release gives the memory charged for the body back to the budget and sets
// Body to nil. The caller must not use the old Body afterwards. Release is
// safe to call more than once and on a nil Response; it must not be called
// concurrently with reads of Body.
func (r *Response) Release() {
	if r == nil || r.charge == nil {
		return
	}
	r.charge.release()
	r.charge, r.Body = nil, nil
}

// hold attaches ch to r, with a cleanup that releases it should the caller
// drop r without Release.
func (r *Response) hold(ch *charge) {
	if ch.Held() == 0 {
		return
	}
	r.charge = ch
	runtime.AddCleanup(r, func(ch *charge) { ch.release() }, ch)
}

// mediaType returns the media type of a Content-Type value, lower-cased
// (ASCII only) and without parameters.
func mediaType(contentType string) string {
	mt, _, _ := strings.Cut(contentType, ";")
	return lowerASCII(trimOWS(mt))
}

// resolveLocation resolves a Location value against base with the WHATWG
// URL parser, which accepts what browsers accept (backslashes, spaces,
// stray percent signs). It returns "" for an empty or unresolvable value.
func resolveLocation(base, loc string) string {
	if loc == "" {
		return ""
	}
	u, err := whatwg.ParseRef(base, loc)
	if err != nil {
		return ""
	}
	return u.Href(false)
}
