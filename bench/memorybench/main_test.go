package main

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// Bad usage exits 2 naming the flags, before any web starts or crawl runs.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"-web", "nope"}, {"-bombs", "6"}, {"-memory", "lots"}, {"-runs", "0"}, {"extra"}} {
		var out, errOut strings.Builder
		if code := run(args, &out, &errOut); code != 2 || errOut.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errOut.String())
		}
	}
}

// issue 29 ("your hostile testweb with 32 sitemap bombs at once"): -bombs 32 serves 8 sites whose
// robots.txt names 4 sitemap bombs each, every one seeded, fetched 4 at a time per origin.
func TestBombsWebHoldsTheBombsAsked(t *testing.T) {
	w := bombsWeb(config{bombs: 32, duration: defaultDuration})
	named := 0
	for _, s := range w.seeds {
		if strings.HasPrefix(s, "{hostile") && strings.HasSuffix(s, "}"+hostile.PathIndex) {
			named += bombsPerSite
		}
	}
	if named != 32 {
		t.Errorf("%d sitemap bombs seeded, want 32 (seeds %v)", named, w.seeds)
	}
	if !strings.Contains(strings.Join(w.flags, " "), "--per-origin 4") {
		t.Errorf("flags %v: want the four bombs of an origin fetched at once", w.flags)
	}
}
