package testweb

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// paths lists "key path" of requests, for short comparisons.
func paths(rs []Request) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Key+" "+r.Path)
	}
	return out
}

// docs/robots-rules.md rule 20: no URL of an origin before its robots.txt decision. Each
// case replays a request sequence through a plain client and lists what BeforeRobots
// must report.
func TestBeforeRobots(t *testing.T) {
	chain := func(hops int) []string {
		seq := []string{"{a}/robots.txt"}
		for i := 1; i < min(hops, MaxRobotsRedirects+1); i++ {
			seq = append(seq, "{b}/robots-moved/"+strconv.Itoa(i))
		}
		if hops <= MaxRobotsRedirects {
			seq = append(seq, "{b}/shared-robots.txt")
		}
		return append(seq, "{a}/", "{a}/public")
	}
	tests := []struct {
		name  string
		sites []Site
		seq   []string
		want  []string
	}{
		{"page before robots", RobotsOK(), []string{"{a}/", "{a}/robots.txt", "{a}/public"}, []string{"a /"}},
		{"robots 200 first", RobotsOK(), []string{"{a}/robots.txt", "{a}/", "{a}/public"}, nil},
		{"robots 404 first", RobotsAnswering(404), []string{"{a}/robots.txt", "{a}/private/secret"}, nil},
		{"robots 401 first", RobotsAnswering(401), []string{"{a}/robots.txt", "{a}/"}, nil},
		{"robots 429 is no decision", RobotsAnswering(429), []string{"{a}/robots.txt", "{a}/"}, []string{"a /"}},
		{"robots 503 is no decision", RobotsAnswering(503), []string{"{a}/robots.txt", "{a}/"}, []string{"a /"}},
		{"robots reset is no decision", RobotsReset(), []string{"{a}/robots.txt", "{a}/"}, []string{"a /"}},
		{"5xx then 200", RobotsRecovering(1), []string{"{a}/robots.txt", "{a}/", "{a}/robots.txt", "{a}/public"}, []string{"a /"}},
		{"settled stays settled", RobotsOK(), []string{"{a}/robots.txt", "{a}/", "{a}/public"}, nil},
		{"other origin still unsettled", SameHostOrigins(), []string{"{plain}/robots.txt", "{plain}/", "{alt}/"}, []string{"alt /"}},
		{"redirect chain of 2 through b", RobotsRedirects(2), chain(2), nil},
		{"redirect chain of 5 through b", RobotsRedirects(5), chain(5), nil},
		{"6 redirects count as 4xx", RobotsRedirects(6), chain(6), nil},
		{"a chain hop settles only its chain", RobotsRedirects(2), []string{"{a}/robots.txt", "{b}/robots-moved/1", "{b}/shared-robots.txt", "{b}/"}, []string{"b /"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := start(t, tt.sites, Options{})
			c := newClient(t, w, time.Second)
			for _, ref := range tt.seq {
				tryGet(c, w.Expand(ref)) // errors (reset) are part of the scenario
			}
			if diff := cmp.Diff(tt.want, paths(w.BeforeRobots())); diff != "" {
				t.Errorf("BeforeRobots mismatch (-want +got):\n%s\nlog: %v", diff, w.Requests())
			}
		})
	}
}

// docs/robots-rules.md rule 23: after a 503 or 429, no request to the origin until the
// pause ends: Retry-After seconds or date, capped; the backoff without Retry-After.
func TestDuringPause(t *testing.T) {
	tests := []struct {
		name     string
		sites    []Site
		backoff  time.Duration
		maxPause time.Duration
		// seconds after the 503 at which /public is requested, and whether each is reported
		at   []int
		want []bool
	}{
		{"retry-after seconds", PagePaused(503, RetrySeconds), time.Minute, 0, []int{0, 119, 120, 121}, []bool{true, true, false, false}},
		{"retry-after date", PagePaused(503, RetryDate), time.Minute, 0, []int{60, 120}, []bool{true, false}},
		{"429 pauses too", PagePaused(429, RetrySeconds), time.Minute, 0, []int{100, 120}, []bool{true, false}},
		{"no retry-after: backoff", PagePaused(503, NoRetryAfter), time.Minute, 0, []int{59, 60}, []bool{true, false}},
		{"cap", PagePaused(503, RetrySeconds), time.Minute, 90 * time.Second, []int{89, 90}, []bool{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			w := start(t, tt.sites, Options{Now: clock.Now})
			c := newClient(t, w, 0)
			start := clock.Now()
			get(t, c, w.URL("a", "/busy"))
			var want []string
			for i, sec := range tt.at {
				clock.Advance(start.Add(time.Duration(sec) * time.Second).Sub(clock.Now()))
				get(t, c, w.URL("a", "/public"))
				if tt.want[i] {
					want = append(want, fmt.Sprintf("a /public @%ds", sec))
				}
			}
			var got []string
			for _, r := range w.DuringPause(tt.backoff, tt.maxPause) {
				got = append(got, fmt.Sprintf("%s %s @%ds", r.Key, r.Path, int(r.At.Sub(start)/time.Second)))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("DuringPause mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLogRecordsLocationAndRetryAfter(t *testing.T) {
	w := start(t, []Site{{Key: "a", Pages: []Page{
		Redirect("/r", 301, "/there"),
		{Path: "/busy", Script: []Step{{Status: 503, Header: RetryAfterSeconds(5)}}},
	}}}, Options{})
	c := newClient(t, w, 0)
	get(t, c, w.URL("a", "/r"))
	get(t, c, w.URL("a", "/busy"))
	got := w.Requests()
	if got[0].Location != "/there" || got[1].RetryAfter != "5" {
		t.Errorf("log = %+v, want Location /there and Retry-After 5", got)
	}
}
