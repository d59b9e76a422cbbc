package main

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// issue 9 ("exit status that tells the truth"): a crawl whose every seed's origin refuses
// connections fetched nothing: exit 1, with a one-line reason naming the failure, and the
// summary's exit line.
func TestCrawlUnreachableSeedExitsOne(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connections are refused
	code, out, errOut := runCLI(t, "", "crawl", "--data", t.TempDir(), "--allow-private", "--max-wait", "1s", "http://"+addr+"/")
	if code != exitFailure || !strings.Contains(out, "Exit status 1: nothing could be fetched: ") {
		t.Fatalf("exit %d, want 1 with the exit line\n%s\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "nothing could be fetched") || !strings.Contains(last, "refused") {
		t.Errorf("last stderr line %q; want the one-line reason naming the refused connection", last)
	}
}

// issue 9: a crawl that stopped at --max-pages with work left exits 3 and says so; re-running
// resumes it. A crawl that did what was asked exits 0 and says so too. (Issue 27: the crawl
// remembers --max-pages 1; the re-run lifts it with --max-pages none.)
func TestCrawlAtMaxPagesExitsThree(t *testing.T) {
	web := startWeb(t, testweb.RobotsOK())
	data := t.TempDir()
	args := append([]string{"crawl", "--data", data, "--delay", "0"}, resolveArgs(web)...)
	code, out, errOut := runCLI(t, "", append(args, "--max-pages", "1", web.URL("a", "/"))...)
	if code != exitStopped || !strings.Contains(out, "Exit status 3: stopped at a limit") {
		t.Fatalf("exit %d, want 3 with the exit line\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "", append(args, "--max-pages", "none")...)
	if code != exitOK || !strings.Contains(out, "Exit status 0: done") || !strings.Contains(out, "--max-pages none (was 1)") {
		t.Fatalf("resumed: exit %d, want 0 with the exit line\n%s\n%s", code, out, errOut)
	}
}

// issue 9 ("--max-time is a deadline"): on a site whose page drips a byte every 100 ms, a crawl
// with --max-time cancels the request at the deadline, exits within 5 s of it with status 3
// (stopped at a limit, the page still queued), and the help says it is a deadline.
func TestCrawlMaxTimeOnASlowDripExitsThree(t *testing.T) {
	web, err := testweb.Start([]testweb.Site{hostile.Site("d", hostile.Options{})}, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	const maxTime = 2 * time.Second
	args := append([]string{"crawl", "--data", t.TempDir(), "--delay", "0", "--max-time", maxTime.String()}, resolveArgs(web)...)
	start := time.Now()
	code, out, errOut := runCLI(t, "", append(args, web.URL("d", hostile.PathDrip))...)
	if took := time.Since(start); took > maxTime+5*time.Second {
		t.Errorf("crawl took %v with --max-time %v", took, maxTime)
	}
	if code != exitStopped || !strings.Contains(out, "Exit status 3") || !strings.Contains(out, "queued") {
		t.Fatalf("exit %d, want 3 with the drip page still queued\n%s\n%s", code, out, errOut)
	}
	_, help, _ := runCLI(t, "", "crawl", "--help")
	if !strings.Contains(help, "a deadline: after this long, requests in flight are cancelled") || !strings.Contains(help, "3 stopped at --max-time") {
		t.Errorf("crawl --help does not say --max-time is a deadline:\n%s", help)
	}
}

// issue 9 ("trap defences"): --max-pages-per-origin reaches the crawler: the URLs past the
// budget are exported out of scope with the reason naming it, and the crawl did what was asked.
func TestCrawlMaxPagesPerOrigin(t *testing.T) {
	web := startWeb(t, testweb.RobotsOK())
	data := t.TempDir()
	args := append([]string{"crawl", "--data", data, "--delay", "0", "--max-pages-per-origin", "1"}, resolveArgs(web)...)
	code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...)
	if code != exitOK || !strings.Contains(out, "Exit status 0: done") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var fetched, rejected int
	for _, l := range exportLines(t, "--data", data) {
		switch {
		case l["state"] == "fetched":
			fetched++
		case l["state"] == "out_of_scope" && strings.HasPrefix(l["reason"].(string), "trap page-budget: "):
			rejected++
		}
	}
	if fetched != 1 || rejected == 0 {
		t.Errorf("%d fetched, %d rejected by the budget; want 1 and the rest", fetched, rejected)
	}
}
