package main

import (
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// issue 9 ("exit status that tells the truth") and issue 27 ("failures end fast, and say one
// thing once"): a crawl whose every seed's origin refuses connections fetched nothing: it ends
// at --give-up-after (1 s here; 30 s by default, tested on the crawler's virtual clock), exit 1,
// with the summary's exit line, and the one-line reason naming the failure printed once, last,
// on standard error; nothing invites a re-run, and the summary counts the unanswered robots.txt
// requests as the log reports them.
func TestCrawlUnreachableSeedExitsOne(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connections are refused
	start := time.Now()
	code, out, errOut := runCLI(t, "", "crawl", "--data", t.TempDir(), "--allow-private", "--give-up-after", "1s", "http://"+addr+"/")
	took := time.Since(start)
	if code != exitFailure || !strings.Contains(out, "Exit status 1: nothing could be fetched") {
		t.Fatalf("exit %d, want 1 with the exit line\n%s\n%s", code, out, errOut)
	}
	if took > 20*time.Second {
		t.Errorf("took %v with --give-up-after 1s", took)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "nothing could be fetched") || !strings.Contains(last, "refused") || strings.Contains(last, "fetch:") {
		t.Errorf("last stderr line %q; want the one-line reason naming the refused connection, and no package name", last)
	}
	if n := strings.Count(out+errOut, "nothing could be fetched:"); n != 1 {
		t.Errorf("the reason is printed %d times; want once\n%s\n%s", n, out, errOut)
	}
	if strings.Contains(out, "run again to resume") || strings.Contains(out, "re-run") {
		t.Errorf("the summary invites a re-run of a crawl that reached nothing:\n%s", out)
	}
	if !regexp.MustCompile(`robots\.txt requests\s+(\d+)\s+\([1-9]\d* unreachable`).MatchString(out) {
		t.Errorf("the summary does not count the unanswered robots.txt requests:\n%s", out)
	}
}

// issue 27: a seed host that does not resolve fails at once, naming the host.
func TestCrawlUnresolvableSeedFailsAtOnce(t *testing.T) {
	start := time.Now()
	code, out, errOut := runCLI(t, "", "crawl", "--data", t.TempDir(), "http://no-such-host.invalid/")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v; want the crawl to end at once", took)
	}
	if code != exitFailure || !strings.Contains(errOut, "no-such-host.invalid does not resolve") {
		t.Errorf("exit %d, want 1 naming the host\n%s\n%s", code, out, errOut)
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
