package sitemap

import (
	"testing"
	"time"
)

// sitemaps.org: <lastmod> is a W3C Datetime; a date alone is allowed.
func TestParseLastMod(t *testing.T) {
	plus2 := time.FixedZone("", 2*3600)
	for _, tc := range []struct {
		in   string
		want time.Time // zero means invalid
	}{
		{"2005-01-01", date(2005, 1, 1)},
		{"2004-10-01T18:23:17+00:00", time.Date(2004, 10, 1, 18, 23, 17, 0, time.UTC)},
		{"2004-10-01T18:23:17Z", time.Date(2004, 10, 1, 18, 23, 17, 0, time.UTC)},
		{"2004-10-01T18:23:17.5+02:00", time.Date(2004, 10, 1, 18, 23, 17, 5e8, plus2)},
		{"2004-10-01T18:23+02:00", time.Date(2004, 10, 1, 18, 23, 0, 0, plus2)},
		{"2004-10", date(2004, 10, 1)},
		{"2004", date(2004, 1, 1)},
		// Tolerated deviations.
		{"2004-10-01T18:23:17+0200", time.Date(2004, 10, 1, 18, 23, 17, 0, plus2)},
		{"2004-10-01T18:23:17", time.Date(2004, 10, 1, 18, 23, 17, 0, time.UTC)},
		// Not W3C datetimes.
		{"", time.Time{}},
		{"yesterday", time.Time{}},
		{"01/02/2004", time.Time{}},
		{"Fri, 01 Oct 2004 18:23:17 GMT", time.Time{}},
		{"2004-13-01", time.Time{}},
		{"2004-02-30", time.Time{}},
		{"2004-10-01T25:00:00Z", time.Time{}},
		{"04-10-01", time.Time{}},
	} {
		if got := parseLastMod(tc.in); !got.Equal(tc.want) {
			t.Errorf("parseLastMod(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// sitemaps.org: <changefreq> is one of seven words. Matching ignores ASCII
// case only.
func TestParseChangeFreq(t *testing.T) {
	for in, want := range map[string]string{
		"always": "always", "hourly": "hourly", "daily": "daily", "weekly": "weekly",
		"monthly": "monthly", "yearly": "yearly", "never": "never",
		"WEEKLY": "weekly", "Daily": "daily",
		"": "", "fortnightly": "", "dai ly": "", "daily ": "",
		"\u212Aelvin": "", // a Kelvin sign is not a K
	} {
		if got := parseChangeFreq(in); got != want {
			t.Errorf("parseChangeFreq(%q) = %q, want %q", in, got, want)
		}
	}
}

// sitemaps.org: <priority> ranges from 0.0 to 1.0.
func TestParsePriority(t *testing.T) {
	for in, want := range map[string]float64{
		"0.0": 0, "0.5": 0.5, "1.0": 1, "1": 1, "0": 0, ".8": 0.8, "0.": 0, "+0.3": 0.3,
		"": -1, "1.1": -1, "-0.1": -1, "0,5": -1, "high": -1, "NaN": -1, "Inf": -1,
		"5e-1": -1, "0x1p-1": -1, "0_5": -1, ".": -1, "0.5.": -1, "+": -1,
	} {
		if got := parsePriority(in); got != want {
			t.Errorf("parsePriority(%q) = %v, want %v", in, got, want)
		}
	}
}

// checkLoc is minimal on purpose: absolute http(s) with a host, accepted by
// net/url, valid UTF-8.
func TestCheckLoc(t *testing.T) {
	for in, want := range map[string]error{
		"http://example.com/":       nil,
		"HTTPS://Example.COM/a?b#c": nil,
		"http://example.com:8080":   nil,
		"http://[::1]:80/":          nil,
		"http://example.com/ü":      nil,
		"http://user@example.com/":  nil,
		"":                          errLocEmpty,
		"http://example.com/\xff":   errLocUTF8,
		"http://[::1/":              errLocParse,
		"http://example.com/%zz":    errLocParse,
		"ftp://example.com/":        errLocScheme,
		"//example.com/":            errLocScheme,
		"/path":                     errLocScheme,
		"example.com":               errLocScheme,
		"http:example.com":          errLocNoHost,
		"http:///path":              errLocNoHost,
		"https://":                  errLocNoHost,
	} {
		if got := checkLoc(in); got != want {
			t.Errorf("checkLoc(%q) = %v, want %v", in, got, want)
		}
	}
}

// Issue 26 (CPU per page): an entry without <lastmod>, the common case (the
// value is ""), and a value that is no W3C datetime must not cost a failed
// time.Parse per layout, each allocating its *time.ParseError: a crawl of
// 20,000 sitemap entries made about 80,000 of them.
func TestParseLastModRejectsWithoutAllocating(t *testing.T) {
	for _, s := range []string{"", "yesterday", "01/02/2004", "Fri, 01 Oct 2004 18:23:17 GMT", "2004-10-01 18:23:17"} {
		if a := testing.AllocsPerRun(20, func() { parseLastMod(s) }); a != 0 {
			t.Errorf("parseLastMod(%q): %v allocations, want 0", s, a)
		}
	}
}

// Issue 26: the filters in front of time.Parse (dateLayout, mayBeDateTime)
// change what parseLastMod costs, never what it returns: every accepted form
// and every near miss (each byte of a valid value replaced, the value cut at
// each length) gives what trying time.Parse with every layout gives.
func TestParseLastModFiltersKeepResults(t *testing.T) {
	tryAll := func(s string) time.Time {
		for _, layout := range append([]string{"2006", "2006-01", "2006-01-02"}, timeLayouts[:]...) {
			if t, err := time.Parse(layout, s); err == nil {
				return t
			}
		}
		return time.Time{}
	}
	valid := []string{"2004", "2004-10", "2004-10-01", "2004-10-01T18:23Z", "2004-10-01T18:23+02:00",
		"2004-10-01T18:23:17Z", "2004-10-01T18:23:17.5+02:00", "2004-10-01T18:23:17+0200", "2004-10-01T18:23:17"}
	for _, v := range valid {
		var cases []string
		for i := 0; i <= len(v); i++ {
			cases = append(cases, v[:i])
		}
		for i := range len(v) {
			for _, c := range []byte{'-', 'T', ' ', '/', ':', '0', 'Z', 't', '+'} {
				cases = append(cases, v[:i]+string(c)+v[i+1:])
			}
		}
		for _, s := range cases {
			if got, want := parseLastMod(s), tryAll(s); !got.Equal(want) {
				t.Errorf("parseLastMod(%q) = %v, every layout tried gives %v", s, got, want)
			}
		}
	}
}
