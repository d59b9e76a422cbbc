package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/crawl"
)

// Issue 12: a run on a shared store that lost leases says so in its summary; other runs print
// no such line.
func TestSummaryNamesLostLeases(t *testing.T) {
	var b strings.Builder
	writeSummary(&b, crawl.Stats{StopReason: crawl.StopFinished, LeasesLost: 2}, "nothing left to crawl", nil, "", "")
	if !strings.Contains(b.String(), "leases lost") || !strings.Contains(b.String(), "2") {
		t.Errorf("summary with 2 leases lost:\n%s", b.String())
	}
	b.Reset()
	writeSummary(&b, crawl.Stats{StopReason: crawl.StopFinished}, "nothing left to crawl", nil, "", "")
	if strings.Contains(b.String(), "leases lost") {
		t.Errorf("summary of a run that lost no lease names leases:\n%s", b.String())
	}
}

// Issue 28: the library reports a typed stop reason and the command words it in its flags'
// terms, as its summary always did (scripts and the benchmarks read "Crawl ended: ...").
func TestStopLineWordsEachReasonIssue28(t *testing.T) {
	next := time.Date(2026, 3, 1, 13, 0, 0, 0, time.UTC)
	lim := runLimits{maxPages: 40, maxTime: time.Minute, maxWait: 2 * time.Minute}
	for _, c := range []struct {
		s    crawl.Stats
		err  error
		want string
	}{
		{crawl.Stats{StopReason: crawl.StopFinished}, nil, "nothing left to crawl"},
		{crawl.Stats{StopReason: crawl.StopMaxPages}, nil, "--max-pages 40 reached"},
		{crawl.Stats{StopReason: crawl.StopMaxTime}, nil, "--max-time 1m0s reached"},
		{crawl.Stats{StopReason: crawl.StopInterrupted}, nil, "interrupted"},
		{crawl.Stats{StopReason: crawl.StopError}, errors.New("disk full"), "error: disk full"},
		{crawl.Stats{StopReason: crawl.StopWaiting, NextDue: next}, nil,
			"nothing due before 2026-03-01T13:00:00Z (longer than --max-wait 2m0s); run again to resume"},
	} {
		if got := stopLine(c.s, lim, c.err); got != c.want {
			t.Errorf("stopLine(%v) = %q, want %q", c.s.StopReason, got, c.want)
		}
	}
}
