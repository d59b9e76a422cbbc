package hostile_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fractle/mandelbot/internal/extract"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
	"github.com/fractle/mandelbot/internal/trap"
)

// fetchAndExtract gets a page and extracts it, returning the response (released) and document.
func fetchAndExtract(t *testing.T, c *fetch.Client, u string) (*fetch.Response, extract.Document) {
	t.Helper()
	resp, err := get(t, c, u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Release()
	doc, err := extract.HTML(resp.Body, u, resp.Header.Get("Content-Type"), extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return resp, doc
}

// issue 9: a 10 MB document on one line is read whole (under the 16 MiB raw limit) and
// extracted with its text capped; the link at its very end is found.
func TestLongLine(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	h := sampleHeap(t)
	resp, doc := fetchAndExtract(t, c, base+hostile.PathLongLine)
	if resp.Truncated || resp.RawBytes != hostile.LongLineSize {
		t.Errorf("truncated %v, %d bytes; want all %d", resp.Truncated, resp.RawBytes, hostile.LongLineSize)
	}
	if len(doc.Text) > extract.DefaultMaxTextBytes || len(doc.Links) != 1 || !strings.HasSuffix(doc.Links[0].URL, "/after-the-line") {
		t.Errorf("text %d bytes, links %v", len(doc.Text), doc.Links)
	}
	h.check(t, 64*MiB, 10*time.Second)
}

// issue 9: a 50 MB body without Content-Length is cut at the raw limit (16 MiB); the response
// says so and the heap holds the limit, not the body.
func TestBodyWithoutLength(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	h := sampleHeap(t)
	resp, doc := fetchAndExtract(t, c, base+hostile.PathNoLength)
	if !resp.Truncated || resp.TruncatedBy != fetch.LimitRaw || resp.RawBytes != fetch.DefaultMaxRawBytes {
		t.Errorf("truncated %v by %v after %d bytes; want cut at the raw limit", resp.Truncated, resp.TruncatedBy, resp.RawBytes)
	}
	if doc.Title != "no length" {
		t.Errorf("title %q", doc.Title)
	}
	h.check(t, 64*MiB, 10*time.Second)
}

// issue 9: a page of 200,000 links yields the first DefaultMaxLinks of them.
func TestManyLinks(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	h := sampleHeap(t)
	_, doc := fetchAndExtract(t, c, base+hostile.PathManyLinks)
	if len(doc.Links) != extract.DefaultMaxLinks || !strings.HasSuffix(doc.Links[0].URL, "/l/0") {
		t.Errorf("%d links, want the first %d", len(doc.Links), extract.DefaultMaxLinks)
	}
	h.check(t, 48*MiB, 10*time.Second)
}

// issue 9: invalid UTF-8 and NUL bytes in a page declared UTF-8 come out as valid UTF-8 without
// NULs.
func TestInvalidUTF8AndNUL(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	_, doc := fetchAndExtract(t, c, base+hostile.PathInvalidUTF8)
	for name, s := range map[string]string{"title": doc.Title, "text": doc.Text} {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			t.Errorf("%s %q is not valid UTF-8 without NUL", name, s)
		}
	}
	if !strings.Contains(doc.Text, "with NUL") {
		t.Errorf("text %q lost its readable part", doc.Text)
	}
}

// issue 9: 100,000 nested elements are extracted in bounded time and memory, and the link in
// the innermost one is found.
func TestDeepNesting(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	h := sampleHeap(t)
	_, doc := fetchAndExtract(t, c, base+hostile.PathDeepNesting)
	if len(doc.Links) != 1 || !strings.HasSuffix(doc.Links[0].URL, "/deep-link") {
		t.Errorf("links %v, want the innermost link", doc.Links)
	}
	h.check(t, 64*MiB, 10*time.Second)
}

// issue 9 (docs/robots-rules.md rule 10): a 5 MB robots.txt is parsed up to 500 KiB; its rule
// past 4 MB does not apply. A binary robots.txt has no rules; an HTML one (a soft 404 answered
// 200) has no rules either: its text is not a directive.
func TestOddRobotsTxt(t *testing.T) {
	for _, tc := range []struct {
		path, url string
		truncated bool
	}{
		{hostile.PathRobotsLarge, "/late", true},
		{hostile.PathRobotsBinary, "/anything", false},
		{hostile.PathRobotsHTML, "/html-trap", false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			base := start(t, hostile.Options{Robots: tc.path})
			c := client(t, fetch.Options{})
			h := sampleHeap(t)
			d := robots.Fetch(context.Background(), c, base+"/robots.txt", robots.FetchOptions{})
			if d.Kind != robots.KindRules || d.Truncated != tc.truncated {
				t.Errorf("kind %v, truncated %v; want rules, truncated %v", d.Kind, d.Truncated, tc.truncated)
			}
			if !d.Robots.For("Mandelbot").Test(tc.url).Allowed {
				t.Errorf("%s disallowed", tc.url)
			}
			h.check(t, 16*MiB, 5*time.Second)
		})
	}
}

// issue 9 ("trap defences"): following the /a/ growth page by page, the repeated-segment
// heuristic rejects /a/a/a/a/, the fourth step.
func TestGrowthTrapEndsAtTheHeuristic(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	at := base + hostile.PathGrowth
	for step := 1; ; step++ {
		_, doc := fetchAndExtract(t, c, at)
		if len(doc.Links) != 1 {
			t.Fatalf("%s: links %v", at, doc.Links)
		}
		at = doc.Links[0].URL
		u := mustParse(t, at)
		if v := trap.Check(u.EscapedPath(), u.RawQuery); v.Rejected() {
			if v.Heuristic != trap.RepeatedSegment || u.Path != "/a/a/a/a/" {
				t.Errorf("rejected %s by %v, want /a/a/a/a/ by repeated-segment", u.Path, v.Heuristic)
			}
			return
		}
		if step > 10 {
			t.Fatalf("still growing at %s", at)
		}
	}
}

// issue 9: a calendar's URLs look fine to the path heuristics, so the per-origin page budget is
// what ends it: with a budget of 24 pages, the 25th month is refused.
func TestCalendarTrapEndsAtThePageBudget(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	budget := trap.NewPageBudget(24)
	origin := base
	at := base + hostile.PathCalendarPrefix + "2026/11"
	pages := 0
	for budget.Take(origin) {
		u := mustParse(t, at)
		if v := trap.Check(u.EscapedPath(), u.RawQuery); v.Rejected() {
			t.Fatalf("%s rejected by %v: a calendar looks like a normal site", at, v.Heuristic)
		}
		_, doc := fetchAndExtract(t, c, at)
		pages++
		at = doc.Links[0].URL // next month
	}
	v := budget.Verdict(origin)
	if pages != 24 || v.Heuristic != trap.PageBudgetSpent {
		t.Errorf("%d pages, verdict %v; want 24 and the page budget", pages, v)
	}
	if want := fmt.Sprintf("%s2028/11", hostile.PathCalendarPrefix); !strings.HasSuffix(at, want) {
		t.Errorf("stopped before %s, want %s", at, want)
	}
}
