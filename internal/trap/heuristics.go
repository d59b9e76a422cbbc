package trap

import (
	"fmt"
	"strings"
)

// Limits of the path heuristics.
const (
	// MaxSegmentRepeats is how often one path segment may occur in a path:
	// "/a/a/a" passes, "/a/a/a/a" is a trap (relative links that grow the
	// path, "/x/y/x/y/x/y/x/y" loops included).
	MaxSegmentRepeats = 3
	// MaxSegments is the most path segments a URL may have.
	MaxSegments = 64
	// MaxQueryLength is the longest query string, in bytes without the "?",
	// a URL may have: session and state blobs that grow with each link.
	MaxQueryLength = 1024
)

// Heuristic names a trap defence. Its string is what reasons and the export
// show.
type Heuristic string

const (
	// None: the URL passed every heuristic.
	None Heuristic = ""
	// RepeatedSegment: a path segment occurs more than MaxSegmentRepeats times.
	RepeatedSegment Heuristic = "repeated-segment"
	// TooManySegments: the path has more than MaxSegments segments.
	TooManySegments Heuristic = "too-many-segments"
	// LongQuery: the query string is longer than MaxQueryLength.
	LongQuery Heuristic = "long-query"
	// PageBudgetSpent: the origin has had its --max-pages-per-origin pages
	// (see PageBudget).
	PageBudgetSpent Heuristic = "page-budget"
)

// Verdict is what Check decided about one URL. The zero value passes.
type Verdict struct {
	// Heuristic is the defence that rejected the URL, or None.
	Heuristic Heuristic
	// Reason says why in one line for people, starting with "trap " and the
	// heuristic's name; empty when the URL passed.
	Reason string
}

// Rejected reports whether a heuristic rejected the URL.
func (v Verdict) Rejected() bool { return v.Heuristic != None }

// Check applies the path heuristics to a URL's path (from its first "/",
// percent-encoded as in the URL) and query (without the "?"). Segments are
// compared as they are written, so "/a/%61" has two different segments; the
// canonical form of urlnorm makes equal segments equal bytes. Empty segments
// ("//", a trailing "/") are counted for MaxSegments but not for repeats.
func Check(path, query string) Verdict {
	if len(query) > MaxQueryLength {
		return Verdict{LongQuery, fmt.Sprintf("trap %s: query string of %d bytes (more than %d)", LongQuery, len(query), MaxQueryLength)}
	}
	p := strings.TrimPrefix(path, "/")
	if n := strings.Count(p, "/") + 1; n > MaxSegments {
		return Verdict{TooManySegments, fmt.Sprintf("trap %s: %d path segments (more than %d)", TooManySegments, n, MaxSegments)}
	}
	seen := make(map[string]int)
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" {
			continue
		}
		seen[seg]++
		if seen[seg] > MaxSegmentRepeats {
			return Verdict{RepeatedSegment, fmt.Sprintf("trap %s: path segment %q occurs more than %d times", RepeatedSegment, shorten(seg), MaxSegmentRepeats)}
		}
	}
	return Verdict{}
}

// shorten keeps a reason readable when a segment is long.
func shorten(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
