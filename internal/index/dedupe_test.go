package index

import (
	"slices"
	"testing"
)

// Issue 11 item 2, "one page, one result": the same page under several URLs is shown once, at
// the place of its best result, under its canonical URL, else "/" rather than "/index.html".
func TestDedupe(t *testing.T) {
	h := ContentHash("t", "same text")
	rs := []Result{
		{URL: "http://a.test/index.html", Score: 9},
		{URL: "http://a.test/b?x=1", Score: 8, ContentHash: h},
		{URL: "http://a.test/", Score: 7},
		{URL: "http://a.test/c", Score: 6, ContentHash: ContentHash("t", "other text")},
		{URL: "http://a.test/b", Score: 5, ContentHash: h},
		{URL: "http://a.test/long/print", Score: 4, Canonical: "http://a.test/article"},
		{URL: "http://a.test/article", Score: 3},
		{URL: "http://a.test/d/index.htm?q=1", Score: 2},
		{URL: "http://a.test/d/?q=1", Score: 1, LinkOnly: true},
	}
	var got []string
	for _, r := range Dedupe(rs) {
		got = append(got, r.URL)
	}
	want := []string{"http://a.test/", "http://a.test/b", "http://a.test/c", "http://a.test/article", "http://a.test/d/index.htm?q=1"}
	if !slices.Equal(got, want) {
		t.Errorf("Dedupe = %q, want %q", got, want)
	}
	if d := Dedupe(rs); d[0].Score != 9 || d[1].Score != 8 {
		t.Errorf("scores %v, %v: want each page's best (9, 8)", d[0].Score, d[1].Score)
	}
	if rs[0].URL != "http://a.test/index.html" {
		t.Error("Dedupe changed its input")
	}
}
