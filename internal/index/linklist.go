package index

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

// isLinkList reports whether r is a fetched page shaped as a list of links (LinkShare at least
// LinkListShare) whose title and URL path hold none of the query's words (title and path are
// their masks, termForms.held): the query does not name it, so it is no answer but a way to one.
func isLinkList(r *Result, title, path uint64) bool {
	return !r.LinkOnly && r.LinkShare >= LinkListShare && title == 0 && path == 0
}
