package trap

import (
	"strings"
	"testing"
	"time"
)

var crawlNow = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// issue 29 ("calendars"): a URL walking dates far from the crawl's now is cut, with the
// calendar heuristic and the year in its reason; dates inside the window, and numbers that are
// not dates, pass.
func TestCheckCalendarCutsDatesFarFromNow(t *testing.T) {
	for _, c := range []struct {
		path, query string
		cut         bool
	}{
		{"/cal/3994/12", "", true},  // the calendar
		{"/cal/1850/01", "", true},  // walked back
		{"/cal/2076/12", "", false}, // 50 years ahead: inside
		{"/cal/1976/1", "", false},  // 50 years back: inside
		{"/cal/2077/01", "", true},  // 51 years ahead
		{"/blog/2026-11-27-launch", "", false},
		{"/blog/2101-03-01-launch", "", true},
		{"/events/21010301", "", true}, // YYYYMMDD
		{"/calendar", "year=3994&month=12", true},
		{"/calendar", "date=2150-06", true},
		{"/calendar", "d=29991231", true},
		{"/calendar", "date=2026-06", false},
		{"/products/1234", "", false},         // an ID, not a year
		{"/products/1234/reviews", "", false}, // no month after it
		{"/items/1234/55", "", false},         // 55 is no month
		{"/ids/12345678", "", false},          // month 56: no date
		{"/search", "page=3994", false},       // not a year key
		{"/v/1000.13", "", false},             // month 13
	} {
		v := CheckCalendar(c.path, c.query, crawlNow, DefaultCalendarYears)
		if v.Rejected() != c.cut {
			t.Errorf("%s?%s: rejected %v (%q), want %v", c.path, c.query, v.Rejected(), v.Reason, c.cut)
		}
		if c.cut && (v.Heuristic != Calendar || !strings.HasPrefix(v.Reason, "trap calendar: ")) {
			t.Errorf("%s?%s: verdict %+v, want the calendar heuristic named", c.path, c.query, v)
		}
		if h, ok := HeuristicOf(v.Reason); c.cut && (!ok || h != Calendar) {
			t.Errorf("HeuristicOf(%q) = %q, %v", v.Reason, h, ok)
		}
	}
	if v := CheckCalendar("/cal/3994/12", "", crawlNow, 0); v.Rejected() {
		t.Errorf("a window of 0 (off) still cut: %+v", v)
	}
	if v := CheckCalendar("/cal/3994/12", "", time.Date(3990, 1, 1, 0, 0, 0, 0, time.UTC), DefaultCalendarYears); v.Rejected() {
		t.Errorf("the window follows the crawl's clock, not the wall clock: %+v", v)
	}
}

// issue 29: a monthly calendar walked both ways from the crawl's month passes at most 2,000
// URLs before every walk is cut (the bound for the defaults).
func TestCalendarWindowBoundsAMonthlyWalk(t *testing.T) {
	passed := 0
	for _, step := range []int{1, -1} {
		m := time.Date(crawlNow.Year(), crawlNow.Month(), 1, 0, 0, 0, 0, time.UTC)
		for ; ; m = m.AddDate(0, step, 0) {
			if CheckCalendar(m.Format("/cal/2006/01"), "", crawlNow, DefaultCalendarYears).Rejected() {
				break
			}
			passed++
			if passed > 2000 {
				t.Fatalf("more than 2,000 months pass")
			}
		}
	}
	t.Logf("%d months pass", passed)
}

// The calendar check costs a scan and no allocation on a URL without four digits in a row.
func TestCheckCalendarAllocatesNothingWithoutDigits(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() {
		CheckCalendar("/docs/guide/installing-on-linux", "lang=en&page=2", crawlNow, DefaultCalendarYears)
	}); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
