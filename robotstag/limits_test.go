package robotstag

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Limit MaxTags: that many applicable metas are read in full; later ones
// only for noindex, none and nofollow (docs/robots-rules.md rule 24: a limit
// never drops a restriction), and the cut is noted. Metas for other agents
// do not use up the budget.
func TestLimitMaxTagsMeta(t *testing.T) {
	p := Parser{Agent: agent, MaxTags: 3}
	metas := []Meta{
		{"otherbot", "noindex"}, {"description", "x"}, // not applicable: free
		{"robots", "nosnippet"}, {"robots", "all"}, {"mandelbot", "noarchive"},
		{"robots", "noindex"},   // the fourth applicable: still a restriction
		{"robots", "nosnippet"}, // past the limit: not read
		{"otherbot", "nofollow"},
	}
	d := p.FromMeta(metas)
	if got, want := d.String(), "noindex, nosnippet, noarchive"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if !hasNote(d, "more than 3 robots meta tags") {
		t.Errorf("limit not noted: %q", d.Notes)
	}

	// The same limit through FromHTML.
	doc := "<head>" + strings.Repeat(`<meta name="robots" content="all">`, 3) + noindexMeta
	d, err := p.FromHTML(strings.NewReader(doc))
	if err != nil || !d.NoIndex || !hasNote(d, "more than 3") {
		t.Errorf("FromHTML: %q, %v, notes %q", d.String(), err, d.Notes)
	}
	// The default is DefaultMaxTags.
	doc = "<head>" + strings.Repeat(`<meta name="robots" content="all">`, DefaultMaxTags-1) + noindexMeta
	if d := fromHTML(t, doc); !d.NoIndex {
		t.Errorf("tag %d of %d not counted", DefaultMaxTags, DefaultMaxTags)
	}
}

// Limit MaxTags also caps X-Robots-Tag values; past it noindex, none and
// nofollow still count (rule 24).
func TestLimitMaxTagsHeader(t *testing.T) {
	p := Parser{Agent: agent, MaxTags: 2}
	h := http.Header{"X-Robots-Tag": {"otherbot: noindex", "nofollow", "nosnippet", "noindex", "otherbot: none"}}
	d := p.FromHeader(h)
	if got, want := d.String(), "noindex, nofollow"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if !hasNote(d, "more than 2 X-Robots-Tag values") {
		t.Errorf("limit not noted: %q", d.Notes)
	}
}

// Limit MaxDirectives: only the first elements of one value are read in
// full; past them only noindex, none and nofollow count (rule 24).
func TestLimitMaxDirectives(t *testing.T) {
	p := Parser{Agent: agent, MaxDirectives: 2}
	d := p.FromMeta([]Meta{{"robots", "nofollow, all, nosnippet, noindex"}})
	if got, want := d.String(), "noindex, nofollow"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if !hasNote(d, "more than 2 directives") {
		t.Errorf("limit not noted: %q", d.Notes)
	}
	// Default.
	content := strings.Repeat("all,", DefaultMaxDirectives-1) + "noindex"
	if d := FromMeta([]Meta{{"robots", content}}, agent); !d.NoIndex {
		t.Errorf("directive %d of %d not counted", DefaultMaxDirectives, DefaultMaxDirectives)
	}
	content = strings.Repeat("all,", DefaultMaxDirectives) + "noarchive"
	if d := FromMeta([]Meta{{"robots", content}}, agent); d.NoArchive {
		t.Errorf("directive %d (noarchive) counted", DefaultMaxDirectives+1)
	}
}

// Limit MaxValueBytes: a value is read in full up to the limit, less its
// last, incomplete element, so a cut "nosnippets" never reads as
// "nosnippet"; the rest is only searched for noindex, none and nofollow
// (rule 24).
func TestLimitMaxValueBytes(t *testing.T) {
	p := Parser{Agent: agent, MaxValueBytes: 20}
	tests := []struct {
		value string
		want  string
	}{
		{"nofollow, noindex", "noindex, nofollow"},             // 17 bytes: fits
		{"nofollow, nosnippets, noindex", "noindex, nofollow"}, // a cut "nosnippets" must not read as "nosnippet"
		{"nofollow,   noindex,x", "noindex, nofollow"},         // cut after the comma
		{"unavailable_after: 25 Jun 2010 15:00:00 PST", "all"}, // no comma before the limit
		{"unavailable_after: 25 Jun 2010 15:00:00 PST, none", "noindex, nofollow"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			d := p.FromHeader(http.Header{"X-Robots-Tag": {tt.value}})
			if got := d.String(); got != tt.want {
				t.Errorf("%q => %q, want %q", tt.value, got, tt.want)
			}
			if len(tt.value) > 20 && !hasNote(d, "longer than 20 bytes") {
				t.Errorf("cut not noted: %q", d.Notes)
			}
		})
	}
	// Sources show the value as considered, then what was found past the
	// limit.
	d := p.FromMeta([]Meta{{"robots", "noindex," + strings.Repeat("x", 100)}})
	if len(d.Sources) != 1 || d.Sources[0].Value != "noindex" {
		t.Errorf("Sources = %+v", d.Sources)
	}
	d = p.FromMeta([]Meta{{"robots", "nosnippet," + strings.Repeat("x", 100) + ",nofollow"}})
	if len(d.Sources) != 1 || d.Sources[0].Value != "nosnippet ... nofollow" {
		t.Errorf("Sources = %+v", d.Sources)
	}
	// Default.
	long := "nofollow," + strings.Repeat(" ", DefaultMaxValueBytes) + "noindex, noarchive"
	if d := FromMeta([]Meta{{"robots", long}}, agent); !d.NoIndex || !d.NoFollow || d.NoArchive {
		t.Errorf("default value limit: %q", d.String())
	}
}

// Notes quote at most maxQuoted bytes of a value and escape invalid UTF-8,
// so a hostile value cannot bloat or corrupt the UI.
func TestNotesAreBoundedAndEscaped(t *testing.T) {
	d := FromMeta([]Meta{{"robots", "\xff" + strings.Repeat("z", 1000)}}, agent)
	if len(d.Notes) == 0 {
		t.Fatal("no note for an unknown directive")
	}
	for _, n := range d.Notes {
		if len(n) > 4*maxQuoted {
			t.Errorf("note of %d bytes", len(n))
		}
		if !strings.Contains(n, `\xff`) {
			t.Errorf("invalid byte not escaped: %q", n)
		}
	}
}

// Every default limit is what the Parser uses when its field is zero or
// negative, and a positive field overrides it.
func TestParserLimitDefaults(t *testing.T) {
	for _, p := range []Parser{{}, {MaxHTMLBytes: -1, MaxTags: -1, MaxDirectives: -1, MaxValueBytes: -1, MaxNotes: -1}} {
		got := fmt.Sprint(p.maxHTMLBytes(), p.maxTags(), p.maxDirectives(), p.maxValueBytes(), p.maxNotes())
		want := fmt.Sprint(DefaultMaxHTMLBytes, DefaultMaxTags, DefaultMaxDirectives, DefaultMaxValueBytes, DefaultMaxNotes)
		if got != want {
			t.Errorf("%+v limits = %s, want %s", p, got, want)
		}
	}
	p := Parser{MaxHTMLBytes: 1, MaxTags: 2, MaxDirectives: 3, MaxValueBytes: 4, MaxNotes: 5}
	if got := fmt.Sprint(p.maxHTMLBytes(), p.maxTags(), p.maxDirectives(), p.maxValueBytes(), p.maxNotes()); got != "1 2 3 4 5" {
		t.Errorf("overrides = %s", got)
	}
}
