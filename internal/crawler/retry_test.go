package crawler

import (
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
)

// issue 29 ("retries that back off"): a request that got no answer (it hung until the timeout,
// or its body stalled) is asked again after a backoff that grows (DefaultRetryBackoff, then
// twice it), never at once, and at most DefaultMaxAttempts times in all: a page that never
// answers is then given up (state error). The gaps are read from the web's request log, on the
// crawl's virtual clock. With --delay 0, the crawler used to ask again 2 ms after giving up.
func TestRetriesBackOff(t *testing.T) {
	e := newEnv(t, []testweb.Site{
		{Key: "flaky", Robots: &testweb.Page{}, Pages: []testweb.Page{{Path: "/", Title: "flaky", Script: []testweb.Step{{Do: testweb.Hang}, {Do: testweb.Stall}, {}}}}},
		{Key: "dead", Robots: &testweb.Page{}, Pages: []testweb.Page{{Path: "/", Title: "dead", Script: []testweb.Step{{Do: testweb.Hang}}}}},
	})
	resolve := map[string]string{}
	for _, r := range e.web.Resolve() {
		hp, addr, _ := fetch.ParseResolve(r)
		resolve[hp] = addr
	}
	client, err := fetch.New(fetch.Options{Resolve: resolve, Now: e.clock.Now, TotalTimeout: 2 * time.Second,
		ResponseHeaderTimeout: 500 * time.Millisecond, BodyIdleTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	e.crawl([]string{"{flaky}/", "{dead}/"}, func(o *Options) { o.Fetcher = client })

	want := []time.Duration{DefaultRetryBackoff, 2 * DefaultRetryBackoff}
	for key, state := range map[string]store.State{"flaky": store.StateFetched, "dead": store.StateError} {
		var at []time.Time
		for _, r := range e.web.RequestsTo(key) {
			if r.Path == "/" {
				at = append(at, r.At)
			}
		}
		if len(at) != DefaultMaxAttempts {
			t.Errorf("%s: %d requests of /, want %d (the documented number of tries)", key, len(at), DefaultMaxAttempts)
			continue
		}
		for i := 1; i < len(at); i++ {
			// A try takes no virtual time (the clock stands still while the crawl is busy), so
			// each gap is the backoff alone.
			if gap := at[i].Sub(at[i-1]); gap < want[i-1] {
				t.Errorf("%s: retry %d sent %v after the try before, want at least %v", key, i, gap, want[i-1])
			}
		}
		if u := e.urls()[e.web.URL(key, "/")]; u.State != state {
			t.Errorf("%s: state %v (%s), want %v", key, u.State, u.Reason, state)
		}
	}
}

// The backoff doubles from Options.RetryBackoff and stops growing at MaxRetryBackoff.
func TestRetryBackoffGrowsToItsCap(t *testing.T) {
	o := Options{RetryBackoff: time.Minute}
	for attempts, want := range map[int]time.Duration{1: time.Minute, 2: 2 * time.Minute, 3: 4 * time.Minute, 5: MaxRetryBackoff, 60: MaxRetryBackoff} {
		if got := o.retryBackoff(attempts); got != want {
			t.Errorf("retryBackoff(%d) = %v, want %v", attempts, got, want)
		}
	}
	if got := (Options{}).retryBackoff(1); got != DefaultRetryBackoff {
		t.Errorf("default first backoff %v", got)
	}
}
