package clock

import (
	"testing"
	"time"
)

var start = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)

func fired(ch <-chan time.Time) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestVirtualIdleWaiterJumps(t *testing.T) {
	v := NewVirtual(start)
	ch, stop := v.At(start.Add(48*time.Hour), true)
	defer stop()
	if !fired(ch) || !v.Now().Equal(start.Add(48*time.Hour)) {
		t.Fatalf("idle waiter did not jump: now %v", v.Now())
	}
}

func TestVirtualBusyWaiterWaitsForAdvance(t *testing.T) {
	v := NewVirtual(start)
	ch, stop := v.At(start.Add(time.Minute), false)
	defer stop()
	if fired(ch) || !v.Now().Equal(start) {
		t.Fatal("a busy waiter must not move the clock")
	}
	v.Advance(30 * time.Second)
	if fired(ch) {
		t.Fatal("fired early")
	}
	// Another, idle waiter further on moves time past the first one's deadline: both fire.
	ch2, stop2 := v.At(start.Add(2*time.Minute), true)
	defer stop2()
	if !fired(ch) || !fired(ch2) {
		t.Fatal("waiters not woken by the jump")
	}
}

func TestVirtualPastDeadlineFiresAtOnce(t *testing.T) {
	v := NewVirtual(start)
	ch, stop := v.At(start.Add(-time.Second), false)
	defer stop()
	if !fired(ch) {
		t.Fatal("a deadline in the past must fire at once")
	}
}

func TestVirtualStopRemovesWaiter(t *testing.T) {
	v := NewVirtual(start)
	ch, stop := v.At(start.Add(time.Minute), false)
	stop()
	v.Advance(time.Hour)
	if fired(ch) {
		t.Fatal("stopped waiter fired")
	}
}

func TestRealClock(t *testing.T) {
	ch, stop := Real{}.At(time.Now().Add(-time.Millisecond), false)
	defer stop()
	<-ch // a past deadline fires without waiting
}

func TestVirtualWaitingCountsPendingWaiters(t *testing.T) {
	v := NewVirtual(time.Unix(0, 0))
	if n := v.Waiting(); n != 0 {
		t.Fatalf("Waiting = %d on a new clock", n)
	}
	_, stop := v.At(v.Now().Add(time.Second), false)
	ch, _ := v.At(v.Now().Add(2*time.Second), false)
	if n := v.Waiting(); n != 2 {
		t.Fatalf("Waiting = %d with two waiters", n)
	}
	stop()
	v.Advance(2 * time.Second)
	if n := v.Waiting(); n != 0 || !fired(ch) {
		t.Fatalf("Waiting = %d after one stopped and one fired", n)
	}
}
