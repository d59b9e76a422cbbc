package fetch

import "net/http"

// Request is one GET to make. The zero value is not usable: URL is required.
type Request struct {
	// URL is an absolute http or https URL. A fragment is dropped.
	URL string

	// Header holds extra request header fields, typically the validators
	// of a conditional request (If-None-Match, If-Modified-Since). Get does
	// not modify it. User-Agent and Accept-Encoding are always the client's:
	// values here for those two are replaced.
	Header http.Header

	// MaxRawBytes and MaxDecodedBytes override the client's body limits
	// for this request when non-zero (a sitemap may be larger than a page;
	// robots.txt needs only its first 500 KiB). Negative is an error.
	MaxRawBytes     int64
	MaxDecodedBytes int64
}
