package frontier

import (
	"strings"
	"testing"
	"time"
)

// Issue 31 (a crawl at its politeness limit ends when its last request is answered): a URL that
// robots.txt disallows is never requested (rule 16), so recording it waits neither for the
// origin's gap (--delay) nor for a request in flight to end. Before, a disallowed URL last in its
// origin's queue held the crawl's end back by a whole gap after the last answer.
func TestIssue31_DisallowedURLIsSkippedWithoutWaitingForTheGap(t *testing.T) {
	h := newHarness(t, Options{Delay: 10 * time.Second}, "/1", "/private/x")
	h.robots(200, "User-agent: *\nDisallow: /private\n", nil)
	// The head of the queue is allowed: it waits for the gap after robots.txt.
	if st := h.expect(StepWait); st.Until.Sub(t0) != 10*time.Second {
		t.Fatalf("after robots.txt: wait until +%v, want +10s", st.Until.Sub(t0))
	}
	h.now = t0.Add(10 * time.Second)
	fetch := h.expect(StepFetch)
	// While /1 is in flight (per-origin 1) and before the next gap, the disallowed URL is
	// recorded at once.
	skip := h.expect(StepSkip)
	if !strings.HasSuffix(skip.URL.URL, "/private/x") {
		t.Fatalf("skip %s, want /private/x", skip.URL.URL)
	}
	h.f.Persisted(skip.Origin, h.now)
	h.now = t0.Add(11 * time.Second)
	h.done(fetch, Outcome{Status: 200})
	// Nothing is left to request: the origin is done now, not a gap after its last answer.
	h.expect(StepDone)
}

// The skip takes no request's place: it neither starts nor moves the origin's gap, and the
// allowed URL behind it is requested when the gap ends, not sooner.
func TestIssue31_SkipDoesNotMoveTheGap(t *testing.T) {
	h := newHarness(t, Options{Delay: 10 * time.Second}, "/private/x", "/1")
	h.robots(200, "User-agent: *\nDisallow: /private\n", nil)
	skip := h.expect(StepSkip)
	h.f.Persisted(skip.Origin, h.now)
	if st := h.expect(StepWait); st.Until.Sub(t0) != 10*time.Second {
		t.Fatalf("after the skip: wait until +%v, want +10s (robots.txt's gap)", st.Until.Sub(t0))
	}
	h.now = t0.Add(10 * time.Second)
	if st := h.expect(StepFetch); !strings.HasSuffix(st.URL.URL, "/1") {
		t.Fatalf("fetch %s, want /1", st.URL.URL)
	}
}

// A paused origin (rule 23) records nothing until its pause ends: a skip waits for the pause,
// as before, so that the probe after the pause stays the origin's next step.
func TestIssue31_SkipWaitsForAPause(t *testing.T) {
	h := newHarness(t, Options{Delay: time.Second}, "/1", "/private/x", "/2")
	h.robots(200, "User-agent: *\nDisallow: /private\n", nil)
	h.now = t0.Add(time.Second)
	st := h.expect(StepFetch)
	h.done(st, Outcome{Status: 503, RetryAfter: time.Minute, RetryAfterOK: true})
	if st := h.expect(StepWait); st.Until.Before(t0.Add(time.Minute)) {
		t.Fatalf("during the pause: wait until +%v, want at least +1m", st.Until.Sub(t0))
	}
}
