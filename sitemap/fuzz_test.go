package sitemap

import (
	"bytes"
	"errors"
	"math"
	"net/url"
	"testing"
)

// FuzzParse checks that Parse never panics and keeps its contract on any
// input: Entries+Skipped within MaxEntries, every delivered entry valid as
// documented, every error classified (the input is in memory and the
// callback never fails, so only ErrMalformed and ErrNotSitemap can occur),
// and a cut never reported together with an error.
func FuzzParse(f *testing.F) {
	for _, seed := range [][]byte{
		[]byte(sampleURLSet),
		[]byte(sampleIndex),
		[]byte(sampleText),
		gz(f, []byte(sampleURLSet)),
		gz(f, []byte(sampleText)),
		[]byte("\ufeff\r\nhttp://a.example/\r\n\rhttp://b.example/ \n"),
		[]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>http://a.example/caf` + "\xe9" + `</loc></url></urlset>`),
		[]byte(`<sm:urlset xmlns:sm="x"><sm:url><sm:loc>http://a.example/?a=1&b=2</sm:loc><sm:priority>0.5</sm:priority></sm:url></sm:urlset>`),
		[]byte(`<!DOCTYPE html><html><body>no</body></html>`),
		[]byte(`<urlset><url><loc><![CDATA[http://a.example/]]></loc><lastmod>2005-01-01T10:00:00+01:00</lastmod></url><url><lo`),
		[]byte(`<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]><urlset><url><loc>&b;</loc></url></urlset>`),
		{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff},
		{},
	} {
		f.Add(seed, uint8(4))
	}
	f.Fuzz(func(t *testing.T, doc []byte, small uint8) {
		// Small limits half the time, so that every cut is reachable.
		opts := Options{}
		if small%2 == 1 {
			opts = Options{MaxEntries: int(small%8) + 1, MaxDecodedBytes: int64(small) * 8, MaxURLLength: int(small%64) + 1, MaxTokenBytes: int(small) + 1, MaxDepth: int(small%5) + 1}
		}
		limits := opts.resolved()
		var entries int
		var kinds []Kind
		res, err := Parse(bytes.NewReader(doc), opts, func(e Entry) error {
			entries++
			kinds = append(kinds, e.Kind)
			if len(e.Loc) > limits.MaxURLLength {
				t.Errorf("delivered %q, over MaxURLLength %d", e.Loc, limits.MaxURLLength)
			}
			u, perr := url.Parse(e.Loc)
			if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				t.Errorf("delivered %q, not an absolute http(s) URL", e.Loc)
			}
			if e.Priority != -1 && (e.Priority < 0 || e.Priority > 1 || math.IsNaN(e.Priority)) {
				t.Errorf("priority %v out of range", e.Priority)
			}
			return nil
		})
		for _, k := range kinds {
			if k != res.Kind || k == Unknown {
				t.Errorf("entry of kind %v in a document of kind %v", k, res.Kind)
			}
		}
		if res.Entries != entries {
			t.Errorf("Result.Entries %d, callback saw %d", res.Entries, entries)
		}
		if res.Entries+res.Skipped > limits.MaxEntries {
			t.Errorf("Entries+Skipped = %d > %d", res.Entries+res.Skipped, limits.MaxEntries)
		}
		if err != nil && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNotSitemap) {
			t.Errorf("unclassified error: %v", err)
		}
		if res.Cut && (err != nil || res.CutReason == "") {
			t.Errorf("cut %q together with error %v", res.CutReason, err)
		}
	})
}
