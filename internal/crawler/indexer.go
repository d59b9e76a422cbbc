package crawler

import (
	"context"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// Indexing trails the crawl, on its own goroutine and in its own transactions. The indexer folds
// staged documents into the link graph as they come (store.Indexer.IndexPending, batches of
// indexBatch), and writes the searchable text (RefreshIndex) when refreshEvery has passed since
// the last time or refreshLag documents wait (RefreshDocuments: the link-only entries of URLs
// still queued are left for later, since most are fetched before the crawl ends), and always
// before the run ends (RefreshIndex: everything): each entry's text is written once per refresh
// however many links to it arrived meanwhile. The scheduler stops
// dispatching while more than MaxIndexLag committed documents are not searchable, so the lag is
// bounded.
const (
	indexBatch   = 2000
	foldEvery    = 500 * time.Millisecond
	refreshEvery = 30 * time.Second
	refreshLag   = 50_000
	MaxIndexLag  = 100_000
)

// indexed reports progress of the indexer: how many committed documents are not searchable yet
// (store.Indexer.IndexLag, read after a step), or the error that stopped it.
type indexed struct {
	lag int
	err error
}

// indexer indexes until stop is closed, then brings the index fully up to date (RefreshIndex)
// and returns, closing out. When a fold finds less than a full batch it waits foldEvery before
// the next, so that its transactions do not crowd the crawl's commits. foldEvery and
// refreshEvery are wall-clock times: they space out disk work, they decide no crawl policy.
func indexer(ctx context.Context, st store.Indexer, stop <-chan struct{}, out chan<- indexed) {
	defer close(out)
	lastRefresh := time.Now()
	for {
		n, err := st.IndexPending(ctx, indexBatch)
		if err != nil {
			out <- indexed{err: fmt.Errorf("crawl: index: %w", err)}
			return
		}
		lag, err := st.IndexLag(ctx)
		if err != nil {
			out <- indexed{err: fmt.Errorf("crawl: index: %w", err)}
			return
		}
		if lag > 0 && (lag >= refreshLag || time.Since(lastRefresh) >= refreshEvery) {
			// During the crawl: the link-only entries of queued URLs wait for the last refresh.
			if _, err := st.RefreshDocuments(ctx); err != nil {
				out <- indexed{err: fmt.Errorf("crawl: refresh the index: %w", err)}
				return
			}
			lastRefresh = time.Now()
			if lag, err = st.IndexLag(ctx); err != nil {
				out <- indexed{err: fmt.Errorf("crawl: index: %w", err)}
				return
			}
		}
		out <- indexed{lag: lag}
		if n == indexBatch {
			continue
		}
		select {
		case <-time.After(foldEvery):
		case <-stop:
			_, err := st.RefreshIndex(ctx)
			if err != nil {
				err = fmt.Errorf("crawl: refresh the index: %w", err)
			}
			out <- indexed{err: err}
			return
		}
	}
}
