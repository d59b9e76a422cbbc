package crawler

import (
	"fmt"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/urlnorm"
)

// shareWeb is origins sites of pages pages each, every page linking to every page of its site
// (each URL is found again and again: the de-duplication works hard) and to the home page of
// the next site, so that the crawl discovers the sites one from another.
func shareWeb(origins, pages int) []testweb.Site {
	sites := make([]testweb.Site, origins)
	for i := range sites {
		key := fmt.Sprintf("s%02d", i)
		next := fmt.Sprintf("{s%02d}/", (i+1)%origins)
		robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
		sites[i] = testweb.Site{Key: key, Robots: &robots}
		links := []string{next}
		for p := range pages {
			links = append(links, pagePath(p))
		}
		for p := range pages {
			sites[i].Pages = append(sites[i].Pages, testweb.Page{Path: pagePath(p), Title: key + pagePath(p), Links: links})
		}
	}
	return sites
}

func pagePath(p int) string {
	if p == 0 {
		return "/"
	}
	return fmt.Sprintf("/page-%03d-with-a-longer-path", p)
}

// issue 29 ("each consumer has a named share; a consumer that reaches its share waits, spills
// to the store, or shrinks its cache; it never grows past the budget"; "the budget holds at any
// crawl size"): with a frontier share that holds about 28 URLs, a crawl of 20 sites of 30 pages
// (600 URLs, each linked from 30 pages) on SQLite keeps its queues and known sets within the
// share, and still requests every page exactly once: URLs that do not fit wait in the store,
// and known sets that do not fit become caches in front of the store's de-duplication.
func TestIssue29FrontierKeepsToItsShare(t *testing.T) {
	const origins, pages = 20, 30
	const share = 16 << 10
	e := newEnv(t, shareWeb(origins, pages))
	st := e.crawl([]string{"{s00}/"}, func(o *Options) {
		o.Scope, o.Frontier.MaxBytes = urlnorm.ScopeAny, share
		o.Fetcher = e.clientTimed(false, 10*time.Second) // no timeout's retry on a loaded machine: requests are counted
	})
	if st.Retries != 0 {
		t.Fatalf("%d requests retried: the count of requests below would not show de-duplication", st.Retries)
	}

	m := st.Frontier
	if m.Max != share || m.Peak <= 0 || m.Peak > share {
		t.Errorf("frontier peak %d bytes against a share of %d (max %d): want the share held, and something charged", m.Peak, share, m.Max)
	}
	if fit := share / frontier.RefillURLBytes; origins*pages < 10*fit {
		t.Fatalf("the web (%d URLs) is not 10 times what the share holds (%d)", origins*pages, fit)
	}
	if m.Partial == 0 {
		t.Errorf("no origin's known set became a cache: the share (%d bytes) held every ID, so the test shows nothing", share)
	}
	if m.Queues != 0 || m.Used != m.Known || m.Used > share {
		t.Errorf("after the crawl the frontier charges %d bytes (queues %d, known sets %d): want the queues empty, the known sets within the share", m.Used, m.Queues, m.Known)
	}
	for i := range origins {
		key := fmt.Sprintf("s%02d", i)
		for p := range pages {
			if n := e.web.Count(key, pagePath(p)); n != 1 {
				t.Errorf("%s%s requested %d times, want once", key, pagePath(p), n)
			}
		}
	}
	fetched := 0
	for _, u := range e.urls() {
		if u.State == store.StateFetched {
			fetched++
		}
	}
	if fetched != origins*pages || st.Pages != origins*pages {
		t.Errorf("%d URLs fetched in the store, %d pages in the run; want %d", fetched, st.Pages, origins*pages)
	}
	e.checkGate()
}

// The same crawl without a share (frontier.Options.MaxBytes 0, the zero Options): nothing is
// bounded, no known set becomes a cache, and the peak is several times the share above; the
// test above is not passing for want of URLs to hold. (How many URLs wait at once depends on how
// fast the requests drain them: under the race detector at a load of 2-4 the peak was 63,145
// bytes, so the margin asked is 3 times the share, not 4.)
func TestIssue29FrontierWithoutAShareHoldsEverything(t *testing.T) {
	const origins, pages = 20, 30
	e := newEnv(t, shareWeb(origins, pages))
	st := e.crawl([]string{"{s00}/"}, func(o *Options) { o.Scope = urlnorm.ScopeAny })
	if m := st.Frontier; m.Partial != 0 || m.Peak <= 3*(16<<10) {
		t.Errorf("without a share: %d partial origins, peak %d bytes; want none partial and a peak over 3 x 16 KiB", m.Partial, m.Peak)
	}
}
