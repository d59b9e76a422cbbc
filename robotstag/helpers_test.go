package robotstag

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// agent is the product token the tests crawl as.
const agent = "Mandelbot"

// testNow is the instant the tests evaluate Indexable at.
func testNow() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }

// response is what a loopback test server answers.
type response struct {
	contentType string // "" sends no Content-Type at all (sniffing off)
	header      []string
	body        string
}

// fetch serves r from a real HTTP server on 127.0.0.1 and returns the
// client's view of it; server and body are closed when the test ends.
// Header lines in r.header are "Name: value" and are sent as separate
// field lines, in order.
func fetch(t *testing.T, r response) *http.Response {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if r.contentType == "" {
			w.Header()["Content-Type"] = nil // suppress net/http's sniffing
		} else {
			w.Header().Set("Content-Type", r.contentType)
		}
		for _, line := range r.header {
			k, v, _ := strings.Cut(line, ":")
			w.Header().Add(k, strings.TrimLeft(v, " "))
		}
		io.WriteString(w, r.body)
	}))
	t.Cleanup(srv.Close)
	resp, err := srv.Client().Get(srv.URL + "/page")
	if err != nil {
		t.Fatalf("GET: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// forResponse fetches r over loopback and applies the whole rule (For) to
// the response as a crawler would.
func forResponse(t *testing.T, r response) Directives {
	t.Helper()
	resp := fetch(t, r)
	d, err := For(resp.Header.Get("Content-Type"), resp.Header, resp.Body, agent)
	if err != nil {
		t.Fatalf("For: %v", err)
	}
	return d
}

// htmlPage wraps head markup in a minimal document.
func htmlPage(head string) string {
	return "<!doctype html><html><head><title>t</title>" + head + "</head><body><p>hello</p></body></html>"
}

// fromHTML runs FromHTML with the default limit and fails the test on error.
func fromHTML(t *testing.T, doc string) Directives {
	t.Helper()
	d, err := FromHTML(strings.NewReader(doc), agent, 0)
	if err != nil {
		t.Fatalf("FromHTML: %v", err)
	}
	return d
}

// hasNote reports whether some note contains all the fragments.
func hasNote(d Directives, fragments ...string) bool {
	for _, n := range d.Notes {
		all := true
		for _, f := range fragments {
			all = all && strings.Contains(n, f)
		}
		if all {
			return true
		}
	}
	return false
}
