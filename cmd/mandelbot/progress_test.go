package main

import (
	"bytes"
	"context"
	"github.com/fractle/mandelbot/crawl"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/fractle/mandelbot/internal/testweb"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// ansi matches the terminal control sequences mpb draws the status line with.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]|\r`)

// Issue 10, "progress that tells the truth": under a real pseudo-terminal, while an origin is
// paused by a 503 (docs/robots-rules.md rule 23), the status line shows the page already fetched
// and the paused origin, and the pause is announced above it. The crawl is stopped as soon as
// the line is seen: nothing waits out the pause.
func TestProgressLineDuringPauseOnTerminal(t *testing.T) {
	web := startWeb(t, testweb.PagePaused(503, testweb.RetrySeconds))
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 250}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	seen := func(want ...string) bool {
		mu.Lock()
		defer mu.Unlock()
		text := ansi.ReplaceAllString(screen.String(), "\n")
		for _, line := range strings.Split(text, "\n") {
			all := true
			for _, w := range want {
				all = all && strings.Contains(line, w)
			}
			if all {
				return true
			}
		}
		return false
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCommand()
	root.SetArgs(append(append([]string{"crawl", "--data", t.TempDir(), "--delay", "0"}, resolveArgs(web)...), web.URL("a", "/")))
	root.SetOut(io.Discard)
	root.SetErr(tty)
	ran := make(chan error, 1)
	go func() { ran <- root.ExecuteContext(ctx) }()

	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !seen("fetched 1 ", "1 paused") {
		select {
		case err := <-ran:
			t.Fatalf("crawl ended before the line showed the pause: %v\n%s", err, screen.String())
		case <-deadline:
			mu.Lock()
			t.Fatalf("no status line with 'fetched 1' and '1 paused' within 10 s; terminal:\n%q", ansi.ReplaceAllString(screen.String(), "\n"))
		case <-tick.C:
		}
	}
	if !seen("origin paused") {
		t.Error("the pause was not announced on the terminal")
	}
	// Retry-After: 120 (testweb.ScenarioRetryAfter): the soonest resume is about two minutes off.
	if !seen("1 paused (next resumes in 2m0s at ") && !seen("1 paused (next resumes in 1m59s at ") {
		t.Error("the status line does not say when the paused origin resumes")
	}
	cancel()
	select {
	case <-ran:
	case <-time.After(30 * time.Second):
		t.Fatal("the crawl did not stop after cancel")
	}
	tty.Close()
}

// syncBuffer is a bytes.Buffer safe for the crawl's logging goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Issue 10: off a terminal, a plain progress line shows a pause (rule 23) with the same truthful
// counts and when it ends, within a second of its start. (Issue 27 made the lines come only when
// the figures change, at most every 10 s: the pause's start is such a change.)
func TestProgressLogLinesDuringPause(t *testing.T) {
	web := startWeb(t, testweb.PagePaused(503, testweb.RetrySeconds))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	root := newRootCommand()
	root.SetArgs(append(append([]string{"crawl", "--data", t.TempDir(), "--delay", "0"}, resolveArgs(web)...), web.URL("a", "/")))
	root.SetOut(io.Discard)
	root.SetErr(&logs)
	ran := make(chan error, 1)
	go func() { ran <- root.ExecuteContext(ctx) }()
	want := regexp.MustCompile(`msg=progress fetched=1 .*origins_paused=1 .*next_resume="in (2m0s|1m5[0-9]s) at `)
	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for n := 0; n < 1; {
		n = len(want.FindAllString(logs.String(), -1))
		select {
		case err := <-ran:
			t.Fatalf("crawl ended: %v\n%s", err, logs.String())
		case <-deadline:
			t.Fatalf("want a progress line matching %s within 10 s; log:\n%s", want, logs.String())
		case <-tick.C:
		}
	}
	cancel()
	<-ran
}

// Issue 10: pages/s is the rate of the last rateWindow, measured up to now: while a pause holds
// the crawl, it falls (the whole run's average would still show the burst before it).
func TestProgressRateIsRecent(t *testing.T) {
	now := t0
	pr := &progress{now: func() time.Time { return now }}
	for i := range 11 { // 10 pages a second for 10 s
		pr.update(crawl.Stats{Started: t0, Now: t0.Add(time.Duration(i) * time.Second), Pages: 10 * i})
	}
	now = t0.Add(10 * time.Second)
	if _, rate := pr.snapshot(); rate < 9.9 || rate > 10.1 {
		t.Errorf("rate while crawling: %.2f, want 10", rate)
	}
	now = t0.Add(25 * time.Second) // 15 s of pause, no snapshot
	if _, rate := pr.snapshot(); rate > 0.01 {
		t.Errorf("rate during a pause: %.2f, want 0", rate)
	}
}

// issue 27 ("off a terminal, progress lines at most every 10 s and only when something
// changed"): with the figures unchanged for three minutes (an unreachable seed), one line; a
// change is logged, but not sooner than logProgressEvery after the line before. Time is an
// input: no test waits.
func TestProgressLogLinesOnlyOnChangeAtMostEvery10s(t *testing.T) {
	now := t0
	pr := &progress{now: func() time.Time { return now }}
	if _, ok := pr.logDue(now); ok {
		t.Fatal("a line before the crawl reported")
	}
	pr.update(crawl.Stats{Started: t0, Now: t0})
	lines := 0
	if _, ok := pr.logDue(now); ok {
		lines++
	}
	for range 180 { // three minutes of identical snapshots, looked at every second
		pr.update(crawl.Stats{Started: t0, Now: now, OriginsBlocked: 1})
		if _, ok := pr.logDue(now); ok {
			lines++
		}
		now = now.Add(time.Second)
	}
	if lines != 2 { // the first report, then the origin found unreachable (10 s later)
		t.Errorf("%d lines over three minutes of two distinct figures; want 2", lines)
	}
	last := now
	pr.update(crawl.Stats{Started: t0, Now: now, Pages: 1, OriginsBlocked: 1})
	if _, ok := pr.logDue(now); !ok {
		t.Errorf("a change %v after the last line was not logged", now.Sub(last))
	}
	pr.update(crawl.Stats{Started: t0, Now: now, Pages: 2, OriginsBlocked: 1})
	if _, ok := pr.logDue(now.Add(9 * time.Second)); ok {
		t.Error("a second line 9 s after the one before")
	}
	if _, ok := pr.logDue(now.Add(10 * time.Second)); !ok {
		t.Error("the change was not logged 10 s after the line before")
	}
}

// issue 27 ("keep a terminal with no size readable"): on a terminal that reports 0 columns, the
// crawl's progress is still printed (plain progress lines), not a status line cut to nothing.
func TestProgressOnTerminalWithNoSize(t *testing.T) {
	web := startWeb(t, testweb.PagePaused(503, testweb.RetrySeconds))
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{}); err != nil {
		t.Fatal(err)
	}
	var screen syncBuffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			screen.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCommand()
	root.SetArgs(append(append([]string{"crawl", "--data", t.TempDir(), "--delay", "0"}, resolveArgs(web)...), web.URL("a", "/")))
	root.SetOut(io.Discard)
	root.SetErr(tty)
	ran := make(chan error, 1)
	go func() { ran <- root.ExecuteContext(ctx) }()
	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !strings.Contains(screen.String(), "fetched=1") {
		select {
		case err := <-ran:
			t.Fatalf("crawl ended: %v\n%q", err, screen.String())
		case <-deadline:
			t.Fatalf("no progress with 'fetched=1' within 10 s on a terminal of no size; terminal:\n%q", screen.String())
		case <-tick.C:
		}
	}
	cancel()
	<-ran
	tty.Close()
}
