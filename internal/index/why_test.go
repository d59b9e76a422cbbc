package index

import (
	"strings"
	"testing"
	"time"
)

// Issue 4: each result says why it is here, and a missing page why it is missing, from the
// recorded decisions (seed 001: robots.txt-blocked pages appear only from other pages' links).
func TestWhy(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	for _, tt := range []struct {
		f    Facts
		want string
	}{
		{Facts{Indexed: true, FetchedAt: at, Status: 200, ContentType: "text/html", Inlinks: 3}, "Indexed: fetched 2026-11-22 09:30 (200, text/html); linked from 3 pages"},
		{Facts{LinkOnly: true, State: "robots_disallowed", Reason: "Disallow: /private (robots.txt line 4)", Inlinks: 1},
			"Not crawled: blocked by robots.txt, Disallow: /private (line 4); known from other pages' links; linked from 1 page"},
		{Facts{LinkOnly: true, State: "queued", Inlinks: 2}, "Not crawled: not crawled yet; known"},
		{Facts{NoIndex: true, FetchedAt: at, Reason: "noindex (meta name=robots)"}, "robot tags say noindex (meta name=robots)"},
		{Facts{FetchedAt: at, Status: 404}, "answered 404"},
		{Facts{}, "never seen"},
	} {
		if got := Why(tt.f); !strings.Contains(got, tt.want) {
			t.Errorf("Why(%+v) = %q, want it to contain %q", tt.f, got, tt.want)
		}
	}
}
