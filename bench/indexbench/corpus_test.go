package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/extract"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/robotstag"
	"github.com/fractle/mandelbot/urlnorm"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// What visit commits for a page is what the crawler commits after fetching it: the title,
// text and links extract.HTML finds in the page testweb serves (resolved as the crawler
// resolves them), and the noindex of its meta robots tag. The served web has ports; the
// benchmark's web has none, so served URLs are compared with their ports cut.
func TestVisitIsWhatTheCrawlerExtracts(t *testing.T) {
	const origins, pages = 3, 60 // /p/49 carries noindex (testweb.GenNoindexEvery)
	sites := testweb.Generate(testweb.GenOptions{Origins: origins, PagesPerOrigin: pages, Seed: 7})
	served, err := testweb.Start(sites, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(served.Close)
	client := &http.Client{Transport: &http.Transport{DialContext: served.DialContext}}
	t.Cleanup(client.CloseIdleConnections)
	w := newWeb(origins, pages, 7)
	parser := &urlnorm.Parser{}
	resolver := func(base string) (extract.ResolveFunc, error) { // as the crawler's worker.resolver
		b, err := parser.Parse(base)
		if err != nil {
			return nil, err
		}
		return func(href string) (string, error) {
			u, err := parser.Resolve(b, href)
			if err != nil {
				return "", err
			}
			return u.String(), nil
		}, nil
	}
	var pairs []string
	for i := range origins {
		pairs = append(pairs, served.Origin(testweb.GenKey(i)), origin(i))
	}
	unport := strings.NewReplacer(pairs...)

	for id, path := range []string{"/", "/p/1", "/p/48", "/p/49", "/p/59"} {
		for i := range origins {
			key := testweb.GenKey(i)
			resp, err := client.Get(served.URL(key, path))
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			want, err := extract.HTML(body, served.URL(key, path), resp.Header.Get("Content-Type"), extract.Options{NewResolver: resolver})
			if err != nil {
				t.Fatal(err)
			}
			metas := make([]robotstag.Meta, len(want.Metas))
			for k, m := range want.Metas {
				metas[k] = robotstag.Meta{Name: m.Name, Content: m.Content}
			}
			wantIndex := robotstag.FromMeta(metas, "Mandelbot").Indexable(t0)

			u := store.URL{ID: int64(id + 1), URL: origin(i) + path, Origin: origin(i), Depth: 2}
			got, err := w.visit(u, t0)
			if err != nil {
				t.Fatal(err)
			}
			if got.doc == nil {
				t.Fatalf("%s%s: no document", key, path)
			}
			if got.doc.Title != want.Title || got.doc.Text != want.Text || got.doc.Index != wantIndex {
				t.Errorf("%s%s: document (title %q, index %v, text %.60q...), extractor says (%q, %v, %.60q...)",
					key, path, got.doc.Title, got.doc.Index, got.doc.Text, want.Title, wantIndex, want.Text)
			}
			if len(got.links) != len(want.Links) || len(got.found) != len(want.Links) {
				t.Fatalf("%s%s: %d links, %d found, extractor says %d links", key, path, len(got.links), len(got.found), len(want.Links))
			}
			for k, l := range want.Links {
				wantTo := unport.Replace(l.URL)
				if g := got.links[k]; g.To != wantTo || g.Anchor != l.Anchor || g.FromID != u.ID {
					t.Errorf("%s%s link %d = %+v, want to %s with anchor %q", key, path, k, g, wantTo, l.Anchor)
				}
				if f := got.found[k]; f.URL != wantTo || f.Depth != 3 || f.State != store.StateQueued || f.Origin+"/" != wantTo[:len(f.Origin)+1] {
					t.Errorf("%s%s found %d = %+v, want %s at depth 3, queued", key, path, k, f, wantTo)
				}
			}
			if got.update.State != store.StateFetched || got.update.Status != 200 || got.update.Indexed != wantIndex {
				t.Errorf("%s%s: update %+v", key, path, got.update)
			}
		}
	}
}

// testweb.Generate's robots.txt disallows /private/: the crawler never requests such a URL
// and records it as robots_disallowed, with no document.
func TestVisitSkipsPrivate(t *testing.T) {
	w := newWeb(2, 10, 0)
	got, err := w.visit(store.URL{ID: 9, URL: origin(1) + "/private/3", Origin: origin(1)}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if got.doc != nil || len(got.links) > 0 || got.update.State != store.StateRobotsDisallowed || got.update.RuleLine != 2 {
		t.Errorf("visit of a disallowed URL = %+v", got)
	}
	for _, bad := range []string{"http://g2.test/", "http://other.test/", origin(0) + "/nothing"} {
		if _, err := w.visit(store.URL{URL: bad}, t0); err == nil {
			t.Errorf("visit %s: no error", bad)
		}
	}
}

func TestSiteIndex(t *testing.T) {
	for _, c := range []struct {
		host string
		want int
		ok   bool
	}{
		{"g0.test", 0, true}, {"g41.test", 41, true}, {"g42.test", 0, false}, {"g01.test", 0, false},
		{"g-1.test", 0, false}, {"x1.test", 0, false}, {"g1.example", 0, false},
	} {
		if got, ok := siteIndex(c.host, 42); got != c.want || ok != c.ok {
			t.Errorf("siteIndex(%q) = %d, %v", c.host, got, ok)
		}
	}
}

func TestExpand(t *testing.T) {
	for in, want := range map[string]string{
		"{g3}/p/7": "http://g3.test/p/7",
		"{g3}/":    "http://g3.test/",
		"/p/7":     "/p/7",
		"{broken":  "{broken",
	} {
		if got := expand(in); got != want {
			t.Errorf("expand(%q) = %q, want %q", in, got, want)
		}
	}
}

// build commits a whole small web as the crawler would: every page once, the disallowed URLs
// skipped, nothing left queued, and the documents searchable.
func TestBuildCommitsTheWholeWeb(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	w := newWeb(3, 10, 1)
	var docs int
	var title string
	rec := &recorder{committer: st}
	s, err := build(ctx, rec, w, 4, t0, func(d store.Document) {
		docs++
		if title == "" {
			title = d.Title
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Documents != 30 || docs != 30 || s.Indexed != 30 || s.Links != 30*testweb.DefaultGenLinks {
		t.Errorf("stats %+v (onDoc saw %d), want 30 documents, all indexed, %d links", s, docs, 30*testweb.DefaultGenLinks)
	}
	if s.Batches != len(rec.updates) || rec.updates[0] != 0 || s.Commit <= 0 || s.Wall < s.Commit {
		t.Errorf("%d batches, %d commits, commit %v, wall %v", s.Batches, len(rec.updates), s.Commit, s.Wall)
	}
	for i, n := range rec.updates[1:] { // after the seeds, at most 4 URL outcomes per commit
		if n < 1 || n > 4 {
			t.Errorf("commit %d carries %d URL outcomes, want 1 to 4", i+2, n)
		}
	}
	counts, err := st.Counts(ctx, t0)
	if err != nil {
		t.Fatal(err)
	}
	if counts[store.StateFetched] != 30 || counts[store.StateRobotsDisallowed] != s.Skipped || counts[store.StateQueued] != 0 {
		t.Errorf("URLs by state %v, want 30 fetched, %d disallowed, none queued", counts, s.Skipped)
	}
	if s.URLs != 30+s.Skipped {
		t.Errorf("%d URLs recorded, want %d", s.URLs, 30+s.Skipped)
	}
	if _, err := st.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	page, err := st.Search(ctx, searchQuery(title))
	if err != nil {
		t.Fatal(err)
	}
	if page.Total == 0 || page.Results[0].Title != title {
		t.Errorf("search for the title %q: %d results, first %+v", title, page.Total, page.Results)
	}
}

// recorder counts the URL outcomes (updates) of each commit it passes on.
type recorder struct {
	committer
	updates []int
}

func (r *recorder) Commit(ctx context.Context, b store.Batch) ([]store.URL, error) {
	r.updates = append(r.updates, len(b.Updates))
	return r.committer.Commit(ctx, b)
}
