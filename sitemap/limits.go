package sitemap

import "fmt"

// Default limits. Each can be changed per call through [Options].
const (
	// MaxEntries is the default cap on the entries read from one document,
	// counting delivered and skipped entries alike. The sitemaps.org protocol
	// allows at most 50,000 URLs in one sitemap file and 50,000 sitemaps in
	// one index file. Counting skipped entries too keeps a file of a million
	// broken entries from being read to its end.
	MaxEntries = 50_000

	// MaxDecodedBytes is the default cap on the bytes read after
	// decompression: sitemaps.org allows 50 MiB (52,428,800 bytes)
	// uncompressed. For uncompressed input it is a cap on the input itself.
	MaxDecodedBytes = 50 << 20

	// MaxURLLength is the default cap, in bytes, on the length of a location
	// after trimming. sitemaps.org requires a <loc> to be "less than 2,048
	// characters", so 2,047 is the longest allowed. Counting bytes instead of
	// characters is exact for percent-encoded URLs (all ASCII) and stricter for
	// IRIs written with raw non-ASCII characters; it also bounds memory.
	MaxURLLength = 2047

	// MaxTokenBytes is the default cap on the bytes of one XML token: a run of
	// text, a tag with its attributes, a comment, a CDATA section. encoding/xml
	// keeps a whole token in memory, so without this cap one 50 MiB run of
	// whitespace would cost 50 MiB or more. No token of a real sitemap comes
	// near 1 MiB: the longest fields of the common extensions (video
	// descriptions, image captions) are a few kilobytes.
	MaxTokenBytes = 1 << 20

	// MaxDepth is the default cap on how deeply XML elements may nest.
	// encoding/xml keeps a record of every open element, so without it 50 MiB
	// of "<a>" would cost gigabytes. A sitemap needs three levels (urlset,
	// url, loc); the deepest extensions in use (video, PageMap) need five or
	// six.
	MaxDepth = 32
)

// maxValueLength caps the text kept for <lastmod>, <changefreq> and
// <priority>. It is a property of those formats (the longest W3C datetime,
// with nanoseconds, is 35 bytes), not a policy limit, so it is not an option:
// a longer value is invalid anyway and is reported as absent.
const maxValueLength = 64

// Options holds the limits of one [Parse] call. The zero value means every
// default; a zero or negative field means the default for that field. Limits
// may be raised above the protocol's values as well as lowered.
type Options struct {
	// MaxEntries caps delivered plus skipped entries (default [MaxEntries]).
	MaxEntries int
	// MaxDecodedBytes caps the bytes read after decompression (default
	// [MaxDecodedBytes]).
	MaxDecodedBytes int64
	// MaxURLLength caps the length in bytes of a location (default
	// [MaxURLLength]); a longer one is skipped.
	MaxURLLength int
	// MaxTokenBytes caps the bytes of one XML token (default
	// [MaxTokenBytes]). It does not apply to text sitemaps, whose lines are
	// never held longer than MaxURLLength.
	MaxTokenBytes int
	// MaxDepth caps the nesting of XML elements (default [MaxDepth]).
	MaxDepth int
}

// resolved returns o with every unset field replaced by its default.
func (o Options) resolved() Options {
	if o.MaxEntries <= 0 {
		o.MaxEntries = MaxEntries
	}
	if o.MaxDecodedBytes <= 0 {
		o.MaxDecodedBytes = MaxDecodedBytes
	}
	if o.MaxURLLength <= 0 {
		o.MaxURLLength = MaxURLLength
	}
	if o.MaxTokenBytes <= 0 {
		o.MaxTokenBytes = MaxTokenBytes
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = MaxDepth
	}
	return o
}

// sizeString formats a byte count for a cut reason: "50 MiB", "4 KiB" or
// "1000 bytes", whichever is exact.
func sizeString(n int64) string {
	switch {
	case n > 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n > 0 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
