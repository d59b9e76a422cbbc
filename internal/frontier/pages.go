package frontier

import "github.com/fractle/mandelbot/internal/store"

// takePage spends one page of o's budget (Options.MaxPagesPerOrigin) on u, about to be
// requested, and reports false when the budget is spent. The budget counts distinct pages over
// every run (issue 29): a page requested before, in this run or an earlier one (state fetched or
// error, counted in store.OriginLoad.Requested), takes nothing, so that a site crawled in full
// can be revisited in full; nor does a sitemap.
func (f *Frontier) takePage(o *origin, u store.URL) bool {
	if u.Kind != store.KindPage || u.State == store.StateFetched || u.State == store.StateError {
		return true
	}
	if !f.pages.Take(o.key) {
		return false
	}
	if o.took == nil {
		o.took = make(map[int64]struct{})
	}
	o.took[u.ID] = struct{}{}
	return true
}

// giveBack returns the page u took of its origin's budget, if it took one: it is requested
// again (a retry, the probe after a pause), or not at all (cancelled).
func (f *Frontier) giveBack(u store.URL) {
	o := f.origins[u.Origin]
	if o == nil {
		return
	}
	if _, ok := o.took[u.ID]; ok {
		delete(o.took, u.ID)
		f.pages.Give(u.Origin)
	}
}
