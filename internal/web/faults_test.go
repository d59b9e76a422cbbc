package web

import (
	"context"
	"errors"
	"time"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// errDisk is a store failure the user has nothing to do with.
var errDisk = errors.New("sqlite: read crawl.db: disk I/O error")

// failing is a real store whose reads fail, as they do when the disk does.
type failing struct{ store.Store }

func (failing) Search(context.Context, index.Query) (index.Page, error) { return index.Page{}, errDisk }
func (failing) Explain(context.Context, string) (index.Explanation, error) {
	return index.Explanation{}, errDisk
}
func (failing) Counts(context.Context, time.Time) (map[store.State]int, error) { return nil, errDisk }
func (failing) EachOrigin(context.Context, func(store.Origin) error) error     { return errDisk }

// stuck is a real store whose searches wait until their context ends, like a query stuck
// behind a lock: only the request's deadline ends it.
type stuck struct{ store.Store }

func (stuck) Search(ctx context.Context, _ index.Query) (index.Page, error) {
	<-ctx.Done()
	return index.Page{}, ctx.Err()
}
