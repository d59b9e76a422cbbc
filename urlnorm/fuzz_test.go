package urlnorm

import (
	"errors"
	"testing"

	wurl "github.com/nlnwa/whatwg-url/url"
)

// fuzzSeeds are inputs that exercise each rule; the corpus adds real URLs.
var fuzzSeeds = []string{
	"http://EXAMPLE.com:80/a/../b/./c?x#y",
	"HTTPS://Bücher.example./%7euser/%c3%a9?q=%41%2f",
	"http://[::1]:8080/x",
	"http://0x7f.1/",
	"http://user:pw@example.com/",
	"  java\tscript:alert(1)",
	"//example.com/x",
	"../a/./b?c#d",
	"http:\\\\example.com\\a",
	"http://example.com:0/",
	"http://example.com../",
	"http://a.com/%zz?%",
	"data:text/html,hi",
	"http://example.com/\xff",
}

// FuzzParse: Parse never panics, every refusal wraps one sentinel, and the
// canonical form is a fixed point (Parse(u.String()).String() == u.String()).
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := Parse(raw)
		want, wantErr := slowResolve(nil, raw)
		if (err == nil) != (wantErr == nil) || err == nil && u.String() != want.String() {
			t.Fatalf("Parse(%q) = %v, %v; slow path %v, %v", raw, u, err, want, wantErr)
		}
		if err != nil {
			checkReason(t, err)
			return
		}
		v, err := Parse(u.String())
		if err != nil {
			t.Fatalf("Parse(%q) = %q, but that does not parse: %v", raw, u, err)
		}
		if *v != *u {
			t.Fatalf("not idempotent: %q -> %+v -> %+v", raw, *u, *v)
		}
		checkParts(t, u)
	})
}

// slowResolve is Resolve without the shortcuts: no scheme pre-check, and the
// base always given to the WHATWG parser.
func slowResolve(base *URL, ref string) (*URL, error) {
	if len(ref) > MaxURLLength {
		return nil, ErrTooLong
	}
	var w *wurl.Url
	var err error
	if base == nil {
		w, err = whatwg.Parse(ref)
	} else {
		w, err = whatwg.ParseRef(base.String(), ref)
	}
	if err != nil {
		return nil, err
	}
	u, _, kind := canonicalize(w)
	if kind != nil {
		return nil, kind
	}
	if len(u.String()) > MaxURLLength {
		return nil, ErrTooLong
	}
	return u, nil
}

// FuzzResolve: Resolve never panics, agrees with resolving through the
// WHATWG parser with the base always present (so the shortcuts in parse are
// exact), and gives canonical results.
func FuzzResolve(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add("http://example.com/a/b/c?q", s)
		f.Add("https://example.com:8443/dir/", s)
	}
	f.Fuzz(func(t *testing.T, baseRaw, ref string) {
		base, err := Parse(baseRaw)
		if err != nil {
			return
		}
		u, err := Resolve(base, ref)
		want, wantErr := slowResolve(base, ref)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("Resolve(%q, %q) = %v, %v; slow path %v, %v", base, ref, u, err, want, wantErr)
		}
		if err != nil {
			checkReason(t, err)
			return
		}
		if *u != *want {
			t.Fatalf("Resolve(%q, %q) = %+v; slow path %+v", base, ref, *u, *want)
		}
		if v, err := Parse(u.String()); err != nil || *v != *u {
			t.Fatalf("Resolve(%q, %q) = %+v, which re-parses as %v, %v", base, ref, *u, v, err)
		}
	})
}

// checkReason fails unless err is an *Error wrapping exactly one sentinel.
func checkReason(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	n := 0
	for _, s := range []error{ErrTooLong, ErrScheme, ErrNoHost, ErrPort, ErrInvalid} {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("error %v wraps %d sentinels, want 1", err, n)
	}
}

// checkParts checks that the accessors slice the canonical form consistently.
func checkParts(t *testing.T, u *URL) {
	t.Helper()
	s := u.String()
	if got := u.Origin() + u.PathAndQuery(); got != s {
		t.Fatalf("%q: Origin+PathAndQuery = %q", s, got)
	}
	pq := u.PathAndQuery()
	if pq == "" || pq[0] != '/' {
		t.Fatalf("%q: PathAndQuery %q does not start with /", s, pq)
	}
	want := u.Path()
	if q := u.Query(); q != "" {
		want += "?" + q
	}
	if pq != want {
		t.Fatalf("%q: Path+?+Query = %q, PathAndQuery %q", s, want, pq)
	}
	if sc := u.Scheme(); sc != "http" && sc != "https" {
		t.Fatalf("%q: scheme %q", s, sc)
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7F || 'A' <= s[i] && s[i] <= 'Z' && i < len(u.Origin()) {
			t.Fatalf("%q: byte %q at %d (not printable ASCII, or upper case before the path)", s, s[i], i)
		}
	}
	if u.Host() == "" || u.Port() == "" || u.Port() == "0" {
		t.Fatalf("%q: host %q port %q", s, u.Host(), u.Port())
	}
}
