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

// A large waiter is served before smaller ones that came after it, and one that gives up lets
// them through.
func TestFirstComeFirstServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := New(100)
		b.Acquire(context.Background(), 60)
		ctx, cancel := context.WithCancel(context.Background())
		big := make(chan error, 1)
		go func() { big <- b.Acquire(ctx, 90) }()
		synctest.Wait()
		if b.TryAcquire(10) {
			t.Fatal("TryAcquire jumped the queue ahead of a waiter")
		}
		small := make(chan error, 1)
		go func() { small <- b.Acquire(context.Background(), 10) }()
		synctest.Wait()
		if len(small) != 0 {
			t.Fatal("a small request overtook a waiting large one")
		}
		cancel()
		<-big
		synctest.Wait()
		if err := <-small; err != nil || b.Used() != 70 {
			t.Fatalf("small: %v, used %d; want granted once the large waiter left", err, b.Used())
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
