package urlnorm

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

// TestResolveRFC3986 runs the reference resolution examples of RFC 3986
// §5.4.1 (normal) and §5.4.2 (abnormal) against their base
// "http://a/b/c/d;p?q", written in canonical form (fragments dropped, "http://g"
// with its "/"). "g:h" is not http(s), so it is refused; "http:g" is
// resolved as browsers do (the RFC's "backward compatible" answer).
func TestResolveRFC3986(t *testing.T) {
	base := mustParse(t, "http://a/b/c/d;p?q")
	tests := []struct{ ref, want string }{
		// §5.4.1
		{"g", "http://a/b/c/g"},
		{"./g", "http://a/b/c/g"},
		{"g/", "http://a/b/c/g/"},
		{"/g", "http://a/g"},
		{"//g", "http://g/"},
		{"?y", "http://a/b/c/d;p?y"},
		{"g?y", "http://a/b/c/g?y"},
		{"#s", "http://a/b/c/d;p?q"},
		{"g#s", "http://a/b/c/g"},
		{"g?y#s", "http://a/b/c/g?y"},
		{";x", "http://a/b/c/;x"},
		{"g;x", "http://a/b/c/g;x"},
		{"g;x?y#s", "http://a/b/c/g;x?y"},
		{"", "http://a/b/c/d;p?q"},
		{".", "http://a/b/c/"},
		{"./", "http://a/b/c/"},
		{"..", "http://a/b/"},
		{"../", "http://a/b/"},
		{"../g", "http://a/b/g"},
		{"../..", "http://a/"},
		{"../../", "http://a/"},
		{"../../g", "http://a/g"},
		// §5.4.2
		{"../../../g", "http://a/g"},
		{"../../../../g", "http://a/g"},
		{"/./g", "http://a/g"},
		{"/../g", "http://a/g"},
		{"g.", "http://a/b/c/g."},
		{".g", "http://a/b/c/.g"},
		{"g..", "http://a/b/c/g.."},
		{"..g", "http://a/b/c/..g"},
		{"./../g", "http://a/b/g"},
		{"./g/.", "http://a/b/c/g/"},
		{"g/./h", "http://a/b/c/g/h"},
		{"g/../h", "http://a/b/c/h"},
		{"g;x=1/./y", "http://a/b/c/g;x=1/y"},
		{"g;x=1/../y", "http://a/b/c/y"},
		{"g?y/./x", "http://a/b/c/g?y/./x"},
		{"g?y/../x", "http://a/b/c/g?y/../x"},
		{"g#s/./x", "http://a/b/c/g"},
		{"g#s/../x", "http://a/b/c/g"},
		{"http:g", "http://a/b/c/g"},
	}
	for _, tt := range tests {
		u, err := Resolve(base, tt.ref)
		if err != nil {
			t.Errorf("Resolve(%q): %v", tt.ref, err)
			continue
		}
		if u.String() != tt.want {
			t.Errorf("Resolve(%q) = %q, want %q", tt.ref, u, tt.want)
		}
	}
	if _, err := Resolve(base, "g:h"); !errors.Is(err, ErrScheme) {
		t.Errorf(`Resolve("g:h") = %v, want ErrScheme`, err)
	}
}

// TestResolveBrowser: what links in real pages look like, resolved as a
// browser resolves them (WHATWG URL standard).
func TestResolveBrowser(t *testing.T) {
	base := mustParse(t, "https://example.com/dir/page.html?x=1")
	tests := []struct {
		name, ref, want string
	}{
		{"absolute", "http://other.example/a", "http://other.example/a"},
		{"absolute, same scheme", "https://other.example/a", "https://other.example/a"},
		{"protocol-relative takes base scheme", "//cdn.example/x.js", "https://cdn.example/x.js"},
		{"protocol-relative with port and user info", "//user:pw@cdn.example:443/x", "https://cdn.example/x"},
		{"root-relative", "/top", "https://example.com/top"},
		{"relative", "other.html", "https://example.com/dir/other.html"},
		{"query only", "?page=2", "https://example.com/dir/page.html?page=2"},
		{"fragment only", "#top", "https://example.com/dir/page.html?x=1"},
		{"empty", "", "https://example.com/dir/page.html?x=1"},
		{"empty query", "?", "https://example.com/dir/page.html"},
		{"surrounding whitespace", " \t\n/a \n", "https://example.com/a"},
		{"newlines and tabs inside", "/a\n/b\t/c", "https://example.com/a/b/c"},
		{"backslashes", "..\\up\\x", "https://example.com/up/x"},
		{"protocol-relative with backslashes", "\\\\cdn.example\\x", "https://cdn.example/x"},
		{"non-ASCII", "ü?q=ü", "https://example.com/dir/%C3%BC?q=%C3%BC"},
		{"space", "a b.html", "https://example.com/dir/a%20b.html"},
		{"other scheme, no slashes, is absolute", "http:other.example/a", "http://other.example/a"},
		{"same scheme, no slashes, is relative", "https:next.html", "https://example.com/dir/next.html"},
		{"same scheme, one slash, is root-relative", "https:/top", "https://example.com/top"},
		{"same scheme, backslashes, is authority", "https:\\\\other.example\\a", "https://other.example/a"},
		{"upper-case scheme", "HTTPS://Example.COM/", "https://example.com/"},
		{"escape normalisation", "%7euser/%2f", "https://example.com/dir/~user/%2F"},
		{"dot segments above root", "../../../../x", "https://example.com/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := Resolve(base, tt.ref)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.ref, err)
			}
			if u.String() != tt.want {
				t.Errorf("Resolve(%q) = %q, want %q", tt.ref, u, tt.want)
			}
		})
	}
}

// TestResolveKeepsIPHost: a reference that takes its host from the base
// keeps knowing the host is an IP address (the WHATWG library does not carry
// that over; found by review).
func TestResolveKeepsIPHost(t *testing.T) {
	tests := []struct{ base, host, hostPort string }{
		{"http://127.0.0.1:8080/a/b", "127.0.0.1", "127.0.0.1:8080"},
		{"http://[::1]/a/b", "::1", "[::1]:80"},
		{"https://[2001:db8::1]:8443/a/b", "2001:db8::1", "[2001:db8::1]:8443"},
	}
	for _, tt := range tests {
		base := mustParse(t, tt.base)
		for _, ref := range []string{"x", "/x", "?q", ""} {
			u, err := Resolve(base, ref)
			if err != nil {
				t.Fatalf("Resolve(%s, %q): %v", base, ref, err)
			}
			if !u.IsIP() || u.Host() != tt.host || u.HostPort() != tt.hostPort {
				t.Errorf("Resolve(%s, %q) = %s: IsIP %v Host %q HostPort %q", base, ref, u, u.IsIP(), u.Host(), u.HostPort())
			}
		}
	}
}

// TestResolveErrors: links the crawler must not follow fail with a reason.
func TestResolveErrors(t *testing.T) {
	base := mustParse(t, "http://example.com/a/b")
	tests := []struct {
		name, ref string
		want      error
	}{
		{"javascript", "javascript:void(0)", ErrScheme},
		{"javascript with whitespace", "  JAVA\nSCRIPT:alert(1)", ErrScheme},
		{"mailto", "mailto:someone@example.com", ErrScheme},
		{"data", "data:image/png;base64,iVBORw0KGgo=", ErrScheme},
		{"tel", "tel:+15551234", ErrScheme},
		{"ftp", "ftp://example.com/", ErrScheme},
		{"no host", "http://", ErrNoHost},
		{"protocol-relative, no host", "///", ErrNoHost},
		{"protocol-relative user info, no host", "//user@/x", ErrNoHost},
		{"port 0", "//example.com:0/", ErrPort},
		{"bad IPv6", "//[::1/", ErrInvalid},
		{"too long", "/" + strings.Repeat("a", MaxURLLength), ErrTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := Resolve(base, tt.ref)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Resolve(%.60q) = %v, %v; want %v", tt.ref, u, err, tt.want)
			}
			checkReason(t, err)
		})
	}
}

// TestResolveResultTooLong: the limit applies to the result, not only the
// reference: a short reference against a long base can exceed it.
func TestResolveResultTooLong(t *testing.T) {
	p := Parser{MaxLength: 40}
	base, err := p.Parse("http://example.com/" + strings.Repeat("d", 15) + "/")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Resolve(base, strings.Repeat("f", 5)); err != nil {
		t.Errorf("40-byte result: %v", err)
	}
	if _, err := p.Resolve(base, strings.Repeat("f", 6)); !errors.Is(err, ErrTooLong) {
		t.Errorf("41-byte result: %v, want ErrTooLong", err)
	}
}

// TestResolveNilBase: a nil base makes Resolve behave as Parse.
func TestResolveNilBase(t *testing.T) {
	u, err := Resolve(nil, "HTTP://Example.com")
	if err != nil || u.String() != "http://example.com/" {
		t.Errorf("Resolve(nil, absolute) = %v, %v", u, err)
	}
	if _, err := Resolve(nil, "/relative"); !errors.Is(err, ErrScheme) {
		t.Errorf("Resolve(nil, relative) = %v, want ErrScheme", err)
	}
}

// TestConcurrentUse: a Parser and a base URL are shared by many goroutines
// (run with -race to check the claim of the doc comments).
func TestConcurrentUse(t *testing.T) {
	p := &Parser{}
	base := mustParse(t, "http://example.com/a/b?q")
	refs := []string{"c", "../d", "?x", "#f", "//other.example/", "https://x.example/", "javascript:x"}
	want := make([]string, len(refs))
	for i, r := range refs {
		if u, err := p.Resolve(base, r); err == nil {
			want[i] = u.String()
		}
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Go(func() {
			for n := 0; n < 50; n++ {
				for i, r := range refs {
					got := ""
					if u, err := p.Resolve(base, r); err == nil {
						got = u.String()
					}
					if got != want[i] {
						t.Errorf("Resolve(%q) = %q, want %q", r, got, want[i])
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
