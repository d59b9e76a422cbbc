package robotstag

import "testing"

// Every example of seed 002 (spec/002_ac7ffc5d7f5e056c.txt), each its own
// test, fetched from a real loopback server and read with For as the
// crawler does.

// seed 002 "Robot Meta Tags": <meta name="robots" content="noindex" />
func TestSeed002MetaRobotsNoindex(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/html",
		body:        htmlPage(`<meta name="robots" content="noindex" />`),
	})
	if got, want := d.String(), "noindex"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if d.Indexable(testNow()) {
		t.Error("page with robots noindex meta is indexable")
	}
	if len(d.Sources) != 1 || d.Sources[0] != (Source{Where: "meta name=robots", Value: "noindex"}) {
		t.Errorf("Sources = %+v", d.Sources)
	}
}

// seed 002 "Robot Meta Tags": <meta name="mandelbot" content="noindex" />
func TestSeed002MetaMandelbotNoindex(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/html",
		body:        htmlPage(`<meta name="mandelbot" content="noindex" />`),
	})
	if got, want := d.String(), "noindex"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if d.Indexable(testNow()) {
		t.Error("page with mandelbot noindex meta is indexable")
	}
	if len(d.Sources) != 1 || d.Sources[0].Where != "meta name=mandelbot" {
		t.Errorf("Sources = %+v", d.Sources)
	}
}

// seed 002 "X-Robots-Tag HTTP Headers": X-Robots-Tag: noindex
func TestSeed002HeaderNoindex(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/html",
		header:      []string{"X-Robots-Tag: noindex"},
		body:        htmlPage(""),
	})
	if got, want := d.String(), "noindex"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if d.Indexable(testNow()) {
		t.Error("file with X-Robots-Tag: noindex is indexable")
	}
	if len(d.Sources) != 1 || d.Sources[0] != (Source{Where: "X-Robots-Tag", Value: "noindex"}) {
		t.Errorf("Sources = %+v", d.Sources)
	}
}

// seed 002 "X-Robots-Tag HTTP Headers": X-Robots-Tag: mandelbot: noindex
func TestSeed002HeaderMandelbotNoindex(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/html",
		header:      []string{"X-Robots-Tag: mandelbot: noindex"},
		body:        htmlPage(""),
	})
	if got, want := d.String(), "noindex"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if d.Indexable(testNow()) {
		t.Error("file with X-Robots-Tag: mandelbot: noindex is indexable")
	}
}

// seed 002 "Compatibility": <meta name="robots" content="nofollow,noindex,noarchive" />
func TestSeed002MetaNofollowNoindexNoarchive(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/html",
		body:        htmlPage(`<meta name="robots" content="nofollow,noindex,noarchive" />`),
	})
	if got, want := d.String(), "noindex, nofollow, noarchive"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if d.Indexable(testNow()) {
		t.Error("page is indexable")
	}
}

// seed 002 "Compatibility": <meta name="robots" content="none" />
func TestSeed002MetaNone(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/html",
		body:        htmlPage(`<meta name="robots" content="none" />`),
	})
	// "the none directive ... is equivalent to using both the noindex
	// directive and the nofollow directive"
	if got, want := d.String(), "noindex, nofollow"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if d.Indexable(testNow()) {
		t.Error("page is indexable")
	}
}

// seed 002 "Compatibility": X-Robots-Tag: nofollow,noindex,noarchive
func TestSeed002HeaderNofollowNoindexNoarchive(t *testing.T) {
	d := forResponse(t, response{
		contentType: "application/pdf",
		header:      []string{"X-Robots-Tag: nofollow,noindex,noarchive"},
		body:        "%PDF-1.4",
	})
	if got, want := d.String(), "noindex, nofollow, noarchive"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if d.Indexable(testNow()) {
		t.Error("file is indexable")
	}
}

// seed 002 "Compatibility": X-Robots-Tag: none
func TestSeed002HeaderNone(t *testing.T) {
	d := forResponse(t, response{
		contentType: "application/pdf",
		header:      []string{"X-Robots-Tag: none"},
		body:        "%PDF-1.4",
	})
	if got, want := d.String(), "noindex, nofollow"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	if d.Indexable(testNow()) {
		t.Error("file is indexable")
	}
}

// seed 002: "This only works on HTML files that specify a Content-Type of
// text/html in their HTTP response headers."
func TestSeed002MetaOnlyForTextHTML(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/plain",
		body:        htmlPage(`<meta name="robots" content="noindex" />`),
	})
	if !d.Indexable(testNow()) || d.NoIndex {
		t.Errorf("meta in a text/plain response counted: %q", d.String())
	}
	if !hasNote(d, "text/plain", "not text/html") {
		t.Errorf("no note says why the meta was not read: %q", d.Notes)
	}
}

// seed 002: "Both attributes are case insensitive" (meta) and "The value
// is case insensitive" (header).
func TestSeed002CaseInsensitive(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/html",
		header:      []string{"X-Robots-Tag: MANDELBOT: NoFollow"},
		body:        htmlPage(`<META NAME="MandelBot" CONTENT="NOINDEX">`),
	})
	if got, want := d.String(), "noindex, nofollow"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
}

// seed 002: "Mandelbot ignores unknown directives".
func TestSeed002UnknownDirectivesIgnored(t *testing.T) {
	d := forResponse(t, response{
		contentType: "text/html",
		header:      []string{"X-Robots-Tag: noimageindex, max-snippet: 20"},
		body:        htmlPage(`<meta name="robots" content="notranslate, noindex, frobnicate">`),
	})
	if got, want := d.String(), "noindex"; got != want {
		t.Errorf("directives = %q, want %q", got, want)
	}
	for _, unknown := range []string{"noimageindex", "max-snippet: 20", "notranslate", "frobnicate"} {
		if !hasNote(d, unknown, "not understood") {
			t.Errorf("no note for unknown directive %q: %q", unknown, d.Notes)
		}
	}
}
