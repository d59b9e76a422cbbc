package robotstag

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

const noindexMeta = `<meta name="robots" content="noindex">`

// docs/robots-rules.md rule 24: meta tags count only for text/html; the
// media type is compared case-insensitively and parameters are ignored.
func TestRule24MetaCountsOnlyForTextHTML(t *testing.T) {
	tests := []struct {
		contentType string
		counts      bool
	}{
		{"text/html", true},
		{"text/html; charset=utf-8", true},
		{"TEXT/HTML;charset=ISO-8859-1", true},
		{"  Text/Html ; q=1", true},
		{"application/pdf", false},
		{"text/plain", false},
		{"text/plain; charset=utf-8", false},
		{"application/xhtml+xml", false}, // the seed names text/html only
		{"text/htmlx", false},
		{"text/html-sandboxed", false},
		{"", false}, // no Content-Type: no sniffing
	}
	for _, tt := range tests {
		t.Run(tt.contentType, func(t *testing.T) {
			d := forResponse(t, response{contentType: tt.contentType, body: htmlPage(noindexMeta)})
			if d.NoIndex != tt.counts {
				t.Errorf("Content-Type %q: NoIndex = %v, want %v", tt.contentType, d.NoIndex, tt.counts)
			}
		})
	}
}

// docs/robots-rules.md rule 24: the media type is compared with ASCII
// folding and trimming only: a no-break space is not whitespace.
func TestRule24IsHTMLASCIIOnly(t *testing.T) {
	if !IsHTML("TEXT/HTML") {
		t.Error(`IsHTML("TEXT/HTML") = false`)
	}
	for _, ct := range []string{"\u00a0text/html", "text/html\u00a0", "text/html\u00a0;charset=utf-8"} {
		if IsHTML(ct) {
			t.Errorf("IsHTML(%q) = true", ct)
		}
	}
}

// docs/robots-rules.md rule 24: a meta for another agent does not apply;
// one for "robots" or for our token (any case) does.
func TestRule24MetaNameSelectsAgent(t *testing.T) {
	tests := []struct {
		name   string
		counts bool
	}{
		{"robots", true},
		{"ROBOTS", true},
		{"Robots", true},
		{" robots ", true},
		{"mandelbot", true},
		{"MANDELBOT", true},
		{"otherbot", false},
		{"googlebot", false},
		{"mandelbot/2.1", true}, // rule 6: the agent token counts, the version is dropped
		{"mandelbot-image", false},
		{"robots,mandelbot", false},
		{"description", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := fromHTML(t, htmlPage(`<meta name="`+tt.name+`" content="noindex">`))
			if d.NoIndex != tt.counts {
				t.Errorf("meta name %q: NoIndex = %v, want %v", tt.name, d.NoIndex, tt.counts)
			}
		})
	}
}

// docs/robots-rules.md rule 6 (applied to tags) and common.md: the agent
// token is compared with ASCII folding only.
func TestRule24AgentASCIIFolding(t *testing.T) {
	metas := []Meta{{Name: "\u212abot", Content: "noindex"}} // KELVIN SIGN + "bot"
	if d := FromMeta(metas, "Kbot"); d.NoIndex {
		t.Error(`meta name "\u212abot" applied to agent "Kbot"`)
	}
	if d := FromMeta([]Meta{{Name: "KBOT", Content: "noindex"}}, "kbot"); !d.NoIndex {
		t.Error(`meta name "KBOT" did not apply to agent "kbot"`)
	}
	h := http.Header{"X-Robots-Tag": {"\u212abot: noindex"}}
	if d := FromHeader(h, "Kbot"); d.NoIndex {
		t.Error(`header scoped to "\u212abot" applied to agent "Kbot"`)
	}
}

// docs/robots-rules.md rule 24: with an empty agent only the tags for every
// crawler apply; an empty name or scope never matches it.
func TestRule24EmptyAgentOnlyGeneric(t *testing.T) {
	var p Parser
	d := p.FromMeta([]Meta{{Name: "", Content: "noindex"}, {Name: "robots", Content: "nofollow"}})
	if got, want := d.String(), "nofollow"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	d = p.FromHeader(http.Header{"X-Robots-Tag": {"mandelbot: noindex", "nosnippet"}})
	if got, want := d.String(), "nosnippet"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
}

// docs/robots-rules.md rule 24: every applicable tag counts and directives
// combine; the most restrictive wins whatever the order.
func TestRule24SeveralMetasCombine(t *testing.T) {
	tests := []struct {
		name  string
		metas string
		want  string
	}{
		{"robots and agent", `<meta name="robots" content="nofollow"><meta name="mandelbot" content="noindex">`, "noindex, nofollow"},
		{"two robots", `<meta name="robots" content="noarchive"><meta name="robots" content="nosnippet">`, "nosnippet, noarchive"},
		{"index after noindex", `<meta name="robots" content="noindex"><meta name="mandelbot" content="index, follow">`, "noindex"},
		{"index before noindex", `<meta name="mandelbot" content="index,follow,all"><meta name="robots" content="noindex">`, "noindex"},
		{"other agent does not add", `<meta name="otherbot" content="noindex"><meta name="robots" content="nofollow">`, "nofollow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fromHTML(t, htmlPage(tt.metas)).String(); got != tt.want {
				t.Errorf("directives = %q, want %q", got, tt.want)
			}
		})
	}
}

// docs/robots-rules.md rule 25: X-Robots-Tag counts for every content type,
// including a PDF whose body is never parsed.
func TestRule25HeaderAppliesToPDF(t *testing.T) {
	d := forResponse(t, response{
		contentType: "application/pdf",
		header:      []string{"X-Robots-Tag: noindex"},
		body:        "%PDF-1.7 " + noindexMeta,
	})
	if d.Indexable(testNow()) {
		t.Error("PDF with X-Robots-Tag: noindex is indexable")
	}
	if len(d.Sources) != 1 || d.Sources[0].Where != "X-Robots-Tag" {
		t.Errorf("Sources = %+v, want just the header", d.Sources)
	}
}

// docs/robots-rules.md rule 25: a value scoped to another agent is ignored;
// one scoped to us applies (any case); unscoped values apply to everyone.
func TestRule25HeaderAgentScope(t *testing.T) {
	tests := []struct {
		value string
		want  string
	}{
		{"otherbot: noindex", "all"},
		{"mandelbot: noindex", "noindex"},
		{"Mandelbot: noindex, nofollow", "noindex, nofollow"},
		{"MANDELBOT:noindex", "noindex"},
		{"  mandelbot  :  none  ", "noindex, nofollow"},
		{"otherbot: noindex, nofollow", "all"},
		{"googlebot: noindex", "all"},
		{"noindex", "noindex"},
		{"mandelbot/2.1: noindex", "noindex"}, // rule 6: the agent token counts, the version is dropped
		{"mandelbot-image: noindex", "all"},
		{"mandelbot:", "all"},
		// Several values on one line (as a proxy combines header lines):
		// a scope runs to the next scope.
		{"noindex, otherbot: nofollow", "noindex"},
		{"otherbot: nofollow, mandelbot: noindex", "noindex"},
		{"mandelbot: nosnippet, otherbot: noindex, mandelbot: noarchive", "nosnippet, noarchive"},
		{"otherbot: noindex, nofollow, mandelbot: nosnippet", "nosnippet"},
		// Not a scope: a name with spaces before the colon.
		{"other bot: noindex", "all"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			d := forResponse(t, response{contentType: "application/pdf", header: []string{"X-Robots-Tag: " + tt.value}})
			if got := d.String(); got != tt.want {
				t.Errorf("X-Robots-Tag: %s => %q, want %q", tt.value, got, tt.want)
			}
		})
	}
}

// docs/robots-rules.md rule 25: a note says which scoped values were skipped,
// for the "why is this page indexed" UI.
func TestRule25OtherAgentNoted(t *testing.T) {
	d := FromHeader(http.Header{"X-Robots-Tag": {"otherbot: noindex"}}, agent)
	if !hasNote(d, `"otherbot"`, "ignored") {
		t.Errorf("no note for the otherbot scope: %q", d.Notes)
	}
	if len(d.Sources) != 0 {
		t.Errorf("Sources = %+v, want none", d.Sources)
	}
}

// docs/robots-rules.md rule 25 and brief: "unavailable_after: 25 Jun 2010
// 15:00:00 PST" contains a colon but is a directive, not an agent scope;
// neither is "max-snippet: 20", so the scope before it still runs.
func TestRule25ColonDirectiveIsNotAScope(t *testing.T) {
	pst := time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC) // 15:00 PST = 23:00 UTC
	tests := []struct {
		value string
		want  string
	}{
		{"unavailable_after: 25 Jun 2010 15:00:00 PST", "unavailable_after: " + pst.Format(time.RFC3339)},
		{"mandelbot: unavailable_after: 25 Jun 2010 15:00:00 PST", "unavailable_after: " + pst.Format(time.RFC3339)},
		{"otherbot: unavailable_after: 25 Jun 2010 15:00:00 PST", "all"},
		{"mandelbot: max-snippet: 20, noindex", "noindex"},
		{"otherbot: max-snippet: 20, noindex", "all"},
		{"noindex: yes", "all"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			if got := FromHeader(http.Header{"X-Robots-Tag": {tt.value}}, agent).String(); got != tt.want {
				t.Errorf("X-Robots-Tag: %s => %q, want %q", tt.value, got, tt.want)
			}
		})
	}
}

// docs/robots-rules.md rule 25: several header lines combine, and so do the
// header and the metas of one HTML response.
func TestRule25SeveralHeadersCombine(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/html; charset=utf-8",
		header: []string{
			"X-Robots-Tag: nofollow",
			"X-Robots-Tag: otherbot: noindex",
			"X-Robots-Tag: mandelbot: noarchive",
		},
		body: htmlPage(`<meta name="robots" content="nosnippet">`),
	})
	if got, want := d.String(), "nofollow, nosnippet, noarchive"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if !d.Indexable(testNow()) {
		t.Error("page without noindex is not indexable")
	}
	want := []Source{
		{"X-Robots-Tag", "nofollow"},
		{"X-Robots-Tag", "mandelbot: noarchive"},
		{"meta name=robots", "nosnippet"},
	}
	if len(d.Sources) != len(want) {
		t.Fatalf("Sources = %+v, want %+v", d.Sources, want)
	}
	for i := range want {
		if d.Sources[i] != want[i] {
			t.Errorf("Sources[%d] = %+v, want %+v", i, d.Sources[i], want[i])
		}
	}
}

// docs/robots-rules.md rule 25: header keys that are not canonical (a map
// built by hand) are read too, after the canonical key.
func TestRule25OddCaseHeaderKeys(t *testing.T) {
	h := http.Header{
		"x-robots-tag":  {"noindex"},
		"X-ROBOTS-TAG":  {"nosnippet"},
		"X-Robots-Tag":  {"nofollow"},
		"X-Robots-Tags": {"noarchive"}, // a different header
	}
	d := FromHeader(h, agent)
	if got, want := d.String(), "noindex, nofollow, nosnippet"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	var order []string
	for _, s := range d.Sources {
		order = append(order, s.Value)
	}
	if got, want := strings.Join(order, " "), "nofollow nosnippet noindex"; got != want {
		t.Errorf("source order = %q, want %q (canonical key first, then byte order)", got, want)
	}
}

// docs/robots-rules.md rule 26: none is noindex + nofollow, in metas and
// headers.
func TestRule26None(t *testing.T) {
	for _, d := range []Directives{
		FromMeta([]Meta{{"robots", "none"}}, agent),
		FromHeader(http.Header{"X-Robots-Tag": {"none"}}, agent),
		FromHeader(http.Header{"X-Robots-Tag": {"mandelbot: NONE"}}, agent),
	} {
		if !d.NoIndex || !d.NoFollow || d.NoSnippet || d.NoArchive {
			t.Errorf("none => %q, want noindex, nofollow", d.String())
		}
	}
}

// docs/robots-rules.md rule 26 and seed 002: unknown directives are
// ignored, both alone and next to known ones.
func TestRule26UnknownDirectivesIgnored(t *testing.T) {
	tests := []struct {
		content string
		want    string
	}{
		{"frobnicate", "all"},
		{"noindex, frobnicate", "noindex"},
		{"frobnicate,nofollow", "nofollow"},
		{"max-image-preview:large, noimageindex", "all"},
		{"no-index", "all"},
		{"noindex nofollow", "all"}, // one element: directives are comma-separated
		{"noindex;nofollow", "all"},
		{",,, noindex ,,", "noindex"},
		{"", "all"},
	}
	for _, tt := range tests {
		t.Run(tt.content, func(t *testing.T) {
			d := FromMeta([]Meta{{"robots", tt.content}}, agent)
			if got := d.String(); got != tt.want {
				t.Errorf("content %q => %q, want %q", tt.content, got, tt.want)
			}
		})
	}
	d := FromMeta([]Meta{{"robots", "noindex nofollow"}}, agent)
	if !hasNote(d, "not understood", "separated by commas") {
		t.Errorf("no hint about commas: %q", d.Notes)
	}
}

// docs/robots-rules.md rule 26: directives are case-insensitive, trimmed of
// ASCII whitespace only (a no-break space is not trimmed, and the long s
// does not fold to "s").
func TestRule26CaseInsensitiveASCII(t *testing.T) {
	tests := []struct {
		content string
		want    string
	}{
		{"NOINDEX", "noindex"},
		{"NoFollow", "nofollow"},
		{"NoSnippet, NOARCHIVE", "nosnippet, noarchive"},
		{"\t noindex \r\n", "noindex"},
		{"\u00a0noindex", "all"},
		{"no\u017fnippet", "all"},
	}
	for _, tt := range tests {
		t.Run(tt.content, func(t *testing.T) {
			if got := FromMeta([]Meta{{"robots", tt.content}}, agent).String(); got != tt.want {
				t.Errorf("content %q => %q, want %q", tt.content, got, tt.want)
			}
		})
	}
}

// docs/robots-rules.md rule 26: nofollow alone (and nosnippet, noarchive)
// keeps the page indexable; only its links are withheld.
func TestRule26NofollowAloneKeepsIndexable(t *testing.T) {
	for _, content := range []string{"nofollow", "nosnippet", "noarchive", "nofollow, nosnippet, noarchive", "index, follow", "all"} {
		d := FromMeta([]Meta{{"robots", content}}, agent)
		if !d.Indexable(testNow()) {
			t.Errorf("content %q: not indexable", content)
		}
	}
	if d := FromMeta([]Meta{{"robots", "nofollow"}}, agent); !d.NoFollow {
		t.Error("nofollow not recorded")
	}
}

// docs/robots-rules.md rule 26: all, index and follow are no-ops that never
// override a restriction, wherever they appear.
func TestRule26NoOpsNeverLift(t *testing.T) {
	h := http.Header{"X-Robots-Tag": {"none", "all", "index, follow", "mandelbot: all"}}
	d := FromHeader(h, agent)
	if got, want := d.String(), "noindex, nofollow"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	d = FromMeta([]Meta{{"robots", "noindex, index"}, {"mandelbot", "follow"}}, agent)
	if d.Indexable(testNow()) {
		t.Error("index lifted noindex")
	}
}

// docs/robots-rules.md rule 26: unavailable_after makes a page unindexable
// from the given instant on; before it the page is indexable. A page with
// an unparsable date is not affected (noted).
func TestRule26UnavailableAfter(t *testing.T) {
	date := time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC)
	d := FromHeader(http.Header{"X-Robots-Tag": {"unavailable_after: 25 Jun 2010 15:00:00 PST"}}, agent)
	if !d.UnavailableAfter.Equal(date) {
		t.Fatalf("UnavailableAfter = %v, want %v", d.UnavailableAfter, date)
	}
	tests := []struct {
		now  time.Time
		want bool
	}{
		{date.Add(-time.Hour), true},       // future date
		{date.Add(-time.Nanosecond), true}, // just before
		{date, false},                      // at the instant: "now before it" fails
		{date.Add(time.Hour), false},       // past date
		{testNow(), false},
	}
	for _, tt := range tests {
		if got := d.Indexable(tt.now); got != tt.want {
			t.Errorf("Indexable(%v) = %v, want %v", tt.now, got, tt.want)
		}
	}
	if d.NoIndex {
		t.Error("unavailable_after set NoIndex")
	}

	bad := FromMeta([]Meta{{"robots", "unavailable_after: the day after tomorrow"}}, agent)
	if !bad.Indexable(testNow()) || !bad.UnavailableAfter.IsZero() {
		t.Errorf("unparsable date changed the verdict: %q", bad.String())
	}
	if !hasNote(bad, "unavailable_after", "not understood") {
		t.Errorf("unparsable date not noted: %q", bad.Notes)
	}
}

// docs/robots-rules.md rule 26 (most restrictive wins): of several
// unavailable_after dates the earliest counts.
func TestRule26EarliestUnavailableAfter(t *testing.T) {
	d := FromHeader(http.Header{"X-Robots-Tag": {
		"unavailable_after: 2030-01-01",
		"unavailable_after: 2020-01-01T00:00:00Z",
		"unavailable_after: 2025-01-01",
	}}, agent)
	if want := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC); !d.UnavailableAfter.Equal(want) {
		t.Errorf("UnavailableAfter = %v, want %v", d.UnavailableAfter, want)
	}
}

// RFC 850 and RFC 1123 dates carry a comma after the weekday; the comma
// split must not cut the date in two.
func TestRule26UnavailableAfterWeekdayComma(t *testing.T) {
	want := time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC)
	for _, v := range []string{
		"unavailable_after: Friday, 25-Jun-10 15:00:00 PST",
		"noindex, unavailable_after: Fri, 25 Jun 2010 23:00:00 GMT, nofollow",
		"mandelbot: unavailable_after: Fri, 25 Jun 2010 15:00:00 -0800",
	} {
		d := FromHeader(http.Header{"X-Robots-Tag": {v}}, agent)
		if !d.UnavailableAfter.Equal(want) {
			t.Errorf("%q: UnavailableAfter = %v, want %v (notes %q)", v, d.UnavailableAfter, want, d.Notes)
		}
	}
	d := FromHeader(http.Header{"X-Robots-Tag": {"noindex, unavailable_after: Fri, 25 Jun 2010 23:00:00 GMT, nofollow"}}, agent)
	if !d.NoIndex || !d.NoFollow {
		t.Errorf("directives around the date lost: %q", d.String())
	}
	// A weekday alone is not a date; the element after it is not eaten.
	d = FromHeader(http.Header{"X-Robots-Tag": {"unavailable_after: Friday, noindex"}}, agent)
	if got, want := d.String(), "noindex"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if !hasNote(d, `"Friday"`, "not understood") {
		t.Errorf("bad date not noted: %q", d.Notes)
	}
}

// Merge keeps the most restrictive combination and does not write into a
// copy's backing arrays.
func TestMergeMostRestrictive(t *testing.T) {
	early := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	late := early.AddDate(1, 0, 0)
	a := Directives{NoFollow: true, UnavailableAfter: late, Sources: make([]Source, 1, 8)}
	copyOfA := a
	a.Merge(Directives{NoIndex: true, UnavailableAfter: early, Sources: []Source{{"X-Robots-Tag", "noindex"}}})
	if got, want := a.String(), "noindex, nofollow, unavailable_after: 2020-01-01T00:00:00Z"; got != want {
		t.Errorf("merged = %q, want %q", got, want)
	}
	a.Merge(Directives{UnavailableAfter: late})
	a.Merge(Directives{})
	if !a.UnavailableAfter.Equal(early) || !a.NoIndex {
		t.Errorf("a later Merge lifted a restriction: %q", a.String())
	}
	if len(a.Sources) != 2 {
		t.Errorf("Sources = %+v", a.Sources)
	}
	if s := copyOfA.Sources[:2]; s[1] != (Source{}) {
		t.Errorf("Merge wrote into a shared backing array: %+v", s)
	}
}

// The zero Directives restricts nothing.
func TestZeroDirectivesIndexable(t *testing.T) {
	var d Directives
	if !d.Indexable(testNow()) || d.String() != "all" {
		t.Errorf("zero value: Indexable=%v String=%q", d.Indexable(testNow()), d.String())
	}
}

// String round-trips through FromMeta.
func TestStringRoundTrip(t *testing.T) {
	in := Directives{NoIndex: true, NoArchive: true, UnavailableAfter: time.Date(2011, 2, 3, 4, 5, 6, 7, time.UTC)}
	out := FromMeta([]Meta{{"robots", in.String()}}, agent)
	if out.String() != in.String() || !out.UnavailableAfter.Equal(in.UnavailableAfter) {
		t.Errorf("round trip: %q -> %q", in.String(), out.String())
	}
}
