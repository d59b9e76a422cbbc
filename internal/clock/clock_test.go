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

// realWaitCap bounds every wait on a real timer in TestRealClock: far above the few milliseconds
// the timers are set for, so a loaded machine does not fail the test, and a timer that never
// fires fails it instead of hanging.
const realWaitCap = 10 * time.Second

// TestRealClock checks the contract of the wall clock the crawler runs on (Clock's doc): Now reads
// the wall clock, At fires once the time is reached and not before, whatever idle says (a Real
// clock cannot jump), a past deadline fires at once, and stop keeps a timer from firing. The
// timers are a few milliseconds long: the real timer is the thing under test, so it is waited
// for, within realWaitCap.
func TestRealClock(t *testing.T) {
	var c Clock = Real{}

	before := time.Now()
	now := c.Now()
	after := time.Now()
	if now.Before(before) || now.After(after) {
		t.Fatalf("Now = %v, outside the wall clock's [%v, %v]", now, before, after)
	}

	// A future deadline, with idle true: a Real clock must wait for it all the same.
	const d = 20 * time.Millisecond
	deadline := time.Now().Add(d)
	ch, stop := c.At(deadline, true)
	defer stop()
	if fired(ch) {
		t.Fatal("a deadline 20 ms ahead fired at once (a Real clock ignores idle)")
	}
	select {
	case got := <-ch:
		if arrived := time.Now(); arrived.Before(deadline) {
			t.Fatalf("timer fired at %v, before its deadline %v", arrived, deadline)
		}
		if got.Before(deadline) {
			t.Fatalf("timer sent %v, before its deadline %v", got, deadline)
		}
	case <-time.After(realWaitCap):
		t.Fatalf("a %v timer had not fired after %v", d, realWaitCap)
	}

	// A past deadline fires without waiting for anything.
	past, stopPast := c.At(time.Now().Add(-time.Millisecond), false)
	defer stopPast()
	select {
	case <-past:
	case <-time.After(realWaitCap):
		t.Fatalf("a past deadline had not fired after %v", realWaitCap)
	}

	// A stopped timer never fires: wait past its deadline on a second timer, then look.
	stopped, stopNow := c.At(time.Now().Add(5*time.Millisecond), false)
	stopNow()
	later, stopLater := c.At(time.Now().Add(30*time.Millisecond), false)
	defer stopLater()
	select {
	case <-later:
	case <-time.After(realWaitCap):
		t.Fatalf("a 30 ms timer had not fired after %v", realWaitCap)
	}
	if fired(stopped) {
		t.Fatal("a stopped timer fired")
	}
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
