package testweb

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The log is what lets a crawler test check rule 20 ("no URL of an origin is requested
// before its robots.txt decision is known"): arrival order, site, request line, header.
func TestLogRecordsRequestsInArrivalOrder(t *testing.T) {
	clock := newFakeClock()
	w := start(t, []Site{
		{Key: "a", Robots: robotsPage(RobotsTxt(ScenarioRules)), Pages: []Page{{Path: "/"}}},
		{Key: "b"},
	}, Options{Now: clock.Now})
	c := newClient(t, w, 0)
	get(t, c, w.URL("a", RobotsPath), "User-Agent", "Mandelbot/0.1")
	clock.Advance(time.Second)
	get(t, c, w.URL("b", "/nothing?q=1"))
	clock.Advance(time.Second)
	get(t, c, w.URL("a", "/"))

	t0 := newFakeClock().Now()
	port := func(k string) string { return strings.TrimPrefix(w.Addr(k), "127.0.0.1:") }
	want := []Request{
		{Seq: 1, Key: "a", Host: "a.test:" + port("a"), Method: "GET", Path: RobotsPath, Proto: "HTTP/1.1", At: t0, Status: 200},
		{Seq: 2, Key: "b", Host: "b.test:" + port("b"), Method: "GET", Path: "/nothing?q=1", Proto: "HTTP/1.1", At: t0.Add(time.Second), Status: 404},
		{Seq: 3, Key: "a", Host: "a.test:" + port("a"), Method: "GET", Path: "/", Proto: "HTTP/1.1", At: t0.Add(2 * time.Second), Status: 200},
	}
	got := w.Requests()
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Request{}, "Header")); diff != "" {
		t.Errorf("log mismatch (-want +got):\n%s", diff)
	}
	if ua := got[0].Header.Get("User-Agent"); ua != "Mandelbot/0.1" {
		t.Errorf("logged User-Agent %q", ua)
	}
	if diff := cmp.Diff([]int{1, 3}, seqs(w.RequestsTo("a"))); diff != "" {
		t.Errorf("RequestsTo(a) mismatch (-want +got):\n%s", diff)
	}
	if n := w.Count("a", RobotsPath); n != 1 {
		t.Errorf("Count(a, robots.txt) = %d, want 1", n)
	}
	if s := got[1].String(); s != "#2 b GET /nothing?q=1 -> 404" {
		t.Errorf("String() = %q", s)
	}

	// Requests returns a copy: changing it does not change the log.
	got[0].Path = "/changed"
	if w.Requests()[0].Path != RobotsPath {
		t.Errorf("Requests() shares its slice with the log")
	}
}

func seqs(rs []Request) []int {
	var out []int
	for _, r := range rs {
		out = append(out, r.Seq)
	}
	return out
}

// The log keeps the first MaxLog requests and counts the others; OnRequest still sees
// every request, numbered.
func TestLogIsBounded(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []int
	)
	w := start(t, RobotsOK(), Options{MaxLog: 2, OnRequest: func(r Request) {
		mu.Lock()
		seen = append(seen, r.Seq)
		mu.Unlock()
	}})
	c := newClient(t, w, 0)
	for range 5 {
		get(t, c, w.URL("a", "/"))
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]int{1, 2}, seqs(w.Requests())); diff != "" {
		t.Errorf("kept mismatch (-want +got):\n%s", diff)
	}
	if d := w.Dropped(); d != 3 {
		t.Errorf("Dropped() = %d, want 3", d)
	}
	if diff := cmp.Diff([]int{1, 2, 3, 4, 5}, seen); diff != "" {
		t.Errorf("OnRequest mismatch (-want +got):\n%s", diff)
	}

	none := start(t, RobotsOK(), Options{MaxLog: -1})
	get(t, newClient(t, none, 0), none.URL("a", "/"))
	if len(none.Requests()) != 0 || none.Dropped() != 1 {
		t.Errorf("MaxLog -1: kept %d, dropped %d; want 0 and 1", len(none.Requests()), none.Dropped())
	}
}

// A request is logged before any byte of its answer: while OnRequest holds the handler,
// the request is in the log and the client has no response yet.
func TestRequestIsLoggedBeforeItIsAnswered(t *testing.T) {
	arrived := make(chan Request)
	release := make(chan struct{})
	w := start(t, RobotsOK(), Options{OnRequest: func(r Request) {
		arrived <- r
		<-release
	}})
	answered := make(chan answer, 1)
	c := newClient(t, w, 0)
	go func() {
		a, _ := tryGet(c, w.URL("a", RobotsPath))
		answered <- a
	}()
	r := <-arrived
	if logged := w.Requests(); len(logged) != 1 || logged[0].Seq != r.Seq || logged[0].Status != 200 {
		t.Errorf("log while the handler waits = %v, want the request with its decided status 200", logged)
	}
	select {
	case a := <-answered:
		t.Errorf("the client got %d before the request was logged and released", a.status)
	default:
	}
	close(release)
	if a := <-answered; a.status != 200 {
		t.Errorf("after release: status %d, want 200", a.status)
	}
}
