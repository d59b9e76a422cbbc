package crawler

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// deadlineGrace is how long after MaxTime a run may take to end (issue 9: "exits within 5 s").
const deadlineGrace = 5 * time.Second

// issue 9 ("--max-time is a deadline"): at the deadline the request in flight (a body dripping
// a byte every 100 ms, with a client whose timeouts are a minute) is cancelled and its URL stays
// queued; the page answered before is saved; Run returns within 5 s of the deadline.
func TestMaxTimeIsADeadline(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	normal := testweb.Site{Key: "a", Robots: &robots, Pages: []testweb.Page{{Path: "/", Title: "Home"}}}
	e := newEnv(t, []testweb.Site{normal, hostile.Site("d", hostile.Options{})})
	resolve := map[string]string{}
	for _, r := range e.web.Resolve() {
		hp, addr, _ := fetch.ParseResolve(r)
		resolve[hp] = addr
	}
	client, err := fetch.New(fetch.Options{Resolve: resolve, TotalTimeout: time.Minute, BodyIdleTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	const maxTime = time.Second
	opts := Options{Fetcher: client, Store: e.store, Clock: clock.Real{}, MaxDepth: 0, MaxTime: maxTime,
		Seeds: []string{e.web.URL("a", "/"), e.web.URL("d", hostile.PathDrip)}}
	start := time.Now()
	st, err := Run(context.Background(), opts)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if took > maxTime+deadlineGrace {
		t.Errorf("Run took %v with MaxTime %v; the deadline allows %v more", took, maxTime, deadlineGrace)
	}
	if st.StopReason != StopMaxTime {
		t.Errorf("stop reason %v, want %v", st.StopReason, StopMaxTime)
	}
	urls := e.urls()
	if u := urls[e.web.URL("d", hostile.PathDrip)]; u.State != store.StateQueued || u.Attempts != 0 {
		t.Errorf("drip URL: %v after %d attempts (%s); want still queued, the cancelled request not counted", u.State, u.Attempts, u.Reason)
	}
	if u := urls[e.web.URL("a", "/")]; u.State != store.StateFetched {
		t.Errorf("home: %v (%s); the answer received before the deadline must be saved", u.State, u.Reason)
	}
}

// issue 9 and docs/robots-rules.md rule 21: a robots.txt request cancelled at the deadline is
// not an answer: the origin is not recorded as failing (no failure counted), and its robots.txt
// is asked for again by the next run.
func TestMaxTimeCancelsRobotsWithoutAFailure(t *testing.T) {
	e := newEnv(t, []testweb.Site{hostile.Site("d", hostile.Options{Robots: hostile.PathHang})})
	resolve := map[string]string{}
	for _, r := range e.web.Resolve() {
		hp, addr, _ := fetch.ParseResolve(r)
		resolve[hp] = addr
	}
	client, err := fetch.New(fetch.Options{Resolve: resolve, TotalTimeout: time.Minute, ResponseHeaderTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	opts := Options{Fetcher: client, Store: e.store, Clock: clock.Real{}, MaxTime: 500 * time.Millisecond,
		Seeds: []string{e.web.URL("d", "/")}}
	start := time.Now()
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > opts.MaxTime+deadlineGrace {
		t.Errorf("Run took %v", took)
	}
	o, ok, err := e.store.Origin(context.Background(), strings.TrimSuffix(e.web.URL("d", "/"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	if ok && (o.Robots.Failures != 0 || o.Robots.Kind != 0) {
		t.Errorf("robots.txt record after a cancelled request: %+v; want none", o.Robots)
	}
}
