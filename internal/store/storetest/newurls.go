package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// store.go, Commit: "returns the ones that were new, in the order given", each with the ID
// store.IDOf gives its URL (id.go), and the returned records are the stored ones, which EachURL
// walks in discovery order.
func testNewIDsAndOrder(t *testing.T, s store.Store) {
	first := []store.NewURL{
		queued("http://b.test/", 0, t0),
		queued("http://a.test/x", 1, t0),
		outOfScope("http://c.test/", "outside --scope host", t0),
		{URL: "http://a.test/sitemap.xml", Origin: "http://a.test", Kind: store.KindSitemap, Depth: 1, Hops: 2,
			State: store.StateQueued, DiscoveredAt: t0.Add(time.Millisecond)},
	}
	added := commit(t, s, store.Batch{New: first})
	requireAdded(t, first, added)
	second := []store.NewURL{queued("http://a.test/y", 2, t0.Add(time.Second)), queued("http://d.test/", 0, t0.Add(time.Second))}
	added2 := commit(t, s, store.Batch{New: second})
	requireAdded(t, second, added2)
	if d := diff(append(added, added2...), allURLs(t, s)); d != "" {
		t.Errorf("stored URLs differ from the ones Commit returned (-returned +stored):\n%s", d)
	}
}

// requireAdded checks that added are news, in order, as the contract stores them, with the IDs
// store.IDOf gives.
func requireAdded(t *testing.T, news []store.NewURL, added []store.URL) {
	t.Helper()
	if len(added) != len(news) {
		t.Fatalf("Commit returned %d URLs %q, want %d", len(added), urlStrings(added), len(news))
	}
	for i, n := range news {
		if added[i].ID != store.IDOf(n.URL) {
			t.Errorf("%s: ID %d, want store.IDOf = %d", n.URL, added[i].ID, store.IDOf(n.URL))
		}
		if d := diff(stored(n, added[i].ID), added[i]); d != "" {
			t.Errorf("returned record of %s (-want +got):\n%s", n.URL, d)
		}
	}
}

// store.NewURL: "Adding a URL that is already known changes nothing". Within one batch, the
// second copy is already known once the first is added: the first one's fields stand.
func testDedupInOneBatch(t *testing.T, s store.Store) {
	a := queued("http://a.test/page", 1, t0)
	b := queued("http://a.test/other", 0, t0)
	aAgain := store.NewURL{URL: a.URL, Origin: a.Origin, Depth: 3, Hops: 2, State: store.StateOutOfScope,
		Reason: "max depth", DiscoveredAt: t0.Add(time.Hour)}
	added := commit(t, s, store.Batch{New: []store.NewURL{a, b, aAgain, b}})
	if got := urlStrings(added); len(got) != 2 || got[0] != a.URL || got[1] != b.URL {
		t.Fatalf("Commit returned %q, want [%s %s] (each URL once, in first-seen order)", got, a.URL, b.URL)
	}
	want := []store.URL{stored(a, added[0].ID), stored(b, added[1].ID)}
	if d := diff(want, allURLs(t, s)); d != "" {
		t.Errorf("stored URLs (-want +got): the first copy must win:\n%s", d)
	}
}

// store.Store.Commit: "New URLs that are already known are ignored (de-duplication on the
// canonical URL)", whatever state the known URL has reached.
func testDedupAcrossBatches(t *testing.T, s store.Store) {
	a := queued("http://a.test/", 0, t0)
	b := queued("http://a.test/b", 1, t0)
	first := commit(t, s, store.Batch{New: []store.NewURL{a, b}})
	fetched := first[0]
	fetched.State, fetched.Status, fetched.FetchedAt, fetched.NextAt = store.StateFetched, 200, t0.Add(time.Minute), time.Time{}
	commit(t, s, store.Batch{Updates: []store.URL{fetched}})

	c := queued("http://c.test/", 2, t0.Add(time.Hour))
	again := commit(t, s, store.Batch{New: []store.NewURL{
		queued(a.URL, 5, t0.Add(time.Hour)), // rediscovered: must not be queued again
		c,
		outOfScope(b.URL, "outside --scope host", t0.Add(time.Hour)),
	}})
	if got := urlStrings(again); len(got) != 1 || got[0] != c.URL {
		t.Fatalf("Commit returned %q, want only the unknown %s", got, c.URL)
	}
	want := []store.URL{fetched, first[1], stored(c, again[0].ID)}
	if d := diff(want, allURLs(t, s)); d != "" {
		t.Errorf("known URLs changed by rediscovery (-want +got):\n%s", d)
	}
}

// store.NewURL.DiscoveredAt: "also its first due time when queued"; store.URL.NextAt: "zero:
// never (out of scope)".
func testNewNextAt(t *testing.T, s store.Store) {
	q := queued("http://a.test/q", 0, t0.Add(7*time.Second))
	o := outOfScope("http://b.test/o", "outside --scope host", t0.Add(8*time.Second))
	added := commit(t, s, store.Batch{New: []store.NewURL{q, o}})
	inStore := allURLs(t, s)
	if len(added) != 2 || len(inStore) != 2 {
		t.Fatalf("added %d, stored %d URLs, want 2 and 2", len(added), len(inStore))
	}
	for _, got := range [][]store.URL{added, inStore} {
		if !got[0].NextAt.Equal(q.DiscoveredAt) {
			t.Errorf("queued URL: NextAt %v, want its DiscoveredAt %v", got[0].NextAt, q.DiscoveredAt)
		}
		if !got[1].NextAt.IsZero() {
			t.Errorf("out_of_scope URL: NextAt %v, want zero (never due)", got[1].NextAt)
		}
		if got[1].State != store.StateOutOfScope || got[1].Reason != o.Reason {
			t.Errorf("out_of_scope URL: state %q reason %q, want %q %q", got[1].State, got[1].Reason, o.State, o.Reason)
		}
	}
}

// store.Store.Commit: "Origins named by new URLs are created as needed (with a zero record)".
func testNewCreatesOrigins(t *testing.T, s store.Store) {
	commit(t, s, store.Batch{New: []store.NewURL{
		queued("http://a.test/x", 0, t0),
		queued("http://a.test/y", 1, t0),
		outOfScope("https://b.test:8443/", "outside --scope host", t0),
	}})
	want := []store.Origin{{Key: "http://a.test"}, {Key: "https://b.test:8443"}}
	if d := diff(want, allOrigins(t, s)); d != "" {
		t.Errorf("origins after discovery (-want +got):\n%s", d)
	}
	for _, o := range want {
		if d := diff(o, origin(t, s, o.Key)); d != "" {
			t.Errorf("Origin(%q) (-want +got):\n%s", o.Key, d)
		}
	}
}

// largeBatch is the number of new URLs in testLargeBatch: more than a store is likely to put in
// one statement.
const largeBatch = 1000

// Commit's contract holds for a batch of any size (an implementation may split its statements):
// every new URL once, in the order given, the first copy winning, IDs growing.
func testLargeBatch(t *testing.T, s store.Store) {
	var news, want []store.NewURL
	for i := range largeBatch {
		n := queued(fmt.Sprintf("http://o%d.test/%d", i%7, i), i%3, t0.Add(time.Duration(i)*time.Microsecond))
		news, want = append(news, n), append(want, n)
		if i%10 == 9 && i >= 90 { // a copy of a URL 50 to 89 places back, often in another statement's rows
			again := want[i-50-(i/10)%40]
			again.Depth = 9
			news = append(news, again)
		}
	}
	added := commit(t, s, store.Batch{New: news})
	requireAdded(t, want, added)
	if got := allURLs(t, s); len(got) != largeBatch {
		t.Errorf("%d URLs stored, want %d", len(got), largeBatch)
	}
	again := commit(t, s, store.Batch{New: news})
	if len(again) != 0 {
		t.Errorf("the same large batch again: Commit returned %d URLs, want none", len(again))
	}
}
