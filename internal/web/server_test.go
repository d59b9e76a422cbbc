package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Every response, errors included, carries the security headers: a policy that allows no
// script and nothing from elsewhere, no sniffing, and no Referer to the sites results link to.
func TestSecurityHeaders(t *testing.T) {
	st := newStore(t)
	addPages(t, st, hostilePages, hostileBlocks)
	srv := newSite(t, st, nil)
	for _, tt := range []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/?q=quasar"}, {"GET", "/explain?url=http://a.test/"}, {"GET", "/api/search?q=quasar"},
		{"GET", "/api/search"}, {"GET", "/robots"}, {"GET", "/dashboard"}, {"GET", "/metrics"},
		{"GET", "/static/style.css"}, {"GET", "/nowhere"}, {"DELETE", "/"}, {"PUT", "/api/search"},
	} {
		resp, _ := do(t, srv, tt.method, tt.path, "", nil)
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'none'") ||
			!strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s %s: Content-Security-Policy %q", tt.method, tt.path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s %s: nosniff %q, referrer %q", tt.method, tt.path, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
		}
	}
}

// GET only (and HEAD, which is GET without a body), POST on the tester alone; anything else is
// 405 with an Allow header, as JSON on the API.
func TestMethodNotAllowed(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	for _, tt := range []struct{ method, path, allow string }{
		{"POST", "/", "GET, HEAD"},
		{"PUT", "/explain", "GET, HEAD"},
		{"POST", "/api/search", "GET, HEAD"},
		{"DELETE", "/robots", "GET, POST, HEAD"},
		{"POST", "/dashboard", "GET, HEAD"},
		{"POST", "/metrics", "GET, HEAD"},
		{"POST", "/static/style.css", "GET, HEAD"},
	} {
		resp, body := do(t, srv, tt.method, tt.path, "application/x-www-form-urlencoded", strings.NewReader("q=x"))
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != tt.allow {
			t.Errorf("%s %s: status %d, Allow %q, want 405 and %q", tt.method, tt.path, resp.StatusCode, resp.Header.Get("Allow"), tt.allow)
		}
		if strings.HasPrefix(tt.path, "/api/") {
			var e struct{ Error string }
			if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error == "" {
				t.Errorf("%s %s: the API answers errors in JSON: %q", tt.method, tt.path, body)
			}
		}
	}
	for _, path := range []string{"/", "/api/search?q=x", "/dashboard"} {
		if resp, body := do(t, srv, "HEAD", path, "", nil); resp.StatusCode >= 300 || body != "" {
			t.Errorf("HEAD %s: status %d, body %d bytes", path, resp.StatusCode, len(body))
		}
	}
}

func TestNotFoundAndLimits(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	for _, path := range []string{"/nowhere", "/explain/", "/static/", "/static/missing.css", "/api/search/x"} {
		if resp, _ := get(t, srv, path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", path, resp.StatusCode)
		}
	}
	if resp, _ := get(t, srv, "/?q="+strings.Repeat("a", MaxRawQueryBytes)); resp.StatusCode != http.StatusRequestURITooLong {
		t.Errorf("oversized query string: status %d, want 414", resp.StatusCode)
	}
	resp, body := get(t, srv, "/static/style.css")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/css") || !strings.Contains(body, "mark") {
		t.Errorf("stylesheet: status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// Every request has a deadline: a store query that would never end is stopped, and the user
// is told so.
func TestRequestTimeout(t *testing.T) {
	srv := newSite(t, stuck{newStore(t)}, func(o *Options) { o.Timeout = 50 * time.Millisecond })
	resp, body := get(t, srv, "/api/search?q=x")
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "took longer than 50ms") {
		t.Errorf("API: status %d, body %q", resp.StatusCode, body)
	}
	resp, body = get(t, srv, "/?q=x")
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "took longer than 50ms") {
		t.Errorf("page: status %d", resp.StatusCode)
	}
}

func TestNewNeedsAStore(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Error("New without a store succeeded")
	}
}

// The tester is the one POST route: a browser's cross-site POST to it is refused (it has no
// side effect, but it is no one else's to drive), a same-origin one is served.
func TestTesterRefusesCrossSitePost(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	form := "robots=User-agent%3A+*%0ADisallow%3A+%2F&urls=%2Fx"
	for _, tt := range []struct {
		site string
		want int
	}{{"cross-site", http.StatusForbidden}, {"same-origin", http.StatusOK}} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/robots", strings.NewReader(form))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", tt.site)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("Sec-Fetch-Site: %s: status %d, want %d", tt.site, resp.StatusCode, tt.want)
		}
	}
}
