package postgres_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Fencing under a race (issue 12: "writes for an origin whose lease was lost are refused"): a
// process keeps committing for an origin while another, through a store of its own (another
// pool, as another machine), takes the expired lease over and reads the origin's URL. Every
// commit of the old owner that succeeded is in what the new owner reads right after its grant,
// and none succeeds after it: a takeover waits for a commit that passed the lease check.
func TestFencingRacesTakeover(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	open := func() *postgres.Store {
		s, err := postgres.Open(t.Context(), url, postgres.Options{Schema: schema, MaxConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	const ttl = time.Minute
	for round := range 10 {
		key := "http://race.test"
		added, err := a.Commit(t.Context(), store.Batch{New: []store.NewURL{{URL: key + "/" + string(rune('a'+round)), Origin: key, State: store.StateQueued, DiscoveredAt: t0}}})
		if err != nil {
			t.Fatal(err)
		}
		owner, next := "a", "b"
		now := t0.Add(time.Duration(round) * 10 * ttl)
		if ok, err := a.LeaseOrigin(t.Context(), owner, key, now, ttl); err != nil || !ok {
			t.Fatalf("round %d: a could not lease: %v %v", round, ok, err)
		}
		u := added[0]
		var last atomic.Int64 // the Attempts of a's last successful commit
		var granted atomic.Bool
		var lateSuccess, lateTries atomic.Int64
		tried := make(chan struct{}) // closed once a has tried 3 commits after the takeover, or failed
		var triedOnce sync.Once
		warm := make(chan struct{}) // closed once a has committed round+1 times
		var wg sync.WaitGroup
		stop := make(chan struct{})
		wg.Go(func() {
			for i := 1; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				after := granted.Load()
				v := u
				v.Attempts = i
				_, err := a.Commit(t.Context(), store.Batch{Owner: owner, Updates: []store.URL{v}})
				switch {
				case err == nil:
					last.Store(int64(i))
					if after {
						lateSuccess.Add(1)
					}
					if i == round+1 {
						close(warm)
					}
				case errors.Is(err, store.ErrLeaseLost):
				default:
					t.Errorf("round %d: commit %d: %v", round, i, err)
					triedOnce.Do(func() { close(tried) })
					return
				}
				if after && lateTries.Add(1) == 3 {
					triedOnce.Do(func() { close(tried) })
				}
			}
		})
		<-warm // the takeover lands after a varying number of commits
		if ok, err := b.LeaseOrigin(t.Context(), next, key, now.Add(ttl), ttl); err != nil || !ok {
			t.Fatalf("round %d: b could not take over the expired lease: %v %v", round, ok, err)
		}
		granted.Store(true)
		var seen store.URL
		b.EachURL(t.Context(), func(x store.URL) error {
			if x.ID == u.ID {
				seen = x
			}
			return nil
		})
		<-tried
		close(stop)
		wg.Wait()
		if lateSuccess.Load() > 0 {
			t.Errorf("round %d: %d commits of the old owner succeeded after the takeover", round, lateSuccess.Load())
		}
		if int64(seen.Attempts) != last.Load() {
			t.Errorf("round %d: the new owner read Attempts %d right after its grant; the old owner's last successful commit wrote %d",
				round, seen.Attempts, last.Load())
		}
	}
}
