package crawler

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/urlnorm"
)

// issue 29 ("one memory budget at any crawl size"): each sitemap's outcome may bring tens of
// thousands of new URLs at once, so only Options.MaxSitemapsInFlight sitemaps are fetched at
// once, however many origins name one and however many requests may be in flight; every
// sitemap is still fetched and its entries recorded.
func TestSitemapsInFlightAreBoundedIssue29(t *testing.T) {
	const origins, entries = 12, 20
	var now, peak atomic.Int32
	var mu sync.Mutex
	served := map[string]bool{}
	handler := func(key string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: http://%s/sitemap.xml\n", r.Host)
			case "/sitemap.xml":
				n := now.Add(1)
				for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
				}
				time.Sleep(50 * time.Millisecond) // the server takes its time: sitemaps overlap unless bounded
				var b strings.Builder
				b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
				for i := range entries {
					fmt.Fprintf(&b, "<url><loc>http://%s/e%d</loc></url>", r.Host, i)
				}
				b.WriteString("</urlset>")
				w.Header().Set("Content-Type", "application/xml")
				now.Add(-1)
				mu.Lock()
				served[key] = true
				mu.Unlock()
				w.Write([]byte(b.String()))
			default:
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, "<html><title>page</title><body>a page</body></html>")
			}
		})
	}
	var sites []testweb.Site
	var seeds []string
	for i := range origins {
		key := fmt.Sprintf("o%02d", i)
		sites = append(sites, testweb.Site{Key: key, Raw: handler(key)})
		seeds = append(seeds, "{"+key+"}/")
	}
	e := newEnv(t, sites)
	e.crawl(seeds, func(o *Options) {
		o.Concurrency, o.MaxSitemapsInFlight, o.Scope = 32, 2, urlnorm.ScopeHost
		o.Fetcher = e.clientTimed(false, 10*time.Second)
	})
	if p := peak.Load(); p > 2 || p < 1 {
		t.Errorf("%d sitemaps fetched at once, want at most MaxSitemapsInFlight (2)", p)
	}
	mu.Lock()
	if len(served) != origins {
		t.Errorf("%d of %d sitemaps served", len(served), origins)
	}
	mu.Unlock()
	found := 0
	for _, u := range e.urls() {
		if strings.Contains(u.URL, "/e") && u.Kind == store.KindPage {
			found++
		}
	}
	if found != origins*entries {
		t.Errorf("%d sitemap entries recorded, want %d", found, origins*entries)
	}
}
