package frontier

import (
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// issue 29 ("retries that back off"): a request that got no answer is asked again at the time
// Retry names, never before: the origin's other URLs go on meanwhile, and once the retry is due
// (and its write durable) the Frontier refills the origin from the store, which holds it.
func TestRetryWaitsForItsTime(t *testing.T) {
	h := newHarness(t, Options{}, "/a", "/b")
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	st := h.expect(StepFetch)
	if !strings.HasSuffix(st.URL.URL, "/a") {
		t.Fatalf("fetch %s, want /a", st.URL.URL)
	}
	retryAt := h.now.Add(10 * time.Second)
	u := st.URL
	u.Attempts, u.NextAt = 1, retryAt
	h.f.Retry(u, Outcome{}, retryAt, h.now)
	h.f.Persisted(testOrigin, h.now)                  // the retry's write
	h.done(h.expect(StepFetch), Outcome{Status: 200}) // /b meanwhile
	wait := h.next()
	if wait.Kind != StepWait || !wait.Until.Equal(retryAt) {
		t.Fatalf("step %+v, want a wait until the retry at %s", wait, retryAt)
	}
	h.now = retryAt.Add(-time.Millisecond)
	if st := h.next(); st.Kind != StepWait {
		t.Fatalf("before the retry's time: step %+v, want a wait", st)
	}
	h.now = retryAt
	refill := h.expect(StepRefill)
	h.f.Refilled(refill.Origin, []store.URL{u}, refill.Limit, h.now)
	if st := h.expect(StepFetch); st.URL.URL != u.URL {
		t.Fatalf("fetch %s, want the retry of %s", st.URL.URL, u.URL)
	}
}

// A retry's refill waits for the origin's writes: the store must hold the retry's record
// before it is asked for due URLs.
func TestRetryRefillWaitsForItsWrite(t *testing.T) {
	h := newHarness(t, Options{}, "/a")
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	st := h.expect(StepFetch)
	at := h.now.Add(time.Second)
	h.f.Retry(st.URL, Outcome{}, at, h.now)
	h.now = at
	if st := h.next(); st.Kind != StepWait || !st.Until.IsZero() {
		t.Fatalf("step %+v before the retry's write is durable, want a wait for it", st)
	}
	h.f.Persisted(testOrigin, h.now)
	h.expect(StepRefill)
}
