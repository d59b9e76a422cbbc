package robotstxt

// DefaultMaxBytes is how many octets of a body Parse reads by default, and
// the least it can be told to read: 500 KiB (docs/robots-rules.md rule 10,
// RFC 9309 §2.5).
const DefaultMaxBytes = 512000

// DefaultMaxNotes is how many notes Parse records by default. A body that is
// not robots.txt at all (an HTML page, binary junk) would otherwise produce
// one note per line.
const DefaultMaxNotes = 1000

// Option changes how Parse works. Options are applied in order.
type Option func(*config)

// config is what the options set; the zero value is not used, see
// newConfig.
type config struct {
	maxBytes int
	maxNotes int
}

func newConfig(opts []Option) config {
	c := config{maxBytes: DefaultMaxBytes, maxNotes: DefaultMaxNotes}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// MaxBytes makes Parse read at most n octets of the body. Values below
// DefaultMaxBytes are raised to it (rule 10: the limit is never below
// 500 KiB).
func MaxBytes(n int) Option {
	return func(c *config) { c.maxBytes = max(n, DefaultMaxBytes) }
}

// MaxNotes makes Parse record at most n notes, followed by one note of kind
// NoteTooManyNotes at the line of the first note left out, if any was.
// Negative values mean DefaultMaxNotes.
func MaxNotes(n int) Option {
	return func(c *config) {
		if n < 0 {
			n = DefaultMaxNotes
		}
		c.maxNotes = n
	}
}
