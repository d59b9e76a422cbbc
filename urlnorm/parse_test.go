package urlnorm

import (
	"errors"
	"strings"
	"testing"
)

// TestParseCanonical has one block of cases per rule of the canonical form
// (doc.go, URL.String). Percent-escape cases are docs/robots-rules.md rule 13.
func TestParseCanonical(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// The brief's example: case, default port, dot segments, fragment.
		{"brief example", "http://EXAMPLE.com:80/a/../b/./c?x#y", "http://example.com/b/c?x"},

		// Scheme and host are case-insensitive; the path is not (seed 000:
		// paths are case sensitive).
		{"scheme and host lower-cased", "HTTP://WWW.Example.COM/", "http://www.example.com/"},
		{"path case kept", "http://example.com/Dogs/Barking.HTML", "http://example.com/Dogs/Barking.HTML"},

		// IDNA (UTS #46, non-transitional) to punycode.
		{"IDN to punycode", "http://Bücher.example/", "http://xn--bcher-kva.example/"},
		{"IDN non-transitional sharp s", "http://faß.de/", "http://xn--fa-hia.de/"},
		{"IDN fullwidth mapped", "http://ｅｘａｍｐｌｅ.com/", "http://example.com/"},
		{"punycode kept", "http://xn--bcher-kva.example/", "http://xn--bcher-kva.example/"},
		{"escaped host decoded", "http://%65xample.com/", "http://example.com/"},

		// One trailing dot (the DNS root) is dropped.
		{"trailing dot dropped", "http://example.com./x", "http://example.com/x"},
		{"trailing dot dropped with port", "http://example.com.:8080/", "http://example.com:8080/"},

		// Default ports folded; others kept.
		{"http default port", "http://example.com:80/", "http://example.com/"},
		{"https default port", "https://example.com:443/", "https://example.com/"},
		{"443 is not http's default", "http://example.com:443/", "http://example.com:443/"},
		{"80 is not https's default", "https://example.com:80/", "https://example.com:80/"},
		{"port leading zeros", "http://example.com:0080/", "http://example.com/"},
		{"port leading zeros kept value", "http://example.com:08080/", "http://example.com:8080/"},
		{"empty port", "http://example.com:/", "http://example.com/"},
		{"highest port", "http://example.com:65535/", "http://example.com:65535/"},

		// IP literals in WHATWG canonical form.
		{"IPv4 hex and short", "http://0x7f.1/", "http://127.0.0.1/"},
		{"IPv4 single number", "http://2130706433/", "http://127.0.0.1/"},
		{"IPv4 trailing dot", "http://127.0.0.1./", "http://127.0.0.1/"},
		{"IPv6 loopback", "http://[::1]/", "http://[::1]/"},
		{"IPv6 compressed, port kept", "http://[0:0:0:0:0:0:0:1]:8080/", "http://[::1]:8080/"},
		{"IPv6 lower-cased", "http://[2001:DB8::A]/", "http://[2001:db8::a]/"},
		{"IPv6 with IPv4 tail", "http://[::FFFF:1.2.3.4]/", "http://[::ffff:102:304]/"},
		{"IPv6 default port", "http://[::1]:80/", "http://[::1]/"},

		// User info dropped: a crawler does not send credentials found in links.
		{"user and password dropped", "http://user:pw@example.com/", "http://example.com/"},
		{"empty user info dropped", "http://@example.com/", "http://example.com/"},
		{"last @ ends user info", "http://a@b@example.com/x", "http://example.com/x"},
		{"user info with port", "https://u:p@example.com:8443/", "https://example.com:8443/"},
		{"@ in path is not user info", "http://example.com/a@b", "http://example.com/a@b"},

		// Fragment dropped (rule 12: never part of what is requested).
		{"fragment dropped", "http://example.com/a#b", "http://example.com/a"},
		{"empty fragment dropped", "http://example.com/a#", "http://example.com/a"},
		{"? inside fragment", "http://example.com/a?b#c?d", "http://example.com/a?b"},

		// Dot segments resolved; empty path is "/" (rule 12).
		{"dot segments above root", "http://example.com/a/b/../../../c", "http://example.com/c"},
		{"escaped dot segments", "http://example.com/a/%2e%2E/b", "http://example.com/b"},
		{"single dot keeps directory", "http://example.com/a/./", "http://example.com/a/"},
		{"empty path", "http://example.com", "http://example.com/"},
		{"empty path with query", "http://example.com?x", "http://example.com/?x"},

		// Non-ASCII and unsafe bytes percent-encoded as UTF-8 (rule 13).
		{"non-ASCII path", "http://example.com/ü", "http://example.com/%C3%BC"},
		{"space in path", "http://example.com/a b", "http://example.com/a%20b"},
		{"unsafe ASCII in path", "http://example.com/\"<>`{}", "http://example.com/%22%3C%3E%60%7B%7D"},
		{"invalid UTF-8 as U+FFFD", "http://example.com/\xff", "http://example.com/%EF%BF%BD"},

		// Escapes: unreserved decoded, reserved kept, hex upper-cased (rule 13).
		{"escaped tilde decoded", "http://example.com/%7euser", "http://example.com/~user"},
		{"escaped letters decoded", "http://example.com/%41%62%2D%5f%2e", "http://example.com/Ab-_."},
		{"escaped slash kept", "http://example.com/a%2Fb", "http://example.com/a%2Fb"},
		{"escaped slash upper-cased", "http://example.com/a%2fb", "http://example.com/a%2Fb"},
		{"escaped UTF-8 upper-cased", "http://example.com/%c3%bc", "http://example.com/%C3%BC"},
		{"escaped space kept", "http://example.com/a%20b", "http://example.com/a%20b"},
		{"escaped percent kept", "http://example.com/100%25", "http://example.com/100%25"},
		{"escaped star and dollar kept", "http://example.com/%2a%24", "http://example.com/%2A%24"},

		// A lone "%" becomes %25 (doc.go), so no escape can be formed later.
		{"lone percent at end", "http://example.com/100%", "http://example.com/100%25"},
		{"percent without hex", "http://example.com/%zz", "http://example.com/%25zz"},
		{"decoding does not complete an escape", "http://example.com/%7%41", "http://example.com/%257A"},
		{"lone percent in query", "http://example.com/?q=100%", "http://example.com/?q=100%25"},

		// The query is kept as written: order, repeats, "+", "&", "=".
		{"query not sorted", "http://example.com/?b=2&a=1&b=1", "http://example.com/?b=2&a=1&b=1"},
		{"query plus and escaped plus differ", "http://example.com/?q=a+b&r=%2B", "http://example.com/?q=a+b&r=%2B"},
		{"query escapes normalised", "http://example.com/?q=%7e%2f%3d", "http://example.com/?q=~%2F%3D"},
		{"query non-ASCII as UTF-8", "http://example.com/?q=ü", "http://example.com/?q=%C3%BC"},
		{"query apostrophe (WHATWG special query set)", "http://example.com/?q='", "http://example.com/?q=%27"},
		{"query keeps slashes and dots", "http://example.com/?u=http://x/../y", "http://example.com/?u=http://x/../y"},
		{"empty query dropped", "http://example.com/a?", "http://example.com/a"},
		{"empty query and fragment dropped", "http://example.com/a?#x", "http://example.com/a"},

		// Forgiving like a browser.
		{"surrounding spaces and controls", " \x00\x1f http://example.com/a \n", "http://example.com/a"},
		{"tabs and newlines inside", "ht\ttp://exa\nmple.com/a\r\nb", "http://example.com/ab"},
		{"backslashes", "http:\\\\example.com\\a\\b", "http://example.com/a/b"},
		{"no slashes after scheme", "http:example.com/x", "http://example.com/x"},
		{"three slashes after scheme", "http:///example.com/x", "http://example.com/x"},

		// Deliberately not normalised: a site may mean different things.
		{"double slash kept", "http://example.com/a//b", "http://example.com/a//b"},
		{"trailing slash kept", "http://example.com/a/", "http://example.com/a/"},
		{"index.html kept", "http://example.com/index.html", "http://example.com/index.html"},
		{"www kept", "http://www.example.com/", "http://www.example.com/"},
		{"underscore host kept", "http://my_host.example.com/", "http://my_host.example.com/"},
		{"raw pipe and caret kept", "http://example.com/a|b^c", "http://example.com/a|b^c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if got := u.String(); got != tt.want {
				t.Errorf("Parse(%q) = %q, want %q", tt.in, got, tt.want)
			}
			v, err := Parse(u.String())
			if err != nil || v.String() != u.String() {
				t.Errorf("canonical form %q is not a fixed point: %v, %v", u, v, err)
			}
		})
	}
}

// TestParseErrors has one block of cases per refusal reason.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     error
	}{
		// Not http(s): the extractor counts and skips these.
		{"javascript", "javascript:alert(1)", ErrScheme},
		{"javascript mixed case", "JavaScript:void(0)", ErrScheme},
		{"javascript hidden by whitespace", " java\tscr\nipt:alert(1)", ErrScheme},
		{"mailto", "mailto:someone@example.com", ErrScheme},
		{"data", "data:text/html,<b>hi</b>", ErrScheme},
		{"tel", "tel:+15551234", ErrScheme},
		{"ftp", "ftp://example.com/file", ErrScheme},
		{"file", "file:///etc/passwd", ErrScheme},
		{"ws", "ws://example.com/socket", ErrScheme},
		{"httpx", "httpx://example.com/", ErrScheme},
		{"relative path", "/a/b", ErrScheme},
		{"protocol-relative", "//example.com/", ErrScheme},
		{"bare host", "example.com/x", ErrScheme},
		{"host:port reads as a scheme", "localhost:8080", ErrScheme},
		{"empty", "", ErrScheme},
		{"only spaces", "   ", ErrScheme},

		{"no host", "http://", ErrNoHost},
		{"no host, slashes", "http:///", ErrNoHost},
		{"no host, port", "http://:80/", ErrNoHost},
		{"no host, query", "https://?x", ErrNoHost},
		{"no host, fragment", "http://#x", ErrNoHost},
		{"user info but no host", "http://user@/x", ErrNoHost},
		{"user info but only whitespace", "http://user@\t", ErrNoHost},

		{"port 0", "http://example.com:0/", ErrPort},
		{"port 0 with zeros", "http://example.com:000/", ErrPort},
		{"port above 65535", "http://example.com:65536/", ErrPort},
		{"port overflow", "http://example.com:99999999999999999999/", ErrPort},
		{"port not a number", "http://example.com:8o/", ErrPort},
		{"two ports", "http://example.com:80:80/", ErrPort},

		{"space in host", "http://exa mple.com/", ErrInvalid},
		{"escaped NUL in host", "http://exa%00mple.com/", ErrInvalid},
		{"forbidden host code point", "http://exa<mple.com/", ErrInvalid},
		{"percent in host", "http://exa%mple.com/", ErrInvalid},
		{"unclosed IPv6", "http://[::1/", ErrInvalid},
		{"short IPv6", "http://[1:2:3]/", ErrInvalid},
		{"IPv6 zone id", "http://[fe80::1%25eth0]/", ErrInvalid},
		{"five IPv4 parts", "http://1.2.3.4.5/", ErrInvalid},
		{"IPv4 part too big", "http://256.1.1.1/", ErrInvalid},
		{"name ending in a number", "http://foo.123/", ErrInvalid},
		{"bad punycode", "http://xn--a.example/", ErrInvalid},
		{"invalid UTF-8 host", "http://\xff.example/", ErrInvalid},
		{"empty label", "http://example..com/", ErrInvalid},
		{"leading dot", "http://.example.com/", ErrInvalid},
		{"two trailing dots", "http://example.com../", ErrInvalid},
		{"only a dot", "http://./", ErrInvalid},

		{"input too long", "http://example.com/" + strings.Repeat("a", MaxURLLength), ErrTooLong},
		{"canonical form too long", "http://example.com/" + strings.Repeat("ü", MaxURLLength/3), ErrTooLong},
		{"too many path segments", "http://example.com" + strings.Repeat("/a", MaxPathSegments+1), ErrTooLong},
		{"too many slashes to parse", "http://example.com/" + strings.Repeat("./", 2*MaxPathSegments), ErrTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := Parse(tt.in)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse(%.80q) = %v, %v; want %v", tt.in, u, err, tt.want)
			}
			checkReason(t, err)
		})
	}
}

// TestParseAtLimits: inputs exactly at each limit pass.
func TestParseAtLimits(t *testing.T) {
	prefix := "http://example.com/"
	atLength := prefix + strings.Repeat("a", MaxURLLength-len(prefix))
	if _, err := Parse(atLength); err != nil {
		t.Errorf("URL of exactly MaxURLLength bytes: %v", err)
	}
	atSegments := "http://example.com" + strings.Repeat("/a", MaxPathSegments)
	if _, err := Parse(atSegments); err != nil {
		t.Errorf("path of exactly MaxPathSegments segments: %v", err)
	}
	// Dot segments below the limit after resolution are fine even when the
	// input has more slashes than segments.
	dots := "http://example.com/" + strings.Repeat("a/../", MaxPathSegments/2) + "b"
	if u, err := Parse(dots); err != nil || u.Path() != "/b" {
		t.Errorf("Parse(dots) = %v, %v; want path /b", u, err)
	}
}

// TestParserOptions: the Parser's limits are configurable; zero means default.
func TestParserOptions(t *testing.T) {
	p := Parser{MaxLength: 30, MaxPathSegments: 3}
	if _, err := p.Parse("http://example.com/a/b/c"); err != nil {
		t.Errorf("24 bytes, 3 segments: %v", err)
	}
	if _, err := p.Parse("http://example.com/abcdefghijkl"); !errors.Is(err, ErrTooLong) {
		t.Errorf("31 bytes with MaxLength 30: %v, want ErrTooLong", err)
	}
	// The canonical form counts too: 3 bytes of "ü" become 6 escaped ones.
	if _, err := p.Parse("http://example.com/üüü"); !errors.Is(err, ErrTooLong) {
		t.Errorf("canonical form of 36 bytes: %v, want ErrTooLong", err)
	}
	if _, err := p.Parse("http://example.com/a/b/c/d"); !errors.Is(err, ErrTooLong) {
		t.Errorf("4 segments with MaxPathSegments 3: %v, want ErrTooLong", err)
	}
	var zero Parser
	if _, err := zero.Parse("http://example.com/" + strings.Repeat("a", 1000)); err != nil {
		t.Errorf("zero Parser uses the defaults: %v", err)
	}
}

// TestErrorValue: errors name the operation and the input, keep the
// library's cause, and do not carry an 8 KiB URL into logs.
func TestErrorValue(t *testing.T) {
	_, err := Parse("http://example.com:99999/")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%v is not an *Error", err)
	}
	if e.Op != "parse" || e.Input != "http://example.com:99999/" || e.Err != ErrPort || e.Cause == nil {
		t.Errorf("Error = %+v", e)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, `urlnorm: parse "http://example.com:99999/": invalid port`) {
		t.Errorf("message %q", msg)
	}

	_, err = Resolve(mustParse(t, "http://example.com/"), "mailto:x@example.com")
	if !errors.As(err, &e) || e.Op != "resolve" || !strings.Contains(err.Error(), `"mailto"`) {
		t.Errorf("resolve error %v", err)
	}

	long := "http://example.com/" + strings.Repeat("é", MaxURLLength)
	_, err = Parse(long)
	if !errors.As(err, &e) || len(e.Input) > maxErrorInput+len("...") || !strings.HasSuffix(e.Input, "...") {
		t.Errorf("input kept in error: %d bytes", len(e.Input))
	}
	if !strings.HasPrefix(long, strings.TrimSuffix(e.Input, "...")) {
		t.Errorf("cut input is not a prefix (split UTF-8?)")
	}
}

func mustParse(t testing.TB, s string) *URL {
	t.Helper()
	u, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return u
}
