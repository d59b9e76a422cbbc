package crawler

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
	"github.com/fractle/mandelbot/internal/testweb"
)

// Issue 12, fencing wired into the crawl: another process ("b") takes over an origin while this
// one ("a") is crawling it, as after a renewal a missed. a's next commit for the origin is
// refused, the outcome dropped and the origin's work dropped locally: a sends it nothing while
// b's lease lives, then, b having died without renewing, takes the origin back (it does not end
// while the origin has due URLs: store.Shared.NextDue) and fetches every page, the one whose
// outcome was dropped a second time. Real PostgreSQL, virtual clock.
func TestCrawlDropsAnOriginWhoseLeaseWasTakenOver(t *testing.T) {
	const (
		pages = 8
		ttl   = 30 * time.Second
		steal = "/p/3"
	)
	s := pgtest.Open(t)
	t.Cleanup(func() { s.Close() })
	clk := clock.NewVirtual(t0)
	var (
		mu       sync.Mutex
		stolenAt time.Time
		bExpires time.Time
		stealErr error
		web      *testweb.Web
	)
	victim := testweb.GenKey(0)
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: 2, PagesPerOrigin: pages, LinksPerPage: 3, Seed: 5}),
		testweb.Options{Now: clk.Now, OnRequest: func(r testweb.Request) {
			mu.Lock()
			defer mu.Unlock()
			if r.Key != victim || r.Path != steal || !stolenAt.IsZero() {
				return
			}
			// b's clock reads past a's lease: b takes the origin over (and never renews).
			bNow := clk.Now().Add(ttl + time.Second)
			ok, err := s.LeaseOrigin(context.Background(), "b", web.Origin(victim), bNow, ttl)
			if err == nil && !ok {
				err = fmt.Errorf("b was refused the origin")
			}
			stolenAt, bExpires, stealErr = r.At, bNow.Add(ttl), err
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	e := &env{t: t, clock: clk, web: web}
	st, err := Run(context.Background(), Options{
		Fetcher: e.client(), Store: s, Clock: clk, MaxDepth: -1, Concurrency: 4, Owner: "a", LeaseTTL: ttl,
		Seeds:    web.Seeds(),
		Frontier: frontier.Options{Delay: time.Second},
	})
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	if stealErr != nil || stolenAt.IsZero() {
		t.Fatalf("the takeover did not happen: %v", stealErr)
	}
	if st.LeasesLost < 1 {
		t.Errorf("Stats.LeasesLost = %d, want the origin b took", st.LeasesLost)
	}
	for _, r := range web.RequestsTo(victim) {
		if r.At.After(stolenAt) && r.At.Before(bExpires) {
			t.Errorf("%s requested at t0%+v, while b held the origin (t0%+v to t0%+v)", r.Path, r.At.Sub(t0), stolenAt.Sub(t0), bExpires.Sub(t0))
		}
	}
	for _, key := range web.Keys() {
		for i := range pages {
			p := "/"
			if i > 0 {
				p = fmt.Sprintf("/p/%d", i)
			}
			want := 1
			if key == victim && p == steal {
				want = 2 // its outcome was refused with the lease: asked again
			}
			if n := web.Count(key, p); n != want {
				t.Errorf("%s%s requested %d times, want %d", key, p, n, want)
			}
		}
	}
}
