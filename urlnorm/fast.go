package urlnorm

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// The fast path: most links are plain ASCII http(s) URLs or references with
// a lower-case domain name, no user info, no port or an ordinary one, and a
// path of ordinary bytes. For those, fast builds the canonical form in one
// pass over the input, without the WHATWG parser (which decodes the input to
// runes, builds every part as its own string, and re-parses the base of
// every reference).
//
// The contract is equality: when fast accepts an input, its *URL equals,
// field for field, what the full path (parseFull) returns for the same input
// and base. It declines (ok false) everything it is not built to prove equal,
// and every input the full path would refuse, so refusals and their errors
// always come from the full path. What it accepts, and why each step matches
// the WHATWG parser and canonicalize:
//
//   - Surrounding bytes <= ' ' are trimmed, as the parser trims C0 controls
//     and spaces. Before the fragment, only printable ASCII, space and valid
//     UTF-8 are accepted: a tab or newline (which the parser deletes), a
//     backslash (a slash to the parser) or another control byte declines.
//     Everything after the first "#" is the fragment, which the canonical
//     form drops and which cannot make the parser fail.
//   - An absolute URL must be "http://" or "https://" (any case) followed by
//     a host; "http:x", "http:/x" and "http:///x" decline.
//   - The host must be LDH (ASCII letters, digits, "-") labels joined by
//     single dots: not empty, no empty label, no trailing dot, no label that
//     starts with "xn--" (IDNA would decode and check it), and a last label
//     that starts with a letter (so the parser's "ends in a number" IPv4 rule
//     cannot apply). IDNA maps such a host to itself in lower case. No "@"
//     (user info is cut before the fast path; what is left declines), no "%",
//     no "[".
//   - A port must be 1 to 5 digits with a value from 1 to 65535; it is
//     written without leading zeros and left out when it is the scheme's
//     default. An empty port, port 0 or a larger one declines.
//   - Path segments are split on "/" and resolved as the parser's path state
//     does ("." and ".." only; any "%2e" in the path declines); the bytes of
//     the path percent-encode set (space " < > ` { } and non-ASCII) are
//     encoded, and escapes are normalised as normEscapes does, in the same
//     pass (an escape never spans a "/", so per segment equals per path).
//   - The query gets the special-query percent-encode set (space " < > '
//     and non-ASCII) and the same escape normalisation; an empty one is
//     left out.
//   - A reference without a scheme is resolved against base as the parser's
//     relative states do: "" and "#f" give base; "?q" base's path with a new
//     query; "/p" base's origin with a new path; "//h/p" base's scheme with a
//     new authority ("///" declines); anything else base's path without its
//     last segment, then the reference's segments. A reference with a
//     scheme and no "//" ("http:x") declines.
//
// Base is taken as it is: its canonical form is a fixed point of the full
// path (tested by FuzzParse), so the parser's re-parse of base.s gives back
// the same scheme, host, port, path segments and query.

// fastBufSize is the stack buffer fast builds into; longer results are built
// on the heap.
const fastBufSize = 512

// fast is the fast path of Parser.parse. in is the input after cutUserInfo,
// sc its scheme as scanScheme found it, and needBase whether the full path
// would parse it against base (parse's decision, reused as it is).
func fast(in string, sc schemeScan, base *URL, needBase bool) (*URL, bool) {
	s := trimC0Space(in)
	pre := s
	if i := strings.IndexByte(s, '#'); i >= 0 {
		pre = s[:i]
	}
	if !plainBytes(pre) {
		return nil, false
	}
	var arr [fastBufSize]byte
	f, ok := fastURL{b: arr[:0]}, false
	switch {
	case !needBase:
		// Absolute: "http://" or "https://" exactly, in any case.
		n := 4
		if sc.kind == schemeHTTPS {
			n = 5
		}
		if sc.kind != schemeHTTP && sc.kind != schemeHTTPS || len(pre) < n+3 || pre[n:n+3] != "://" {
			return nil, false
		}
		if f, ok = f.authority(sc.kind == schemeHTTPS, pre[n+3:]); !ok {
			return nil, false
		}
	case sc.kind != schemeNone:
		return nil, false // "http:x" against an http base
	case pre == "":
		return base, true // "" or "#f": base itself, which has no fragment
	case strings.HasPrefix(pre, "//"):
		if f, ok = f.authority(base.https, pre[2:]); !ok {
			return nil, false
		}
	case pre[0] == '/':
		f = f.copyOrigin(base)
		if f, ok = f.path(pre, true); !ok {
			return nil, false
		}
	case pre[0] == '?':
		f = f.copyOrigin(base)
		f.b = append(f.b, base.Path()...)
		f = f.query(pre[1:], true)
	default:
		f = f.copyOrigin(base)
		dir := base.Path()
		f.b = append(f.b, dir[:strings.LastIndexByte(dir, '/')]...)
		if f, ok = f.path(pre, false); !ok {
			return nil, false
		}
	}
	return f.url(), true
}

// fastURL is the canonical form being built, with the offsets of URL. Its
// methods take and return it by value, so that the buffer fast starts it
// with can stay on the stack.
type fastURL struct {
	b                                      []byte
	hostStart, hostEnd, pathStart, queryAt int
	https                                  bool
	ip                                     ipKind
}

func (f fastURL) url() *URL {
	return &URL{
		s:         string(f.b),
		hostStart: f.hostStart,
		hostEnd:   f.hostEnd,
		pathStart: f.pathStart,
		queryAt:   f.queryAt,
		https:     f.https,
		ip:        f.ip,
	}
}

// copyOrigin starts the result with base's scheme, host and port.
func (f fastURL) copyOrigin(base *URL) fastURL {
	f.b = append(f.b, base.Origin()...)
	f.hostStart, f.hostEnd, f.pathStart = base.hostStart, base.hostEnd, base.pathStart
	f.https, f.ip = base.https, base.ip
	return f
}

// authority builds scheme, host, port, path and query from r, the input after
// "//" and before the fragment.
func (f fastURL) authority(https bool, r string) (fastURL, bool) {
	f.https = https
	if https {
		f.b = append(f.b, "https://"...)
	} else {
		f.b = append(f.b, "http://"...)
	}
	end := strings.IndexAny(r, "/?")
	if end < 0 {
		end = len(r)
	}
	host, port, hasPort := strings.Cut(r[:end], ":")
	ok := true
	f.hostStart = len(f.b)
	if f.b, ok = appendHost(f.b, host); !ok {
		return f, false
	}
	f.hostEnd = len(f.b)
	if hasPort {
		if f.b, ok = appendPort(f.b, port, https); !ok {
			return f, false
		}
	}
	f.pathStart = len(f.b)
	// The path start state: with no "/", the path is one empty segment.
	return f.path(r[end:], true)
}

// appendHost appends an LDH domain name in lower case, or reports false.
func appendHost(b []byte, h string) ([]byte, bool) {
	if h == "" || h[0] == '.' || h[len(h)-1] == '.' {
		return b, false
	}
	label := 0 // index where the current label starts
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-':
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == '.':
			if i == label {
				return b, false // empty label
			}
			label = i + 1
		default:
			return b, false
		}
		if i == label+3 && c == '-' && equalFoldASCII(h[label:label+4], "xn--") {
			return b, false
		}
		b = append(b, c)
	}
	return b, isASCIIAlpha(h[label])
}

// appendPort appends ":" and the port unless it is the scheme's default,
// or reports false.
func appendPort(b []byte, p string, https bool) ([]byte, bool) {
	if p == "" || len(p) > 5 {
		return b, false
	}
	v := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return b, false
		}
		v = v*10 + int(p[i]-'0')
	}
	if v == 0 || v > 65535 {
		return b, false
	}
	if https && v == 443 || !https && v == 80 {
		return b, true
	}
	return appendUint(append(b, ':'), v), true
}

func appendUint(b []byte, v int) []byte {
	var d [5]byte
	i := len(d)
	for {
		i--
		d[i] = byte('0' + v%10)
		if v /= 10; v == 0 {
			break
		}
	}
	return append(b, d[i:]...)
}

// path appends the path segments of r up to its query and then the query.
// skipSlash says r starts the path with a "/" that is not a segment (an
// absolute path); otherwise r's first segment is relative to what f.b holds.
// An empty r is one empty segment.
func (f fastURL) path(r string, skipSlash bool) (fastURL, bool) {
	p, q, hasQuery := strings.Cut(r, "?")
	if containsDotEscape(p) {
		return f, false
	}
	if skipSlash && p != "" {
		p = p[1:]
	}
	for {
		seg, rest, more := strings.Cut(p, "/")
		switch seg {
		case "..":
			f = f.shorten()
			if !more {
				f.b = append(f.b, '/')
			}
		case ".":
			if !more {
				f.b = append(f.b, '/')
			}
		default:
			f.b = append(f.b, '/')
			f.b = appendEncoded(f.b, seg, pathEncode)
		}
		if !more {
			break
		}
		p = rest
	}
	return f.query(q, hasQuery), true
}

// shorten removes the last path segment, as the WHATWG "shorten a path".
func (f fastURL) shorten() fastURL {
	if len(f.b) > f.pathStart {
		f.b = f.b[:f.pathStart+bytes.LastIndexByte(f.b[f.pathStart:], '/')]
	}
	return f
}

// query appends "?" and the query q when there is one and it is not empty.
func (f fastURL) query(q string, has bool) fastURL {
	f.queryAt = len(f.b)
	if has && q != "" {
		f.b = append(f.b, '?')
		f.b = appendEncoded(f.b, q, queryEncode)
	}
	return f
}

// The WHATWG percent-encode sets of the path and of a special URL's query,
// for the bytes plainBytes lets through (space, printable ASCII and UTF-8);
// bytes from 0x80 up are always encoded.
var pathEncode, queryEncode = encodeSet(" \"<>`{}"), encodeSet(" \"<>'")

func encodeSet(chars string) (set [128]bool) {
	for i := 0; i < len(chars); i++ {
		set[chars[i]] = true
	}
	return set
}

// appendEncoded appends s percent-encoded with set, its escapes normalised as
// normEscapes does: unreserved ones decoded, others upper-cased, and a "%"
// that starts none written "%25".
func appendEncoded(b []byte, s string, set [128]bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80 || set[c]:
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		case c != '%':
			b = append(b, c)
		default:
			b, i = appendPercent(b, s, i)
		}
	}
	return b
}

// containsDotEscape reports whether s contains "%2e" in any case, which could
// make a segment a dot segment to the parser.
func containsDotEscape(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '%' && s[i+1] == '2' && (s[i+2] == 'e' || s[i+2] == 'E') {
			return true
		}
	}
	return false
}

// trimC0Space removes leading and trailing bytes up to and including space,
// as the parser removes leading and trailing C0 controls and spaces.
func trimC0Space(s string) string {
	for s != "" && s[0] <= ' ' {
		s = s[1:]
	}
	for s != "" && s[len(s)-1] <= ' ' {
		s = s[:len(s)-1]
	}
	return s
}

// plainBytes reports whether s holds only space, printable ASCII other than
// backslash, and valid UTF-8.
func plainBytes(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			ascii = false
		case c < ' ' || c == '\\' || c == 0x7F:
			return false
		}
	}
	return ascii || utf8.ValidString(s)
}
