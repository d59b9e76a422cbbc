package robots

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/fetch"
)

var clock = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func newClient(t *testing.T) *fetch.Client {
	t.Helper()
	c, err := fetch.New(fetch.Options{AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func fetchAt(t *testing.T, url string) Decision {
	t.Helper()
	return Fetch(context.Background(), newClient(t), url, FetchOptions{Now: func() time.Time { return clock }})
}

// docs/robots-rules.md rule 21: every status class of a robots.txt answer, on a real server.
func TestRule21_StatusClasses(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	})
	for _, code := range []int{400, 401, 403, 404, 410, 429, 500, 502, 503, 504} {
		mux.HandleFunc(fmt.Sprintf("/%d/robots.txt", code), func(w http.ResponseWriter, r *http.Request) {
			if code == 429 || code == 503 {
				w.Header().Set("Retry-After", "120")
			}
			w.WriteHeader(code)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	d := fetchAt(t, srv.URL+"/robots.txt")
	if d.Kind != KindRules || d.Status != 200 || d.Robots.For("Mandelbot").Test("/private/x").Allowed {
		t.Fatalf("2xx: %+v", d)
	}
	for code, want := range map[int]Kind{
		400: KindAllowAll, 401: KindAllowAll, 403: KindAllowAll, 404: KindAllowAll, 410: KindAllowAll, // 4xx, even 401 and 403
		429: KindUnreachable, // 429 is treated as 5xx
		500: KindUnreachable, 502: KindUnreachable, 503: KindUnreachable, 504: KindUnreachable,
	} {
		d := fetchAt(t, fmt.Sprintf("%s/%d/robots.txt", srv.URL, code))
		if d.Kind != want || d.Status != code || d.Robots == nil {
			t.Errorf("status %d: kind %v status %d, want %v", code, d.Kind, d.Status, want)
		}
		if (code == 429 || code == 503) && d.RetryAfter != 2*time.Minute {
			t.Errorf("status %d: RetryAfter %v, want 2m (rule 23)", code, d.RetryAfter)
		}
	}
}

// docs/robots-rules.md rule 21: follow up to 5 redirects, to any origin, and the final answer
// counts; more than 5 hops is treated as 4xx.
func TestRule21_RedirectChains(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /from-other-origin\n"))
	}))
	t.Cleanup(other.Close)
	var hits []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits = append(hits, r.URL.Path)
		// /hop/N/M: N hops left before the final answer, M = 1 sends the last hop to the other origin.
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		n, _ := strconv.Atoi(parts[1])
		switch {
		case n > 1:
			http.Redirect(w, r, fmt.Sprintf("/hop/%d/%s", n-1, parts[2]), http.StatusFound)
		case parts[2] == "1":
			http.Redirect(w, r, other.URL+"/robots.txt", http.StatusMovedPermanently)
		default:
			http.Redirect(w, r, "/final", http.StatusMovedPermanently)
		}
	}))
	t.Cleanup(srv.Close)

	for hops := 1; hops <= 6; hops++ {
		hits = nil
		d := fetchAt(t, fmt.Sprintf("%s/hop/%d/1", srv.URL, hops))
		if hops <= MaxRedirects {
			if d.Kind != KindRules || len(d.Redirects) != hops || d.Final != other.URL+"/robots.txt" ||
				d.Robots.For("Mandelbot").Test("/from-other-origin").Allowed {
				t.Errorf("%d hops: kind %v, redirects %v, final %s", hops, d.Kind, d.Redirects, d.Final)
			}
			continue
		}
		if d.Kind != KindAllowAll || len(d.Redirects) != MaxRedirects {
			t.Errorf("%d hops: kind %v after %d redirects, want allow_all after %d", hops, d.Kind, len(d.Redirects), MaxRedirects)
		}
		if len(hits) != MaxRedirects+1 {
			t.Errorf("%d hops: %d requests made, want %d (no sixth redirect followed)", hops, len(hits), MaxRedirects+1)
		}
	}
}

// docs/robots-rules.md rule 21: network errors make the origin unreachable; Fetch reports, never fails.
func TestRule21_NetworkErrorIsUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	d := fetchAt(t, "http://"+addr+"/robots.txt")
	if d.Kind != KindUnreachable || d.Status != 0 || d.Err == nil || d.Robots == nil {
		t.Fatalf("refused connection: %+v", d)
	}
	if !strings.Contains(d.Reason(), "unreachable") {
		t.Errorf("reason %q", d.Reason())
	}
}

func TestRule21_RedirectWithoutLocationIsUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) }))
	t.Cleanup(srv.Close)
	if d := fetchAt(t, srv.URL+"/robots.txt"); d.Kind != KindUnreachable || d.Err == nil {
		t.Fatalf("%+v", d)
	}
}

// docs/robots-rules.md rule 22: a shorter Cache-Control max-age is recorded, with validators for
// revalidation.
func TestRule22_CacheHeadersRecorded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, Max-Age=3600")
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", "Sun, 22 Nov 2026 10:00:00 GMT")
		w.Write([]byte("User-agent: *\nAllow: /\n"))
	}))
	t.Cleanup(srv.Close)
	d := fetchAt(t, srv.URL+"/robots.txt")
	if d.MaxAge != time.Hour || d.ETag != `"v1"` || d.LastModified == "" || !d.FetchedAt.Equal(clock) {
		t.Fatalf("%+v", d)
	}
}

func TestMaxAgeParsing(t *testing.T) {
	tests := map[string]time.Duration{
		"":                    -1,
		"public":              -1,
		"max-age=60":          time.Minute,
		"max-age=\"60\"":      time.Minute,
		"no-cache":            0,
		"private, no-store":   0,
		"max-age=-1":          -1,
		"max-age=abc":         -1,
		"s-maxage=5, max-age": -1,
	}
	for v, want := range tests {
		if got := maxAge([]string{v}); got != want {
			t.Errorf("maxAge(%q) = %v, want %v", v, got, want)
		}
	}
}

// The validators of a conditional request go to the first URL only, and a 304 keeps the rules
// the caller already has (rule 22: revalidation).
func TestRule22_ConditionalRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write([]byte("User-agent: *\nDisallow: /\n"))
	}))
	t.Cleanup(srv.Close)
	d := Fetch(context.Background(), newClient(t), srv.URL+"/robots.txt", FetchOptions{
		Header: http.Header{"If-None-Match": {`"v1"`}},
		Now:    func() time.Time { return clock },
	})
	if d.Status != http.StatusNotModified || d.Kind != KindNotModified {
		t.Fatalf("%+v", d)
	}
}
