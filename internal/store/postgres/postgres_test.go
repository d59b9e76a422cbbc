package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Issue 12: making the schema is "safe when several workers start at once": processes opening
// a new schema together (each its own pool, as separate processes have) all succeed, and the
// schema is made once, marked with this build's version (issue 26 part 4: one version).
func TestOpenConcurrentlyMakesTheSchemaOnce(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	const workers = 6
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for i := range workers {
		wg.Go(func() {
			s, err := postgres.Open(t.Context(), url, postgres.Options{Schema: schema, MaxConns: 1})
			if err == nil {
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("worker %d: Open: %v", i, err)
		}
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if got := metaRows(t, conn, schema); len(got) != 1 || got[postgres.LayoutKey] != fmt.Sprint(postgres.SchemaVersion) {
		t.Errorf("meta %v; want only %s = %d", got, postgres.LayoutKey, postgres.SchemaVersion)
	}
}

// Issue 26 part 4 (one schema): a crawl schema made by an earlier build, whatever its version in
// the old history (1 included: the new schema is version 1 too), is refused by a crawl and by
// the read-only opens (MustExist), before anything is written: its tables and meta rows are as
// they were. The message says why, and how to start again.
func TestEarlierBuildSchemaRefusedBeforeAnyWrite(t *testing.T) {
	url := pgtest.URL(t)
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, version := range []string{"1", "6"} {
		schema := pgtest.Schema(t, url)
		if _, err := conn.Exec(t.Context(), `CREATE SCHEMA `+schema+`;
			CREATE TABLE `+schema+`.meta (key text PRIMARY KEY, value text NOT NULL);
			INSERT INTO `+schema+`.meta (key, value) VALUES ('schema_version', '`+version+`');
			CREATE TABLE `+schema+`.urls (id bigint PRIMARY KEY, url text NOT NULL);
			INSERT INTO `+schema+`.urls VALUES (7, 'http://a.test/')`); err != nil {
			t.Fatal(err)
		}
		before, beforeTables := metaRows(t, conn, schema), tablesOf(t, conn, schema)
		for _, mustExist := range []bool{false, true} {
			_, err := postgres.Open(t.Context(), url, postgres.Options{Schema: schema, MustExist: mustExist})
			if !errors.Is(err, postgres.ErrEarlierBuild) {
				t.Fatalf("schema %s, must exist %v: open: %v, want ErrEarlierBuild", version, mustExist, err)
			}
			for _, want := range []string{"earlier Mandelbot build", "schema is " + version + " ", "another schema", "DROP SCHEMA " + schema} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the message %q does not say %q", err, want)
				}
			}
			if after, afterTables := metaRows(t, conn, schema), tablesOf(t, conn, schema); !maps.Equal(before, after) || !slices.Equal(beforeTables, afterTables) {
				t.Errorf("schema %s: refused, but written: meta %v, then %v; tables %v, then %v", version, before, after, beforeTables, afterTables)
			}
		}
	}
}

// A crawl schema of a newer version is refused.
func TestNewerSchemaRefused(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	s, err := postgres.Open(t.Context(), url, postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(t.Context(), `UPDATE `+schema+`.meta SET value = $2 WHERE key = $1`, postgres.LayoutKey, fmt.Sprint(postgres.SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	if _, err := postgres.Open(t.Context(), url, postgres.Options{Schema: schema}); !errors.Is(err, postgres.ErrNewerSchema) {
		t.Errorf("open: %v, want ErrNewerSchema", err)
	}
	// Issue 26 part 4: an earlier layout of the one schema (layout 1, before the head index and
	// the anchor generations) is an earlier build's crawl, refused with how to start again.
	if _, err := conn.Exec(t.Context(), `UPDATE `+schema+`.meta SET value = '1' WHERE key = $1`, postgres.LayoutKey); err != nil {
		t.Fatal(err)
	}
	_, err = postgres.Open(t.Context(), url, postgres.Options{Schema: schema})
	if !errors.Is(err, postgres.ErrEarlierBuild) || !strings.Contains(fmt.Sprint(err), "DROP SCHEMA") || !strings.Contains(fmt.Sprint(err), "layout 1") {
		t.Errorf("open a layout-1 crawl: %v, want ErrEarlierBuild saying how to start again", err)
	}
}

// metaRows reads the meta table of schema.
func metaRows(t *testing.T, conn *pgx.Conn, schema string) map[string]string {
	t.Helper()
	rows, err := conn.Query(t.Context(), `SELECT key, value FROM `+schema+`.meta`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var k, v string
	if _, err := pgx.ForEachRow(rows, []any{&k, &v}, func() error { out[k] = v; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// tablesOf lists the relations of schema (tables, indexes, sequences), sorted.
func tablesOf(t *testing.T, conn *pgx.Conn, schema string) []string {
	t.Helper()
	rows, err := conn.Query(t.Context(), `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = $1 ORDER BY 1`, schema)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// page commits one fetched page with its document and links, and returns its ID.
func page(t *testing.T, s store.Store, url, title, text string, links ...store.Link) int64 {
	t.Helper()
	origin := url[:strings.Index(url[len("http://"):], "/")+len("http://")]
	added, err := s.Commit(t.Context(), store.Batch{New: []store.NewURL{{URL: url, Origin: origin, State: store.StateQueued, DiscoveredAt: t0}}})
	if err != nil {
		t.Fatal(err)
	}
	u := added[0]
	u.State, u.Status, u.FetchedAt, u.ContentType = store.StateFetched, 200, t0, "text/html"
	for i := range links {
		links[i].FromID = u.ID
	}
	var news []store.NewURL
	for _, l := range links {
		o := l.To[:strings.Index(l.To[len("http://"):], "/")+len("http://")]
		news = append(news, store.NewURL{URL: l.To, Origin: o, Depth: 1, State: store.StateQueued, DiscoveredAt: t0})
	}
	if _, err := s.Commit(t.Context(), store.Batch{New: news, Updates: []store.URL{u},
		Documents: []store.Document{{URLID: u.ID, Index: true, Title: title, Text: text}}, Links: links}); err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func refresh(t *testing.T, s store.Store) {
	t.Helper()
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func searchPage(t *testing.T, s store.Store, q string) index.Page {
	t.Helper()
	p, err := s.Search(t.Context(), index.Query{Text: q, Limit: 50, Now: t0})
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return p
}

func resultURLs(p index.Page) []string {
	var out []string
	for _, r := range p.Results {
		out = append(out, r.URL)
	}
	return out
}

// Issue 4's ranking rules, with PostgreSQL's weights: a match in the title ranks above one in the
// anchor text other pages use, which ranks above one in the URL, above one in the body only.
// Results carry what the SQLite store's do: title, snippet with the matched word marked, link-only
// entries titled by their anchor text, state and inlinks; words match without diacritics.
func TestSearchWeightsAndFields(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	page(t, s, "http://a.test/one", "Walrus handbook", "all about tusks")
	page(t, s, "http://b.test/two", "Sea mammals", "a text that names the walrus once, among many other words about seals")
	page(t, s, "http://c.test/walrus", "Three", "nothing here")
	page(t, s, "http://d.test/four", "Links", "see below",
		store.Link{To: "http://e.test/unseen", Anchor: "the walrus atlas"})
	page(t, s, "http://f.test/five", "Café crème", "un café au lait")
	refresh(t, s)

	p := searchPage(t, s, "walrus")
	want := []string{"http://a.test/one", "http://e.test/unseen", "http://c.test/walrus", "http://b.test/two"}
	if got := resultURLs(p); !slices.Equal(got, want) {
		t.Fatalf("walrus: %q, want %q (title, anchor text, URL, body)", got, want)
	}
	if p.Total != 4 {
		t.Errorf("Total %d, want 4", p.Total)
	}
	if past, err := s.Search(t.Context(), index.Query{Text: "walrus", Offset: 10, Now: t0}); err != nil || past.Total != 4 || len(past.Results) != 0 {
		t.Errorf("a page past the last result: Total %d, %d results, %v; want 4, none", past.Total, len(past.Results), err)
	}
	for i := 1; i < len(p.Results); i++ {
		if p.Results[i].Score > p.Results[i-1].Score || p.Results[i].Score <= 0 {
			t.Errorf("scores not positive and descending: %v then %v", p.Results[i-1].Score, p.Results[i].Score)
		}
	}
	body := p.Results[3]
	if body.Title != "Sea mammals" || body.LinkOnly || body.State != "fetched" {
		t.Errorf("body match: %+v", body)
	}
	var marked []string
	for _, sp := range body.Snippet {
		if sp.Match {
			marked = append(marked, sp.Text)
		}
	}
	if !slices.Equal(marked, []string{"walrus"}) {
		t.Errorf("snippet %+v marks %q, want [walrus]", body.Snippet, marked)
	}
	link := p.Results[1]
	if !link.LinkOnly || link.Title != "the walrus atlas" || link.Inlinks != 1 || link.State != "queued" {
		t.Errorf("link-only entry: %+v", link)
	}
	if got := resultURLs(searchPage(t, s, "cafe")); !slices.Equal(got, []string{"http://f.test/five"}) {
		t.Errorf("cafe: %q, want the page that says café", got)
	}
	if got := resultURLs(searchPage(t, s, "walrus tusks")); !slices.Equal(got, []string{"http://a.test/one"}) {
		t.Errorf("walrus tusks: %q, want only the page with both words", got)
	}
}

// Issue 31 part 4 (the head index): a query takes its candidates from the head index (title,
// headings, URL words, anchor text) first, and ranks them by the full tsvector. A page with a
// common word in its title but no inlinks is found first among 1,100 linked pages that have the
// word in their body only (the old cut, the GIN match ordered by inlinks, left it out), while
// Total counts every match; with a rarer word it is found and ranked first too.
func TestSearchRanksABoundedCandidateSet(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	const n = 1100 // more than searchCandidates
	var b store.Batch
	for i := range n {
		b.New = append(b.New, store.NewURL{URL: fmt.Sprintf("http://m.test/%d", i), Origin: "http://m.test", State: store.StateQueued, DiscoveredAt: t0})
	}
	added, err := s.Commit(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	b = store.Batch{}
	for i, u := range added {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		text := fmt.Sprintf("common words %d", i) // distinct pages: Dedupe merges equal content
		if i < 5 {
			text += " rare"
		}
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: "page", Text: text})
		b.Links = append(b.Links, store.Link{FromID: u.ID, To: added[(i+1)%n].URL})
	}
	if _, err := s.Commit(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	page(t, s, "http://x.test/best", "common rare", "nothing else")
	refresh(t, s)

	p := searchPage(t, s, "common")
	if p.Total != n+1 {
		t.Errorf("Total %d, want every match (%d)", p.Total, n+1)
	}
	if got := resultURLs(p); len(got) == 0 || got[0] != "http://x.test/best" {
		t.Errorf("common: %q, want the title match first among %d body matches", got, n)
	}
	if got := resultURLs(searchPage(t, s, "rare")); len(got) != 6 || got[0] != "http://x.test/best" {
		t.Errorf("rare: %q, want the title match first among 6", got)
	}
}

// Rule 27 and unavailable_after: a document kept out of the index is not found, and one whose
// unavailable_after has passed is hidden at query time.
func TestSearchHidesNoindexAndExpired(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	id := page(t, s, "http://a.test/", "Narwhal", "tusk")
	later := page(t, s, "http://b.test/", "Narwhal later", "tusk")
	refresh(t, s)
	if got := resultURLs(searchPage(t, s, "narwhal")); len(got) != 2 {
		t.Fatalf("narwhal: %q", got)
	}
	if _, err := s.Commit(t.Context(), store.Batch{Documents: []store.Document{
		{URLID: id, Index: false},
		{URLID: later, Index: true, Title: "Narwhal later", Text: "tusk", UnavailableAfter: t0.Add(-time.Hour)},
	}}); err != nil {
		t.Fatal(err)
	}
	refresh(t, s)
	if got := resultURLs(searchPage(t, s, "narwhal")); len(got) != 0 {
		t.Errorf("narwhal after noindex and unavailable_after: %q, want nothing", got)
	}
}
