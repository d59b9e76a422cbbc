package postgres_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// lockTimeout is the lock_timeout of the stores these tests open: a statement that waits for a
// row lock longer fails with lock_not_available (55P03) instead of waiting, so that a wait is
// an error the test sees, not a hang.
const lockTimeout = "3s"

// leaseLockFixture is a worker "w" holding the leases of n origins, each with one URL, in a
// store whose statements give up on a row lock after lockTimeout, and a plain connection to the
// same schema that plays the other side.
type leaseLockFixture struct {
	s     *postgres.Store
	conn  *pgx.Conn
	keys  []string
	added []store.URL
}

const lockOwner, lockTTL = "w", time.Hour

func newLeaseLockFixture(t *testing.T, n int) leaseLockFixture {
	t.Helper()
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	s, err := postgres.Open(t.Context(), url+sep+"lock_timeout="+lockTimeout, postgres.Options{Schema: schema, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f := leaseLockFixture{s: s}
	var b store.Batch
	for i := range n {
		key := fmt.Sprintf("http://l%03d.test", i)
		f.keys = append(f.keys, key)
		b.New = append(b.New, store.NewURL{URL: key + "/", Origin: key, State: store.StateQueued, DiscoveredAt: t0})
	}
	if f.added, err = s.Commit(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	for _, key := range f.keys {
		if ok, err := s.LeaseOrigin(t.Context(), lockOwner, key, t0, lockTTL); err != nil || !ok {
			t.Fatalf("lease %s: %v %v", key, ok, err)
		}
	}
	if f.conn, err = pgx.Connect(t.Context(), url); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.conn.Close(t.Context()) })
	if _, err := f.conn.Exec(t.Context(), `SET search_path = `+pgx.Identifier{schema}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	return f
}

// holding runs sql in a transaction of the plain connection and leaves it open (its row locks
// held) until the test's function returns.
func (f leaseLockFixture) holding(t *testing.T, sql string, args ...any) (release func()) {
	t.Helper()
	tx, err := f.conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(t.Context(), sql, args...); err != nil {
		t.Fatal(err)
	}
	return func() { tx.Rollback(t.Context()) }
}

// lockWait reports whether err is a statement that gave up waiting for a row lock.
func lockWait(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "55P03"
}

// Issue 31 (a worker at the politeness limit): a fenced commit does not wait for a renewal of
// the same leases. A renewal changes expires alone; while a transaction doing that holds the
// rows, the worker's fenced commit of those origins goes through at once. (With the fence's
// FOR SHARE, the commit waited for every renewal of the worker's thousands of leases: a third
// of its committer's time.)
func TestFencedCommitDoesNotWaitForARenewal(t *testing.T) {
	f := newLeaseLockFixture(t, 3)
	release := f.holding(t, `UPDATE leases SET expires = expires + interval '1 second' WHERE owner = $1`, lockOwner)
	defer release()
	var b store.Batch
	b.Owner = lockOwner
	for _, u := range f.added {
		u.Attempts = 1
		b.Updates = append(b.Updates, u)
	}
	if _, err := f.s.Commit(t.Context(), b); err != nil {
		if lockWait(err) {
			t.Fatalf("the fenced commit waited for a renewal's row locks: %v", err)
		}
		t.Fatal(err)
	}
}

// The other way round: while a fenced commit holds its lease rows (FOR KEY SHARE, the fence's
// lock), the worker's renewals (RenewOrigins, and LeaseOrigins, which renews every lease the
// worker holds) go through at once.
func TestRenewalDoesNotWaitForAFencedCommit(t *testing.T) {
	f := newLeaseLockFixture(t, 3)
	release := f.holding(t, `SELECT origin FROM leases WHERE owner = $1 ORDER BY origin FOR KEY SHARE`, lockOwner)
	defer release()
	now := t0.Add(time.Minute)
	held, err := f.s.RenewOrigins(t.Context(), lockOwner, f.keys, now, lockTTL)
	if lockWait(err) {
		t.Fatalf("RenewOrigins waited for a fenced commit's row locks: %v", err)
	}
	if err != nil || len(held) != len(f.keys) {
		t.Fatalf("RenewOrigins = %v, %v; want all %d held", held, err, len(f.keys))
	}
	if _, err := f.s.LeaseOrigins(t.Context(), lockOwner, now, now, lockTTL, 0); err != nil {
		if lockWait(err) {
			t.Fatalf("LeaseOrigins' renewal waited for a fenced commit's row locks: %v", err)
		}
		t.Fatal(err)
	}
}

// Fencing still holds (issue 12): while a fenced commit holds its lease rows, a takeover of an
// expired lease by another worker waits for it (here: gives up after lock_timeout), through
// LeaseOrigin and through LeaseOrigins alike, so that the new owner's load sees every commit of
// the old one.
func TestTakeoverWaitsForAFencedCommit(t *testing.T) {
	f := newLeaseLockFixture(t, 3)
	release := f.holding(t, `SELECT origin FROM leases WHERE owner = $1 ORDER BY origin FOR KEY SHARE`, lockOwner)
	defer release()
	later := t0.Add(2 * lockTTL) // every lease of w has expired
	if ok, err := f.s.LeaseOrigin(t.Context(), "other", f.keys[0], later, lockTTL); !lockWait(err) {
		t.Errorf("LeaseOrigin took over a lease a fenced commit holds: granted %v, err %v; want a lock wait", ok, err)
	}
	if keys, err := f.s.LeaseOrigins(t.Context(), "other", later, later, lockTTL, len(f.keys)); !lockWait(err) {
		t.Errorf("LeaseOrigins took over leases a fenced commit holds: %v, err %v; want a lock wait", keys, err)
	}
}

// One worker asking for the same new origin twice at once (its loader's Lease beside its
// Acquire: issue 31) gets it both times. Both upserts insert the same (owner, origin) row; the one
// that loses on leases_owner, which ON CONFLICT (origin) does not arbitrate, is run again and
// finds the row the other made. (Seen in politebench: "duplicate key value violates unique
// constraint leases_owner" ended a crawl.)
func TestConcurrentLeasesOfOneOwnerBothSucceed(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	const origins = 300
	var b store.Batch
	keys := make([]string, origins)
	for i := range origins {
		keys[i] = fmt.Sprintf("http://c%03d.test", i)
		b.New = append(b.New, store.NewURL{URL: keys[i] + "/", Origin: keys[i], State: store.StateQueued, DiscoveredAt: t0})
	}
	if _, err := s.Commit(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 3*origins)
	var wg sync.WaitGroup
	for _, key := range keys {
		for range 2 {
			wg.Go(func() {
				if ok, err := s.LeaseOrigin(t.Context(), lockOwner, key, t0, lockTTL); err != nil || !ok {
					errs <- fmt.Errorf("LeaseOrigin(%s) = %v, %v", key, ok, err)
				}
			})
		}
	}
	wg.Go(func() {
		if _, err := s.LeaseOrigins(t.Context(), lockOwner, t0, t0, lockTTL, origins); err != nil {
			errs <- fmt.Errorf("LeaseOrigins: %w", err)
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
