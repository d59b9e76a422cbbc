package robotstag

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

// For returns the directives of one response for agent. It is
// Parser{Agent: agent}.For(contentType, h, body).
func For(contentType string, h http.Header, body io.Reader, agent string) (Directives, error) {
	return Parser{Agent: agent}.For(contentType, h, body)
}

// For applies the whole robot-tag rule to one response: the X-Robots-Tag
// headers of h always count (docs/robots-rules.md rule 25); the meta tags
// of body count only when contentType, the response's Content-Type header
// value, has the media type text/html, compared with ASCII case folding
// and ignoring parameters such as charset (rule 24, seed 002: "This only
// works on HTML files that specify a Content-Type of text/html in their
// HTTP response headers"). There is no content sniffing: a missing
// Content-Type means no meta tags. For other types body is not read, and
// may be nil.
//
// The error is non-nil only when reading body fails; see FromHTML.
func (p Parser) For(contentType string, h http.Header, body io.Reader) (Directives, error) {
	d := p.FromHeader(h)
	if !IsHTML(contentType) {
		d.note(fmt.Sprintf("meta tags not read: Content-Type %s is not text/html", quote(contentType)))
		return d, nil
	}
	if body == nil {
		return d, nil
	}
	m, err := p.FromHTML(body)
	d.Merge(m)
	return d, err
}

// IsHTML reports whether a Content-Type header value has the media type
// text/html, the only type whose meta tags count (docs/robots-rules.md
// rule 24). The comparison uses ASCII case folding and ignores parameters.
func IsHTML(contentType string) bool {
	mediaType, _, _ := strings.Cut(contentType, ";")
	return equalFold(trimSpace(mediaType), "text/html")
}
