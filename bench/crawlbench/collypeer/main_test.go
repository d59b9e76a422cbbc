package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"

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

// The peer crawls a generated web to the end: every page once, robots.txt obeyed (links to
// /private/ refused, none requested), the report counting what it did.
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
	var out bytes.Buffer
	args := []string{"-concurrency", "4", "-per-origin", "1"}
	for _, r := range web.Resolve() {
		args = append(args, "-resolve", r)
	}
	if err := run(append(args, web.Seeds()...), &out); err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report %q: %v", out.String(), err)
	}
	if rep.Responses != 60 || rep.Errors != 0 || rep.RobotsBlocked == 0 {
		t.Errorf("report %+v, want 60 responses, no errors, some links refused for robots.txt", rep)
	}
	pages := 0
	for id, n := range seen {
		if n > 1 && !bytes.HasSuffix([]byte(id), []byte("/robots.txt")) {
			t.Errorf("%s requested %d times", id, n)
		}
		if bytes.Contains([]byte(id), []byte(" /private/")) {
			t.Errorf("%s requested: robots.txt disallows it", id)
		}
		if !bytes.HasSuffix([]byte(id), []byte("/robots.txt")) {
			pages++
		}
	}
	if pages != 60 {
		t.Errorf("%d distinct pages requested, want 60", pages)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-concurrency", "0", "http://a.test/"}, {"-resolve", "bogus", "http://a.test/"}} {
		if err := run(args, io.Discard); err == nil {
			t.Errorf("run(%q): no error", args)
		}
	}
}
