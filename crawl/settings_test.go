package crawl_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/testweb"
)

// chain is one site whose pages link in a line, / -> /p/1 -> /p/2 ... (depth i at /p/i).
func chain(key string, n int) testweb.Site {
	s := testweb.Site{Key: key}
	for i := range n {
		p := testweb.Page{Path: "/p/" + itoa(i), Title: "page " + itoa(i)}
		if i == 0 {
			p.Path = "/"
		}
		if i+1 < n {
			p.Links = []string{"/p/" + itoa(i+1)}
		}
		s.Pages = append(s.Pages, p)
	}
	return s
}

func itoa(i int) string { return strconv.Itoa(i) }

func states(t *testing.T, path string) map[store.State]int {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := map[store.State]int{}
	s.EachURL(context.Background(), func(u store.URL) error { out[u.State]++; return nil })
	return out
}

// issue 27 ("a crawl remembers what it was told"): a crawl of a loopback site started with
// AllowPrivate and MaxPages, resumed with a Config that gives neither, uses both as saved: the
// resume fetches (no URL turns error), stops at the saved page budget, and OnResume says what
// it kept. A value given again replaces the saved one and OnResume says so.
func TestIssue27_ResumeUsesSavedSettings(t *testing.T) {
	web, err := testweb.Start([]testweb.Site{chain("a", 12)}, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	path := filepath.Join(t.TempDir(), "crawl.db")
	seed := "http://" + web.Addr("a") + "/"
	first, err := crawl.Run(context.Background(), crawl.Config{Seeds: []string{seed}, AllowPrivate: true, MaxPages: 3,
		Delay: crawl.NoDelay, StorePath: path})
	if err != nil || first.Pages != 3 {
		t.Fatalf("first run: %d pages, %v; want 3", first.Pages, err)
	}
	var r crawl.Resume
	second, err := crawl.Run(context.Background(), crawl.Config{Delay: crawl.NoDelay, StorePath: path,
		OnResume: func(got crawl.Resume) { r = got }})
	if err != nil {
		t.Fatalf("resume without AllowPrivate: %v", err)
	}
	if second.Pages != 3 || second.Errors != 0 || !second.AtLimit {
		t.Errorf("resume: %d pages, %d given up, at limit %v; want the saved MaxPages 3, none given up", second.Pages, second.Errors, second.AtLimit)
	}
	if n := states(t, path)[store.StateError]; n != 0 {
		t.Errorf("%d URLs in state error after the resume; want none", n)
	}
	kept := map[string]string{}
	for _, s := range r.Kept {
		kept[s.Field] = s.Value
	}
	if !r.Saved || kept["AllowPrivate"] != "true" || kept["MaxPages"] != "3" || len(r.Changed) != 0 {
		t.Errorf("OnResume: %+v; want AllowPrivate and MaxPages 3 kept, nothing changed", r)
	}
	third, err := crawl.Run(context.Background(), crawl.Config{Delay: crawl.NoDelay, StorePath: path, MaxPages: 2,
		OnResume: func(got crawl.Resume) { r = got }})
	if err != nil || third.Pages != 2 {
		t.Fatalf("resume with MaxPages 2: %d pages, %v", third.Pages, err)
	}
	if !slices.Equal(r.Changed, []crawl.Setting{{Field: "MaxPages", Value: "2", Was: "3"}}) {
		t.Errorf("OnResume.Changed = %+v; want MaxPages 2, was 3", r.Changed)
	}
}

// issue 27 ("a resume that would strand queued URLs is refused before any request, naming the
// flag"): a crawl with Scope any has URLs of another host queued; a resume with Scope host would
// leave them queued for good (or fetch them against the setting). Run refuses it with a
// ConfigError on Scope, before any request; the saved settings are unchanged, so the same resume
// without Scope crawls them.
func TestIssue27_ResumeThatWouldStrandIsRefused(t *testing.T) {
	a := chain("a", 2)
	a.Pages[0].Links = append(a.Pages[0].Links, "{b}/")
	web, err := testweb.Start([]testweb.Site{a, chain("b", 3)}, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	path := filepath.Join(t.TempDir(), "crawl.db")
	base := crawl.Config{Resolve: web.Resolve(), Delay: crawl.NoDelay, StorePath: path}
	first := base
	first.Seeds, first.Scope, first.MaxPages = web.Seeds("a"), "any", 1
	if _, err := crawl.Run(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	before := len(web.Requests())
	narrower := base
	narrower.Scope = "host"
	_, err = crawl.Run(context.Background(), narrower)
	var ce *crawl.ConfigError
	if !errors.As(err, &ce) || ce.Field != "Scope" || !strings.Contains(ce.Msg, "strand") || !strings.Contains(ce.Msg, web.Origin("b")) ||
		!strings.Contains(ce.Msg, "started with any") {
		t.Fatalf("resume with a narrower scope: %v; want a ConfigError on Scope naming a stranded URL", err)
	}
	if after := len(web.Requests()); after != before {
		t.Errorf("%d requests sent by the refused resume", after-before)
	}
	again := base
	again.MaxPages = crawl.NoLimit // the saved budget (1) replaced: crawl the rest
	if _, err := crawl.Run(context.Background(), again); err != nil {
		t.Fatalf("resume with the saved scope: %v", err)
	}
	if web.Count("b", "/p/2") != 1 {
		t.Errorf("b's pages were not crawled by the resume with the saved scope")
	}
}

// issue 27 ("one meaning per setting"): a zero MaxDepth and Delay are the documented defaults
// (no limit; DefaultDelay between two requests to an origin), NoLimit is no limit, SeedsOnly
// only the seeds, NoDelay no gap. Time is the virtual clock's.
func TestIssue27_ZeroIsTheDefaultAndNamedConstants(t *testing.T) {
	for _, tc := range []struct {
		name     string
		depth    int
		delay    time.Duration
		pages    int
		minGap   time.Duration
		zeroGaps bool
	}{
		{"zero", 0, 0, 5, crawl.DefaultDelay, false},
		{"NoLimit and NoDelay", crawl.NoLimit, crawl.NoDelay, 5, 0, true},
		{"SeedsOnly", crawl.SeedsOnly, crawl.NoDelay, 1, 0, true},
		{"depth 2", 2, crawl.NoDelay, 3, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vc := clock.NewVirtual(t0)
			web, err := testweb.Start([]testweb.Site{chain("a", 5)}, testweb.Options{Now: vc.Now})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(web.Close)
			st, err := crawl.Run(context.Background(), crawl.Config{Seeds: web.Seeds(), Resolve: web.Resolve(), Clock: vc,
				MaxDepth: tc.depth, Delay: tc.delay})
			if err != nil {
				t.Fatal(err)
			}
			if st.Pages != tc.pages {
				t.Errorf("%d pages; want %d", st.Pages, tc.pages)
			}
			var last time.Time
			zero := false
			for _, r := range web.Requests() {
				if !last.IsZero() {
					gap := r.At.Sub(last)
					if gap < tc.minGap {
						t.Errorf("%s %s only %v after the request before; want at least %v", r.Key, r.Path, gap, tc.minGap)
					}
					zero = zero || gap == 0
				}
				last = r.At
			}
			if tc.zeroGaps && tc.pages > 1 && !zero {
				t.Errorf("NoDelay: every request waited for the one before")
			}
		})
	}
}

// issue 27: a crawl saved before settings were kept (here: run by the crawler itself, which
// saves none) with loopback URLs queued, resumed without AllowPrivate, is refused before any
// request with a ConfigError on AllowPrivate naming the address class; with it, it resumes.
func TestIssue27_OldCrawlResumedWithoutAllowPrivateIsRefused(t *testing.T) {
	web, err := testweb.Start([]testweb.Site{chain("a", 8)}, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	path := filepath.Join(t.TempDir(), "crawl.db")
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	client, err := fetch.New(fetch.Options{AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = crawler.Run(context.Background(), crawler.Options{Seeds: []string{"http://" + web.Addr("a") + "/"},
		Fetcher: client, Store: st, MaxDepth: -1, MaxPages: 2})
	client.Close()
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	before := len(web.Requests())
	_, err = crawl.Run(context.Background(), crawl.Config{StorePath: path, Delay: crawl.NoDelay})
	var ce *crawl.ConfigError
	if !errors.As(err, &ce) || ce.Field != "AllowPrivate" || !strings.Contains(ce.Msg, "loopback") {
		t.Fatalf("resume without AllowPrivate: %v; want a ConfigError on AllowPrivate", err)
	}
	if n := len(web.Requests()) - before; n != 0 {
		t.Errorf("%d requests sent by the refused resume", n)
	}
	stats, err := crawl.Run(context.Background(), crawl.Config{StorePath: path, Delay: crawl.NoDelay, AllowPrivate: true})
	if err != nil || stats.Pages == 0 || stats.Errors != 0 {
		t.Errorf("resume with AllowPrivate: %d pages, %d given up, %v", stats.Pages, stats.Errors, err)
	}
}

// issue 27 ("re-running with --allow-private then left those 30 errors in place"): URLs an
// earlier version gave up because their private address was refused (state error, due a day
// later) are due again, and fetched, on the first run that may connect there.
func TestIssue27_URLsSpoiledByARefusalAreRequeued(t *testing.T) {
	web, err := testweb.Start([]testweb.Site{chain("a", 4)}, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	path := filepath.Join(t.TempDir(), "crawl.db")
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// As the old crawler left them: the seed and a page given up, due in 24 h, no settings saved.
	now := time.Now()
	var news []store.NewURL
	for i, p := range []string{"/", "/p/1"} {
		u := "http://" + web.Addr("a") + p
		news = append(news, store.NewURL{URL: u, Origin: "http://" + web.Addr("a"), Kind: store.KindPage, Depth: i, State: store.StateQueued, DiscoveredAt: now})
	}
	added, err := st.Commit(context.Background(), store.Batch{New: news})
	if err != nil {
		t.Fatal(err)
	}
	for i := range added {
		added[i].State, added[i].Attempts, added[i].NextAt = store.StateError, 1, now.Add(24*time.Hour)
		added[i].Reason = "no answer (private-address): fetch: GET " + added[i].URL + ": dial tcp: non-public address refused (loopback)"
	}
	if _, err := st.Commit(context.Background(), store.Batch{Updates: added}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	stats, err := crawl.Run(context.Background(), crawl.Config{StorePath: path, Delay: crawl.NoDelay, AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Pages != 4 || states(t, path)[store.StateError] != 0 {
		t.Errorf("%d pages answered, states %v; want the whole chain fetched and no error left", stats.Pages, states(t, path))
	}
}
