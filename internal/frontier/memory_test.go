package frontier

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstxt"
)

func urlOf(origin, path string) store.URL {
	return store.URL{ID: store.IDOf(origin + path), URL: origin + path, Origin: origin, State: store.StateQueued}
}

// issue 29 ("each consumer has a named share"): what the Frontier charges is its queues at their
// capacity, with the strings of the URLs in them, and KnownIDBytes per known ID; a queue emptied
// lets go of its array.
func TestIssue29MemoryChargesQueuesAndKnownSets(t *testing.T) {
	h := newHarness(t, Options{}, "/a", "/bb", "/ccc")
	m := h.f.Memory()
	strs := int64(3*2*len(testOrigin) + len("/a/bb/ccc"))
	if q := int64(cap(h.f.origins[testOrigin].queue))*QueuedURLBytes + strs; m.Queues != q || m.Known != 3*KnownIDBytes || m.Used != q+3*KnownIDBytes {
		t.Errorf("memory %+v; want queues %d (capacity and strings), known %d", m, q, 3*KnownIDBytes)
	}
	h.robots(404, "", nil)
	for range 3 {
		h.done(h.expect(StepFetch), Outcome{Status: 200})
	}
	if m := h.f.Memory(); m.Queues != 0 || m.Known != 3*KnownIDBytes || m.Peak < 3*QueuedURLBytes+strs {
		t.Errorf("after the queue emptied: %+v; want queues 0, the known set kept, the peak kept", m)
	}
}

// issue 29 ("a consumer that reaches its share waits, spills to the store, or shrinks its cache;
// it never grows past the budget"): two origins share a frontier. The first fills the share with
// short URLs before the second is known; the second's URLs are longer than a refill counts on
// (RefillURLBytes), and what it reads from the store is sized to the room the first one's queue
// leaves: it waits while there is too little (starved), and is woken as that queue drains. The
// peak stays within the share.
func TestIssue29RefillIsSizedToTheRoomLeft(t *testing.T) {
	const share = 5 * RefillURLBytes
	h := newHarness(t, Options{MaxBytes: share, Delay: time.Second}) // the queues drain slowly
	long := "/" + strings.Repeat("x", 1000)
	const other = "http://other.test"
	for _, o := range []string{testOrigin, other} {
		for i := range 20 {
			u := urlOf(o, fmt.Sprintf("/%d", i)) // the first origin's URLs are short
			if o == other {
				u = urlOf(o, fmt.Sprintf("%s/%d", long, i))
			}
			if _, over := h.f.Discover(u, h.now); over {
				h.f.OverflowPersisted(o, h.now)
			}
		}
	}
	for _, o := range []string{testOrigin, other} {
		if n := h.f.Queued(o); n >= 20 || (o == testOrigin) != (n > 0) {
			t.Errorf("%s queued %d of 20 URLs; want some of the first origin's, none of the second's (no room), the rest left in the store", o, n)
		}
	}
	if m := h.f.Memory(); m.Peak > share {
		t.Fatalf("peak %d bytes after discovering, over the share of %d", m.Peak, share)
	}
	// Loads, robots.txt, fetches and refills: each refill's limit fits the room left; the second
	// origin waits for room (starved) and is woken when the first one's queue drains.
	refills := map[string]int{}
	starved := false
	for i := 0; i < 500 && refills[other] < 3; i++ {
		starved = starved || h.f.Memory().Starved > 0
		st := h.f.Next(h.now)
		switch st.Kind {
		case StepLoad:
			h.f.Loaded(st.Origin, store.OriginLoad{More: true}, h.now)
		case StepRobots:
			h.f.RobotsDone(st.Origin, robotsAllowAll(h.now), h.now)
			h.f.Persisted(st.Origin, h.now)
		case StepFetch:
			h.f.Done(st.URL, Outcome{Status: 200}, h.now)
			h.f.Persisted(st.Origin, h.now)
		case StepRefill:
			refills[st.Origin]++
			path := "" // the store holds URLs of the same shape as those discovered
			if st.Origin == other {
				path = long
			}
			var urls []store.URL
			for j := range st.Limit {
				urls = append(urls, urlOf(st.Origin, fmt.Sprintf("%s/r%d-%d", path, refills[st.Origin], j)))
			}
			room := share - h.f.Memory().Used
			if got := int64(st.Limit) * (QueuedURLBytes + urlBytes(&urls[0])); got > room {
				t.Errorf("refill of %s for %d URLs (%d bytes) with %d bytes of the share free", st.Origin, st.Limit, got, room)
			}
			h.f.Refilled(st.Origin, urls, st.Limit, h.now)
		case StepWait:
			if st.Until.IsZero() {
				t.Fatalf("at step %d: waiting for nothing (memory %+v)", i, h.f.Memory())
			}
			h.now = st.Until
		default:
			t.Fatalf("step %+v", st)
		}
		if m := h.f.Memory(); m.Peak > share+int64(len(long))*2 {
			t.Fatalf("peak %d bytes, over the share of %d by more than one long URL's strings", m.Peak, share)
		}
	}
	if refills[other] < 3 || refills[testOrigin] < 1 || !starved {
		t.Errorf("refills %v, starved %v; want 3 of %s, which waited for room, and one of %s at least", refills, starved, other, testOrigin)
	}
}

// robotsAllowAll is a robots.txt answered 404: everything allowed.
func robotsAllowAll(now time.Time) robots.Decision {
	return robots.Decision{Kind: robots.KindAllowAll, Status: 404, FetchedAt: now, MaxAge: -1, Robots: robotstxt.Parse(nil)}
}

// issue 29 ("it never grows past the budget"): a load hands over an origin's due URLs, for which
// room was set aside, and the IDs of every URL the store knows of it. The known set is a cache in
// front of the store's de-duplication, so it takes only the room the queue leaves: here the IDs
// alone fit the share, and the due URLs alone fit it, but not both. The peak must stay within
// the share, the due URLs must all be queued, and the origin must become partial.
func TestIssue29LoadedKnownSetYieldsToTheQueue(t *testing.T) {
	const share = 8 * RefillURLBytes
	h := newHarness(t, Options{MaxBytes: share, Window: 4})
	if _, over := h.f.Discover(urlOf(testOrigin, "/"), h.now); over {
		t.Fatal("the first URL overflowed")
	}
	st := h.f.Next(h.now)
	if st.Kind != StepLoad || st.Limit < 1 {
		t.Fatalf("step %+v; want a load", st)
	}
	var l store.OriginLoad
	for i := range st.Limit {
		l.Due = append(l.Due, urlOf(testOrigin, fmt.Sprintf("/due-%d", i)))
	}
	used := h.f.Memory().Used
	for i := int64(0); (i+1)*KnownIDBytes <= share-used; i++ { // as many IDs as the share holds
		l.IDs = append(l.IDs, store.IDOf(fmt.Sprintf("%s/known-%d", testOrigin, i)))
	}
	h.f.Loaded(testOrigin, l, h.now)
	m := h.f.Memory()
	if m.Peak > share {
		t.Errorf("peak %d bytes after a load of %d due URLs and %d IDs, over the share of %d (%+v)", m.Peak, len(l.Due), len(l.IDs), share, m)
	}
	if n := h.f.Queued(testOrigin); n < len(l.Due) {
		t.Errorf("%d URLs queued after the load; want the %d due ones and the one discovered", n, len(l.Due))
	}
	if m.Partial != 1 {
		t.Errorf("%d partial origins; want the loaded one, whose IDs did not fit beside its queue", m.Partial)
	}
}

// issue 29 ("it never grows past the budget"): the same for a refill. Its URLs all cost what the
// origin's URLs have cost so far (its estimate), and the refill's limit fills the share to
// within less than one URL; the refilled URLs' IDs then fit only where the queue leaves room.
func TestIssue29RefilledKnownSetYieldsToTheQueue(t *testing.T) {
	const share = 8 * RefillURLBytes
	long := "/" + strings.Repeat("y", 300)
	path := func(i int) string { return fmt.Sprintf("%s/%04d", long, i) } // every URL as long
	h := newHarness(t, Options{MaxBytes: share, Window: 64})
	h.discover(path(0))
	if st := h.f.Next(h.now); st.Kind != StepLoad {
		t.Fatalf("step %+v; want a load", st)
	}
	h.f.Loaded(testOrigin, store.OriginLoad{More: true}, h.now) // the store holds more due URLs
	h.robots(404, "", nil)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	st := h.f.Next(h.now)
	if st.Kind != StepRefill {
		t.Fatalf("step %+v; want a refill", st)
	}
	var urls []store.URL
	for i := range st.Limit {
		urls = append(urls, urlOf(testOrigin, path(i+1)))
	}
	each := QueuedURLBytes + urlBytes(&urls[0])
	if left := share - h.f.Memory().Used - int64(st.Limit)*each; left < 0 || left >= int64(st.Limit)*KnownIDBytes {
		t.Fatalf("the refill of %d URLs leaves %d bytes: the test needs less than their IDs", st.Limit, left)
	}
	h.f.Refilled(testOrigin, urls, st.Limit, h.now)
	if m := h.f.Memory(); m.Peak > share || m.Partial != 1 || h.f.Queued(testOrigin) != len(urls) {
		t.Errorf("after a refill of %d URLs: %+v, %d queued; want the peak within the share of %d, all queued, the origin partial", len(urls), m, h.f.Queued(testOrigin), share)
	}
}
