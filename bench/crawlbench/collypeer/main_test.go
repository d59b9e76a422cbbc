package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/fractle/mandelbot/internal/testweb"
)

// The slot transport never lets more than n requests be in flight (a slot is held until the
// body is closed), and gives every slot back.
func TestSlotTransport(t *testing.T) {
	var mu sync.Mutex
	inFlight, most := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		for range 100 {
			runtime.Gosched() // stay in flight a little, so that unlimited requests would overlap
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	tr := newSlotTransport(http.DefaultTransport, 2)
	client := &http.Client{Transport: tr}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			resp, err := client.Get(srv.URL)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			resp.Body.Close() // a second Close gives nothing back twice
		})
	}
	wg.Wait()
	if most > 2 || most < 1 {
		t.Errorf("%d requests were in flight at once, want at most 2", most)
	}
	if n := len(tr.slots); n != 0 {
		t.Errorf("%d slots still taken after every body was closed", n)
	}
}

// The peer crawls a generated web to the end: every page at least once, robots.txt obeyed (links
// to /private/ refused, none requested), and the report counting every page response the web
// served. Colly may request a page twice: its visited check and its mark are two steps, so two
// links that arrive at once can both pass (crawlbench reports those repeats as a failed check for
// Colly); the report must count them as the responses they are.
func TestCrawl(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: 3, PagesPerOrigin: 20}), testweb.Options{
		OnRequest: func(r testweb.Request) {
			mu.Lock()
			seen[r.Key+" "+r.Path]++
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	rep := crawlWeb(t, web)
	pages, requests := 0, int64(0)
	for id, n := range seen {
		if bytes.Contains([]byte(id), []byte(" /private/")) {
			t.Errorf("%s requested: robots.txt disallows it", id)
		}
		if !bytes.HasSuffix([]byte(id), []byte("/robots.txt")) {
			pages++
			requests += int64(n)
		}
	}
	if pages != 60 {
		t.Errorf("%d distinct pages requested, want 60", pages)
	}
	if rep.Responses != requests || rep.Errors != 0 || rep.RobotsBlocked == 0 {
		t.Errorf("report %+v, want %d responses (the page requests the web served), no errors, some links refused for robots.txt", rep, requests)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-concurrency", "0", "http://a.test/"}, {"-resolve", "bogus", "http://a.test/"}} {
		if err := run(args, io.Discard); err == nil {
			t.Errorf("run(%q): no error", args)
		}
	}
}

// With -bleve, the peer stores every page it fetched in a bleve index (issue 26's colly+bleve
// peer), searchable once the crawl ends: a page's title word finds it.
func TestCrawlIntoBleve(t *testing.T) {
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: 2, PagesPerOrigin: 30}), testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	dir := filepath.Join(t.TempDir(), "index.bleve")
	rep := crawlWeb(t, web, "-bleve", dir)
	if rep.Indexed != rep.Responses || rep.Responses != 60 {
		t.Errorf("report %+v: want 60 pages fetched and all 60 indexed", rep)
	}
	idx, err := bleve.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	n, err := idx.DocCount()
	if err != nil || n != 60 {
		t.Errorf("the index holds %d documents (%v), want 60", n, err)
	}
	home := web.URL(web.Keys()[0], "/")
	doc, err := idx.Document(home)
	if err != nil || doc == nil {
		t.Fatalf("%s not in the index: %v", home, err)
	}
	client := &http.Client{Transport: &http.Transport{DialContext: web.DialContext}}
	resp, err := client.Get(home)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	_, title, _ := strings.Cut(string(body), "<title>")
	title, _, _ = strings.Cut(title, "</title>")
	q := bleve.NewMatchQuery(strings.Fields(title)[0])
	q.SetField("title")
	res, err := idx.Search(bleve.NewSearchRequestOptions(q, 100, 0, false))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range res.Hits {
		found = found || h.ID == home
	}
	if !found {
		t.Errorf("searching the title word %q of %s found %d pages, not it", strings.Fields(title)[0], home, res.Total)
	}
}

// crawlWeb runs the peer over web's seeds (4 requests in flight, one per origin, with extra
// flags) and returns its report.
func crawlWeb(t *testing.T, web *testweb.Web, extra ...string) Report {
	t.Helper()
	args := append([]string{"-concurrency", "4", "-per-origin", "1"}, extra...)
	for _, r := range web.Resolve() {
		args = append(args, "-resolve", r)
	}
	var out bytes.Buffer
	if err := run(append(args, web.Seeds()...), &out); err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report %q: %v", out.String(), err)
	}
	return rep
}
