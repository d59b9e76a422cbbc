package urlnorm

import "net"

// ipKind says whether a host is a domain name or an IP literal.
type ipKind uint8

const (
	notIP ipKind = iota
	ipv4
	ipv6
)

// URL is an absolute http or https URL in canonical form. It is made only by
// Parse and Resolve, is immutable, and is safe for concurrent use; the zero
// value is not a valid URL and its methods must not be called. Two URLs name
// the same resource, for de-duplication, exactly when their String() values
// are equal.
//
// All accessors return substrings of the canonical form, so they cost no
// allocation unless documented otherwise.
type URL struct {
	s         string // the canonical form
	hostStart int    // s[hostStart:hostEnd] is the host, with brackets for IPv6
	hostEnd   int    // ":port" follows when hostEnd < pathStart
	pathStart int    // s[pathStart:] is PathAndQuery
	queryAt   int    // index of "?" in s, or len(s) when there is no query
	https     bool
	ip        ipKind
}

// String returns the canonical form:
//
//	scheme "://" host [":" port] path ["?" query]
//
// with scheme and host lower-case, the host in punycode without a trailing
// dot, the port only when it is not the scheme's default, dot segments
// resolved, the path never empty, percent-escapes normalised (unreserved
// characters decoded, other escapes upper-case hex), no user info, no
// fragment, and the query as written (not sorted), left out when empty.
// It consists of printable ASCII only (no spaces, no control bytes).
func (u *URL) String() string { return u.s }

// Scheme returns "http" or "https".
func (u *URL) Scheme() string { return u.s[:u.hostStart-len("://")] }

func (u *URL) isHTTPS() bool { return u.https }

// Host returns the host name without port: a lower-case ASCII domain name
// (IDNA punycode, no trailing dot), a dotted-decimal IPv4 address, or an IPv6
// address without brackets ("::1"), as net.Dial and net.JoinHostPort expect.
func (u *URL) Host() string {
	if u.ip == ipv6 {
		return u.s[u.hostStart+1 : u.hostEnd-1]
	}
	return u.s[u.hostStart:u.hostEnd]
}

// Port returns the port as decimal digits: the explicit one when the URL has
// one, else the scheme's default ("80" or "443"). Never empty, never "0".
func (u *URL) Port() string {
	if u.hostEnd < u.pathStart {
		return u.s[u.hostEnd+1 : u.pathStart]
	}
	if u.https {
		return "443"
	}
	return "80"
}

// HostPort returns host and port joined for net.Dial: "example.com:80",
// "[::1]:8080". The port is always present. It allocates.
func (u *URL) HostPort() string { return net.JoinHostPort(u.Host(), u.Port()) }

// authority returns host plus the explicit port, as in the canonical form:
// the value of the HTTP Host header.
func (u *URL) authority() string { return u.s[u.hostStart:u.pathStart] }

// Origin returns the origin key of docs/robots-rules.md rule 20: scheme, host
// and port, the default port left out, no trailing slash:
// "http://example.com", "https://example.com:8443", "http://[::1]:8080".
// Two URLs have the same robots.txt exactly when their Origins are equal.
func (u *URL) Origin() string { return u.s[:u.pathStart] }

// RobotsURL returns Origin() + "/robots.txt", the only place the origin's
// robots.txt lives (rule 20). It allocates.
func (u *URL) RobotsURL() string { return u.Origin() + "/robots.txt" }

// PathAndQuery returns the escaped path plus "?" and the query when there is
// one: the request target the crawler sends and the string robots.txt rules
// are matched against (docs/robots-rules.md rules 12 and 13). It always starts
// with "/" and has no fragment. It is a request target, not a relative
// reference: a path such as "//h/x" would be read as host "h" by Resolve.
func (u *URL) PathAndQuery() string { return u.s[u.pathStart:] }

// Path returns the escaped path, which always starts with "/".
func (u *URL) Path() string { return u.s[u.pathStart:u.queryAt] }

// Query returns the escaped query without the "?"; "" when there is none.
func (u *URL) Query() string {
	if u.queryAt == len(u.s) {
		return ""
	}
	return u.s[u.queryAt+1:]
}

// IsIP reports whether the host is an IPv4 or IPv6 address rather than a
// domain name.
func (u *URL) IsIP() bool { return u.ip != notIP }
