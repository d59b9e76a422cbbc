package robotstag

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"
)

// FuzzFor checks, for any response, that For never panics or fails on a
// reader that cannot fail, and these properties:
//
//   - monotonicity (brief): adding an X-Robots-Tag header line never makes
//     the response more indexable, nor lifts nofollow, nosnippet,
//     noarchive or an unavailable_after date (rules 24-25: most restrictive
//     wins);
//   - a restriction always names a source (Directives.Sources);
//   - Directives.String reads back as the same restrictions;
//   - the agent sees at least what every crawler sees in the headers.
func FuzzFor(f *testing.F) {
	seeds := []struct {
		contentType, header, extra, body string
	}{
		{"text/html", "", "noindex", `<meta name="robots" content="noindex" />`}, // seed 002
		{"text/html", "", "none", `<meta name="mandelbot" content="noindex" />`}, // seed 002
		{"application/pdf", "noindex", "mandelbot: noindex", ""},                 // seed 002
		{"text/html", "nofollow,noindex,noarchive", "none", `<meta name="robots" content="none" />`},
		{"text/html; charset=utf-8", "otherbot: noindex\nmandelbot: nofollow", "all", `<meta name="robots" content="nofollow,noindex,noarchive" />`},
		{"text/plain", "unavailable_after: 25 Jun 2010 15:00:00 PST", "unavailable_after: Friday, 25-Jun-10 15:00:00 PST", noindexMeta},
		{"TEXT/HTML", "noindex, otherbot: nofollow", "otherbot: none, mandelbot: nosnippet", "<head><noscript><meta name=robots content=noindex></noscript>"},
		{"text/html", "mandelbot: max-snippet: 20, noindex", "index, follow", "<template><meta name=robots content=noindex></template>"},
		{"text/html", "\xff\x00,,,:", "::,:", "<meta name=robots content=\"\xff, noindex"},
	}
	for _, s := range seeds {
		f.Add(s.contentType, s.header, s.extra, []byte(s.body), int64(1277506800))
	}
	f.Fuzz(func(t *testing.T, contentType, header, extra string, body []byte, nowUnix int64) {
		h := http.Header{}
		if header != "" {
			for _, line := range strings.Split(header, "\n") {
				h.Add(HeaderName, line)
			}
		}
		now := time.Unix(nowUnix, 0)

		before, err := For(contentType, h, bytes.NewReader(body), agent)
		if err != nil {
			t.Fatalf("For: %v", err)
		}
		more := h.Clone()
		more.Add(HeaderName, extra) // read last: the canonical key is the only key
		after, err := For(contentType, more, bytes.NewReader(body), agent)
		if err != nil {
			t.Fatalf("For with extra header: %v", err)
		}
		if after.Indexable(now) && !before.Indexable(now) {
			t.Errorf("adding X-Robots-Tag %q made the response indexable: %q -> %q", extra, before, after)
		}
		if (before.NoIndex && !after.NoIndex) || (before.NoFollow && !after.NoFollow) ||
			(before.NoSnippet && !after.NoSnippet) || (before.NoArchive && !after.NoArchive) {
			t.Errorf("adding X-Robots-Tag %q lifted a restriction: %q -> %q", extra, before, after)
		}
		if !before.UnavailableAfter.IsZero() && (after.UnavailableAfter.IsZero() || after.UnavailableAfter.After(before.UnavailableAfter)) {
			t.Errorf("adding X-Robots-Tag %q moved unavailable_after later: %v -> %v", extra, before.UnavailableAfter, after.UnavailableAfter)
		}

		for _, d := range []Directives{before, after} {
			if d.String() != "all" && len(d.Sources) == 0 {
				t.Errorf("restriction %q without a source", d)
			}
			back := FromMeta([]Meta{{Name: "robots", Content: d.String()}}, agent)
			if back.String() != d.String() {
				t.Errorf("String round trip: %q -> %q", d, back)
			}
		}

		generic := Parser{}.FromHeader(more)
		mine := FromHeader(more, agent)
		if (generic.NoIndex && !mine.NoIndex) || (generic.NoFollow && !mine.NoFollow) ||
			(generic.NoSnippet && !mine.NoSnippet) || (generic.NoArchive && !mine.NoArchive) ||
			(!generic.Indexable(now) && mine.Indexable(now)) {
			t.Errorf("agent sees less than every crawler: generic %q, %s %q", generic, agent, mine)
		}
	})
}

// FuzzParseDate checks that parseDate never panics, that what it accepts
// is a real, non-zero instant, and that the instant survives the RFC 3339
// form Directives.String writes.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{
		"25 Jun 2010 15:00:00 PST", "Friday, 25-Jun-10 15:00:00 PST", "Fri, 25 Jun 2010 15:00:00 GMT",
		"Fri Jun 25 15:00:00 2010", "2010-06-25T15:00:00.5+02:00", "2010-06-25", "june 25 2010 3:04 pm",
		"25 jun 2010 gmt+01:00", "- -0800 +", "2010-06-25T", "0001-01-01",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseDate(s)
		if !ok {
			if !got.IsZero() {
				t.Errorf("parseDate(%q) failed but returned %v", s, got)
			}
			return
		}
		if got.IsZero() {
			t.Errorf("parseDate(%q) = zero time", s)
		}
		again, ok := parseDate(got.Format(time.RFC3339Nano))
		if !ok || !again.Equal(got) {
			t.Errorf("parseDate(%q) = %v does not round-trip (%v, %v)", s, got, again, ok)
		}
	})
}
