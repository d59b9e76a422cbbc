package frontier

import (
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// processed reports the new record of an answered request, durable at once.
func (h *harness) processed(st Step, out Outcome) (resumed bool) {
	resumed = h.f.Processed(st.URL, out, h.now)
	h.f.Persisted(st.Origin, h.now)
	return resumed
}

// Issue 8: per-origin concurrency counts requests on the wire. Once the answer is read
// (Answered), the origin's next request may leave while the previous page is still being
// processed; its record follows with Processed.
func TestIssue8_AnsweredFreesTheOriginsSlot(t *testing.T) {
	h := newHarness(t, Options{}, "/1", "/2", "/3")
	h.robots(200, "", nil)
	a := h.expect(StepFetch)
	h.expect(StepWait) // --per-origin 1: the request is on the wire
	h.f.Answered(a.URL, Outcome{Status: 200}, h.now)
	b := h.expect(StepFetch)
	if !strings.HasSuffix(b.URL.URL, "/2") {
		t.Fatalf("next request %s, want /2", b.URL.URL)
	}
	h.expect(StepWait) // /2 is on the wire: one request at a time still
	h.processed(a, Outcome{Status: 200})
	h.expect(StepWait) // /1's record does not free /2's slot
	h.f.Answered(b.URL, Outcome{Status: 200}, h.now)
	c := h.expect(StepFetch)
	h.processed(b, Outcome{Status: 200})
	h.done(c, Outcome{Status: 200})
	if st := h.next(); st.Kind != StepDone {
		t.Fatalf("after every record: %+v, want done", st)
	}
}

// Issue 8: the crawl is not done, and the origin is not released, while an answered page is
// still being processed: its record (and the links it found) are still to come.
func TestIssue8_NotDoneWhileAPageIsProcessed(t *testing.T) {
	h := newHarness(t, Options{ReleaseIdle: true}, "/1")
	h.robots(200, "", nil)
	a := h.expect(StepFetch)
	h.f.Answered(a.URL, Outcome{Status: 200}, h.now)
	if st := h.next(); st.Kind != StepWait || !st.Until.IsZero() {
		t.Fatalf("while /1 is processed: %+v, want to wait for its record", st)
	}
	h.processed(a, Outcome{Status: 200})
	if st := h.next(); st.Kind != StepRelease {
		t.Fatalf("after the record: %+v, want the idle origin released", st)
	}
}

// Issue 8: the queue is refilled from the store only once every answered page's record is
// durable; before that, the store still holds the page as due and would hand it out again.
func TestIssue8_NoRefillWhileAPageIsProcessed(t *testing.T) {
	h := newHarness(t, Options{Window: 1}, "/1", "/2") // /2 overflows to the store
	h.robots(200, "", nil)
	a := h.expect(StepFetch)
	h.f.Answered(a.URL, Outcome{Status: 200}, h.now)
	if st := h.next(); st.Kind != StepWait || !st.Until.IsZero() {
		t.Fatalf("while /1 is processed: %+v, want to wait (no refill)", st)
	}
	h.processed(a, Outcome{Status: 200})
	st := h.expect(StepRefill)
	h.f.Refilled(st.Origin, []store.URL{{ID: store.IDOf(testOrigin + "/2"), URL: testOrigin + "/2", Origin: testOrigin}}, st.Limit, h.now)
	h.expect(StepFetch)
}

// docs/robots-rules.md rule 23: a 503 or 429 pauses the origin before any further request to it,
// and the pause is durable first. Answered does not free the slot for such an answer: the next
// request waits for Processed, the write, and the pause.
func TestRule23_PausingAnswerKeepsTheSlotUntilProcessed(t *testing.T) {
	for _, status := range []int{503, 429} {
		h := newHarness(t, Options{}, "/1", "/2")
		h.robots(200, "", nil)
		a := h.expect(StepFetch)
		out := Outcome{Status: status, RetryAfter: time.Minute, RetryAfterOK: true}
		h.f.Answered(a.URL, out, h.now)
		if st := h.next(); st.Kind != StepWait {
			t.Fatalf("%d answered: %+v, want to wait for its record", status, st)
		}
		h.f.Processed(a.URL, out, h.now)
		if st := h.next(); st.Kind != StepWait || !st.Until.IsZero() {
			t.Fatalf("%d processed: %+v, want to wait for the pause to be durable", status, st)
		}
		h.f.Persisted(testOrigin, h.now)
		if st := h.expect(StepWait); !st.Until.Equal(h.now.Add(time.Minute)) {
			t.Fatalf("%d: next request at +%v, want after the one-minute pause", status, st.Until.Sub(h.now))
		}
		h.now = h.now.Add(time.Minute)
		if st := h.expect(StepFetch); st.URL.URL != testOrigin+"/1" {
			t.Fatalf("%d: probe %s, want the URL that got the pause", status, st.URL.URL)
		}
	}
}

// docs/robots-rules.md rule 23 (single probe) with issue 8: the probe's answer ends the probing
// when it is read, and Processed reports that the pause ended, so that the caller writes the
// origin's record with the probe's.
func TestRule23_ProbeAnsweredEndsThePauseAndProcessedReportsIt(t *testing.T) {
	h := newHarness(t, Options{PerOrigin: 2}, "/1", "/2", "/3")
	h.robots(200, "", nil)
	h.done(h.expect(StepFetch), Outcome{Status: 503, RetryAfter: time.Minute, RetryAfterOK: true})
	h.now = h.now.Add(time.Minute)
	probe := h.expect(StepFetch)
	h.expect(StepWait) // only the probe while probing
	h.f.Answered(probe.URL, Outcome{Status: 200}, h.now)
	h.expect(StepFetch) // the probe was answered: back to two requests at a time
	h.expect(StepFetch)
	if !h.processed(probe, Outcome{Status: 200}) {
		t.Errorf("Processed of the probe did not report that the pause ended")
	}
	if rec, _ := h.f.Record(testOrigin); rec.Probing || rec.PauseReason != "" {
		t.Errorf("after the probe: %+v; want no probing and no pause reason", rec)
	}
}

// issue 3 with issue 8: the politeness delay runs from the end of the answer (Answered), not
// from the end of its processing, and never from before the request started.
func TestPolitenessDelayFromTheAnswer(t *testing.T) {
	h := newHarness(t, Options{Delay: 10 * time.Second}, "/1", "/2")
	h.robots(200, "", nil)
	h.now = t0.Add(10 * time.Second)
	a := h.expect(StepFetch)
	h.now = t0.Add(13 * time.Second) // a slow answer
	h.f.Answered(a.URL, Outcome{Status: 200}, h.now)
	if st := h.expect(StepWait); st.Until.Sub(t0) != 23*time.Second {
		t.Fatalf("next request at +%v, want +23s", st.Until.Sub(t0))
	}
	h.now = t0.Add(30 * time.Second) // slow processing
	h.processed(a, Outcome{Status: 200})
	if st := h.expect(StepFetch); !strings.HasSuffix(st.URL.URL, "/2") {
		t.Fatalf("next %s", st.URL.URL)
	}
}
