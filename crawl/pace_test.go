package crawl_test

import (
	"context"
	"testing"
	"time"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/testweb"
)

// issue 29 ("a delay that listens to the server ... an operator can turn the adaptation off"):
// through the Go API, by default a page that took 2 s is followed by a gap of at least
// DelayFactor × 2 s, even with no delay asked for (Delay -1: the floor is 0); with FixedDelay,
// by none. The page's time passes on the crawl's virtual clock as the web answers it.
func TestConfigAdaptiveDelayOnByDefault(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		vc := clock.NewVirtual(t0)
		web, err := testweb.Start([]testweb.Site{{Key: "a", Pages: []testweb.Page{
			{Path: "/", Links: []string{"/slow"}}, {Path: "/slow", Links: []string{"/next"}}, {Path: "/next"},
		}}}, testweb.Options{Now: vc.Now, OnRequest: func(r testweb.Request) {
			if r.Path == "/slow" {
				vc.Advance(2 * time.Second)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(web.Close)
		_, err = crawl.Run(context.Background(), crawl.Config{
			Seeds: web.Seeds(), Resolve: web.Resolve(), Clock: vc, Delay: -1, FixedDelay: fixed,
			StorePath: t.TempDir() + "/crawl.db",
		})
		if err != nil {
			t.Fatal(err)
		}
		at := map[string]time.Time{}
		for _, r := range web.RequestsTo("a") {
			at[r.Path] = r.At
		}
		gap := at["/next"].Sub(at["/slow"].Add(2 * time.Second))
		want := time.Duration(crawl.DelayFactor) * 2 * time.Second
		if fixed {
			want = 0
		}
		if fixed && gap != 0 || !fixed && gap < want {
			t.Errorf("FixedDelay %v: gap after the slow page %v, want %v", fixed, gap, want)
		}
	}
}
