// Package urlnorm parses web URLs for a crawler: WHATWG (browser) parsing and
// link resolution, the canonical form used to de-duplicate URLs, the origin
// key that robots.txt is per, and the path-and-query that robots.txt rules
// are matched against and that is requested.
//
// Parsing and resolution are the WHATWG URL standard, implemented by
// github.com/nlnwa/whatwg-url, so a link means to the crawler what it means
// to a browser. Only http and https are accepted. The canonical form
// (URL.String) then applies the RFC 3986 §6.2.2 normalisations that never
// change which resource is named, and nothing more:
//
//	http://EXAMPLE.com:80/a/../b/./c?x#y  ->  http://example.com/b/c?x
//	HTTPS://Bücher.example./%7euser/%c3%a9  ->  https://xn--bcher-kva.example/~user/%C3%A9
//
// In detail:
//
//   - scheme and host lower-case; host through IDNA (UTS #46, non-transitional)
//     to punycode; one trailing dot of the host dropped; IPv4 literals in any
//     WHATWG form ("0x7f.1") written dotted-decimal; IPv6 compressed, in
//     brackets;
//   - the default port (80 for http, 443 for https) left out; port 0 and
//     ports above 65535 refused;
//   - user info dropped: a crawler must not send credentials found in links,
//     and they do not change which resource is named;
//   - the fragment dropped: it is never sent to the server;
//   - dot segments resolved; an empty path becomes "/";
//   - non-ASCII and unsafe bytes percent-encoded as UTF-8; escapes of
//     unreserved characters (A-Z a-z 0-9 - . _ ~) decoded; other escapes kept,
//     with upper-case hex ("%2F" stays "%2F": it is not "/");
//   - the query kept as written, in its order, with only the escape
//     normalisation above; "?" with an empty query dropped.
//
// Deliberately not done, because a site may give the two forms different
// meanings: sorting or removing query parameters (session ids, utm_*),
// lower-casing the path, collapsing "//", adding or removing a trailing
// slash, removing "index.html", removing "www.", or decoding reserved
// escapes.
//
// One repair goes beyond RFC 3986: a "%" not followed by two hex digits, which
// browsers send as it is, is written "%25", so that every "%" of the canonical
// form starts an escape. Without it the form would not be a fixed point
// ("%7%41" would become "%7A", then "z") and Go's net/url could not read it.
//
// Parsing is forgiving as a browser is: surrounding spaces and control
// characters are trimmed, tabs and newlines inside are ignored, and
// backslashes are slashes. The query is always encoded as UTF-8, as if the
// page were UTF-8; the page's own charset is not taken into account.
//
// Limits: an input or canonical form longer than MaxURLLength bytes, or a
// path of more than MaxPathSegments segments, is refused; both are Parser
// fields. User info is cut before parsing. With these, parsing any input
// costs at most a few milliseconds.
//
// Speed: most links are plain ASCII or UTF-8 http(s) URLs or references with
// an ordinary domain name. Those take a fast path (fast.go) that builds the
// canonical form in one pass, without the WHATWG parser; everything else
// (IDNA, IP literals, unusual ports, tabs, backslashes, "%2e" segments,
// and every refusal) goes through the parser. The fast path returns exactly
// what the parser path returns, which the tests check on the whole corpus
// and by fuzzing (FuzzFastPathMatchesFull).
//
// Errors are *Error values that wrap one of ErrTooLong, ErrScheme, ErrNoHost,
// ErrPort or ErrInvalid. A Parser and a URL are safe for concurrent use.
package urlnorm
