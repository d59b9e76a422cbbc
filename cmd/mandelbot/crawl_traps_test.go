package main

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// issue 29 ("trap defences on by default ... say how to widen it"): a plain crawl cuts a
// calendar far from now (reason "trap calendar"), and --calendar-years 0 turns the window off;
// crawl --help names both defaults and how to widen them.
func TestCrawlCalendarDefaultAndOff(t *testing.T) {
	web := startWeb(t, []testweb.Site{hostile.Site("c", hostile.Options{})})
	seed := web.URL("c", hostile.PathCalendarPrefix+"3994/12")
	for _, c := range []struct {
		flags []string
		cut   bool
	}{{nil, true}, {[]string{"--calendar-years", "0", "--max-pages", "3"}, false}} {
		data := t.TempDir()
		args := append(append([]string{"crawl", "--data", data, "--delay", "0"}, c.flags...), resolveArgs(web)...)
		code, out, errOut := runCLI(t, "", append(args, seed)...)
		if code != exitOK && code != exitStopped {
			t.Fatalf("%v: exit %d\n%s\n%s", c.flags, code, out, errOut)
		}
		var cut, fetched int
		for _, l := range exportLines(t, "--data", data) {
			switch {
			case l["state"] == "out_of_scope" && strings.HasPrefix(l["reason"].(string), "trap calendar: "):
				cut++
			case l["state"] == "fetched":
				fetched++
			}
		}
		// The seed is never checked; the months it links to are.
		if (cut > 0) != c.cut || fetched == 0 {
			t.Errorf("%v: %d cut by the calendar window, %d fetched; want cut %v", c.flags, cut, fetched, c.cut)
		}
	}
	_, help, _ := runCLI(t, "", "crawl", "--help")
	for _, want := range []string{"--calendar-years int", "(default 50)", "--max-pages-per-origin N|none", "(default 250000)"} { // issue 27: N or none
		if !strings.Contains(help, want) {
			t.Errorf("crawl --help lacks %q", want)
		}
	}
}
