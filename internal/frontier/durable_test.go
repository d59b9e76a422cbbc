package frontier

import (
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstxt"
)

// issue 8 (durability): a robots.txt decision is durable before the gate acts on it. Until the
// write that carries it is Persisted, no URL of the origin is requested, even one it allows.
func TestRobotsDecisionDurableBeforeGate(t *testing.T) {
	h := newHarness(t, Options{}, "/1")
	st := h.expect(StepRobots)
	h.f.RobotsDone(st.Origin, robots.Decision{Kind: robots.KindRules, Status: 200, FetchedAt: h.now, MaxAge: -1,
		Robots: robotstxt.Parse(nil)}, h.now)
	h.now = h.now.Add(time.Second)
	if st := h.next(); st.Kind != StepWait || !st.Until.IsZero() {
		t.Fatalf("before the decision is durable: %+v, want to wait for the write", st)
	}
	h.f.Persisted(testOrigin, h.now)
	h.expect(StepFetch)
}

// issue 8 and docs/robots-rules.md rule 23: a 503 pause is durable before the probe that ends
// it: a crash must not forget a pause that the crawl has already acted on.
func TestPauseDurableBeforeProbe(t *testing.T) {
	h := newHarness(t, Options{}, "/1", "/2")
	h.robots(200, "", nil)
	st := h.expect(StepFetch)
	h.f.Done(st.URL, Outcome{Status: 503, RetryAfter: time.Minute, RetryAfterOK: true}, h.now)
	h.now = h.now.Add(2 * time.Minute) // the pause is over
	if st := h.next(); st.Kind != StepWait || !st.Until.IsZero() {
		t.Fatalf("pause not durable yet: %+v, want to wait for the write", st)
	}
	h.f.Persisted(testOrigin, h.now)
	if st := h.expect(StepFetch); st.URL.URL != testOrigin+"/1" {
		t.Fatalf("probe %s, want the URL that got the 503", st.URL.URL)
	}
}

// issue 8 (cheap URLs): new URLs are de-duplicated in memory, without the store.
func TestDiscoverDeduplicates(t *testing.T) {
	h := newHarness(t, Options{}, "/1")
	if h.discover("/1") {
		t.Error("a URL discovered twice was new both times")
	}
	if !h.discover("/2") {
		t.Error("a new URL was not new")
	}
	// Out-of-scope URLs of an origin the Frontier does not hold are left to the store.
	out := store.URL{ID: store.IDOf("http://b.test/x"), URL: "http://b.test/x", Origin: "http://b.test", State: store.StateOutOfScope}
	for range 2 {
		if isNew, _ := h.f.Discover(out, h.now); !isNew {
			t.Error("an out-of-scope URL of an unknown origin was taken as known")
		}
	}
	if len(h.f.Origins()) != 1 {
		t.Errorf("out-of-scope URLs created origins: %d, want 1", len(h.f.Origins()))
	}
}

// issue 8: URLs found before their origin is loaded stay queued, unless the store says they are
// not due (fetched by an earlier run); the store's due URLs join them once; the store's IDs are
// known afterwards.
func TestLoadMergesDiscovered(t *testing.T) {
	h := &harness{t: t, f: New(Options{}), now: t0}
	h.discover("/fresh")
	h.discover("/fetched-before")
	h.discover("/due")
	st := h.f.Next(h.now)
	if st.Kind != StepLoad {
		t.Fatalf("step %+v, want a load", st)
	}
	id := func(p string) int64 { return store.IDOf(testOrigin + p) }
	h.f.Loaded(testOrigin, store.OriginLoad{
		Due:     []store.URL{{ID: id("/due"), URL: testOrigin + "/due", Origin: testOrigin}, {ID: id("/old-due"), URL: testOrigin + "/old-due", Origin: testOrigin}},
		IDs:     []int64{id("/fetched-before"), id("/due"), id("/old-due"), id("/other")},
		Waiting: []int64{id("/fetched-before"), id("/other")},
	}, h.now)
	h.robots(200, "", nil)
	var got []string
	for {
		st := h.next()
		if st.Kind != StepFetch {
			break
		}
		got = append(got, st.URL.URL)
		h.done(st, Outcome{Status: 200})
	}
	want := []string{testOrigin + "/fresh", testOrigin + "/due", testOrigin + "/old-due"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("fetched %q, want %q", got, want)
	}
	if h.discover("/other") {
		t.Error("a URL the store knows was new after the load")
	}
}

// issue 8: a URL that overflowed the window reaches the queue by a refill, and only once the
// write carrying it is durable (else the store's answer would miss it).
func TestRefillWaitsForOverflow(t *testing.T) {
	h := newHarness(t, Options{Window: 1}, "/1")
	h.robots(200, "", nil)
	u := store.URL{ID: store.IDOf(testOrigin + "/2"), URL: testOrigin + "/2", Origin: testOrigin, State: store.StateQueued}
	if _, overflow := h.f.Discover(u, h.now); !overflow {
		t.Fatal("a URL beyond the window did not overflow")
	}
	st := h.expect(StepFetch)
	h.done(st, Outcome{Status: 200})
	if st := h.next(); st.Kind != StepWait {
		t.Fatalf("refill before the overflowed URL is durable: %+v", st)
	}
	h.f.OverflowPersisted(testOrigin, h.now)
	h.expect(StepRefill)
}

// issue 8 (no URL is ever dropped): a URL that overflows while a refill is being read may be
// missing from the store's answer, so the origin must be refilled again once it is durable.
func TestOverflowDuringRefillIsRefilledLater(t *testing.T) {
	h := newHarness(t, Options{Window: 2}, "/1", "/2", "/3") // /3 overflows: the store holds it
	h.robots(200, "", nil)
	for range 2 {
		h.done(h.expect(StepFetch), Outcome{Status: 200})
	}
	refill := h.expect(StepRefill)
	// While the refill is read, another URL overflows; the store's answer does not have it.
	u := store.URL{ID: store.IDOf(testOrigin + "/4"), URL: testOrigin + "/4", Origin: testOrigin, State: store.StateQueued}
	if _, overflow := h.f.Discover(u, h.now); !overflow {
		t.Fatal("a URL found during a refill did not overflow")
	}
	h.f.Refilled(refill.Origin, []store.URL{{ID: store.IDOf(testOrigin + "/3"), URL: testOrigin + "/3", Origin: testOrigin}}, refill.Limit, h.now)
	h.f.OverflowPersisted(testOrigin, h.now)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	if st := h.next(); st.Kind != StepRefill {
		t.Fatalf("after the refill's URLs: %+v, want another refill for the URL found meanwhile", st)
	}
}
