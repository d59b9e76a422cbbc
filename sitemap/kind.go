package sitemap

// Kind is the format of a sitemap document. The zero value, [Unknown], is
// the kind of a document whose format was never decided: empty input, or XML
// whose root element is not a sitemap's.
type Kind uint8

// The kinds of document Parse recognises.
const (
	Unknown Kind = iota // nothing recognised (empty input, or not a sitemap)
	URLSet              // XML <urlset>: entries are pages
	Index               // XML <sitemapindex>: entries are child sitemaps
	Text                // plain text, one URL per line: entries are pages
)

// String returns the kind's name as used in the protocol: "urlset",
// "sitemapindex", "text", or "unknown".
func (k Kind) String() string {
	switch k {
	case URLSet:
		return "urlset"
	case Index:
		return "sitemapindex"
	case Text:
		return "text"
	default:
		return "unknown"
	}
}
