package trap

import (
	"strings"
	"testing"
)

// issue 9 ("trap defences"): each heuristic rejects what it names, passes what is just within
// its limit, and names itself in the reason.
func TestCheck(t *testing.T) {
	deep := segs
	for _, tc := range []struct {
		path, query string
		want        Heuristic
	}{
		{"/", "", None},
		{"/a/a/a", "", None},                      // three times: allowed
		{"/a/a/a/a", "", RepeatedSegment},         // four times: the /a/a/a growth trap
		{"/a/a/a/a/", "", RepeatedSegment},        // a trailing slash changes nothing
		{"/x/y/x/y/x/y/x/y", "", RepeatedSegment}, // a two-segment loop
		{"/a/b/a/c/a/d/a", "", RepeatedSegment},   // anywhere in the path, not only in a row
		{"/a//////b", "", None},                   // empty segments are not repeats
		{"/a/%61/a/a", "", None},                  // compared as written: %61 is not a
		{deep(64), "", None},
		{deep(65), "", TooManySegments},
		{"/p", strings.Repeat("q", MaxQueryLength), None},
		{"/p", strings.Repeat("q", MaxQueryLength+1), LongQuery},
		{"/cal/2026/11", "", None}, // a calendar looks fine: the page budget ends it
	} {
		v := Check(tc.path, tc.query)
		if v.Heuristic != tc.want || v.Rejected() != (tc.want != None) {
			t.Errorf("Check(%.60q, %d-byte query) = %v, want %v", tc.path, len(tc.query), v.Heuristic, tc.want)
		}
		if tc.want != None && !strings.HasPrefix(v.Reason, "trap "+string(tc.want)+": ") {
			t.Errorf("reason %q does not name %s", v.Reason, tc.want)
		}
		if tc.want == None && v.Reason != "" {
			t.Errorf("passing URL has reason %q", v.Reason)
		}
	}
}

// segs is a path of n distinct segments.
func segs(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("/s") // every segment distinct: s + two letters from the index
		b.WriteByte(byte('a' + i%26))
		b.WriteByte(byte('a' + i/26))
	}
	return b.String()
}

// issue 9 (--max-pages-per-origin): an origin gets its limit of pages and no more; other
// origins are counted apart; no limit means Take always succeeds.
func TestPageBudget(t *testing.T) {
	b := NewPageBudget(2)
	for i, want := range []bool{true, true, false, false} {
		if got := b.Take("http://a.test"); got != want {
			t.Fatalf("take %d: %v, want %v", i, got, want)
		}
	}
	if b.Taken("http://a.test") != 2 || !b.Spent("http://a.test") {
		t.Fatalf("taken %d", b.Taken("http://a.test"))
	}
	if !b.Take("http://b.test") {
		t.Fatal("another origin shares the budget")
	}
	v := b.Verdict("http://a.test")
	if v.Heuristic != PageBudgetSpent || !strings.Contains(v.Reason, "trap page-budget: http://a.test has had its 2 pages") {
		t.Fatalf("verdict %+v", v)
	}
	b.Give("http://a.test")
	if !b.Take("http://a.test") {
		t.Fatal("a page given back cannot be taken again")
	}
	b.Restore("http://c.test", 5)
	if b.Take("http://c.test") || b.Verdict("http://b.test").Rejected() {
		t.Fatal("Restore did not count the pages of an earlier run")
	}
	unlimited := NewPageBudget(0)
	for range 1000 {
		if !unlimited.Take("http://a.test") {
			t.Fatal("a budget without limit refused a page")
		}
	}
	if unlimited.Taken("http://a.test") != 1000 || unlimited.Limit() != 0 {
		t.Fatal("an unlimited budget does not count")
	}
}
