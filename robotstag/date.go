package robotstag

import (
	"strconv"
	"strings"
	"time"
)

// parseDate reads the date of an unavailable_after directive. It accepts,
// leniently (any case, extra spaces, seconds optional):
//
//   - ISO 8601 / RFC 3339: "2010-06-25", "2010-06-25T15:00:00Z",
//     "2010-06-25 15:00+02:00", "2010-06-25T15:00:00.5 PST";
//   - RFC 1123 / RFC 822: "Fri, 25 Jun 2010 15:00:00 GMT", "25 Jun 10 15:00 PDT";
//   - RFC 850: "Friday, 25-Jun-10 15:00:00 PST";
//   - ANSI C asctime: "Fri Jun 25 15:00:00 2010";
//   - the form of Google's documentation: "25 Jun 2010 15:00:00 PST".
//
// A missing time of day means midnight; a missing zone means UTC. Zones
// are numeric offsets (+0200, -08:00, Z) or the RFC 822 names (UT, UTC,
// GMT, EST, EDT, CST, CDT, MST, MDT, PST, PDT). The weekday, when present,
// is not checked against the date. Dates that are ambiguous without a month
// name ("06/07/2010") are rejected rather than guessed.
func parseDate(s string) (time.Time, bool) {
	s = trimSpace(s)
	if len(s) >= 10 && isDigits(s[:4]) && s[4] == '-' {
		return parseISODate(s)
	}
	return parseTextDate(s)
}

// parseISODate reads "YYYY-MM-DD" optionally followed by a time of day
// (after "T", "t" or spaces) and a zone.
func parseISODate(s string) (time.Time, bool) {
	if !isDigits(s[5:7]) || s[7] != '-' || !isDigits(s[8:10]) {
		return time.Time{}, false
	}
	year, _ := strconv.Atoi(s[:4])
	month, _ := strconv.Atoi(s[5:7])
	day, _ := strconv.Atoi(s[8:10])
	rest := s[10:]
	var c clock
	if rest != "" {
		switch rest[0] {
		case 'T', 't', ' ', '\t':
			rest = trimSpace(rest[1:])
		default:
			return time.Time{}, false
		}
		if n := clockLen(rest); n > 0 {
			var ok bool
			if c, ok = parseClock(rest[:n]); !ok {
				return time.Time{}, false
			}
			rest = rest[n:]
		}
	}
	offset, ok := parseZone(trimSpace(rest))
	if !ok {
		return time.Time{}, false
	}
	return makeDate(year, month, day, c, offset)
}

// parseTextDate reads the dates that name their month: a sequence of
// words, numbers, one time of day and one zone, in any usual order.
func parseTextDate(s string) (time.Time, bool) {
	var (
		year, month, day = -1, -1, -1
		yearDigits       int
		c                clock
		haveClock        bool
		offset           int
		haveZone         bool
		haveWeekday      bool
	)
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case isSpace(ch) || ch == ',' || ch == '.' || ch == '-' && !isOffsetAt(s, i):
			i++
		case isLetter(ch):
			j := i
			for j < len(s) && isLetter(s[j]) {
				j++
			}
			w := toLower(s[i:j])
			i = j
			if off, ok := zoneOffset(w); ok && !haveZone {
				offset, haveZone = off, true
				// "GMT+0100": an offset right after a zone name adds to it.
				if i < len(s) && (s[i] == '+' || s[i] == '-') {
					n := offsetLen(s[i:])
					if n == 0 {
						return time.Time{}, false
					}
					extra, ok := parseOffset(s[i : i+n])
					if !ok {
						return time.Time{}, false
					}
					offset += extra
					i += n
				}
				continue
			}
			if m := monthNumber(w); m > 0 && month < 0 {
				month = m
				continue
			}
			if isWeekday(w) && !haveWeekday {
				haveWeekday = true
				continue
			}
			if (w == "am" || w == "pm") && haveClock && c.hour >= 1 && c.hour <= 12 {
				if w == "pm" && c.hour != 12 {
					c.hour += 12
				} else if w == "am" && c.hour == 12 {
					c.hour = 0
				}
				continue
			}
			return time.Time{}, false
		case ch == '+' || ch == '-':
			n := offsetLen(s[i:])
			if n == 0 || haveZone {
				return time.Time{}, false
			}
			off, ok := parseOffset(s[i : i+n])
			if !ok {
				return time.Time{}, false
			}
			offset, haveZone = off, true
			i += n
		case isDigit(ch):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j < len(s) && s[j] == ':' {
				n := clockLen(s[i:])
				cl, ok := parseClock(s[i : i+n])
				if !ok || haveClock {
					return time.Time{}, false
				}
				c, haveClock = cl, true
				i += n
				continue
			}
			num, err := strconv.Atoi(s[i:j])
			digits := j - i
			i = j
			switch {
			case err != nil:
				return time.Time{}, false
			case digits == 4 && year < 0:
				year, yearDigits = num, 4
			case digits <= 2 && day < 0:
				day = num
			case digits <= 2 && year < 0 && month > 0:
				year, yearDigits = num, 2
			default:
				return time.Time{}, false
			}
		default:
			return time.Time{}, false
		}
	}
	if year < 0 || month < 0 || day < 0 {
		return time.Time{}, false
	}
	if yearDigits == 2 {
		// As RFC 850 readers (and Go's time package) do: 69-99 are 19xx.
		if year >= 69 {
			year += 1900
		} else {
			year += 2000
		}
	}
	return makeDate(year, month, day, c, offset)
}

// clock is a time of day.
type clock struct{ hour, min, sec, nsec int }

// clockLen returns the length of the time-of-day prefix of s: digits,
// colons, and a fraction after the seconds.
func clockLen(s string) int {
	n := 0
	for n < len(s) && (isDigit(s[n]) || s[n] == ':' || s[n] == '.') {
		if s[n] == '.' && (n+1 >= len(s) || !isDigit(s[n+1]) || strings.Count(s[:n], ":") != 2) {
			break
		}
		n++
	}
	return n
}

// parseClock reads "H:MM", "HH:MM:SS" or "HH:MM:SS.fraction".
func parseClock(s string) (clock, bool) {
	var c clock
	if i := strings.IndexByte(s, '.'); i >= 0 {
		frac := s[i+1:]
		if frac == "" || len(frac) > 9 || !isDigits(frac) {
			return clock{}, false
		}
		c.nsec, _ = strconv.Atoi(frac + strings.Repeat("0", 9-len(frac)))
		s = s[:i]
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return clock{}, false
	}
	vals := [3]int{}
	for k, p := range parts {
		if len(p) < 1 || len(p) > 2 || !isDigits(p) {
			return clock{}, false
		}
		vals[k], _ = strconv.Atoi(p)
	}
	c.hour, c.min, c.sec = vals[0], vals[1], vals[2]
	if c.hour > 23 || c.min > 59 || c.sec > 59 {
		return clock{}, false
	}
	return c, true
}

// parseZone reads an ISO date's zone: empty (UTC), "Z", a numeric offset,
// or an RFC 822 zone name. It returns the offset east of UTC in seconds.
func parseZone(s string) (int, bool) {
	switch {
	case s == "":
		return 0, true
	case s == "Z" || s == "z":
		return 0, true
	case s[0] == '+' || s[0] == '-':
		if offsetLen(s) != len(s) {
			return 0, false
		}
		return parseOffset(s)
	}
	return zoneOffset(toLower(s))
}

// isOffsetAt reports whether the '-' at s[i] starts a zone offset rather
// than separating the parts of "25-Jun-10": an offset follows a space and
// is a complete "-HH", "-HHMM" or "-HH:MM".
func isOffsetAt(s string, i int) bool {
	if i > 0 && !isSpace(s[i-1]) {
		return false
	}
	n := offsetLen(s[i:])
	if n == 0 {
		return false
	}
	return i+n == len(s) || isSpace(s[i+n]) || s[i+n] == ','
}

// offsetLen returns the length of the "+HH", "+HHMM" or "+HH:MM" prefix
// of s (sign '+' or '-'), or 0 if there is none.
func offsetLen(s string) int {
	if len(s) < 3 || (s[0] != '+' && s[0] != '-') || !isDigits(s[1:3]) {
		return 0
	}
	switch {
	case len(s) >= 6 && s[3] == ':' && isDigits(s[4:6]):
		return 6
	case len(s) >= 5 && isDigits(s[3:5]):
		if len(s) > 5 && isDigit(s[5]) {
			return 0
		}
		return 5
	case len(s) > 3 && isDigit(s[3]):
		return 0
	}
	return 3
}

// parseOffset converts an offset of the length offsetLen found (never 0)
// to seconds east of UTC.
func parseOffset(s string) (int, bool) {
	digits := strings.ReplaceAll(s[1:], ":", "")
	h, _ := strconv.Atoi(digits[:2])
	m := 0
	if len(digits) == 4 {
		m, _ = strconv.Atoi(digits[2:])
	}
	if h > 23 || m > 59 {
		return 0, false
	}
	off := (h*60 + m) * 60
	if s[0] == '-' {
		off = -off
	}
	return off, true
}

// makeDate builds the instant, rejecting impossible dates such as 31 June
// (time.Date would silently move them to 1 July).
func makeDate(year, month, day int, c clock, offset int) (time.Time, bool) {
	if year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, c.hour, c.min, c.sec, c.nsec, time.FixedZone("", offset))
	if t.Day() != day || int(t.Month()) != month {
		return time.Time{}, false
	}
	if t.IsZero() {
		// 0001-01-01T00:00:00Z is the zero time.Time, which Directives
		// reserves for "no date"; one nanosecond later means the same.
		t = t.Add(time.Nanosecond)
	}
	return t.UTC(), true
}

// zoneOffset returns the offset east of UTC, in seconds, of a lower-case
// RFC 822 zone name. Other abbreviations are ambiguous (IST, BST, CST
// outside America) and are not guessed.
func zoneOffset(name string) (int, bool) {
	const h = 3600
	switch name {
	case "ut", "utc", "gmt", "z":
		return 0, true
	case "edt":
		return -4 * h, true
	case "est", "cdt":
		return -5 * h, true
	case "cst", "mdt":
		return -6 * h, true
	case "mst", "pdt":
		return -7 * h, true
	case "pst":
		return -8 * h, true
	}
	return 0, false
}

// monthNumber returns 1-12 for a lower-case month name or its abbreviation
// of at least three letters ("jun", "sept", "june"), else 0.
func monthNumber(w string) int {
	names := [...]string{"january", "february", "march", "april", "may", "june",
		"july", "august", "september", "october", "november", "december"}
	for i, m := range names {
		if len(w) >= 3 && strings.HasPrefix(m, w) {
			return i + 1
		}
	}
	return 0
}

// isWeekday reports whether w (any case) is a weekday name or its
// abbreviation of at least three letters ("fri", "thurs", "Friday").
func isWeekday(w string) bool {
	names := [...]string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
	w = toLower(w)
	for _, d := range names {
		if len(w) >= 3 && strings.HasPrefix(d, w) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= lowerByte(c) && lowerByte(c) <= 'z' }

// isDigits reports whether s is non-empty and all ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
