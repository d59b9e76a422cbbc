package sitemap

import "errors"

// Errors returned by [Parse], always wrapped with the details; test them with
// errors.Is. An error from reading the input or from the callback is wrapped
// as well, and is neither of these.
var (
	// ErrMalformed reports that the bytes are not a well-formed document:
	// an XML syntax error (including a document that ends inside an element
	// and an end tag that closes no open element), an XML document without a
	// root element, a corrupt or truncated gzip stream, UTF-16 input, or an
	// unsupported declared character encoding. Entries delivered before the
	// error stand.
	ErrMalformed = errors.New("malformed sitemap")

	// ErrNotSitemap reports an XML document whose root element is neither
	// <urlset> nor <sitemapindex>, such as an HTML page served in place of a
	// sitemap. It is returned when the root element is read; nothing is
	// delivered.
	ErrNotSitemap = errors.New("not a sitemap")
)
