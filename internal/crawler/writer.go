package crawler

import (
	"context"
	"fmt"

	"github.com/fractle/mandelbot/internal/store"
)

// write is one outcome to make durable: the batch, and the origin whose frontier write it is.
type write struct {
	origin string
	batch  store.Batch
}

// ack reports a group of writes that are durable, with the URLs that were new.
type ack struct {
	origins []string
	added   []store.URL
	err     error
}

// writer commits writes in groups of up to writeBatchMax (group commit: one transaction for
// whatever queued up while the previous one ran), and acknowledges each group in order. It
// stops when in is closed.
func writer(ctx context.Context, st store.Store, in <-chan write, out chan<- ack) {
	defer close(out)
	groups := 0
	for w := range in {
		group := []write{w}
	drain:
		for len(group) < writeBatchMax {
			select {
			case w, ok := <-in:
				if !ok {
					break drain
				}
				group = append(group, w)
			default:
				break drain
			}
		}
		var b store.Batch
		origins := make([]string, 0, len(group))
		for _, w := range group {
			b.New = append(b.New, w.batch.New...)
			b.Updates = append(b.Updates, w.batch.Updates...)
			b.Origins = append(b.Origins, w.batch.Origins...)
			b.Documents = append(b.Documents, w.batch.Documents...)
			b.Links = append(b.Links, w.batch.Links...)
			origins = append(origins, w.origin)
		}
		a := ack{origins: origins}
		if !b.Empty() {
			added, err := st.Commit(ctx, b)
			a.added = added
			if err != nil {
				a.err = fmt.Errorf("crawl: save %d outcomes: %w", len(group), err)
			}
		}
		if groups++; groups%refreshEveryGroups == 0 && a.err == nil {
			a.err = refresh(ctx, st)
		}
		out <- a
	}
	// The run's last anchor text becomes searchable before Run returns.
	if err := refresh(ctx, st); err != nil {
		out <- ack{err: err}
	}
}

// refreshEveryGroups is how many commit groups pass between two index refreshes during a run,
// so anchor text from new links becomes searchable while a long crawl goes on. A refresh rewrites
// every entry whose anchors changed, and on a densely linked web most entries change again before
// the next one, so refreshing rarely saves much work: at 64 it took a quarter of the crawl's CPU.
// The end of a run always refreshes.
const refreshEveryGroups = 512

func refresh(ctx context.Context, st store.Store) error {
	if _, err := st.RefreshIndex(ctx); err != nil {
		return fmt.Errorf("crawl: refresh the index: %w", err)
	}
	return nil
}
