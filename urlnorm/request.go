package urlnorm

import "net/url"

// RequestURL returns a new net/url.URL that makes net/http send exactly
// PathAndQuery() as the request target and Host's authority as the Host
// header. The caller owns it.
//
// Building the request from String() instead would let net/url decode and
// re-encode the path: "%zz" fails to parse, and "|", "^", "[" or "]" in a
// path are sent escaped, so the server would see a different target from the
// one robots.txt was matched against (robots-semantics.md rule 12). The
// returned URL carries the target in Opaque, which net/http sends verbatim
// (https://pkg.go.dev/net/url#URL, "Opaque"); its String() therefore reads
// "http:/path", so log u.String() instead. It is meant for direct requests:
// a forward proxy would need the absolute form.
func (u *URL) RequestURL() *url.URL {
	return &url.URL{
		Scheme: u.Scheme(),
		Host:   u.authority(),
		Opaque: u.PathAndQuery(),
	}
}
