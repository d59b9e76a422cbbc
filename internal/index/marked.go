package index

import "strings"

// SplitMarked splits snippet text whose matched words a store wrapped in open and close markers
// (characters that cannot occur in indexed text) into Spans. A missing close marker ends the
// match at the end of s.
func SplitMarked(s, open, close string) []Span {
	var out []Span
	for s != "" {
		i := strings.Index(s, open)
		if i < 0 {
			out = append(out, Span{Text: s})
			break
		}
		if i > 0 {
			out = append(out, Span{Text: s[:i]})
		}
		s = s[i+len(open):]
		j := strings.Index(s, close)
		if j < 0 {
			j = len(s)
		}
		out = append(out, Span{Text: s[:j], Match: true})
		s = strings.TrimPrefix(s[j:], close)
	}
	return out
}
