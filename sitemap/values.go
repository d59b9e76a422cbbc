package sitemap

import (
	"strconv"
	"time"
)

// The forms of <lastmod> accepted.
//
// dateLayout and the first two of timeLayouts are the W3C Datetime profile
// that sitemaps.org names: YYYY, YYYY-MM, YYYY-MM-DD,
// YYYY-MM-DDThh:mm:ss[.s]TZD (time.Parse accepts the fractional seconds
// without their being in the layout) and YYYY-MM-DDThh:mmTZD, where TZD is
// "Z" or "+hh:mm"/"-hh:mm".
//
// The last two of timeLayouts are tolerated deviations, because reading them
// costs nothing and refusing them loses real information: a zone written
// without its colon ("+0000"), and a full time without a zone, read as UTC.
var timeLayouts = [...]string{
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05",
}

// dateLayout returns the one layout a date without a time, s, can have, or
// "" when s has neither the length nor the separators of such a date (a
// filter sparing a failed time.Parse: time.Parse still decides).
func dateLayout(s string) string {
	switch {
	case len(s) == len("2006"):
		return "2006"
	case len(s) == len("2006-01") && s[4] == '-':
		return "2006-01"
	case len(s) == len("2006-01-02") && s[4] == '-' && s[7] == '-':
		return "2006-01-02"
	}
	return ""
}

// dateTimePrefix is the part every layout of timeLayouts starts with.
const dateTimePrefix = "2006-01-02T15:04"

// mayBeDateTime reports whether s could be in one of timeLayouts: long
// enough for the shortest ("2006-01-02T15:04Z") and with their separators
// where their fixed-width date puts them. It is only a filter: time.Parse
// still decides.
func mayBeDateTime(s string) bool {
	return len(s) > len(dateTimePrefix) && s[4] == '-' && s[7] == '-' && s[10] == 'T'
}

// parseLastMod returns the time s names, or the zero Time when s is not in
// one of the accepted forms. Dates without a time are midnight UTC.
func parseLastMod(s string) time.Time {
	if layout := dateLayout(s); layout != "" {
		t, _ := time.Parse(layout, s) // zero on error
		return t
	}
	if !mayBeDateTime(s) {
		return time.Time{} // spares a failed time.Parse, and its error, per layout
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// changeFreqs are the values sitemaps.org allows for <changefreq>.
var changeFreqs = [...]string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}

// parseChangeFreq returns the allowed value s names, compared without regard
// to ASCII case, in its canonical lower-case form; or "" when s is none.
func parseChangeFreq(s string) string {
	for _, v := range changeFreqs {
		if asciiEqualFold(s, v) {
			return v
		}
	}
	return ""
}

// parsePriority returns the <priority> value s names when it is a decimal
// number (XML Schema xs:decimal: digits with at most one '.', an optional
// sign) from 0.0 to 1.0 inclusive, and -1 otherwise: "", "0,5", "1.5", and
// the forms strconv.ParseFloat accepts but xs:decimal does not ("NaN", "Inf",
// "5e-1", "0x1p-1", "1_0").
func parsePriority(s string) float64 {
	if !isDecimal(s) {
		return -1
	}
	p, err := strconv.ParseFloat(s, 64)
	if err != nil || p < 0 || p > 1 {
		return -1
	}
	return p
}

// isDecimal reports whether s has the lexical form of xs:decimal.
func isDecimal(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}
