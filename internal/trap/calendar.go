package trap

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// DefaultCalendarYears is how far from the crawl's "now", in years either way, a date written
// in a URL may be before the URL is a calendar trap (issue 29): a calendar whose months link to
// the next and the previous month, without end, yields at most about 12 × 2 × 50 = 1,200 pages
// of a monthly view before both walks leave the window. Fifty years back reaches every site
// archive since the web began and the digitised back issues of most publications; fifty years
// ahead, any event a site plans. A crawl of older dated archives widens it (--calendar-years).
const DefaultCalendarYears = 50

// Calendar is the heuristic that rejects a URL walking dates out of the window
// (CheckCalendar).
const Calendar Heuristic = "calendar"

// CheckCalendar rejects a URL whose path or query holds a date more than years years from
// now's year (years <= 0: never). Only unambiguous dates count, so that a numeric ID of four
// digits ("/products/1234") is not taken for a year:
//   - a path segment of four digits followed by a segment that is a month (1-12): "/2026/11";
//   - a path segment that starts with a year, a separator ('-', '_' or '.') and a month:
//     "2026-11", "2026-11-27-title";
//   - a path segment or query value of eight digits that reads YYYYMMDD with a valid month and
//     day: "20261127";
//   - a query value in either of the last two forms, or of four digits under a key named
//     "year" or "yr" (any case): "?year=3994".
//
// Years are read as they are written (urlnorm's canonical form decodes digits). The Verdict
// names the year and the window.
func CheckCalendar(path, query string, now time.Time, years int) Verdict {
	if years <= 0 {
		return Verdict{}
	}
	for _, y := range datedYears(path, query) {
		if d := y - now.Year(); d > years || -d > years {
			return Verdict{Calendar, fmt.Sprintf("trap %s: the URL walks to year %d, more than %d years from %d (--calendar-years)", Calendar, y, years, now.Year())}
		}
	}
	return Verdict{}
}

// datedYears returns the years of the dates in path and query, as CheckCalendar reads them.
func datedYears(path, query string) []int {
	if !hasFourDigits(path) && !hasFourDigits(query) {
		return nil // most URLs: no date, nothing split or allocated
	}
	var out []int
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i, s := range segs {
		if y, ok := digits(s, 4); ok && i+1 < len(segs) && isMonth(segs[i+1]) {
			out = append(out, y)
		} else if y, ok := dateYear(s); ok {
			out = append(out, y)
		}
	}
	if query == "" {
		return out
	}
	for pair := range strings.SplitSeq(query, "&") {
		k, v, _ := strings.Cut(pair, "=")
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		k = strings.ToLower(k)
		if y, ok := digits(v, 4); ok && (k == "year" || k == "yr") {
			out = append(out, y)
		} else if y, ok := dateYear(v); ok {
			out = append(out, y)
		}
	}
	return out
}

// dateYear is the year of s when s is a date on its own: "2026-11..." or "20261127".
func dateYear(s string) (int, bool) {
	if y, ok := datePrefix(s); ok {
		return y, true
	}
	return compactDate(s)
}

// digits reads s as exactly n ASCII digits.
func digits(s string, n int) (int, bool) {
	if len(s) != n {
		return 0, false
	}
	v := 0
	for i := 0; i < n; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// isMonth reports whether s is a month number, 1 to 12, of one or two digits.
func isMonth(s string) bool {
	m, ok := digits(s, len(s))
	return ok && len(s) >= 1 && len(s) <= 2 && m >= 1 && m <= 12
}

// datePrefix reads a year from s when s starts "YYYY-M" or "YYYY-MM" (separators '-', '_',
// '.') with a valid month, followed by the end of s or a non-digit.
func datePrefix(s string) (int, bool) {
	if len(s) < 6 {
		return 0, false
	}
	y, ok := digits(s[:4], 4)
	if !ok || !strings.ContainsRune("-_.", rune(s[4])) {
		return 0, false
	}
	rest := s[5:]
	n := 0
	for n < len(rest) && n < 3 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 2 || !isMonth(rest[:n]) {
		return 0, false
	}
	return y, true
}

// compactDate reads a year from s when s is eight digits YYYYMMDD with a valid month and day.
func compactDate(s string) (int, bool) {
	if _, ok := digits(s, 8); !ok {
		return 0, false
	}
	y, _ := digits(s[:4], 4)
	m, _ := digits(s[4:6], 2)
	d, _ := digits(s[6:], 2)
	if m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, false
	}
	return y, true
}

// hasFourDigits reports whether s holds four ASCII digits in a row, as every date form does.
func hasFourDigits(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			if run++; run == 4 {
				return true
			}
			continue
		}
		run = 0
	}
	return false
}
