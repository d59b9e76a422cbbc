package crawler

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 26: a group's batch, its lists allocated once, holds every write's entries in the order
// the writes were queued, exactly as appending them one write after the other did; a list no
// write has is nil, as before.
func TestIssue26_GroupBatchKeepsEveryEntryInOrder(t *testing.T) {
	group := []write{
		{origin: "a", batch: store.Batch{
			New:       []store.NewURL{{URL: "https://a/1"}, {URL: "https://a/2"}},
			Updates:   []store.URL{{ID: 1}},
			Documents: []store.Document{{URLID: 1, Title: "one"}},
			Links:     []store.Link{{FromID: 1, To: "https://a/2"}},
		}},
		{origin: "b", batch: store.Batch{Origins: []store.Origin{{Key: "b"}}}},
		{origin: "a", batch: store.Batch{
			New:       []store.NewURL{{URL: "https://a/3"}},
			Updates:   []store.URL{{ID: 2}, {ID: 3}},
			Documents: []store.Document{{URLID: 2, Title: "two"}},
			Links:     []store.Link{{FromID: 2, To: "https://a/3"}, {FromID: 2, To: "https://a/1"}},
		}},
	}
	var want store.Batch
	for _, w := range group {
		want.New = append(want.New, w.batch.New...)
		want.Updates = append(want.Updates, w.batch.Updates...)
		want.Origins = append(want.Origins, w.batch.Origins...)
		want.Documents = append(want.Documents, w.batch.Documents...)
		want.Links = append(want.Links, w.batch.Links...)
	}
	if diff := cmp.Diff(want, groupBatch(group)); diff != "" {
		t.Errorf("groupBatch (-appended +got):\n%s", diff)
	}
	if b := groupBatch(group[1:2]); b.New != nil || b.Updates != nil || b.Documents != nil || b.Links != nil || len(b.Origins) != 1 {
		t.Errorf("groupBatch of an origin record alone = %+v, want only its Origins, the other lists nil", b)
	}
}
