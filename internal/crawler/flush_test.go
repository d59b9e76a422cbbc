package crawler

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// commitCounter is a store.Queue whose Commit only reports the batch on commits; the writer
// calls nothing else of it.
type commitCounter struct {
	store.Queue
	commits chan store.Batch
}

func (c commitCounter) Commit(_ context.Context, b store.Batch) ([]store.URL, error) {
	c.commits <- b
	return nil, nil
}

// Issue 8 (an origin's next URL leaves "as soon as its politeness rules allow"): when the crawl
// has nothing to do but wait for its outcomes to be durable (a one-site crawl whose window ran
// dry refills from the store only then), the writer commits what it gathered at once instead of
// waiting out its commit window for more. The window here is an hour: the test passes only by
// the flush.
func TestWriterCommitsAtOnceWhenTheCrawlWaitsForIt(t *testing.T) {
	st := commitCounter{commits: make(chan store.Batch, 4)}
	in, flush, out := make(chan write, 4), make(chan struct{}, 1), make(chan ack, 4)
	go writer(context.Background(), st, "", nil, time.Hour, in, flush, out)
	defer close(in)
	deadline := time.After(10 * time.Second) // for a hung test, not a wait for the writer
	in <- write{origin: "http://a.test", batch: store.Batch{Updates: []store.URL{{ID: 1, URL: "http://a.test/1"}}}}
	in <- write{origin: "http://a.test", batch: store.Batch{Updates: []store.URL{{ID: 2, URL: "http://a.test/2"}}}}
	flush <- struct{}{}
	select {
	case b := <-st.commits:
		if len(b.Updates) == 0 || len(b.Updates) > 2 {
			t.Fatalf("committed %d updates, want the 1 or 2 written", len(b.Updates))
		}
	case <-deadline:
		t.Fatal("a flush did not make the writer commit before its window ended")
	}
}

// issue 29 ("one memory budget at any crawl size"): a commit group ends once it carries
// commitGroupMaxNew new URLs, whatever the window: outcomes of sitemaps, a thousand entries
// each, queued at once, are committed in groups of at most that many (and one outcome's more),
// not all in one transaction that holds every URL the store hands back.
func TestWriterBoundsTheNewURLsOfAGroupIssue29(t *testing.T) {
	const writes, each = 40, 1000
	st := commitCounter{commits: make(chan store.Batch, writes)}
	in, flush, out := make(chan write, writes), make(chan struct{}, 1), make(chan ack, writes)
	for i := range writes {
		news := make([]store.NewURL, each)
		for j := range news {
			news[j] = store.NewURL{URL: fmt.Sprintf("http://a.test/%d/%d", i, j), Origin: "http://a.test"}
		}
		in <- write{origin: "http://a.test", batch: store.Batch{New: news}}
	}
	close(in)
	writer(context.Background(), st, "", nil, time.Hour, in, flush, out) // returns once in is drained
	close(st.commits)
	total := 0
	for b := range st.commits {
		if len(b.New) > commitGroupMaxNew+each {
			t.Errorf("a group of %d new URLs, over %d and one outcome's", len(b.New), commitGroupMaxNew)
		}
		total += len(b.New)
	}
	if total != writes*each {
		t.Errorf("%d new URLs committed, want %d", total, writes*each)
	}
}
