package crawler

import (
	"context"
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
