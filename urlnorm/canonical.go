package urlnorm

import (
	"net/netip"
	"strconv"
	"strings"

	wurl "github.com/nlnwa/whatwg-url/url"
)

// canonicalize builds the canonical form from a URL the WHATWG parser
// accepted. The parser has already lower-cased the scheme and host, mapped
// the host through IDNA to punycode, canonicalised IPv4 and IPv6 literals,
// dropped a default port, resolved dot segments (also "%2e" ones),
// percent-encoded non-ASCII and unsafe bytes as UTF-8, and turned
// backslashes into slashes. What is left is done here:
//
//   - the scheme must be http or https;
//   - the host must not be empty, its labels must not be empty, and one
//     trailing dot (the DNS root) is dropped;
//   - port 0 is refused;
//   - user info and the fragment are left out;
//   - percent-escapes in path and query are normalised (normEscapes);
//   - an empty query ("?" alone) is left out;
//   - the result must be printable ASCII without spaces.
//
// On refusal it returns the reason and a detail for the message.
func canonicalize(w *wurl.Url) (u *URL, detail string, kind error) {
	var https bool
	switch w.Scheme() {
	case "http":
	case "https":
		https = true
	default:
		return nil, `"` + w.Scheme() + `"`, ErrScheme
	}

	// The kind of host is read from the host itself: the parser's IsIPv4 and
	// IsIPv6 flags are not carried over when a reference takes its host from
	// the base. The parser writes IPv6 in brackets, and any host whose last
	// label is a number as a dotted-decimal IPv4 address (or refuses it).
	host := w.Hostname()
	var ip ipKind
	switch {
	case strings.HasPrefix(host, "["):
		ip = ipv6
	case isIPv4(host):
		ip = ipv4
	default:
		host = strings.TrimSuffix(host, ".")
		if host == "" && w.Hostname() == "" {
			return nil, "", ErrNoHost
		}
		if host == "" || host[0] == '.' || host[len(host)-1] == '.' || strings.Contains(host, "..") {
			return nil, "empty label in host " + `"` + w.Hostname() + `"`, ErrInvalid
		}
	}

	port := w.Port() // "" when absent or the scheme's default
	if port == "0" {
		return nil, "port 0", ErrPort
	}

	path := normEscapes(w.Pathname())
	if path == "" {
		path = "/"
	}
	query := normEscapes(w.Query()) // "" when absent or empty

	n := len(w.Scheme()) + len("://") + len(host) + len(path)
	if port != "" {
		n += 1 + len(port)
	}
	if query != "" {
		n += 1 + len(query)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(w.Scheme())
	b.WriteString("://")
	u = &URL{https: https, ip: ip, hostStart: b.Len()}
	b.WriteString(host)
	u.hostEnd = b.Len()
	if port != "" {
		b.WriteByte(':')
		b.WriteString(port)
	}
	u.pathStart = b.Len()
	b.WriteString(path)
	u.queryAt = b.Len()
	if query != "" {
		b.WriteByte('?')
		b.WriteString(query)
	}
	u.s = b.String()
	// The WHATWG parser encodes every byte outside printable ASCII; check
	// rather than trust it, since the form goes into request lines and logs.
	for i := 0; i < len(u.s); i++ {
		if c := u.s[i]; c <= ' ' || c >= 0x7F {
			return nil, "unencoded byte " + strconv.QuoteRune(rune(c)) + " in result", ErrInvalid
		}
	}
	return u, "", nil
}

// isIPv4 reports whether host is a dotted-decimal IPv4 address. Most hosts
// are names that do not end in a digit; they are ruled out without calling
// netip.ParseAddr, whose error would allocate.
func isIPv4(host string) bool {
	if host == "" || host[len(host)-1] < '0' || host[len(host)-1] > '9' {
		return false
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Is4()
}

// normEscapes normalises the percent-escapes of an already WHATWG-encoded
// path or query as RFC 3986 §6.2.2 and docs/robots-rules.md rule 13 ask:
// an escape of an unreserved character (A-Z a-z 0-9 - . _ ~) is decoded,
// every other escape is kept with its hex digits upper-cased (so %2F stays
// %2F and %2b becomes %2B).
//
// A "%" not followed by two hex digits is written "%25". Browsers send it as
// it is, but then decoding a neighbour could complete it ("%7%41" would give
// "%7A", which the next parse reads as "z"), and Go's net/url refuses it.
// With the rule, every "%" of the result starts an escape, and the result is
// a fixed point.
//
// s is returned unchanged, without allocating, when there is nothing to do.
func normEscapes(s string) string {
	i := firstEscapeToFix(s)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		b, i = appendPercent(b, s, i)
	}
	return string(b)
}

// appendPercent appends the normal form of the "%" at s[i] (see normEscapes): an unreserved
// escape decoded, another escape upper-cased, a "%" that starts none written "%25". It returns
// the index of the last byte of s it consumed.
func appendPercent(b []byte, s string, i int) ([]byte, int) {
	if !isEscape(s, i) {
		return append(b, "%25"...), i
	}
	v := unhex(s[i+1])<<4 | unhex(s[i+2])
	if isUnreserved(v) {
		return append(b, v), i + 2
	}
	return append(b, '%', upperHex[v>>4], upperHex[v&15]), i + 2
}

// isEscape reports whether s[i] is "%" followed by two hex digits.
func isEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}

// firstEscapeToFix returns the index of the first "%" normEscapes would
// change, or -1.
func firstEscapeToFix(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if !isEscape(s, i) {
			return i
		}
		h, l := s[i+1], s[i+2]
		if isLowerHex(h) || isLowerHex(l) || isUnreserved(unhex(h)<<4|unhex(l)) {
			return i
		}
		i += 2
	}
	return -1
}

const upperHex = "0123456789ABCDEF"

// isUnreserved reports RFC 3986 unreserved characters.
func isUnreserved(c byte) bool {
	return isASCIIAlpha(c) || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}
