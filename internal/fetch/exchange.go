package fetch

import (
	"net/http"
	"time"
)

// Exchange is one request and its response as they went over the wire, for
// Options.OnExchange (a WARC writer, say). Its slices and maps are shared
// with the Client and with the Response given to the caller of Get: the
// callee must not modify them and must copy what it keeps after it returns.
type Exchange struct {
	// Started is when Get began, by Options.Now.
	Started time.Time
	// RemoteAddr is the "ip:port" the request went to, when known.
	RemoteAddr string

	// Method and URL form the request line; URL is absolute, without
	// fragment. Host is the Host header (or HTTP/2 :authority) sent.
	Method string
	URL    string
	Host   string
	// RequestHeader holds the header fields the client set. The transport
	// adds Host and, for HTTP/1.1, may add framing fields such as
	// Connection; those are not listed.
	RequestHeader http.Header

	// Proto, StatusCode and Status form the status line; Status is
	// "200 OK" (net/http supplies the reason phrase for HTTP/2).
	Proto      string
	StatusCode int
	Status     string
	// ResponseHeader is the response header as received.
	ResponseHeader http.Header
	// RawBody is the body as received, still content-encoded, up to the
	// raw limit or to where reading stopped.
	RawBody []byte
	// TruncatedBy names the limit that cut the body, or LimitNone.
	TruncatedBy Limit
	// Err is the error that stopped reading the body, or nil.
	Err error
}

// Capture is one exchange's bytes as they went over the connection (Options.Capture): what a
// WARC record keeps. The caller owns the slices.
type Capture struct {
	// Request is the request as written: request line, header fields.
	Request []byte
	// Response is the final response as read: status line, header fields, and the body with
	// its transfer and content codings, as far as it was read.
	Response []byte
	// IP is the server's address, without port; "" when unknown.
	IP string
	// Truncated says Response stops short of what the server sent: a body limit cut it, or
	// reading it failed or stopped early. A body whose content coding is corrupt was read
	// whole: it is not truncated.
	Truncated bool
}
