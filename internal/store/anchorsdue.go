package store

// AnchorsDue is the rule of Indexer.IndexPending's merges for anchor text (issue 26 part 2),
// decided here once for every store: an entry whose anchor text was written when it had at
// inlinks is rewritten when it has count: when the count has doubled or halved since, or reached
// 0, or the entry had none then. So over a whole crawl an entry's anchor text is written
// O(log inlinks) times, and is always within a factor of two of its inlinks.
func AnchorsDue(at, count int) bool {
	switch {
	case count == at:
		return false
	case at == 0 || count == 0:
		return true
	default:
		return count >= 2*at || 2*count <= at
	}
}
