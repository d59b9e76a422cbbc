// Package crawlctx carries what the mandelbot command gives crawl.Run beyond the public Config:
// the store it opened (and serves and counts from while the crawl runs). The store's interface
// is internal, so it cannot be a Config field of the public API; it rides on Run's context
// instead, for this module's callers only.
package crawlctx

import (
	"context"

	"github.com/fractle/mandelbot/internal/store"
)

type storeKey struct{}

// WithStore returns ctx carrying st: crawl.Run then crawls into st (not Config.StorePath) and
// does not close it.
func WithStore(ctx context.Context, st store.Store) context.Context {
	return context.WithValue(ctx, storeKey{}, st)
}

// Store returns the store ctx carries, nil when none.
func Store(ctx context.Context) store.Store {
	st, _ := ctx.Value(storeKey{}).(store.Store)
	return st
}
