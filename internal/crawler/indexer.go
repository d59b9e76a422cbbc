package crawler

import (
	"context"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/store"
)

// Indexing trails the crawl, on its own goroutine and in its own transactions. The indexer folds
// staged documents into the link graph as they come (store.Indexer.IndexPending, batches of
// indexBatch, one after another while a backlog waits: the store reads larger chunks when it is
// behind, and merges its link log and rewrites anchor text itself at the log's own size: issue
// 26 part 2), refreshes on no timer and for no backlog, and always refreshes before the run ends
// (RefreshIndex: everything, exactly). A RefreshDocuments per 50,000 documents waiting merged the
// whole link log again beside the store's own merges: without it a crawl writes 6% fewer bytes
// (BENCHMARKS.md, issue 26), and issue 26 part 5 deleted it. The scheduler stops dispatching while more than
// MaxIndexLag committed documents are not searchable, so the lag is bounded.
const (
	indexBatch  = 2000
	foldEvery   = 500 * time.Millisecond
	MaxIndexLag = 100_000
)

// The crawl wakes an idle indexer (one waiting out foldEvery) once indexWakeDocs documents, or
// indexWakeBytes of their text, were committed since the last wake-up: about one indexing
// transaction's worth (the SQLite store reads 1 MiB of text per transaction), so that the index
// keeps up during a short or slow crawl instead of taking it all after the last request, and
// the indexer's transactions stay as large as when it is busy (issue 8: a one-site crawl of
// 1,171 pages was over before the indexer's first wait ended, and then spent a third of its
// time catching up).
const (
	indexWakeDocs  = indexBatch / 4
	indexWakeBytes = 1 << 20
)

// indexWaker counts what was committed since the indexer was last woken. The zero value is
// ready; it is the scheduler's, not safe for concurrent use.
type indexWaker struct {
	docs, bytes int
}

// add counts docs committed documents holding bytes of text, and reports whether the indexer is
// to be woken now (the counts start again from zero).
func (w *indexWaker) add(docs, bytes int) bool {
	w.docs += docs
	w.bytes += bytes
	if w.docs < indexWakeDocs && w.bytes < indexWakeBytes {
		return false
	}
	*w = indexWaker{}
	return true
}

// indexed reports progress of the indexer: how many committed documents are not searchable yet
// (store.Indexer.IndexLag, read after a step), or the error that stopped it.
type indexed struct {
	lag int
	err error
}

// indexer indexes until stop is closed, then brings the index fully up to date (catchUp) and
// returns, closing out; a stop during a backlog ends its batches, and its refreshes of the
// crawl's kind, at the next step. When a fold finds less than a full batch it waits for a
// wake-up (a receive from wake: indexWaker) or for every (foldEvery in a crawl) before the
// next, so that its transactions do not crowd the crawl's commits. every is a wall-clock time:
// it spaces out disk work, it decides no crawl policy.
func indexer(ctx context.Context, st store.Indexer, every time.Duration, stop, wake <-chan struct{}, out chan<- indexed) {
	indexOn(ctx, st, clock.Real{}, every, stop, wake, out)
}

// indexOn is indexer with its waits on clk: the crawl's is the wall clock (clock.Real), a test's
// a virtual one.
func indexOn(ctx context.Context, st store.Indexer, clk clock.Clock, every time.Duration, stop, wake <-chan struct{}, out chan<- indexed) {
	defer close(out)
	for {
		n, err := st.IndexPending(ctx, indexBatch)
		if err != nil {
			out <- indexed{err: fmt.Errorf("crawl: index: %w", err)}
			return
		}
		select {
		case <-stop:
			catchUp(ctx, st, out)
			return
		default:
		}
		lag, err := st.IndexLag(ctx)
		if err != nil {
			out <- indexed{err: fmt.Errorf("crawl: index: %w", err)}
			return
		}
		out <- indexed{lag: lag}
		if n == indexBatch {
			continue
		}
		tick, cancel := clk.At(clk.Now().Add(every), false)
		select {
		case <-tick:
		case <-wake:
		case <-stop:
			cancel()
			catchUp(ctx, st, out)
			return
		}
		cancel()
	}
}

// catchUp brings the index fully up to date once the crawl has stopped, whatever the backlog:
// RefreshIndex takes it in its catch-up transactions, larger than IndexPending's while fewer
// than a few thousand documents wait (issue 8).
func catchUp(ctx context.Context, st store.Indexer, out chan<- indexed) {
	_, err := st.RefreshIndex(ctx)
	if err != nil {
		err = fmt.Errorf("crawl: refresh the index: %w", err)
	}
	out <- indexed{err: err}
}
