package crawler

import (
	"context"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// Indexing trails the crawl: the indexer folds staged documents into the search index in
// batches of indexBatch, on its own goroutine and in its own transactions. The scheduler stops
// dispatching while more than MaxIndexLag committed documents wait, so the lag is bounded.
// Anchor text of pages indexed earlier is refreshed every anchorRefreshEvery while the indexer is
// idle, and always before the run ends.
const (
	indexBatch         = 2000
	MaxIndexLag        = 20000
	anchorRefreshEvery = time.Minute
)

// indexed reports progress of the indexer: documents indexed by one batch, how many committed
// documents still wait (store.Indexer.IndexLag, read after the batch), or the error that
// stopped it.
type indexed struct {
	n, lag int
	err    error
}

// indexer indexes until stop is closed, then brings the index fully up to date (RefreshIndex)
// and returns, closing out. wake tells it that documents were committed.
func indexer(ctx context.Context, st store.Indexer, wake, stop <-chan struct{}, out chan<- indexed) {
	defer close(out)
	lastRefresh := time.Now()
	for {
		n, err := st.IndexPending(ctx, indexBatch)
		if err != nil {
			out <- indexed{err: fmt.Errorf("crawl: index: %w", err)}
			return
		}
		if n > 0 {
			lag, err := st.IndexLag(ctx)
			if err != nil {
				out <- indexed{err: fmt.Errorf("crawl: index: %w", err)}
				return
			}
			out <- indexed{n: n, lag: lag}
			continue
		}
		if time.Since(lastRefresh) > anchorRefreshEvery {
			if _, err := st.RefreshIndex(ctx); err != nil {
				out <- indexed{err: fmt.Errorf("crawl: refresh the index: %w", err)}
				return
			}
			lastRefresh = time.Now()
		}
		select {
		case <-wake:
		case <-stop:
			n, err := st.RefreshIndex(ctx)
			if err != nil {
				err = fmt.Errorf("crawl: refresh the index: %w", err)
			}
			out <- indexed{n: n, err: err}
			return
		}
	}
}
