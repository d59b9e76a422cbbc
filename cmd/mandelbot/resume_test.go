package main

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/testweb"
)

// Issues 3 and 8: all state is persisted, so that kill -9 in the middle of a crawl and a re-run
// lose nothing: no URL is dropped, and none is fetched twice apart from requests whose outcome was
// not yet saved when the process died, at most crawler.MaxRepeatedAfterKill of them (outcomes are
// written behind, in group commits). The crawler runs as a real child process and is killed
// with SIGKILL once the web has answered killAfter requests.
func TestResumeAfterKill9(t *testing.T) {
	const (
		killAfter   = 80
		concurrency = 4
	)
	web, reached := kill9Web(t, killAfter)
	data := filepath.Join(t.TempDir(), "data")
	args := append([]string{"crawl", "--data", data, "--delay", "0", "--concurrency", "4", "--per-origin", "2"}, resolveArgs(web)...)
	args = append(args, web.Seeds()...)

	// Run 1, killed.
	out1 := crawlKilled(t, args, reached)
	firstRun := web.Requests()

	// What was durable when the process died.
	durable := map[string]bool{}
	s, err := sqlite.Open(context.Background(), filepath.Join(data, "crawl.db"), sqlite.Options{})
	if err != nil {
		t.Fatalf("reopen after kill -9: %v", err)
	}
	s.EachURL(context.Background(), func(u store.URL) error {
		if u.State == store.StateFetched {
			durable[u.URL] = true
		}
		return nil
	})
	robotsSaved := map[string]bool{}
	s.EachOrigin(context.Background(), func(o store.Origin) error {
		robotsSaved[o.Key] = o.Robots.Kind != 0
		return nil
	})
	s.Close()
	if len(durable) == 0 {
		t.Fatal("nothing was saved before the kill")
	}

	// Run 2, to the end, with no seeds: resume from the store.
	code, out2, errOut := runCLIArgs(t, append([]string{"crawl", "--data", data, "--delay", "0", "--concurrency", "4"}, resolveArgs(web)...))
	if code != exitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out2, errOut)
	}
	all := web.Requests()
	second := all[len(firstRun):]
	requestedFirst := map[string]bool{}
	for _, r := range firstRun {
		requestedFirst[web.URL(r.Key, r.Path)] = true
	}
	for _, r := range second {
		u := web.URL(r.Key, r.Path)
		if durable[u] {
			t.Errorf("%s was fetched again although its outcome was saved before the kill", u)
		}
	}
	lost := 0
	for _, r := range firstRun {
		u := web.URL(r.Key, r.Path)
		if r.Path != testweb.RobotsPath && !durable[u] {
			lost++ // in flight (or not yet saved) at the kill: must be fetched again
			if web.Count(r.Key, r.Path) < 2 {
				t.Errorf("%s was in flight at the kill and never fetched again", u)
			}
		}
	}
	if bound := crawler.MaxRepeatedAfterKill(concurrency); lost > bound {
		t.Errorf("%d outcomes were unsaved at the kill: more than the stated bound %d", lost, bound)
	}
	// Nothing dropped: every page reachable from the seeds was fetched (the generated web links
	// each page to the next, so all of /p/1..N-1 are reachable from /).
	checked := 0
	for _, key := range web.Keys() {
		if robotsSaved[web.Origin(key)] {
			checked++
		}
		for i := 1; i < kill9Pages; i++ {
			p := "/p/" + strconv.Itoa(i)
			if web.Count(key, p) == 0 {
				t.Errorf("%s%s was never fetched: a URL was dropped", key, p)
			}
		}
		if n := web.Count(key, testweb.RobotsPath); robotsSaved[web.Origin(key)] && n != 1 {
			t.Errorf("%s: robots.txt fetched %d times; the saved decision should be reused", key, n)
		}
	}
	if t.Failed() {
		t.Logf("run 1 output:\n%s\nrun 2 output:\n%s\n%s", out1.String(), out2, errOut)
	}
	if checked == 0 {
		t.Errorf("no origin's robots.txt decision was found saved (origin keys: %v)", robotsSaved)
	}
	t.Logf("killed after %d requests; %d outcomes durable; %d refetched after resume", len(firstRun), len(durable), lost)
}

func runCLIArgs(t *testing.T, args []string) (int, string, string) {
	t.Helper()
	return runCLI(t, "", args...)
}
