package robotstag

import (
	"testing"
	"time"
)

// docs/robots-rules.md rule 26 (unavailable_after: DATE) and brief: RFC 850,
// RFC 1123, RFC 3339 and ISO 8601 dates are read leniently.
func TestParseDateAccepts(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		// Google's documented example, PST = UTC-8.
		{"25 Jun 2010 15:00:00 PST", utc(2010, 6, 25, 23, 0, 0)},
		// RFC 1123 / RFC 822.
		{"Fri, 25 Jun 2010 15:00:00 GMT", utc(2010, 6, 25, 15, 0, 0)},
		{"Fri, 25 Jun 2010 15:00:00 +0200", utc(2010, 6, 25, 13, 0, 0)},
		{"Fri, 25 Jun 2010 15:00:00 -0800", utc(2010, 6, 25, 23, 0, 0)},
		{"25 Jun 10 15:00 EDT", utc(2010, 6, 25, 19, 0, 0)},
		{"Fri, 25 Jun 2010 15:00:00 UT", utc(2010, 6, 25, 15, 0, 0)},
		// RFC 850.
		{"Friday, 25-Jun-10 15:00:00 PST", utc(2010, 6, 25, 23, 0, 0)},
		{"Thursday, 01-Jan-98 00:00:00 GMT", utc(1998, 1, 1, 0, 0, 0)},
		// ANSI C asctime.
		{"Fri Jun 25 15:00:00 2010", utc(2010, 6, 25, 15, 0, 0)},
		{"Fri Jun  5 15:00:00 2010", utc(2010, 6, 5, 15, 0, 0)},
		// RFC 3339 / ISO 8601.
		{"2010-06-25", utc(2010, 6, 25, 0, 0, 0)},
		{"2010-06-25T15:00:00Z", utc(2010, 6, 25, 15, 0, 0)},
		{"2010-06-25t15:00:00z", utc(2010, 6, 25, 15, 0, 0)},
		{"2010-06-25T15:00:00+02:00", utc(2010, 6, 25, 13, 0, 0)},
		{"2010-06-25T15:00:00-0800", utc(2010, 6, 25, 23, 0, 0)},
		{"2010-06-25T15:00+05", utc(2010, 6, 25, 10, 0, 0)},
		{"2010-06-25 15:00:00", utc(2010, 6, 25, 15, 0, 0)},
		{"2010-06-25 15:00", utc(2010, 6, 25, 15, 0, 0)},
		{"2010-06-25T15:00:00 PST", utc(2010, 6, 25, 23, 0, 0)},
		{"2010-06-25 GMT", utc(2010, 6, 25, 0, 0, 0)},
		{"2010-06-25T15:00:00.250Z", time.Date(2010, 6, 25, 15, 0, 0, 250e6, time.UTC)},
		// Lenient: case, spacing, full and short names, no zone (UTC).
		{"  25   JUNE   2010  ", utc(2010, 6, 25, 0, 0, 0)},
		{"june 25 2010 3:04 pm", utc(2010, 6, 25, 15, 4, 0)},
		{"25 Jun 2010 12:30 AM", utc(2010, 6, 25, 0, 30, 0)},
		{"25 sept 2010", utc(2010, 9, 25, 0, 0, 0)},
		{"25 jun 2010 15:00:00 gmt+0100", utc(2010, 6, 25, 14, 0, 0)},
		{"Fri, 25 Jun 2010 15:00:00 pdt", utc(2010, 6, 25, 22, 0, 0)},
		{"29 Feb 2024", utc(2024, 2, 29, 0, 0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := parseDate(tt.in)
			if !ok {
				t.Fatalf("parseDate(%q) failed", tt.in)
			}
			if !got.Equal(tt.want) {
				t.Errorf("parseDate(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// docs/robots-rules.md rule 26 / brief: an unparsable date is ignored
// rather than guessed.
func TestParseDateRejects(t *testing.T) {
	for _, in := range []string{
		"",
		"tomorrow",
		"06/25/2010",          // no month name: day and month ambiguous
		"2010-13-01",          // no month 13
		"2010-06-31",          // 31 June does not exist
		"31 Jun 2010",         // nor in text form
		"29 Feb 2023",         // not a leap year
		"2010-06-25T25:00:00", // no hour 25
		"25 Jun 2010 15:61",
		"25 Jun 2010 15:00:00 XYZ", // unknown zone
		"25 Jun 2010 15:00:00 IST", // ambiguous zone, not guessed
		"25 Jun",                   // no year
		"Jun 2010",                 // no day
		"25 Jun 2010 extra",
		"25 Jun 2010 25 Jun 2010",
		"2010-06-25X",
		"2010-06-25T15:00:00+25:00",
		"99999999999999999999 Jun 2010",
		"25 Jun 2010 15:00:00 +01:00:00",
		"0000-01-01",
		"Fri,",
		"\u00a025 Jun 2010",
		"- -0800 +", // a lone sign once sliced past the end (found by FuzzParseDate)
		"25 Jun 2010 gmt+",
	} {
		if got, ok := parseDate(in); ok {
			t.Errorf("parseDate(%q) = %v, want failure", in, got)
		}
	}
}

// The earliest date is not the zero time, which means "no date".
func TestParseDateNeverZero(t *testing.T) {
	got, ok := parseDate("0001-01-01")
	if !ok || got.IsZero() {
		t.Fatalf("parseDate(0001-01-01) = %v, %v; want a non-zero time", got, ok)
	}
	d := FromMeta([]Meta{{"robots", "unavailable_after: 0001-01-01"}}, agent)
	if d.Indexable(testNow()) {
		t.Error("unavailable since year 1, but indexable")
	}
}

// A parsed date survives formatting as RFC 3339 and parsing again, which
// Directives.String relies on.
func TestParseDateRFC3339RoundTrip(t *testing.T) {
	for _, in := range []string{"25 Jun 2010 15:00:00 PST", "2010-06-25T15:00:00.123456789+02:00", "0001-01-02", "9999-12-31T23:59:59Z"} {
		t1, ok := parseDate(in)
		if !ok {
			t.Fatalf("parseDate(%q) failed", in)
		}
		t2, ok := parseDate(t1.Format(time.RFC3339Nano))
		if !ok || !t2.Equal(t1) {
			t.Errorf("round trip of %q: %v -> %v (ok=%v)", in, t1, t2, ok)
		}
	}
}

// The RFC 822 zone names, each with its offset (RFC 822 section 5.1).
func TestParseDateRFC822Zones(t *testing.T) {
	zones := map[string]int{"UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7}
	for zone, hours := range zones {
		got, ok := parseDate("25 Jun 2010 12:00:00 " + zone)
		want := time.Date(2010, 6, 25, 12-hours, 0, 0, 0, time.UTC)
		if !ok || !got.Equal(want) {
			t.Errorf("zone %s: %v (ok=%v), want %v", zone, got, ok, want)
		}
	}
	for _, bad := range []string{
		"2010-06-25T12:00:00.1234567890Z", // more than nanoseconds
		"2010-06-25T12:00:00.Z",
		"2010-06-25T12:00:00+0",
		"2010-06-25T12:00:00+123",
		"2010-06-25T12:00:00+12345",
		"2010-06-25T12:00:00 XST",
		"2010-06-25T1:2:3:4",
		"2010-06-25T123:00",
	} {
		if got, ok := parseDate(bad); ok {
			t.Errorf("parseDate(%q) = %v, want failure", bad, got)
		}
	}
}
