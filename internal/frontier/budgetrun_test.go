package frontier

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/trap"
)

// issue 29 ("a per-origin page budget ... remembered across resumed runs"): the budget starts
// from the pages the store says earlier runs requested (OriginLoad.Requested), so a resumed run
// gets only what is left of it.
func TestPageBudgetCountsEarlierRuns(t *testing.T) {
	f := New(Options{MaxPagesPerOrigin: 5})
	var due []store.URL
	for _, p := range []string{"/1", "/2", "/3", "/4"} {
		due = append(due, store.URL{ID: store.IDOf(testOrigin + p), URL: testOrigin + p, Origin: testOrigin, State: store.StateQueued})
	}
	h := &harness{t: t, f: f, now: t0}
	f.Want(testOrigin, h.now)
	if st := f.Next(h.now); st.Kind != StepLoad {
		t.Fatalf("step %+v, want load", st)
	}
	f.Loaded(testOrigin, store.OriginLoad{Due: due, Requested: 3}, h.now)
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	st := h.expect(StepReject)
	if !strings.HasPrefix(st.Reason, "trap page-budget: ") {
		t.Fatalf("reject %q", st.Reason)
	}
}

// issue 29: the budget counts distinct pages, not requests: the revisit of a page fetched in an
// earlier run (state fetched, counted in OriginLoad.Requested already) does not spend it again,
// so a site crawled in full can be revisited in full.
func TestPageBudgetRevisitsAreFree(t *testing.T) {
	f := New(Options{MaxPagesPerOrigin: 2})
	var due []store.URL
	for _, p := range []string{"/1", "/2"} {
		due = append(due, store.URL{ID: store.IDOf(testOrigin + p), URL: testOrigin + p, Origin: testOrigin, State: store.StateFetched, Status: 200})
	}
	h := &harness{t: t, f: f, now: t0}
	f.Want(testOrigin, h.now)
	f.Next(h.now)
	f.Loaded(testOrigin, store.OriginLoad{Due: due, Requested: 2}, h.now)
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	if st := refillFrom(h, nil); st.Kind != StepDone {
		t.Fatalf("step %+v, want done", st)
	}
}

// refillFrom is h.next, answering refills from *spill (the store's part of the window).
func refillFrom(h *harness, spill *[]store.URL) Step {
	for {
		st := h.next()
		if st.Kind != StepRefill {
			return st
		}
		var urls []store.URL
		if spill != nil {
			n := min(st.Limit, len(*spill))
			urls, *spill = (*spill)[:n], (*spill)[n:]
		}
		h.f.Refilled(st.Origin, urls, st.Limit, h.now)
	}
}

// issue 29 ("the default must reach deep legitimate sites": a site of 100,000 pages): under the
// default budget, one origin of 100,000 pages, found link by link (page i links to pages 10i+1
// to 10i+10), is requested in full; none of its URLs is rejected.
func TestDefaultPageBudgetCrawlsAHundredThousandPages(t *testing.T) {
	const pages = 100_000
	h := newHarness(t, Options{MaxPagesPerOrigin: trap.DefaultPageBudget}, "/p/0")
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	fetched := 0
	var spill []store.URL
	for {
		st := refillFrom(h, &spill)
		if st.Kind == StepDone {
			break
		}
		if st.Kind != StepFetch {
			t.Fatalf("after %d requests: step %+v, want a fetch", fetched, st)
		}
		fetched++
		h.done(st, Outcome{Status: 200})
		i, _ := strconv.Atoi(strings.TrimPrefix(st.URL.URL, testOrigin+"/p/"))
		for j := 10*i + 1; j <= 10*i+10 && j < pages; j++ {
			u := testOrigin + "/p/" + strconv.Itoa(j)
			su := store.URL{ID: store.IDOf(u), URL: u, Origin: testOrigin, State: store.StateQueued}
			if _, overflow := h.f.Discover(su, h.now); overflow {
				spill = append(spill, su)
				h.f.OverflowPersisted(testOrigin, h.now)
			}
		}
	}
	if fetched != pages {
		t.Fatalf("%d pages requested, want %d", fetched, pages)
	}
}
