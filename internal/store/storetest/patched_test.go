package storetest_test

import (
	"context"
	"time"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// patched is a store with some of its methods replaced: the way the mutants of the suite's own
// test break one behaviour of a correct store at a time. A nil func keeps the store's method.
type patched struct {
	store.Store
	commit       func(ctx context.Context, b store.Batch) ([]store.URL, error)
	leaseOrigins func(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error)
	leaseOrigin  func(ctx context.Context, owner, key string, now time.Time, ttl time.Duration) (bool, error)
	dueURLs      func(ctx context.Context, origin string, now time.Time, limit int) ([]store.URL, error)
	origin       func(ctx context.Context, key string) (store.Origin, bool, error)
	eachURL      func(ctx context.Context, fn func(store.URL) error) error
	eachOrigin   func(ctx context.Context, fn func(store.Origin) error) error
	counts       func(ctx context.Context) (map[store.State]int, error)
	seeds        func(ctx context.Context) ([]string, error)
	loadOrigin   func(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error)
	indexPending func(ctx context.Context, max int) (int, error)
	refreshIndex func(ctx context.Context) (int, error)
	eachPage     func(ctx context.Context, fn func(store.Page) error) error
	reschedule   func(ctx context.Context, r store.Reschedule) error
	search       func(ctx context.Context, q index.Query) (index.Page, error)
	saveSetting  func(ctx context.Context, key, value string) error
}

func (p patched) SaveSetting(ctx context.Context, key, value string) error {
	if p.saveSetting != nil {
		return p.saveSetting(ctx, key, value)
	}
	return p.Store.SaveSetting(ctx, key, value)
}

func (p patched) EachPage(ctx context.Context, fn func(store.Page) error) error {
	if p.eachPage != nil {
		return p.eachPage(ctx, fn)
	}
	return p.Store.EachPage(ctx, fn)
}

func (p patched) Reschedule(ctx context.Context, r store.Reschedule) error {
	if p.reschedule != nil {
		return p.reschedule(ctx, r)
	}
	return p.Store.Reschedule(ctx, r)
}

func (p patched) Search(ctx context.Context, q index.Query) (index.Page, error) {
	if p.search != nil {
		return p.search(ctx, q)
	}
	return p.Store.Search(ctx, q)
}

func (p patched) LoadOrigin(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error) {
	if p.loadOrigin != nil {
		return p.loadOrigin(ctx, key, now, limit)
	}
	return p.Store.LoadOrigin(ctx, key, now, limit)
}

func (p patched) IndexPending(ctx context.Context, max int) (int, error) {
	if p.indexPending != nil {
		return p.indexPending(ctx, max)
	}
	return p.Store.IndexPending(ctx, max)
}

func (p patched) RefreshIndex(ctx context.Context) (int, error) {
	if p.refreshIndex != nil {
		return p.refreshIndex(ctx)
	}
	return p.Store.RefreshIndex(ctx)
}

func (p patched) Commit(ctx context.Context, b store.Batch) ([]store.URL, error) {
	if p.commit != nil {
		return p.commit(ctx, b)
	}
	return p.Store.Commit(ctx, b)
}

func (p patched) LeaseOrigins(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error) {
	if p.leaseOrigins != nil {
		return p.leaseOrigins(ctx, owner, now, until, ttl, max)
	}
	return p.Store.LeaseOrigins(ctx, owner, now, until, ttl, max)
}

func (p patched) LeaseOrigin(ctx context.Context, owner, key string, now time.Time, ttl time.Duration) (bool, error) {
	if p.leaseOrigin != nil {
		return p.leaseOrigin(ctx, owner, key, now, ttl)
	}
	return p.Store.LeaseOrigin(ctx, owner, key, now, ttl)
}

func (p patched) DueURLs(ctx context.Context, origin string, now time.Time, limit int) ([]store.URL, error) {
	if p.dueURLs != nil {
		return p.dueURLs(ctx, origin, now, limit)
	}
	return p.Store.DueURLs(ctx, origin, now, limit)
}

func (p patched) Origin(ctx context.Context, key string) (store.Origin, bool, error) {
	if p.origin != nil {
		return p.origin(ctx, key)
	}
	return p.Store.Origin(ctx, key)
}

func (p patched) EachURL(ctx context.Context, fn func(store.URL) error) error {
	if p.eachURL != nil {
		return p.eachURL(ctx, fn)
	}
	return p.Store.EachURL(ctx, fn)
}

func (p patched) EachOrigin(ctx context.Context, fn func(store.Origin) error) error {
	if p.eachOrigin != nil {
		return p.eachOrigin(ctx, fn)
	}
	return p.Store.EachOrigin(ctx, fn)
}

func (p patched) Counts(ctx context.Context, now time.Time) (map[store.State]int, error) {
	if p.counts != nil {
		return p.counts(ctx)
	}
	return p.Store.Counts(ctx, now)
}

func (p patched) Seeds(ctx context.Context) ([]string, error) {
	if p.seeds != nil {
		return p.seeds(ctx)
	}
	return p.Store.Seeds(ctx)
}
