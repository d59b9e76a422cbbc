package extract

// Defaults used where a field of [Options] is zero or negative.
const (
	// DefaultMaxTextBytes caps Document.Text: 1 MiB of collapsed text is
	// far more than any snippet or index needs from one page.
	DefaultMaxTextBytes = 1 << 20
	// DefaultMaxLinks caps the <a href> and <area href> elements considered
	// per document.
	DefaultMaxLinks = 5000
	// DefaultMaxAnchorBytes caps the anchor text of one link.
	DefaultMaxAnchorBytes = 500
	// DefaultMaxTitleBytes caps Document.Title. An unclosed <title> makes
	// the rest of the page its text, as it does in a browser.
	DefaultMaxTitleBytes = 1024
	// DefaultMaxMetas caps the <meta name=...> elements collected. It is
	// generous because a robots meta tag behind the cap would be missed.
	DefaultMaxMetas = 1000
	// DefaultMaxURLBytes caps an href and the URL it resolves to; longer
	// ones are skipped. 8 KiB is the request-line limit of common servers,
	// so a longer URL could not be fetched anyway.
	DefaultMaxURLBytes = 8192
	// DefaultMaxTokenBytes caps one token of the tokenizer: a tag with its
	// attributes, a comment, a run of text or the whole content of a
	// <script>. It bounds the tokenizer's buffer; extraction stops at a
	// longer token (the part of a text run read so far is kept). 4 MiB
	// leaves room for the large inline scripts of real pages.
	DefaultMaxTokenBytes = 4 << 20
	// DefaultMaxHeadingsBytes caps Document.Headings: the headings of a
	// long manual page, not a heading-styled page of text.
	DefaultMaxHeadingsBytes = 8 << 10
)

// ResolveFunc resolves one href found in a document against that
// document's base URL and returns the absolute URL it points to. An error
// means the link cannot be followed (a scheme the crawler does not fetch, a
// malformed reference); the link is then counted in Document.SkippedLinks.
// A ResolveFunc is used by one goroutine only.
type ResolveFunc func(href string) (string, error)

// Options configures [HTML] and [PlainText]. The zero value is valid and
// means every default. A cap set to zero or a negative value takes its
// default; to lift a cap, set it very large. Options is read, never
// modified or retained.
type Options struct {
	// MaxTextBytes caps Document.Text, in bytes of UTF-8
	// (default DefaultMaxTextBytes).
	MaxTextBytes int
	// MaxLinks caps the link elements considered; those that fail to
	// resolve count against it too, so len(Links)+SkippedLinks <= MaxLinks
	// (default DefaultMaxLinks).
	MaxLinks int
	// MaxAnchorBytes caps Link.Anchor (default DefaultMaxAnchorBytes).
	MaxAnchorBytes int
	// MaxTitleBytes caps Document.Title (default DefaultMaxTitleBytes).
	MaxTitleBytes int
	// MaxMetas caps Document.Metas (default DefaultMaxMetas).
	MaxMetas int
	// MaxURLBytes caps an href, and the URL it resolves to; a longer one
	// is skipped (default DefaultMaxURLBytes).
	MaxURLBytes int
	// MaxTokenBytes caps one token of the HTML tokenizer
	// (default DefaultMaxTokenBytes).
	MaxTokenBytes int
	// MaxHeadingsBytes caps Document.Headings
	// (default DefaultMaxHeadingsBytes).
	MaxHeadingsBytes int

	// NewResolver returns the ResolveFunc for the hrefs of a document
	// whose base URL is base. HTML calls it with the document URL (an
	// error there is HTML's error) and again with the URL of the first
	// <base href>, if the page has one that resolves. Nil means
	// [NetURLResolver]. It must be safe for concurrent use if HTML is
	// called concurrently with the same Options.
	//
	// The crawler plugs its WHATWG normaliser in here, so that links come
	// out in the form its frontier dedupes on, parsing the base once per
	// document:
	//
	//	opts.NewResolver = func(base string) (extract.ResolveFunc, error) {
	//		b, err := urlnorm.Parse(base)
	//		if err != nil {
	//			return nil, err
	//		}
	//		return func(href string) (string, error) {
	//			u, err := urlnorm.Resolve(b, href)
	//			if err != nil {
	//				return "", err
	//			}
	//			return u.String(), nil
	//		}, nil
	//	}
	NewResolver func(base string) (ResolveFunc, error)
	// Buffers, when not nil, lends HTML its buffers and takes them back grown (see Buffers):
	// Options holding one must not be used by two HTML calls at once. Nil: HTML allocates its
	// own.
	Buffers *Buffers
}

// limits is Options with every default applied.
type limits struct {
	text, links, anchor, title, metas, url, token, headings int
	newResolver                                             func(string) (ResolveFunc, error)
}

func (o *Options) limits() limits {
	l := limits{
		text:        orDefault(o.MaxTextBytes, DefaultMaxTextBytes),
		links:       orDefault(o.MaxLinks, DefaultMaxLinks),
		anchor:      orDefault(o.MaxAnchorBytes, DefaultMaxAnchorBytes),
		title:       orDefault(o.MaxTitleBytes, DefaultMaxTitleBytes),
		metas:       orDefault(o.MaxMetas, DefaultMaxMetas),
		url:         orDefault(o.MaxURLBytes, DefaultMaxURLBytes),
		token:       orDefault(o.MaxTokenBytes, DefaultMaxTokenBytes),
		headings:    orDefault(o.MaxHeadingsBytes, DefaultMaxHeadingsBytes),
		newResolver: o.NewResolver,
	}
	if l.newResolver == nil {
		l.newResolver = NetURLResolver
	}
	return l
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
