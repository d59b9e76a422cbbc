package robotstxt

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrNotHTTPURL is wrapped by the error PathAndQuery returns for a URL that
// parses but is not an absolute http or https URL with a host.
var ErrNotHTTPURL = errors.New("not an absolute http(s) URL with a host")

// PathAndQuery returns the match target of an absolute http or https URL
// (docs/robots-rules.md rule 12): its path and "?query" exactly as written,
// percent-escapes untouched and fragment dropped; "/" stands for an empty
// path. A URL that does not parse, or is not an absolute http(s) URL with a
// host, is an error: such a URL must never silently become allowed or
// disallowed.
func PathAndQuery(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("robotstxt: match target of URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Opaque != "" || u.Host == "" {
		return "", fmt.Errorf("robotstxt: match target of URL %q: %w", rawURL, ErrNotHTTPURL)
	}
	// url.URL.Path is decoded; take the escaped text as written instead.
	// The URL parsed with a host, so it is "scheme://authority" and then
	// the path, query and fragment.
	rest := rawURL[len(u.Scheme)+len("://"):]
	i := strings.IndexAny(rest, "/?#")
	if i < 0 {
		return "/", nil
	}
	rest = rest[i:]
	if j := strings.IndexByte(rest, '#'); j >= 0 {
		rest = rest[:j]
	}
	if rest == "" || rest[0] == '?' {
		rest = "/" + rest
	}
	return rest, nil
}
