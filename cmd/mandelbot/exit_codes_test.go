package main

import (
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

// issue 9 ("exit status that tells the truth"): 0 done, 1 nothing fetched (with its reason),
// 3 stopped at a limit with work left, 130 interrupted; Ctrl-C wins over the others.
func TestCrawlEndExitStatus(t *testing.T) {
	for _, tc := range []struct {
		end  crawlEnd
		code int
		line string
	}{
		{crawlEnd{}, 0, "Exit status 0: done"},
		{crawlEnd{NothingFetched: true, Reason: "connection refused by every seed's origin"}, 1, "Exit status 1: nothing could be fetched (the reason is on standard error)"},
		{crawlEnd{AtLimit: true}, 3, "Exit status 3: stopped at a limit"},
		{crawlEnd{Interrupted: true, AtLimit: true, NothingFetched: true}, 130, "Exit status 130: interrupted"},
		{crawlEnd{NothingFetched: true, AtLimit: true, Reason: "x"}, 1, "Exit status 1:"},
	} {
		if got := tc.end.code(); got != tc.code {
			t.Errorf("%+v: code %d, want %d", tc.end, got, tc.code)
		}
		if line := tc.end.exitLine(); !strings.HasPrefix(line, tc.line) {
			t.Errorf("%+v: line %q, want prefix %q", tc.end, line, tc.line)
		}
		err := tc.end.err()
		var ee *exitError
		switch {
		case tc.code == 0 && err != nil:
			t.Errorf("%+v: err %v for exit 0", tc.end, err)
		case tc.code != 0 && (!errors.As(err, &ee) || ee.code != tc.code):
			t.Errorf("%+v: err %v, want exit status %d", tc.end, err, tc.code)
		case tc.code == exitFailure && !strings.Contains(err.Error(), tc.end.Reason):
			t.Errorf("%+v: message %q lacks the reason", tc.end, err)
		}
	}
}

// issue 9: Ctrl-C during a crawl exits 130, after the summary (everything received is saved).
// The signal is sent once the crawl waits on a page that never answers, so signal.NotifyContext
// is listening and catches it.
func TestCrawlInterruptedExits130(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	var once sync.Once
	web, err := testweb.Start([]testweb.Site{{Key: "a", Robots: &robots, Pages: []testweb.Page{
		{Path: "/", Links: []string{"/hang"}},
		{Path: "/hang", Script: []testweb.Step{{Do: testweb.Hang}}},
	}}}, testweb.Options{OnRequest: func(r testweb.Request) {
		if r.Path == "/hang" {
			once.Do(func() { syscall.Kill(os.Getpid(), syscall.SIGINT) })
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	args := append([]string{"crawl", "--data", t.TempDir(), "--delay", "0"}, resolveArgs(web)...)
	code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...)
	if code != exitInterrupted || !strings.Contains(out, "Exit status 130: interrupted") {
		t.Fatalf("exit %d, want 130 with the exit line\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "fetched") {
		t.Errorf("the summary does not show the page fetched before the signal:\n%s", out)
	}
}
