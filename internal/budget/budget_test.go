package budget

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
)

// issue 9 ("one memory budget"): what is held never exceeds the size; a request that would
// exceed it waits until enough is released.
func TestAcquireWaitsUntilReleased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := New(100)
		if err := b.Acquire(context.Background(), 80); err != nil {
			t.Fatal(err)
		}
		got := make(chan error, 1)
		go func() { got <- b.Acquire(context.Background(), 30) }()
		synctest.Wait()
		select {
		case err := <-got:
			t.Fatalf("Acquire(30) with 80 of 100 held returned %v; want it to wait", err)
		default:
		}
		b.Release(80)
		synctest.Wait()
		if err := <-got; err != nil {
			t.Fatal(err)
		}
		if b.Used() != 30 || b.Peak() != 80 {
			t.Fatalf("used %d peak %d, want 30 and 80", b.Used(), b.Peak())
		}
	})
}

func TestAcquireGivesUpWithItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := New(10)
		b.Acquire(context.Background(), 10)
		ctx, cancel := context.WithCancelCause(context.Background())
		cause := errors.New("deadline of the request")
		got := make(chan error, 1)
		go func() { got <- b.Acquire(ctx, 5) }()
		synctest.Wait()
		cancel(cause)
		if err := <-got; !errors.Is(err, cause) {
			t.Fatalf("err %v, want the context's cause", err)
		}
		b.Release(10)
		if b.Used() != 0 {
			t.Fatalf("a waiter that gave up still holds bytes: used %d", b.Used())
		}
	})
}

// AcquireLeaving waiters are served in arrival order, so a large one is not starved by small
// ones; one that gives up lets those behind it through. Acquire goes before them.
func TestAcquireLeavingOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := New(100)
		b.Acquire(context.Background(), 60)
		ctx, cancel := context.WithCancel(context.Background())
		big := make(chan error, 1)
		go func() { big <- b.AcquireLeaving(ctx, 50, 0) }()
		synctest.Wait()
		small := make(chan error, 1)
		go func() { small <- b.AcquireLeaving(context.Background(), 10, 0) }()
		synctest.Wait()
		if len(small) != 0 {
			t.Fatal("a small request overtook a waiting large one")
		}
		if !b.TryAcquire(20) { // a holder's growth goes first
			t.Fatal("TryAcquire refused with 20 bytes free")
		}
		cancel()
		<-big
		synctest.Wait()
		if err := <-small; err != nil || b.Used() != 90 {
			t.Fatalf("small: %v, used %d; want granted once the large waiter left", err, b.Used())
		}
	})
}

// AcquireLeaving keeps room for the rest a holder may need: with 30 of 100 held, 50 leaving 40
// must wait; 50 leaving 20 need not.
func TestAcquireLeavingKeepsRoom(t *testing.T) {
	b := New(100)
	b.Acquire(context.Background(), 30)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.AcquireLeaving(ctx, 50, 40); err == nil {
		t.Fatal("granted 50 leaving 40 with 70 free")
	}
	if err := b.AcquireLeaving(context.Background(), 50, 20); err != nil || b.Used() != 80 {
		t.Fatalf("err %v, used %d", err, b.Used())
	}
}

// issue 9: holders that take a first grant with AcquireLeaving and then grow with Acquire while
// holding it never deadlock, however many start at once (synctest fails the test if every
// goroutine blocks for good).
func TestTwoStepHoldersNeverDeadlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := New(128)
		var wg sync.WaitGroup
		grow := make(chan struct{})
		for i := range 16 {
			wg.Go(func() {
				first, rest := int64(6+i%5), int64(40+i%5)
				if err := b.AcquireLeaving(context.Background(), first, rest); err != nil {
					t.Error(err)
					return
				}
				<-grow // as many first grants as admitted are held before anyone grows
				if err := b.Acquire(context.Background(), rest); err != nil {
					t.Error(err)
				}
				b.Release(first + rest)
			})
		}
		synctest.Wait()
		close(grow)
		wg.Wait()
		if b.Used() != 0 || b.Peak() > b.Size() {
			t.Fatalf("used %d, peak %d", b.Used(), b.Peak())
		}
	})
}

func TestTooLargeAndRelease(t *testing.T) {
	b := New(10)
	if err := b.Acquire(context.Background(), 11); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err %v, want ErrTooLarge", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("releasing more than held did not panic")
		}
	}()
	b.Release(1)
}

// Many goroutines at once never hold more than the size (run with -race).
func TestConcurrentNeverOverSize(t *testing.T) {
	b := New(1000)
	var wg sync.WaitGroup
	var mu sync.Mutex
	held, worst := int64(0), int64(0)
	for i := range 32 {
		wg.Go(func() {
			for j := range 200 {
				n := int64(1 + (i*7+j*13)%400)
				if err := b.Acquire(context.Background(), n); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				held += n
				worst = max(worst, held)
				mu.Unlock()
				mu.Lock()
				held -= n
				mu.Unlock()
				b.Release(n)
			}
		})
	}
	wg.Wait()
	if worst > 1000 || b.Peak() > 1000 || b.Used() != 0 {
		t.Fatalf("worst %d, peak %d, used %d", worst, b.Peak(), b.Used())
	}
}

func TestTryAcquireLeaving(t *testing.T) {
	b := New(100)
	if !b.TryAcquireLeaving(50, 50) || b.TryAcquireLeaving(10, 41) || !b.TryAcquireLeaving(10, 40) || b.Used() != 60 {
		t.Fatalf("used %d", b.Used())
	}
}
