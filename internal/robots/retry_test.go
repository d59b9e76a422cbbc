package robots

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	vclock "github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
)

// issue 9 ("failures that end"), docs/robots-rules.md rule 21: the retry of an unreachable
// robots.txt is timed from the end of the failed attempt. The server here takes 60 s of the
// virtual clock and then drops the connection; the first retry (1 minute) is due 1 minute after
// it gave up, not at once.
func TestRule21_RetryTimedFromEndOfFailedAttempt(t *testing.T) {
	vc := vclock.NewVirtual(clock0)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		vc.Advance(60 * time.Second) // the attempt stalls for a minute...
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		conn.Close() // ...and then fails without an answer
	}))
	t.Cleanup(srv.Close)
	c, err := fetch.New(fetch.Options{AllowPrivate: true, Now: vc.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)

	d := Fetch(context.Background(), c, srv.URL+"/robots.txt", FetchOptions{Now: vc.Now})
	if d.Kind != KindUnreachable {
		t.Fatalf("kind %v, want unreachable", d.Kind)
	}
	if !d.FetchedAt.Equal(clock0) || !d.DoneAt.Equal(clock0.Add(60*time.Second)) {
		t.Fatalf("FetchedAt %v DoneAt %v; want the start and the start + 60s", d.FetchedAt, d.DoneAt)
	}
	s := NewState(store.RobotsRecord{}, "Mandelbot", Policy{})
	s.Apply(d, Policy{})
	want := d.DoneAt.Add(DefaultRetryFirst)
	if got := s.Record().RetryAt; !got.Equal(want) {
		t.Fatalf("RetryAt %v, want %v (1 minute after the attempt ended)", got, want)
	}
	if due, _ := s.Due(vc.Now()); due {
		t.Fatal("robots.txt is due again the moment the failed attempt ended")
	}
	vc.Advance(DefaultRetryFirst)
	if due, _ := s.Due(vc.Now()); !due {
		t.Fatal("robots.txt not due 1 minute after the failed attempt")
	}
}

var clock0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
