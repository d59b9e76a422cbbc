package index

import "strings"

// LinkShare is the shape of a page that says where to go rather than what is there (a generated
// index, a site map, a tag cloud, issue 32): the bytes of the anchor text of its links over the
// bytes of its indexed text, at most 1 (a page whose text is all links, or whose links' text
// is more than its own, as when its table of contents is chrome); 0 for a page without links.
// anchorBytes counts each distinct link of the page once.
func LinkShare(anchorBytes, textBytes int) float64 {
	if anchorBytes <= 0 {
		return 0
	}
	if textBytes <= anchorBytes {
		return 1
	}
	return float64(anchorBytes) / float64(textBytes)
}

// SentenceEnds counts the sentence ends of a text: ". ", "? " and "! ".
func SentenceEnds(text string) int {
	return strings.Count(text, ". ") + strings.Count(text, "? ") + strings.Count(text, "! ")
}

// SentenceRate is the other half of the shape: a text's sentence ends (SentenceEnds) per 1000
// of its bytes; 0 for an empty text. A generated index (term, link, term, link) has none.
func SentenceRate(ends, textBytes int) float64 {
	if textBytes <= 0 {
		return 0
	}
	return float64(ends) * 1000 / float64(textBytes)
}

// LinkRate is a third measure of the shape: a page's distinct links (each target and anchor
// text once, as stores keep them) per 1000 bytes of its text; 0 for an empty text.
func LinkRate(links, textBytes int) float64 {
	if textBytes <= 0 {
		return 0
	}
	return float64(links) * 1000 / float64(textBytes)
}

// isLinkList reports whether r is a fetched page shaped as a list of links (LinkShare at least
// LinkListShare, or a LinkRate of at least LinkListLinkRate with a SentenceRate below
// LinkListSentenceRate: entries that are a term and links) whose title and URL path hold none of
// the query's words (title and path are their masks, termForms.held): the query does not name
// it, so it is no answer but a way to one.
func isLinkList(r *Result, title, path uint64) bool {
	shaped := r.LinkShare >= LinkListShare ||
		r.LinkRate >= LinkListLinkRate && r.SentenceRate < LinkListSentenceRate
	return !r.LinkOnly && shaped && title == 0 && path == 0
}
