package urlnorm

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestRequestURLOnTheWire: a request built from RequestURL reaches a real
// server on loopback with exactly PathAndQuery as its target, the string
// robots.txt was matched against (docs/robots-rules.md rule 12), and the
// canonical authority as Host. The paths are ones net/url would otherwise
// re-escape ("|", "^", "[", "]") or refuse ("%zz", here "%25zz").
func TestRequestURLOnTheWire(t *testing.T) {
	type seen struct{ target, host string }
	got := make(chan seen, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.RequestURI, r.Host}
	}))
	t.Cleanup(srv.Close)

	paths := []string{
		"/plain",
		"/a|b^c[d]",
		"/%zz",
		"/a%2Fb%2fc",
		"/ü b",
		"/!$&'()*+,;=:@",
		"/q?a=1&b=%2B&c=+&d=|&e=ü",
		"/a/../b/./c",
		"/earn$?x=*",
	}
	for _, p := range paths {
		u := mustParse(t, srv.URL+p)
		req := (&http.Request{Method: http.MethodGet, URL: u.RequestURL(), Header: http.Header{}}).WithContext(t.Context())
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		resp.Body.Close()
		s := <-got
		if s.target != u.PathAndQuery() {
			t.Errorf("%s: server saw target %q, want %q", u, s.target, u.PathAndQuery())
		}
		if s.host != u.authority() {
			t.Errorf("%s: server saw Host %q, want %q", u, s.host, u.authority())
		}
	}
}

// TestRequestURLFresh: the caller owns the returned value.
func TestRequestURLFresh(t *testing.T) {
	u := mustParse(t, "https://example.com:8443/a?b")
	r1 := u.RequestURL()
	r1.Opaque = "/changed"
	r2 := u.RequestURL()
	if r2.Opaque != "/a?b" || r2.Host != "example.com:8443" || r2.Scheme != "https" {
		t.Errorf("RequestURL = %+v", r2)
	}
}
