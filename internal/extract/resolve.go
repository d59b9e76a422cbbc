package extract

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrNotHTTP is wrapped by the errors of [NetURLResolver] for a base URL or
// a link that is not an absolute http or https URL with a host.
var ErrNotHTTP = errors.New("not an http or https URL")

// NetURLResolver is the default Options.NewResolver. It resolves with
// net/url (RFC 3986 reference resolution): base must be an absolute http
// or https URL with a host, and so must every resolved link. Before parsing,
// an href loses leading and trailing spaces and C0 controls and any tab or
// newline, as a browser's URL parser does. The result has no fragment.
//
// It is a plain RFC 3986 resolver, not a browser: "http:x" (scheme, no
// slashes) is not made relative to an http base, backslashes are not
// slashes, and the result is not normalised. The crawler should plug in its
// WHATWG normaliser instead. It is safe for concurrent use.
func NetURLResolver(base string) (ResolveFunc, error) {
	b, err := url.Parse(cleanHref(base))
	if err != nil {
		return nil, fmt.Errorf("extract: parse base URL: %w", err)
	}
	if !isHTTP(b) {
		return nil, fmt.Errorf("extract: base URL %q: %w", base, ErrNotHTTP)
	}
	return func(href string) (string, error) {
		ref, err := url.Parse(cleanHref(href))
		if err != nil {
			return "", fmt.Errorf("extract: resolve href: %w", err)
		}
		u := b.ResolveReference(ref)
		if !isHTTP(u) {
			return "", fmt.Errorf("extract: resolve href %q: %w", href, ErrNotHTTP)
		}
		u.Fragment, u.RawFragment = "", ""
		return u.String(), nil
	}, nil
}

// isHTTP reports whether u is an absolute http or https URL with a host.
// url.Parse has already lower-cased the scheme.
func isHTTP(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Opaque == ""
}

// stripFragment returns u without its fragment, whatever resolver made it.
func stripFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}
