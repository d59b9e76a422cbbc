package main

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/crawler"
)

// Issue 12: a run on a shared store that lost leases says so in its summary; other runs print
// no such line.
func TestSummaryNamesLostLeases(t *testing.T) {
	var b strings.Builder
	writeSummary(&b, crawler.Stats{StopReason: "nothing left to crawl", LeasesLost: 2}, nil, "")
	if !strings.Contains(b.String(), "leases lost") || !strings.Contains(b.String(), "2") {
		t.Errorf("summary with 2 leases lost:\n%s", b.String())
	}
	b.Reset()
	writeSummary(&b, crawler.Stats{StopReason: "nothing left to crawl"}, nil, "")
	if strings.Contains(b.String(), "leases lost") {
		t.Errorf("summary of a run that lost no lease names leases:\n%s", b.String())
	}
}
