package urlnorm

import "net/url"

// RequestURL returns a new net/url.URL that makes net/http send exactly
// PathAndQuery() as the request target, and the canonical host (with its port
// when not the default) as the Host header. The caller owns it.
//
// Building the request from String() instead would let net/url decode the
// path and encode it again its own way: "|", "^", "[" and "]" would go out as
// "%7C", "%5E", "%5B", "%5D", so the server would be asked for a target other
// than the one robots.txt was matched against (docs/robots-rules.md rule 12).
// The returned URL carries the target in Opaque, which net/http sends as it
// is (see the Opaque field of net/url.URL); its own String() therefore reads
// "http:/path", so log u.String() instead. It is meant for direct requests:
// a forward proxy would need the absolute form.
func (u *URL) RequestURL() *url.URL {
	return &url.URL{
		Scheme: u.Scheme(),
		Host:   u.authority(),
		Opaque: u.PathAndQuery(),
	}
}
