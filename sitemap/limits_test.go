package sitemap

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// urlset returns a urlset of n entries http://example.com/0, /1, ...
func urlset(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range n {
		fmt.Fprintf(&b, "<url><loc>http://example.com/%d</loc><lastmod>2024-01-02</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>\n", i)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

// index returns a sitemapindex of n entries.
func index(n int) []byte {
	var b bytes.Buffer
	b.WriteString("<sitemapindex>")
	for i := range n {
		fmt.Fprintf(&b, "<sitemap><loc>http://example.com/s%d.xml</loc></sitemap>", i)
	}
	b.WriteString("</sitemapindex>")
	return b.Bytes()
}

// textSitemap returns a text sitemap of n lines.
func textSitemap(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "http://example.com/%d\n", i)
	}
	return b.Bytes()
}

// "A sitemap over its limits is cut at the limit, with the cut recorded"
// (issue 3). A document of exactly the limit is not cut; one entry more is,
// and Entries+Skipped never passes the limit.
func TestParseEntryLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  func(int) []byte
	}{
		{"urlset", urlset},
		{"sitemapindex", index},
		{"text", textSitemap},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{MaxEntries: 3}
			_, res, err := parseAll(t, tc.doc(3), opts)
			if err != nil || res.Cut || res.Entries != 3 {
				t.Errorf("exactly at the limit: %+v, %v; want 3 entries, no cut", res, err)
			}
			got, res, err := parseAll(t, tc.doc(4), opts)
			if err != nil || !res.Cut || res.CutReason != "3 entries" || res.Entries != 3 {
				t.Errorf("one over: %+v, %v; want 3 entries, cut \"3 entries\"", res, err)
			}
			if len(got) == 3 && got[2].Loc != strings.Replace(got[0].Loc, "0", "2", 1) {
				t.Errorf("delivered %q, want the first three in order", locs(got))
			}
		})
	}
}

// Skipped entries count toward the limit too, so a file of endless broken
// entries is not read to its end.
func TestParseEntryLimitCountsSkipped(t *testing.T) {
	xmlDoc := "<urlset>" + strings.Repeat("<url><loc>not a url</loc></url><url><loc>http://example.com/</loc></url>", 5) + "</urlset>"
	textDoc := strings.Repeat("not a url\nhttp://example.com/\n", 5)
	for name, doc := range map[string]string{"xml": xmlDoc, "text": textDoc} {
		_, res, err := parseAll(t, []byte(doc), Options{MaxEntries: 3})
		if err != nil || !res.Cut || res.Skipped != 2 || res.Entries != 1 {
			t.Errorf("%s: %+v, %v; want 1 entry, 2 skipped, cut", name, res, err)
		}
	}
}

// The default entry limit is sitemaps.org's 50,000 URLs per file.
func TestParseDefaultEntryLimit(t *testing.T) {
	var doc bytes.Buffer
	doc.WriteString("<urlset>")
	for i := range MaxEntries + 1 {
		fmt.Fprintf(&doc, "<url><loc>http://e.example/%d</loc></url>", i)
	}
	doc.WriteString("</urlset>")
	_, res, err := parseAll(t, doc.Bytes(), Options{})
	if err != nil || !res.Cut || res.CutReason != "50000 entries" || res.Entries != 50000 {
		t.Errorf("%+v, %v; want 50000 entries, cut \"50000 entries\"", res, err)
	}
}

// The decoded-size limit counts bytes after decompression. A document of
// exactly the limit is complete; one byte more is cut, and the entry being
// read at the cut is neither delivered nor skipped.
func TestParseDecodedLimit(t *testing.T) {
	text := []byte("http://example.com/a\nhttp://example.com/b\n") // 42 bytes
	xmlDoc := []byte("<urlset><url><loc>http://example.com/a</loc></url><url><loc>http://example.com/b</loc></url></urlset>")
	for _, tc := range []struct {
		name  string
		plain []byte
		gzip  bool
	}{
		{"text", text, false},
		{"text/gzip", text, true},
		{"xml", xmlDoc, false},
		{"xml/gzip", xmlDoc, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := tc.plain
			if tc.gzip {
				doc = gz(t, doc)
			}
			size := int64(len(tc.plain))
			_, res, err := parseAll(t, doc, Options{MaxDecodedBytes: size})
			if err != nil || res.Cut || res.Entries != 2 {
				t.Errorf("limit = size: %+v, %v; want 2 entries, no cut", res, err)
			}
			// A limit that ends inside the second location.
			limit := int64(bytes.Index(tc.plain, []byte("/b")) + 1)
			_, res, err = parseAll(t, doc, Options{MaxDecodedBytes: limit})
			want := fmt.Sprintf("%d bytes decoded", limit)
			if err != nil || !res.Cut || res.CutReason != want || res.Entries != 1 || res.Skipped != 0 {
				t.Errorf("limit inside the second entry: %+v, %v; want 1 entry, cut %q", res, err, want)
			}
		})
	}
}

// A limit well under the document's size cuts a long urlset; the cut names
// the limit in binary units.
func TestParseDecodedLimitLongURLSet(t *testing.T) {
	doc := urlset(20000) // about 2.5 MB
	_, res, err := parseAll(t, doc, Options{MaxDecodedBytes: 1 << 20, MaxEntries: 1 << 30})
	if err != nil || !res.Cut || res.CutReason != "1 MiB decoded" {
		t.Fatalf("%+v, %v; want cut \"1 MiB decoded\"", res, err)
	}
	if want := bytes.Count(doc[:1<<20], []byte("</url>")); res.Entries != want {
		t.Errorf("Entries = %d, want the %d complete in the first MiB", res.Entries, want)
	}
}

// repeated returns a reader of b, n times over, without copying it n times.
func repeated(b []byte, n int) io.Reader {
	rs := make([]io.Reader, n)
	for i := range rs {
		rs[i] = bytes.NewReader(b)
	}
	return io.MultiReader(rs...)
}

// gzipBomb returns a gzip stream of about 1 MiB that decompresses to head,
// then about 1 GiB of filler repeated, then tail: a chain of gzip members,
// each about 1 MiB of filler, which gzip.Reader reads as one stream.
func gzipBomb(t *testing.T, head string, filler string, tail string) (r io.Reader, compressed int) {
	t.Helper()
	member := gz(t, bytes.Repeat([]byte(filler), (1<<20)/len(filler)))
	h, tl := gz(t, []byte(head)), gz(t, []byte(tail))
	const members = 1024
	return io.MultiReader(bytes.NewReader(h), repeated(member, members), bytes.NewReader(tl)),
		len(h) + members*len(member) + len(tl)
}

// A gzip bomb (tiny compressed, 1 GiB decompressed) is cut by the default
// limits, with memory bounded by them and not by the decompressed size.
func TestParseGzipBomb(t *testing.T) {
	for _, tc := range []struct {
		name       string
		head       string
		filler     string
		tail       string
		kind       Kind
		reason     string
		allocLimit uint64
	}{
		// One 1 GiB line: read through without being held, cut at 50 MiB.
		{"text line", "http://example.com/", "a", "\n", Text, "50 MiB decoded", 2 << 20},
		// Whitespace inside <urlset>: one 1 GiB text token, which
		// encoding/xml would buffer whole; the token limit cuts it at 1 MiB.
		// (Growing the decoder's buffer to 1 MiB allocates about 4 MiB in
		// all, twice that under the race detector; without the token limit
		// it would be over 100 MiB.)
		{"xml text token", "<urlset>", " ", "</urlset>", URLSet, "1 MiB token", 16 << 20},
		// A 1 GiB comment: the same, for a token that is not text.
		{"xml comment", "<urlset><!--", "x", "--></urlset>", URLSet, "1 MiB token", 16 << 20},
		// Endlessly nested elements: each one is remembered by encoding/xml
		// until it closes; the depth limit cuts them at 32.
		{"xml nesting", "<urlset>", "<a>", "</urlset>", URLSet, "32 levels", 2 << 20},
		// Leading whitespace before anything: never held at all.
		{"leading space", "", " ", "<urlset></urlset>", Unknown, "50 MiB decoded", 2 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, compressed := gzipBomb(t, tc.head, tc.filler, tc.tail)
			if compressed > 4<<20 {
				t.Fatalf("bomb is %d bytes compressed; the test wants a small one", compressed)
			}
			var res Result
			var err error
			alloc := allocated(func() {
				res, err = Parse(r, Options{}, func(Entry) error { return nil })
			})
			if err != nil || !res.Cut || res.CutReason != tc.reason || res.Kind != tc.kind || !res.Gzip {
				t.Errorf("%+v, %v; want Kind %v, cut %q", res, err, tc.kind, tc.reason)
			}
			if alloc > tc.allocLimit {
				t.Errorf("allocated %d bytes for a %d-byte bomb, want at most %d", alloc, compressed, tc.allocLimit)
			}
			t.Logf("compressed %d bytes, allocated %d bytes", compressed, alloc)
		})
	}
}

// One XML token of more than MaxTokenBytes cuts the document; one of exactly
// MaxTokenBytes does not.
func TestParseTokenLimit(t *testing.T) {
	const max = 1024
	loc := "http://example.com/"
	for _, tc := range []struct {
		size int // bytes of the text between <loc> and </loc>
		cut  bool
	}{
		{max - 1, false},
		{max, false},
		{max + 1, true},
		{10 * max, true},
	} {
		text := loc + strings.Repeat(" ", tc.size-len(loc))
		doc := "<urlset><url><loc>http://example.com/0</loc></url><url><loc>" + text + "</loc></url></urlset>"
		_, res, err := parseAll(t, []byte(doc), Options{MaxTokenBytes: max})
		switch {
		case err != nil:
			t.Errorf("token of %d bytes: %v", tc.size, err)
		case tc.cut && (!res.Cut || res.CutReason != "1 KiB token" || res.Entries != 1):
			t.Errorf("token of %d bytes: %+v; want 1 entry, cut \"1 KiB token\"", tc.size, res)
		case !tc.cut && (res.Cut || res.Entries != 2):
			t.Errorf("token of %d bytes: %+v; want 2 entries, no cut", tc.size, res)
		}
	}
}

// The token limit does not apply to text sitemaps: a long line is skipped,
// not cut.
func TestParseTokenLimitNotForText(t *testing.T) {
	doc := strings.Repeat("x", 5000) + "\nhttp://example.com/\n"
	_, res, err := parseAll(t, []byte(doc), Options{MaxTokenBytes: 1024})
	if err != nil || res.Cut || res.Entries != 1 || res.Skipped != 1 {
		t.Errorf("%+v, %v; want 1 entry, 1 skipped, no cut", res, err)
	}
}

// sitemaps.org: <loc> "must be less than 2,048 characters". 2,047 bytes are
// delivered, 2,048 skipped, in XML and text alike, whatever whitespace
// surrounds them.
func TestParseURLLength(t *testing.T) {
	url := func(n int) string { return "http://example.com/" + strings.Repeat("a", n-len("http://example.com/")) }
	pad := strings.Repeat(" ", 3000)
	for _, tc := range []struct {
		loc     string
		opts    Options
		deliver bool
	}{
		{url(2047), Options{}, true},
		{url(2048), Options{}, false},
		{pad + url(2047) + pad, Options{}, true},
		{pad + url(2048) + pad, Options{}, false},
		{url(2047) + pad + "a", Options{}, false}, // the padding is inside the value
		{url(100), Options{MaxURLLength: 100}, true},
		{url(101), Options{MaxURLLength: 100}, false},
		{url(9000), Options{MaxURLLength: 9000}, true},
	} {
		for name, doc := range map[string]string{
			"xml":  "<urlset><url><loc>" + tc.loc + "</loc></url></urlset>",
			"text": tc.loc + "\n",
		} {
			got, res, err := parseAll(t, []byte(doc), tc.opts)
			trimmed := strings.Trim(tc.loc, " ")
			switch {
			case err != nil:
				t.Errorf("%s, %d bytes: %v", name, len(trimmed), err)
			case tc.deliver && (len(got) != 1 || got[0].Loc != trimmed):
				t.Errorf("%s, %d bytes, %+v: not delivered (%+v)", name, len(trimmed), tc.opts, res)
			case !tc.deliver && (len(got) != 0 || res.Skipped != 1):
				t.Errorf("%s, %d bytes, %+v: delivered, want skipped", name, len(trimmed), tc.opts)
			}
		}
	}
}

// A text line far longer than the URL limit is read through, counted as
// skipped, and never held in memory.
func TestParseTextLongLineMemory(t *testing.T) {
	r := io.MultiReader(strings.NewReader("http://example.com/"), repeated(bytes.Repeat([]byte("a"), 1<<20), 20),
		strings.NewReader("\nhttp://example.com/next\n"))
	var got []Entry
	var res Result
	var err error
	alloc := allocated(func() {
		res, err = Parse(r, Options{}, func(e Entry) error { got = append(got, e); return nil })
	})
	if err != nil || res.Skipped != 1 || len(got) != 1 || got[0].Loc != "http://example.com/next" {
		t.Errorf("%+v, %v, %q; want the long line skipped, the next delivered", res, err, locs(got))
	}
	if alloc > 1<<20 {
		t.Errorf("allocated %d bytes for a 20 MiB line, want at most 1 MiB", alloc)
	}
}

func TestSizeString(t *testing.T) {
	for n, want := range map[int64]string{50 << 20: "50 MiB", 1 << 20: "1 MiB", 4096: "4 KiB", 1000: "1000 bytes", 0: "0 bytes", 1<<20 + 1: "1048577 bytes"} {
		if got := sizeString(n); got != want {
			t.Errorf("sizeString(%d) = %q, want %q", n, got, want)
		}
	}
}

// Zero and negative options mean the defaults.
func TestOptionsResolved(t *testing.T) {
	want := Options{MaxEntries: MaxEntries, MaxDecodedBytes: MaxDecodedBytes, MaxURLLength: MaxURLLength, MaxTokenBytes: MaxTokenBytes, MaxDepth: MaxDepth}
	for _, o := range []Options{{}, {MaxEntries: -1, MaxDecodedBytes: -1, MaxURLLength: -1, MaxTokenBytes: -1, MaxDepth: -1}} {
		if got := o.resolved(); got != want {
			t.Errorf("%+v.resolved() = %+v, want %+v", o, got, want)
		}
	}
	set := Options{MaxEntries: 1, MaxDecodedBytes: 2, MaxURLLength: 3, MaxTokenBytes: 4, MaxDepth: 5}
	if got := set.resolved(); got != set {
		t.Errorf("%+v.resolved() = %+v, want it unchanged", set, got)
	}
}

// In a document declared ISO-8859-1 the token limit counts the converted
// bytes the decoder holds (each byte over 0x7F becomes two), and stays exact
// however much converted text came before.
func TestParseTokenLimitLatin1(t *testing.T) {
	const max = 1024
	entry := func(highBytes int) string {
		return "<url><loc>http://example.com/" + strings.Repeat("\xe9", highBytes) + "</loc></url>"
	}
	head := `<?xml version="1.0" encoding="ISO-8859-1"?><urlset>`
	before := strings.Repeat(entry(400), 200) // 200 tokens of 819 converted bytes

	doc := head + before + entry(480) + "</urlset>" // 979 bytes converted: fits
	_, res, err := parseAll(t, []byte(doc), Options{MaxTokenBytes: max})
	if err != nil || res.Cut || res.Entries != 201 {
		t.Errorf("fitting token: %+v, %v; want 201 entries, no cut", res, err)
	}
	doc = head + before + entry(510) + "</urlset>" // 1039 bytes converted, 529 read
	_, res, err = parseAll(t, []byte(doc), Options{MaxTokenBytes: max})
	if err != nil || !res.Cut || res.CutReason != "1 KiB token" || res.Entries != 200 {
		t.Errorf("token over the limit once converted: %+v, %v; want 200 entries, cut", res, err)
	}
}

// Elements nested deeper than MaxDepth cut the document; the deepest
// sitemap extensions in use fit well within the default.
func TestParseDepthLimit(t *testing.T) {
	// A video entry, five levels deep at its deepest.
	video := `<urlset xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"><url><loc>http://example.com/v</loc>` +
		`<video:video><video:restriction relationship="allow">IE GB</video:restriction><video:price currency="EUR">1.99</video:price></video:video></url></urlset>`
	_, res, err := parseAll(t, []byte(video), Options{})
	if err != nil || res.Cut || res.Entries != 1 {
		t.Errorf("video sitemap: %+v, %v; want 1 entry, no cut", res, err)
	}
	_, res, err = parseAll(t, []byte(video), Options{MaxDepth: 3})
	if err != nil || !res.Cut || res.CutReason != "3 levels" || res.Entries != 0 {
		t.Errorf("MaxDepth 3: %+v, %v; want cut \"3 levels\" before the entry ends", res, err)
	}

	// 20 MiB of "<a>": cut at the default depth, with little allocated.
	r := io.MultiReader(strings.NewReader("<urlset><url><loc>http://example.com/</loc></url>"),
		repeated(bytes.Repeat([]byte("<a>"), 1<<20), 7))
	alloc := allocated(func() { res, err = Parse(r, Options{}, nil) })
	if err != nil || !res.Cut || res.CutReason != "32 levels" || res.Entries != 1 {
		t.Errorf("deep nesting: %+v, %v; want 1 entry, cut \"32 levels\"", res, err)
	}
	if alloc > 1<<20 {
		t.Errorf("allocated %d bytes for deep nesting, want at most 1 MiB", alloc)
	}
}

// Namespace declarations cost nothing that lasts: prefixes are compared as
// written, never resolved, so a document of nested elements each declaring
// tens of thousands of prefixes (which Decoder.Token would keep in a map
// until each element closed) is read with little live memory.
func TestParseNamespaceDeclarationsMemory(t *testing.T) {
	var doc bytes.Buffer
	doc.WriteString("<urlset><url><loc>http://example.com/</loc></url>")
	n := 0
	for range 30 {
		doc.WriteString("<a")
		start := doc.Len()
		for doc.Len()-start < 300_000 {
			fmt.Fprintf(&doc, ` xmlns:p%d="urn:%d"`, n, n)
			n++
		}
		doc.WriteString(">")
	}
	doc.WriteString(strings.Repeat("</a>", 30) + "</urlset>")

	r := newLiveHeap(bytes.NewReader(doc.Bytes()), 256<<10)
	_, res, err := parseReader(t, r, Options{})
	if err != nil || res.Cut || res.Entries != 1 {
		t.Errorf("%+v, %v; want 1 entry", res, err)
	}
	if r.max > 8<<20 {
		t.Errorf("live heap grew by %d bytes reading %d namespace declarations, want at most 8 MiB", r.max, n)
	}
	t.Logf("%d declarations in %d bytes; live heap grew by at most %d bytes", n, doc.Len(), r.max)
}
