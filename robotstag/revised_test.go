package robotstag

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/robotstxt"
)

// Tests for the revised text of docs/robots-rules.md rules 6, 24, 25 and 26
// (issue 7), each with the example the rule gives.

// docs/robots-rules.md rule 24 (revised): limits on how many tags are read
// never drop a restriction. The example: 70 applicable
// <meta name="robots" content="index"> tags, then noindex; past the 64th
// tag noindex, none and nofollow still count, and the cut is noted.
func TestRule24TagLimitNeverDropsARestriction(t *testing.T) {
	index := strings.Repeat(`<meta name="robots" content="index">`, 70)
	for _, tc := range []struct {
		last string
		want string
	}{
		{`<meta name="robots" content="noindex">`, "noindex"},
		{`<meta name="robots" content="nofollow">`, "nofollow"},
		{`<meta name="mandelbot" content="none">`, "noindex, nofollow"},
		{`<meta name="robots" content="index, follow">`, "all"},
	} {
		d := fromHTML(t, htmlPage(index+tc.last))
		if got := d.String(); got != tc.want {
			t.Errorf("70 index tags + %s: %q, want %q", tc.last, got, tc.want)
		}
		if !hasNote(d, "more than 64 robots meta tags", "noindex, none and nofollow") {
			t.Errorf("70 index tags + %s: cut not noted: %q", tc.last, d.Notes)
		}
	}
	d := fromHTML(t, htmlPage(index+`<meta name="robots" content="noindex">`))
	if len(d.Sources) != 1 || d.Sources[0].Where != "meta name=robots" || d.Sources[0].Value != "noindex" {
		t.Errorf("Sources %+v, want the noindex tag past the limit", d.Sources)
	}
	// The same through FromMeta, as the crawler calls it.
	var metas []Meta
	for range 70 {
		metas = append(metas, Meta{"robots", "index"})
	}
	if d := FromMeta(append(metas, Meta{"robots", "noindex"}), agent); !d.NoIndex || !hasNote(d, "more than 64") {
		t.Errorf("FromMeta: %q, notes %q", d.String(), d.Notes)
	}
}

// docs/robots-rules.md rule 24 (revised), headers: past the 64th
// X-Robots-Tag value a noindex still counts, scopes still apply, and the
// cut is noted.
func TestRule24HeaderLimitNeverDropsARestriction(t *testing.T) {
	values := make([]string, 70)
	for i := range values {
		values[i] = "index"
	}
	h := http.Header{"X-Robots-Tag": append(values, "otherbot: nofollow", "mandelbot: noindex")}
	d := FromHeader(h, agent)
	if got, want := d.String(), "noindex"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if !hasNote(d, "more than 64 X-Robots-Tag values") {
		t.Errorf("cut not noted: %q", d.Notes)
	}
}

// docs/robots-rules.md rule 24 (revised), directives: past the 64th
// directive of one value, and past the byte limit of a value, noindex,
// none and nofollow still count; other directives do not.
func TestRule24DirectiveLimitNeverDropsARestriction(t *testing.T) {
	content := strings.Repeat("index, ", 70) + "noindex"
	d := FromMeta([]Meta{{"robots", content}}, agent)
	if !d.NoIndex || !hasNote(d, "more than 64 directives") {
		t.Errorf("70 index + noindex: %q, notes %q", d.String(), d.Notes)
	}
	content = strings.Repeat("index, ", 70) + "nosnippet"
	if d := FromMeta([]Meta{{"robots", content}}, agent); d.NoSnippet {
		t.Errorf("nosnippet past the limit counted: %q", d.String())
	}
	long := "nofollow," + strings.Repeat(" ", DefaultMaxValueBytes) + "none"
	d = FromHeader(http.Header{"X-Robots-Tag": {long}}, agent)
	if got, want := d.String(), "noindex, nofollow"; got != want {
		t.Errorf("none past the byte limit: %q, want %q", got, want)
	}
	if !hasNote(d, "longer than 2048 bytes") {
		t.Errorf("byte cut not noted: %q", d.Notes)
	}
	// A scope before the cut still holds after it.
	long = "otherbot: nofollow," + strings.Repeat(" ", DefaultMaxValueBytes) + "noindex"
	if d := FromHeader(http.Header{"X-Robots-Tag": {long}}, agent); d.NoIndex {
		t.Errorf("otherbot's noindex past the byte limit applied to us: %q", d.String())
	}
}

// docs/robots-rules.md rule 24 (revised): a meta tag in <body> counts.
func TestRule24MetaInBodyCounts(t *testing.T) {
	doc := `<!doctype html><html><head><title>t</title></head><body><p>text</p>` +
		`<meta name="robots" content="noindex"></body></html>`
	if d := fromHTML(t, doc); !d.NoIndex {
		t.Errorf("meta in body: %q, want noindex", d.String())
	}
}

// docs/robots-rules.md rule 25 (revised): an "agent:" prefix inside a list
// starts a new scope. The rule's example: "otherbot: nofollow, mandelbot:
// noindex" means noindex for us.
func TestRule25AgentPrefixInsideValueStartsScope(t *testing.T) {
	d := forResponse(t, response{contentType: "application/pdf",
		header: []string{"X-Robots-Tag: otherbot: nofollow, mandelbot: noindex"}})
	if got, want := d.String(), "noindex"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// docs/robots-rules.md rule 26 (revised): after the unavailable_after date
// the page leaves search; before it, the page is indexed as usual.
func TestRule26UnavailableAfterPastAndFuture(t *testing.T) {
	now := testNow()
	past := FromMeta([]Meta{{"robots", "unavailable_after: 2020-01-01T00:00:00Z"}}, agent)
	if past.Indexable(now) {
		t.Errorf("past date: indexable at %v", now)
	}
	future := FromMeta([]Meta{{"robots", "unavailable_after: 2030-01-01T00:00:00Z"}}, agent)
	if !future.Indexable(now) || future.NoIndex || future.NoFollow {
		t.Errorf("future date: %q indexable=%v, want indexed as usual", future.String(), future.Indexable(now))
	}
	if !future.UnavailableAfter.Equal(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("UnavailableAfter %v", future.UnavailableAfter)
	}
}

// docs/robots-rules.md rule 6 (revised), applied to robot tags: meta names,
// header scopes and Parser.Agent are compared by their agent token, the
// definition robotstxt.AgentToken gives.
func TestRule06AgentTokenInRobotTags(t *testing.T) {
	for _, tc := range []struct {
		agent, name string
		counts      bool
	}{
		{"Mandelbot", "mandelbot", true},
		{"Mandelbot/2.1 (+https://fractle.example/bot)", "MANDELBOT", true},
		{"Mandelbot", "mandelbot/2.1", true},
		{"Mandelbot", "Mandelbot-Image", false},
		{"Mandelbot-Image", "Mandelbot", false},
		{"MJ12bot", "mj12bot", true},
	} {
		d := FromMeta([]Meta{{tc.name, "noindex"}}, tc.agent)
		if d.NoIndex != tc.counts {
			t.Errorf("agent %q, meta name %q: NoIndex %v, want %v", tc.agent, tc.name, d.NoIndex, tc.counts)
		}
		h := http.Header{"X-Robots-Tag": {tc.name + ": noindex"}}
		if d := FromHeader(h, tc.agent); d.NoIndex != tc.counts {
			t.Errorf("agent %q, header scope %q: NoIndex %v, want %v", tc.agent, tc.name, d.NoIndex, tc.counts)
		}
	}
}

// Notes are bounded: a response with many ignored directives reports at
// most MaxNotes of them, but a limit's note is always kept, so the cut
// reaches the URL's reason (issue 7).
func TestNotesCappedButLimitNotesKept(t *testing.T) {
	var metas []Meta
	for range 100 {
		metas = append(metas, Meta{"robots", "bogus"})
	}
	metas = append(metas, Meta{"robots", "noindex"})
	d := FromMeta(metas, agent)
	if len(d.Notes) > DefaultMaxNotes+2 {
		t.Errorf("%d notes, want at most %d", len(d.Notes), DefaultMaxNotes+2)
	}
	if !hasNote(d, "more than 64 robots meta tags") || !d.NoIndex {
		t.Errorf("limit note lost or noindex dropped: %q, notes %q", d.String(), d.Notes)
	}
}

// Notes stay bounded even when every tag is cut: the first note of each
// limit is kept, later ones count against MaxNotes.
func TestNotesBoundedWhenEveryValueIsCut(t *testing.T) {
	long := strings.Repeat("index, ", 100) + "noindex"
	var metas []Meta
	for range 200 {
		metas = append(metas, Meta{"robots", long})
	}
	d := FromMeta(metas, agent)
	if !d.NoIndex || len(d.Notes) > DefaultMaxNotes+3 {
		t.Errorf("%q with %d notes, want noindex and at most %d notes", d.String(), len(d.Notes), DefaultMaxNotes+3)
	}
	if !hasNote(d, "more than 64 directives") || !hasNote(d, "more than 64 robots meta tags") {
		t.Errorf("a limit note was left out: %q", d.Notes)
	}
}

// docs/robots-rules.md rule 6 (revised) names the robots.txt * group: "*"
// alone or followed by whitespace. Robot tags have no such group: rules 24
// and 25 give the meta name "robots" and an unscoped X-Robots-Tag value as
// the ways to address every crawler, so a meta named "*" and a header
// scope "*" are for no crawler of ours, even in the values that name the *
// group in robots.txt (robotstxt.IsStarAgent). Issue 33 asked whether the
// revision applies here; this test pins the answer.
func TestRule06_StarIsNoRobotTagAgent(t *testing.T) {
	for _, name := range []string{"*", "* (+http://example.com/bot)", "*\tx"} {
		if !robotstxt.IsStarAgent(name) {
			t.Fatalf("%q no longer names the robots.txt * group; revisit this test", name)
		}
		if d := FromMeta([]Meta{{name, "noindex"}}, agent); d.NoIndex {
			t.Errorf("meta name %q: NoIndex, want the tag ignored (rule 24: only \"robots\" and our name count)", name)
		}
		h := http.Header{"X-Robots-Tag": {name + ": noindex"}}
		if d := FromHeader(h, agent); d.NoIndex {
			t.Errorf("X-Robots-Tag %q: NoIndex, want the scoped value ignored (rule 25)", name+": noindex")
		}
	}
	// The forms that do address every crawler still count.
	if d := FromMeta([]Meta{{"robots", "noindex"}}, agent); !d.NoIndex {
		t.Error(`meta name "robots": not NoIndex`)
	}
	if d := FromHeader(http.Header{"X-Robots-Tag": {"noindex"}}, agent); !d.NoIndex {
		t.Error("unscoped X-Robots-Tag noindex: not NoIndex")
	}
}
